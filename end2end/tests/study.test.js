// A comparison across years in Chromium: an organizer imports an old and a new test set (a
// benchmark system translates both), designs the study in the browser and launches it; a
// simulated crowd of known behaviour (new best system +8 points, new test set 10 points harder)
// completes the HITs through the crowd link and the annotators' endpoints; the study page shows
// the calibrated gains with intervals and the time-line plot, and the history page the links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, DEMO } from './harness.js';

const env = serverAndBrowser();

const WORDS = ['the', 'house', 'river', 'green', 'quickly', 'children', 'morning', 'bridge', 'music', 'light',
  'stone', 'garden', 'letter', 'window', 'storm', 'mountain', 'city', 'quiet', 'bread', 'winter'];
// Sentences end with the test set's tag word, so the simulated crowd can tell the sets apart.
const sentence = (i, salt, tag) => {
  const n = 6 + ((i * 7 + salt * 3) % 9);
  return Array.from({ length: n }, (_, j) => WORDS[(i * 5 + j * 11 + salt * 13 + j * j) % WORDS.length]).join(' ') + ` ${tag}.`;
};

function tsv(systems, tag) {
  const rows = ['segment_id\tsource\treference\tsystem\toutput'];
  for (let i = 1; i <= 40; i++) {
    for (const [k, sys] of systems.entries()) {
      rows.push(`${i}\t${sentence(i, 0, tag)}\t${sentence(i, 1, tag)}\t${sys}\t${sentence(i, 2 + k, tag)}`);
    }
  }
  return Buffer.from(rows.join('\n') + '\n');
}

async function signIn(page, who) {
  await page.fill('input[name="email"]', who.email);
  await page.fill('input[name="password"]', who.password);
  await page.click('#login-form button[type="submit"]');
  await page.waitForSelector('section[data-role]', { timeout: 15_000 });
}

async function call(page, name, fields = {}) {
  return page.evaluate(async ([name, fields]) => {
    const r = await fetch(`/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
    return { status: r.status, body: await r.text() };
  }, [name, fields]);
}

async function ok(page, name, fields) {
  const r = await call(page, name, fields);
  assert.equal(r.status, 200, `${name}: ${r.body}`);
  return JSON.parse(r.body);
}

async function importSet(page, name, systems, tag) {
  await page.goto(`${env.server.base}/import`);
  await page.fill('input[name="test_set_name"]', name);
  await page.fill('input[name="pair"]', 'en-de');
  await page.setInputFiles('input[name="file"]', { name: `${name}.tsv`, mimeType: 'text/tab-separated-values', buffer: tsv(systems, tag) });
  await page.click('#import-form button[type="submit"]');
  await page.waitForSelector('#import-done', { timeout: 15_000 });
}

// Selects the option whose label starts with `label` once it is offered.
async function choose(page, selector, label) {
  await page.waitForFunction(([s, l]) => [...(document.querySelector(s)?.options ?? [])].some((o) => o.textContent.startsWith(l)),
    [selector, label], { timeout: 15_000 });
  const value = await page.$eval(selector, (el, l) => [...el.options].find((o) => o.textContent.startsWith(l)).value, label);
  await page.selectOption(selector, value);
}

// The truth of the simulated crowd: mean raw score of (system, test set).
const QUALITY = { 'Old07 old': 50, 'Bench old': 62, 'New12 new': 48, 'Bench new': 52 };

test('an organizer sets up a calibrated comparison, a crowd completes it, the study page shows the gains', async () => {
  const context = await env.browser.newContext();
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.organizer);
  await importSet(page, 'wmt07-e2e', ['Old07', 'Bench'], 'yesterday');
  await importSet(page, 'wmt12-e2e', ['New12', 'Bench'], 'tomorrow');

  // The designer: one language pair, adequacy, small HITs.
  const designer = await openHydrated(context, `${env.server.base}/studies/new`);
  await designer.fill('#study-name', 'E2E 2007 vs 2012');
  await choose(designer, '#old-set-0', 'wmt07-e2e');
  await choose(designer, '#best-old-0', 'Old07');
  await choose(designer, '#new-set-0', 'wmt12-e2e');
  await choose(designer, '#best-new-0', 'New12');
  // Only a system with outputs for both test sets is offered as the benchmark.
  const offered = await designer.$$eval('#benchmark-0 option', (os) => os.map((o) => o.textContent).filter((t) => !t.startsWith('—')));
  assert.deepEqual(offered.map((t) => t.split(' ')[0]), ['Bench']);
  await choose(designer, '#benchmark-0', 'Bench');
  // Each test set's reference is chosen on its own (issue 18 item 8): first by name, or one it has.
  for (const which of ['old', 'new']) {
    const refs = await designer.$$eval(`#${which}-reference-0 option`, (os) => os.map((o) => o.value));
    assert.equal(refs[0], '', 'first by name is the default');
    assert.ok(refs.length >= 2, `the ${which} test set's references are offered: ${refs}`);
    assert.match(await designer.textContent(`#${which}-reference-0-help`), /shown beside each output/);
  }
  await designer.selectOption('#new-reference-0', (await designer.$$eval('#new-reference-0 option', (os) => os.map((o) => o.value)))[1]);
  for (const [id, v] of [['#hit-length', '30'], ['#bad-refs', '5'], ['#repeats', '2'], ['#refs', '3'], ['#sets', '2'], ['#judgments-wanted', '20'], ['#redundancy', '1']]) {
    await designer.fill(id, v);
  }
  await designer.waitForFunction(() => /da-adequacy · en-de: 4 HITs/.test(document.querySelector('#study-arms')?.textContent ?? ''), null, { timeout: 15_000 });
  await designer.click('#create-study');
  await designer.waitForURL(/\/studies\/\d+$/, { timeout: 15_000 });
  const studyId = designer.url().match(/\/studies\/(\d+)$/)[1];
  await designer.waitForSelector('#launch-study', { timeout: 30_000 });
  await designer.click('#launch-study');
  await designer.waitForSelector('#launch-done', { timeout: 30_000 });
  assert.match(await designer.textContent('#launch-done'), /4 HITs/);

  // The crowd: four workers through the crowd link, each scoring by the truth plus noise.
  const view = await ok(designer, 'study_results', { study_id: studyId });
  const campaignId = view.study.arms[0].campaign_id;
  const progress = await ok(designer, 'campaign_progress', { campaign_id: String(campaignId) });
  const crowdPage = await openHydrated(await env.browser.newContext(), `${env.server.base}/`);
  for (let w = 1; w <= 4; w++) {
    const r = await fetch(`${progress.crowd_link}&worker=E2E-${w}`, { redirect: 'manual' });
    assert.equal(r.status, 303);
    const assignment = r.headers.get('location').replace('/work/', '');
    const facts = new Map((await ok(designer, 'assignment_items', { assignment })).map((i) => [i.position, i]));
    let step = await ok(crowdPage, 'start_work', { assignment });
    while (step.item) {
      const { position, candidate } = step.item;
      const f = facts.get(position);
      const noise = ((position * 37 + w * 11) % 13) - 6;
      const set = candidate.includes('tomorrow') ? 'new' : 'old';
      const score = f.item_type === 'BAD_REF' ? 10 + noise : f.item_type === 'REF' ? 90 + noise : QUALITY[`${f.system} ${set}`] + noise;
      step = await ok(crowdPage, 'submit_judgment', { assignment, position: String(position), score: String(score), time_on_screen_ms: '4000', key: `k${position}` });
    }
    assert.ok(step.completion, 'the HIT is complete');
  }

  // The study page: gains with intervals (raw and z), the mean over pairs, the time line.
  const reader = await openHydrated(await env.browser.newContext(), `${env.server.base}/login`);
  await signIn(reader, DEMO.researcher);
  await reader.goto(`${env.server.base}/studies/${studyId}`);
  await waitHydrated(reader);
  await reader.waitForSelector('#raw-da-adequacy tr.gain-row', { timeout: 30_000 });
  assert.equal(await reader.locator('#raw-da-adequacy tr.gain-row').count(), 2, 'en-de and the mean');
  assert.equal(await reader.locator('#z-da-adequacy tr.gain-row').count(), 2);
  const gain = Number(await reader.locator('#raw-da-adequacy tr[data-pair="en-de"] .gain-value').innerText());
  const ci = (await reader.locator('#raw-da-adequacy tr[data-pair="en-de"] .gain-ci').innerText()).match(/\[(-?[\d.]+), (-?[\d.]+)\]/);
  assert.ok(ci, 'the gain has an interval');
  const [lo, hi] = [Number(ci[1]), Number(ci[2])];
  assert.ok(lo <= gain && gain <= hi, `${gain} in [${lo}, ${hi}]`);
  assert.ok(lo <= 8 && 8 <= hi, `the true gain +8 is in [${lo}, ${hi}]`);
  const difference = await reader.locator('#raw-da-adequacy tr[data-pair="en-de"] td.difference').innerText();
  assert.match(difference, /^-\d/, `the uncalibrated difference is negative: ${difference}`);
  // The time line: BEST and the benchmark, old → new, each point with its interval, labelled axes.
  const svg = reader.locator('#gains-da-adequacy svg.timeline');
  assert.equal(await svg.count(), 1);
  assert.equal(await svg.locator('.point').count(), 4);
  assert.equal(await svg.locator('line.ci').count(), 4);
  assert.equal(await svg.locator('polyline.series-line').count(), 2);
  assert.match(await svg.locator('text.axis-label').first().textContent(), /mean raw score \(0–100\)/);
  assert.match(await svg.textContent(), /wmt07-e2e/);
  assert.match(await svg.textContent(), /benchmark Bench/);
  assert.match(await reader.getAttribute('#study-export', 'href'), new RegExp(`/studies/${studyId}/export$`));
  assert.deepEqual(reader.assayErrors ?? [], []);

  // The history page: the study's campaign on the time line, and why it is calibrated.
  await reader.goto(`${env.server.base}/history`);
  await reader.waitForSelector('section.pair-history[data-pair="en-de"] svg.timeline', { timeout: 30_000 });
  assert.match(await reader.locator('section.pair-history[data-pair="en-de"] .links').innerText(), /calibrated — .*benchmark Bench/);
});
