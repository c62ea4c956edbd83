// The organizer's decisions on the worker review page in Chromium: after the demo's adequacy HIT
// has been answered by an attentive annotator and a random Prolific worker (through the
// annotation server functions), the organizer approves one worker, is refused a rejection
// without a reason, rejects the other with a reason, grants a bonus; after a reload the page
// shows the decisions, and the decisions.csv download holds them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  startServer, launchBrowser, openHydrated, waitHydrated, DEMO, signIn, call, ok, answerDemoAdequacyHit,
} from './harness.js';

let server;
let browser;
let campaignId;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  campaignId = await answerDemoAdequacyHit(server, browser);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// Chooses a worker's row, fills the decision panel and records the decision.
async function decide(page, row, decision, reason = '', amount = '') {
  await page.locator(`${row} button.review-worker`).click();
  const worker = await page.locator(row).getAttribute('data-worker');
  await page.waitForFunction((w) => document.querySelector('#decision-worker')?.innerText === w, worker, { timeout: 10_000 });
  await page.selectOption('#decision-action', decision);
  await page.fill('#decision-reason', reason);
  if (decision === 'bonus') await page.fill('#decision-amount', amount);
  await page.click('#decide');
  return worker;
}

async function waitForText(page, selector, pattern) {
  await page.waitForFunction(([s, p]) => new RegExp(p).test(document.querySelector(s)?.innerText ?? ''), [selector, pattern.source], { timeout: 15_000 });
}

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

test('the designer offers the quality gate, with the policy for too few pairs only when the gate is on', async () => {
  const page = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/new`);
  await waitHydrated(page);
  await page.waitForSelector('#gate', { timeout: 30_000 });
  assert.equal(await page.locator('#gate').inputValue(), 'off');
  assert.equal(await page.locator('#gate-unsure').isDisabled(), true);
  await page.selectOption('#gate', 'require-pass');
  await page.waitForFunction(() => !document.querySelector('#gate-unsure').disabled, null, { timeout: 10_000 });
  await page.selectOption('#gate-unsure', 'hold');
  assert.equal(await page.locator('#gate-unsure').inputValue(), 'hold');
  assert.equal(await page.locator('#currency').inputValue(), 'USD');
  assert.deepEqual(page.assayErrors, []);
});
