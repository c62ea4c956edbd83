// The organizer's decisions on the worker review page in Chromium: after the demo's adequacy HIT
// has been answered by an attentive annotator and a random Prolific worker (through the
// annotation server functions), the organizer decides about everyone who passed at once (after a
// confirmation that names the number), then decides in place, on each worker's row: approves
// one worker, is refused a rejection without a reason, rejects the other with a reason, grants a
// bonus; after a reload the page shows the decisions, and the decisions.csv download holds them.
// The page fits a 1,280 px window and a 390 px phone without sideways scrolling.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import {
  startServer, launchBrowser, openHydrated, waitHydrated, DEMO, signIn, call, ok, answerDemoAdequacyHit, axeViolations,
} from './harness.js';

let server;
let browser;
let campaignId;
const SHOTS = process.env.ASSAY_SCREENSHOTS; // a folder: screenshots of the review page, for review

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  campaignId = await answerDemoAdequacyHit(server, browser);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// Opens the decision editor on a worker's row (unless it is open there), fills it and records
// the decision.
async function decide(page, row, decision, reason = '', amount = '') {
  const button = page.locator(`${row} button.review-worker`);
  if (await button.getAttribute('aria-expanded') !== 'true') await button.click();
  const worker = await page.locator(row).getAttribute('data-worker');
  await page.waitForFunction((w) => document.querySelector('#decision-worker')?.innerText === w, worker, { timeout: 10_000 });
  // In place: the editor is the row right under the worker's.
  assert.equal(await page.evaluate(() => document.querySelector('#decision-worker').closest('tr').previousElementSibling?.dataset.worker), worker);
  await page.selectOption('#decision-action', decision);
  await page.fill('#decision-reason', reason);
  if (decision === 'bonus') await page.fill('#decision-amount', amount);
  await page.click('#decide');
  return worker;
}

async function waitForText(page, selector, pattern) {
  await page.waitForFunction(([s, p]) => new RegExp(p).test(document.querySelector(s)?.innerText ?? ''), [selector, pattern.source], { timeout: 15_000 });
}

// Whether the page scrolls sideways, and whether the table sticks out of its card.
async function fits(page) {
  return page.evaluate(() => {
    const card = document.querySelector('#workers').getBoundingClientRect();
    const table = document.querySelector('#worker-table').getBoundingClientRect();
    const scroller = document.querySelector('#worker-table').parentElement;
    return {
      page: document.documentElement.scrollWidth <= window.innerWidth + 1,
      // Inside the card, and whole: its region does not scroll sideways either.
      table: table.right <= card.right + 1 && scroller.scrollWidth <= scroller.clientWidth + 1,
      width: document.documentElement.scrollWidth,
    };
  });
}

test('bulk decisions: approve everyone who passed after a confirmation that names the number; Escape cancels; done once', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await openHydrated(context, `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/${campaignId}/workers`);
  await waitHydrated(page);
  await page.waitForSelector('#worker-table tr.worker-row', { timeout: 30_000 });
  // The heading comes first, then the controls; nothing of the table sticks out of the card.
  assert.equal(await page.evaluate(() => document.querySelector('#workers').firstElementChild.tagName), 'H1');
  assert.deepEqual(await fits(page), { page: true, table: true, width: await page.evaluate(() => document.documentElement.scrollWidth) });
  await shot(page, 'workers-1280');
  assert.deepEqual(await axeViolations(page), [], 'axe-core: no serious or critical violation (review page, 1280 px)');
  await page.waitForSelector('#bulk-approve[data-count="1"]', { timeout: 15_000 });
  const passed = await page.locator('#worker-table tr[data-verdict="pass"]').getAttribute('data-worker');
  assert.match(await page.locator('#bulk-approve').innerText(), /Approve all who passed \(1\)/);
  // Asked, then cancelled with Escape: nothing is done, the focus goes back to the button.
  await page.focus('#bulk-approve');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#bulk-confirm[role="alertdialog"]', { timeout: 10_000 });
  assert.match(await page.locator('#bulk-question').innerText(), /Approve 1 worker\(s\) who passed\?/);
  assert.deepEqual(await axeViolations(page), [], 'axe-core: the confirmation');
  await page.waitForFunction(() => document.activeElement?.id === 'bulk-confirm-yes', null, { timeout: 5_000 });
  await page.keyboard.press('Escape');
  await page.waitForSelector('#bulk-confirm', { state: 'detached', timeout: 10_000 });
  await page.waitForFunction(() => document.activeElement?.id === 'bulk-approve', null, { timeout: 5_000 });
  assert.equal(await page.locator(`#worker-table tr[data-worker="${passed}"]`).getAttribute('data-standing'), '');
  // Rejecting all who failed needs the one reason first.
  if (await page.locator('#bulk-reject').isEnabled()) {
    await page.click('#bulk-reject');
    await page.waitForSelector('#bulk-error', { timeout: 10_000 });
    assert.match(await page.locator('#bulk-error').innerText(), /Give a reason for the rejections/);
    assert.equal(await page.locator('#bulk-confirm').count(), 0);
    // The focus goes to the reason (on the next frame): wait for it, or it could move there
    // after the focus below and take the Enter meant for the approve button (seen once in a
    // full run on a loaded machine).
    await page.waitForFunction(() => document.activeElement?.id === 'bulk-reason', null, { timeout: 5_000 });
  }
  // Asked and confirmed by keyboard.
  await page.focus('#bulk-approve');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'bulk-confirm-yes', null, { timeout: 10_000 });
  await page.keyboard.press('Enter');
  await waitForText(page, '#bulk-done', /Approved 1 worker\(s\) who passed\./);
  assert.equal(await page.locator('[aria-live="polite"] #bulk-done').count(), 1, 'announced');
  await page.waitForSelector(`#worker-table tr[data-worker="${passed}"][data-standing="approve"]`, { timeout: 15_000 });
  await page.waitForSelector('#bulk-approve[data-count="0"]:disabled', { timeout: 15_000 });
  assert.equal(await page.locator(`#worker-table tr[data-worker="${passed}"] li[data-decision="approve"]`).count(), 1);
  // The Mechanical Turk batch file downloads (the demo's crowd is on Prolific: the header only).
  const [batch] = await Promise.all([page.waitForEvent('download'), page.click('#mturk-csv')]);
  assert.equal(readFileSync(await batch.path(), 'utf8').trim(), 'HITId,AssignmentId,WorkerId,Approve,Reject');
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('an organizer approves, rejects with a reason and grants a bonus; the page and the CSV keep them', async () => {
  const page = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/${campaignId}/workers`);
  await waitHydrated(page);
  await page.waitForSelector('#worker-table tr.worker-row', { timeout: 30_000 });
  assert.equal(await page.locator('#worker-table tr.worker-row').count(), 2);
  // The verdicts computed when each HIT was finished are there (the demo's gate is off).
  assert.equal(await page.locator('#worker-table tr[data-gate="pass"]').count(), 1);
  assert.match(await page.locator('#gate-setting').innerText(), /off/);

  const good = '#worker-table tr[data-verdict="pass"]';
  const bad = '#worker-table tr.worker-row:not([data-verdict="pass"])';
  const goodWorker = await decide(page, good, 'approve');
  await waitForText(page, '#decision-done', /Approved/);

  // A rejection without a reason is refused and changes nothing.
  const badWorker = await decide(page, bad, 'reject', '');
  await waitForText(page, '#decision-error', /give a reason/);
  await decide(page, bad, 'reject', 'Random clicking: the scores do not follow the texts');
  await waitForText(page, '#decision-done', /Rejected/);
  await decide(page, good, 'bonus', 'Careful work', '2.25');
  await waitForText(page, '#decision-done', /2\.25 USD/);

  await page.reload();
  await waitHydrated(page);
  await page.waitForSelector(`${good}[data-standing="approve"]`, { timeout: 30_000 });
  await page.waitForSelector(`${bad}[data-standing="reject"]`, { timeout: 30_000 });
  // The history of decisions opens under the standing.
  await page.locator(`${good} details.decision-history-box summary`).click();
  await page.locator(`${bad} details.decision-history-box summary`).click();
  const goodText = await page.locator(good).innerText();
  assert.match(goodText, /approved/);
  assert.match(goodText, /bonus 2\.25 USD/);
  assert.match(goodText, /Careful work/);
  assert.match(goodText, new RegExp(DEMO.organizer.email.replace('.', '\\.')));
  assert.match(await page.locator(bad).innerText(), /Random clicking: the scores do not follow the texts/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#decisions-csv')]);
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'worker,platform,platform_worker_id,assignment_ids,decision,reason,bonus_amount,currency,decided_by,decided_at');
  const rows = csv.slice(1).map((l) => l.split(','));
  const of = (w, d) => rows.find((r) => r[0] === w && r[4] === d);
  assert.ok(of(goodWorker, 'approve'), csv.join('\n'));
  const bonus = of(goodWorker, 'bonus');
  assert.deepEqual([bonus[5], bonus[6], bonus[7], bonus[8]], ['Careful work', '2.25', 'USD', DEMO.organizer.email]);
  const reject = of(badWorker, 'reject');
  assert.ok(reject, csv.join('\n'));
  assert.equal(reject[1], 'prolific');
  assert.match(csv.join('\n'), /"Random clicking: the scores do not follow the texts"|Random clicking: the scores do not follow the texts/);
  assert.deepEqual(page.assayErrors, []);
});

test('the review page: verdict chips with counts, search, sortable headings and pages, by keyboard, kept in the URL and by the live refresh', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await openHydrated(context, `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const base = `${server.base}/campaigns/${campaignId}/workers`;
  await page.goto(base);
  await waitHydrated(page);
  await page.waitForSelector('#worker-table tr.worker-row', { timeout: 30_000 });
  const rows = () => page.locator('#worker-table tr.worker-row').count();
  const summary = () => page.locator('#workers-summary').innerText();
  assert.equal(await rows(), 2);
  assert.equal(await summary(), 'Rows 1–2 of 2.');
  // The counts are a live region; the chips count the whole campaign.
  assert.equal(await page.locator('[aria-live="polite"] #workers-summary').count(), 1);
  assert.equal(await page.locator('#verdict-chips button.chip[data-verdict="all"]').innerText(), 'all (2)');
  assert.equal(await page.locator('#verdict-chips button.chip[data-verdict="pass"]').innerText(), 'pass (1)');
  const chipCounts = await page.locator('#verdict-chips button.chip').evaluateAll((bs) => bs.map((b) => Number(b.dataset.count)));
  assert.equal(chipCounts[1] + chipCounts[2] + chipCounts[3], 2, `pass + fail + not enough evidence = all: ${chipCounts}`);
  assert.match(await page.locator('#verdict-counts').innerText(), /pass 1,/);
  // No horizontal scroll of the page at 1,280 px: the wide table scrolls in its own region.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));

  const good = await page.locator('#worker-table tr[data-verdict="pass"]').getAttribute('data-worker');
  const other = await page.locator('#worker-table tr.worker-row:not([data-verdict="pass"])').getAttribute('data-worker');

  // Search by keyboard: part of the id, in the other case; Enter submits.
  await page.focus('#worker-search');
  await page.keyboard.type(good.split(':')[1].slice(0, 6).toUpperCase());
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#worker-table tr.worker-row').length === 1, null, { timeout: 15_000 });
  assert.equal(await page.locator('#worker-table tr.worker-row').getAttribute('data-worker'), good);
  assert.equal(await summary(), 'Rows 1–1 of 1 matching (2 in all).');
  assert.match(page.url(), /[?&]search=/);
  assert.equal(await page.locator('#verdict-chips button.chip[data-verdict="all"]').innerText(), 'all (2)', 'the counts stay the campaign\'s');
  // Clear the search: Tab from the Search button reaches "Clear search".
  await page.focus('#worker-search-go');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'worker-search-clear');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#worker-table tr.worker-row').length === 2, null, { timeout: 15_000 });

  // A verdict chip, pressed with the space bar: only that verdict's rows, in the URL.
  const passChip = '#verdict-chips button.chip[data-verdict="pass"]';
  await page.focus(passChip);
  await page.keyboard.press('Space');
  await page.waitForSelector(`${passChip}[aria-pressed="true"]`, { timeout: 15_000 });
  assert.equal(await rows(), 1);
  assert.equal(await page.locator('#worker-table tr.worker-row').getAttribute('data-worker'), good);
  assert.match(page.url(), /verdict=pass/);
  // Reload keeps it; Back returns to every row.
  await page.reload();
  await waitHydrated(page);
  await page.waitForSelector(`${passChip}[aria-pressed="true"]`, { timeout: 30_000 });
  assert.equal(await rows(), 1);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('#worker-table tr.worker-row').length === 2, null, { timeout: 15_000 });
  assert.equal(await page.locator(passChip).getAttribute('aria-pressed'), 'false');

  // Sortable headings: buttons whose heading says the order.
  const pHeading = '#worker-table th:has(button.sort[data-sort="p"])';
  assert.equal(await page.locator(pHeading).getAttribute('aria-sort'), 'none');
  assert.equal(await page.locator('#worker-table th:has(button.sort[data-sort="worker"])').getAttribute('aria-sort'), 'ascending');
  await page.focus(`${pHeading} button`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${pHeading}[aria-sort="ascending"]`, { timeout: 15_000 });
  const pOrder = () => page.locator('#worker-table tr.worker-row').evaluateAll((rs) => rs.map((r) => (r.dataset.p === '' ? Infinity : Number(r.dataset.p))));
  let ps = await pOrder();
  assert.ok(ps[0] <= ps[1], `ascending p: ${ps}`);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.sort), 'p', 'the heading keeps the focus');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${pHeading}[aria-sort="descending"]`, { timeout: 15_000 });
  ps = await pOrder();
  if (ps.every(Number.isFinite)) assert.ok(ps[0] >= ps[1], `descending p: ${ps}`);
  assert.match(page.url(), /sort=p&order=desc|order=desc.*sort=p/);

  // Pages of one row: the pager, by keyboard; the live refresh keeps the page.
  await page.goto(`${base}?per_page=1`);
  await waitHydrated(page);
  await page.waitForSelector('#page-of[data-pages="2"]', { timeout: 30_000 });
  assert.equal(await summary(), 'Rows 1–1 of 2.');
  assert.equal(await page.locator('#page-prev').isDisabled(), true);
  const firstRow = await page.locator('#worker-table tr.worker-row').getAttribute('data-worker');
  await page.focus('#page-next');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#page-of[data-page="2"]', { timeout: 15_000 });
  assert.equal(await summary(), 'Rows 2–2 of 2.');
  assert.match(page.url(), /page=2/);
  assert.equal(await page.locator('#page-next').isDisabled(), true);
  const secondRow = await page.locator('#worker-table tr.worker-row').getAttribute('data-worker');
  assert.deepEqual([firstRow, secondRow].sort(), [good, other].sort());
  await page.waitForResponse((r) => r.url().includes('campaign_workers'), { timeout: 15_000 });
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#page-of').getAttribute('data-page'), '2', 'the refresh keeps the page');
  assert.equal(await page.locator('#worker-table tr.worker-row').getAttribute('data-worker'), secondRow);
  await page.focus('#page-prev');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#page-of[data-page="1"]', { timeout: 15_000 });
  // The decision editor opens in place on a row of a page, takes the focus, pauses the live
  // refresh, and Escape closes it, giving the focus back to the row's button.
  const open = page.locator('#worker-table tr.worker-row button.review-worker');
  await open.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((w) => document.querySelector('#decision-worker')?.innerText === w, firstRow, { timeout: 10_000 });
  assert.equal(await open.getAttribute('aria-expanded'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'decision-action');
  await page.keyboard.press('Tab');
  await page.keyboard.type('typed before a refresh');
  await page.waitForTimeout(6_000);
  assert.equal(await page.inputValue('#decision-reason'), 'typed before a refresh', 'the refresh waits while the editor is open');
  assert.deepEqual(await fits(page), { page: true, table: true, width: await page.evaluate(() => document.documentElement.scrollWidth) });
  await shot(page, 'workers-1280-editor');
  assert.deepEqual(await axeViolations(page), [], 'axe-core: the decision editor open (1280 px)');
  await page.keyboard.press('Escape');
  await page.waitForSelector('tr.decide-row', { state: 'detached', timeout: 10_000 });
  assert.equal(await open.getAttribute('aria-expanded'), 'false');
  await page.waitForFunction(() => document.activeElement?.classList.contains('review-worker'), null, { timeout: 5_000 });

  // The flag filter: rows without flags, then with; in the URL; the counts say how many.
  await page.goto(base);
  await waitHydrated(page);
  await page.waitForSelector('#flag-counts', { timeout: 30_000 });
  const flagged = Number(await page.locator('#flag-counts').getAttribute('data-any'));
  const unflagged = Number(await page.locator('#flag-counts').getAttribute('data-none'));
  assert.equal(flagged + unflagged, 2);
  await page.selectOption('#flag-filter', 'none');
  await page.waitForFunction(() => /[?&]flag=none/.test(location.search), null, { timeout: 15_000 });
  await page.waitForFunction((n) => document.querySelectorAll('#worker-table tr.worker-row').length === n, unflagged, { timeout: 15_000 });
  assert.ok(await page.locator('#worker-table tr.worker-row').evaluateAll((rs) => rs.every((r) => r.querySelector('td.flags').dataset.flags === '0')));
  await page.selectOption('#flag-filter', 'any');
  await page.waitForFunction((n) => document.querySelectorAll('#worker-table tr.worker-row').length === n, flagged, { timeout: 15_000 });
  assert.ok(await page.locator('#worker-table tr.worker-row').evaluateAll((rs) => rs.every((r) => r.querySelector('td.flags').dataset.flags !== '0')));
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('the review page on a phone: sorting from a menu, labelled cells, no sideways scrolling', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await openHydrated(context, `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/${campaignId}/workers`);
  await waitHydrated(page);
  await page.waitForSelector('#worker-table tr.worker-row', { timeout: 30_000 });
  assert.ok(await page.locator('#sort-narrow').isVisible());
  assert.ok(await page.locator('#verdict-chips button.chip[data-verdict="pass"]').isVisible());
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling');
  await page.selectOption('#sort-narrow', 'verdict:desc');
  await page.waitForFunction(() => /sort=verdict/.test(location.search) && /order=desc/.test(location.search), null, { timeout: 15_000 });
  await page.waitForSelector('#worker-table tr.worker-row:first-child[data-verdict="pass"]', { timeout: 15_000 });
  assert.ok(await page.locator('#bulk-approve').isVisible());
  await shot(page, 'workers-390');
  // Deciding in place on a phone: the editor opens under the row, and nothing scrolls sideways.
  await page.locator('#worker-table tr.worker-row:first-child button.review-worker').tap();
  await page.waitForSelector('#decision-action', { timeout: 10_000 });
  assert.ok(await page.locator('#decide').isVisible());
  assert.deepEqual(await fits(page), { page: true, table: true, width: 390 });
  await shot(page, 'workers-390-editor');
  assert.deepEqual(await axeViolations(page), [], 'axe-core: the review page with its editor on a phone');
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('the designer offers the quality gate, and holding workers with too few pairs only when the gate is on', async () => {
  const page = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/new`);
  await waitHydrated(page);
  await page.waitForSelector('#gate', { timeout: 30_000 });
  assert.equal(await page.locator('#gate').inputValue(), 'off');
  // Workers the reliability test cannot judge are kept by default (nothing paid for is lost);
  // holding their code needs the gate.
  assert.equal(await page.locator('#thin-evidence').inputValue(), 'keep');
  const holdDisabled = () => page.evaluate(() => document.querySelector('#thin-evidence option[value="hold"]').disabled);
  assert.equal(await holdDisabled(), true);
  await page.selectOption('#gate', 'require-pass');
  await page.waitForFunction(() => !document.querySelector('#thin-evidence option[value="hold"]').disabled, null, { timeout: 10_000 });
  await page.selectOption('#thin-evidence', 'hold');
  assert.equal(await page.locator('#thin-evidence').inputValue(), 'hold');
  assert.equal(await page.locator('#currency').inputValue(), 'USD');
  assert.deepEqual(page.assayErrors, []);
});
