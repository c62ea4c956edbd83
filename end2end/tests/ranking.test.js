// Relative ranking in Chromium (issue 19): an organizer launches a ranking campaign on the demo's
// test set; a crowd worker ranks a whole HIT: one screen by keyboard alone (number keys per
// translation, Enter), one with the mouse on a desktop, the last on a phone (390 px, no sideways
// scrolling), and gets a completion code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, ok, launchDraft, DEMO } from './harness.js';

const env = serverAndBrowser();
const SHOTS = process.env.ASSAY_SCREENSHOTS; // a folder: screenshots of each screen, for review

// Creates and launches a ranking campaign (3 screens of 2 segments × 3 outputs: the demo's
// test set has three systems); its crowd link.
async function launchRanking(organizer) {
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.systems.length >= 3);
  const draft = {
    name: 'Ranking e2e', task: 'ranking', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 3,
    settings: {
      hit_length: 3, rank_blocks_per_screen: 2, rank_outputs: 3, bad_refs: 2, repeats: 1, judgments_wanted: 30, redundancy: 1,
      target_language: 'English', rank_show_reference: true,
      // A worker with too few pairs is left out of the scores (the results below start empty);
      // "I know": this small design cannot test its workers.
      thin_evidence: 'exclude', accept_thin_evidence: true,
    },
  };
  return launchDraft(organizer, draft);
}

// A second crowd worker ranks `hits` whole HITs through the annotators' endpoints: the systems
// in a fixed order of preference and every degraded copy last, so that they pass the sign test.
async function rankHitsByApi(browser, organizer, link, worker, hits) {
  const context = await browser.newContext();
  const page = await context.newPage();
  for (let h = 0; h < hits; h++) {
    await page.goto(`${link}&worker=${worker}`);
    const assignment = page.url().split('/work/')[1].split(/[?#]/)[0];
    const facts = new Map((await ok(organizer, 'assignment_items', { assignment })).map((i) => [i.position, i]));
    let step = await ok(page, 'start_work', { assignment });
    while (!step.completion) {
      const positions = [step.item, ...(step.together || [])].map((i) => i.position);
      const ranks = positions.map((position) => {
        const f = facts.get(position);
        return { position, rank: f.item_type === 'BAD_REF' ? 3 : f.system === 'Lumen-MT' ? 1 : 2 };
      });
      step = await page.evaluate(async (body) => {
        const r = await fetch('/api/submit_screen', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (r.status !== 200) throw new Error(`submit_screen: ${r.status} ${await r.text()}`);
        return r.json();
      }, { assignment, ranks, time_on_screen_ms: 20000, key: `s${positions[0]}` });
    }
  }
  await context.close();
}

async function progress(page) {
  return (await page.textContent('#progress')).trim();
}

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('a crowd worker ranks a whole HIT by keyboard, by mouse and on a phone, ties allowed', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const { id, link } = await launchRanking(organizer);

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-RANKER`);
  await waitHydrated(page);
  const workUrl = page.url();
  assert.match(workUrl, /\/work\//);
  // The start page counts screens, not items, and says the campaign's number of outputs (issue 38 item 6).
  assert.equal((await page.textContent('#hit-size')).trim(), 'This HIT has 3 screens; each sentence on a screen has 3 translations to rank, from 1 (best) to 3.');
  assert.doesNotMatch(await page.textContent('#instructions'), /1 to 5/);
  await page.click('#start');
  await page.waitForSelector('#rank-screen');

  // Screen 1: two blocks, each with its source and reference, three translations each.
  assert.equal(await page.locator('.rank-block').count(), 2);
  assert.equal(await page.locator('.rank-row').count(), 6);
  assert.equal(await page.locator('.rank-block .context.reference').count(), 2);
  assert.equal(await progress(page), 'Translations 1 to 6 of 18');
  assert.equal((await page.textContent('#statement')).trim(), 'Rank the translations from best to worst (ties are allowed).');
  assert.ok(await page.isDisabled('#next'), 'Next waits for every rank');
  assert.match(await page.textContent('#rank-hint'), /Rank 6 more translations/);
  await shot(page, 'ranking-1280');
  // By keyboard alone: the first translation has the focus; a number key ranks it and moves on.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.row), '0');
  for (const key of ['1', '3', '1', '2', '2', '3']) await page.keyboard.press(key);
  assert.equal(await page.getAttribute('[data-row="1"] .rank[data-rank="3"]', 'aria-checked'), 'true');
  assert.equal(await page.getAttribute('[data-row="2"] .rank[data-rank="1"]', 'aria-checked'), 'true', 'a tie with the first');
  assert.match(await page.textContent('#rank-hint'), /Every translation is ranked/);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#progress')?.textContent.includes('7 to 12'));

  // Screen 2 with the mouse (rows are numbered per screen); a rank can be changed before going on.
  for (let k = 0; k < 6; k++) await page.click(`[data-row="${k}"] .rank[data-rank="${(k % 3) + 1}"]`);
  await page.click('[data-row="0"] .rank[data-rank="3"]');
  assert.equal(await page.getAttribute('[data-row="0"] .rank[data-rank="1"]', 'aria-checked'), 'false');
  assert.equal(await page.getAttribute('[data-row="0"] .rank[data-rank="3"]', 'aria-checked'), 'true');
  await page.click('#next');
  await page.waitForFunction(() => document.querySelector('#progress')?.textContent.includes('13 to 18'));

  // The last screen on a phone: the same HIT resumes where it stands, fits 390 px and takes taps.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await openHydrated(phone, workUrl);
  await small.waitForSelector('#rank-screen');
  assert.equal(await progress(small), 'Translations 13 to 18 of 18');
  const overflow = await small.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
  await shot(small, 'ranking-390');
  for (let k = 0; k < 6; k++) await small.tap(`[data-row="${k}"] .rank[data-rank="${(k % 3) + 1}"]`);
  await small.tap('#next');
  await small.waitForSelector('#completion-code');
  const code = (await small.textContent('#completion-code')).trim();
  // With the plain link's worker id, as a platform verifies it (required: issue 38).
  const check = await small.evaluate(async (code) => (await fetch(`/api/verify_completion_code?code=${encodeURIComponent(code)}&worker=E2E-RANKER`)).json(), code);
  assert.equal(check.valid, true);

  // Before any worker passes quality control, the ranking section says there is nothing yet.
  await organizer.goto(`${server.base}/campaigns/${id}/results`);
  await waitHydrated(organizer);
  await organizer.waitForSelector('#ranking-empty');
  // A second worker does three HITs and passes (every copy ranked below its original).
  await rankHitsByApi(browser, organizer, link, 'E2E-CAREFUL', 3);

  // The organizer's results: every method side by side for the three systems, the plots, and
  // the ranking files among the exports; on a phone the page does not scroll sideways (the wide
  // table scrolls in its own region, reachable by keyboard).
  await organizer.goto(`${server.base}/campaigns/${id}/results`);
  await waitHydrated(organizer);
  await organizer.waitForSelector('#ranking-methods');
  assert.equal(await organizer.locator('#ranking-methods tbody tr').count(), 3);
  const headers = await organizer.locator('#ranking-methods thead th').allTextContents();
  for (const h of ['Wins ratio', 'Expected wins', 'Rank range (95%)', 'TrueSkill μ ± σ']) {
    assert.ok(headers.includes(h), `column ${h}: ${headers}`);
  }
  const methods = await organizer.locator('#ranking-positions thead th').allTextContents();
  assert.deepEqual(methods.slice(1), ['wins ratio', 'wins and ties ratio', 'expected wins', 'TrueSkill', 'minimum feedback arc set', 'most probable ranking']);
  // The careful worker always preferred Lumen-MT: first by every method, and the only winner.
  assert.equal(await organizer.getAttribute('#ranking-methods tbody tr:first-child', 'data-system'), 'Lumen-MT');
  assert.match(await organizer.textContent('#ranking-methods tbody tr:first-child th'), /•/);
  assert.equal((await organizer.locator('#ranking-positions tbody tr:first-child .method-position').allTextContents()).join(','), '1,1,1,1,1,1');
  assert.match(await organizer.textContent('#ranking-blocks'), /blocks of repeated screens measure agreement/);
  assert.equal(await organizer.locator('#rank-range-plot svg').count(), 1);
  // WMT 2012's κ: the careful worker's repeated screen agrees with its first showing.
  assert.equal(await organizer.locator('#ranking-agreement tbody tr').count(), 2);
  assert.equal((await organizer.textContent('#ranking-agreement tr[data-kind="intra"] .kappa')).trim(), '1.000');
  assert.equal(await organizer.locator('#head-to-head svg').count(), 1);
  assert.ok((await organizer.locator('#ranking-agree, #ranking-disagreements').count()) === 1);
  const exports = await organizer.textContent('#exports');
  for (const f of ['ranking-', 'head-to-head-', 'wmt-ranking-']) assert.ok(exports.includes(f), `${f} among the exports`);
  // Both wide tables scroll in their own region, reachable by keyboard and named.
  for (const region of await organizer.locator('#ranking .table-scroll').all()) {
    assert.equal(await region.getAttribute('tabindex'), '0');
    assert.ok(await region.getAttribute('aria-label'));
  }
  await shot(organizer, 'ranking-results-1280');
  await organizer.setViewportSize({ width: 390, height: 844 });
  const wide = await organizer.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 0, `the results page fits a phone (${wide} px too wide)`);
  // Stacked on a phone, every cell names its column.
  assert.equal(await organizer.locator('#ranking table td:not([data-label])').count(), 0);
  await shot(organizer, 'ranking-results-390');
  await desktop.close();
  await phone.close();
});

// Gold blocks (WMT 2012's controls): the organizer imports gold orders for the demo's test set,
// a worker ranks a HIT with gold blocks hidden among its screens, and the review page shows the
// worker's gold agreement beside the verdict, at 1280 px and on a phone.
test('gold blocks: imported, ranked unawares, and the gold agreement on the review page', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext({ viewport: { width: 1280, height: 900 } }), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.systems.length >= 3);
  const gold = Array.from({ length: 30 }, (_, i) => `${i + 1}\tLumen-MT > Ostrich-7 > Riverbank`).join('\n');
  const post = (body) => organizer.evaluate(async ({ id, body }) => {
    const r = await fetch(`/api/v1/test-sets/${id}/gold`, { method: 'POST', headers: { 'x-assay-file-name': 'gold.tsv' }, body });
    return { status: r.status, body: await r.json() };
  }, { id: set.id, body });
  const refused = await post('1\tLumen-MT > Nobody\n');
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.body.errors, ['gold.tsv, line 1: the test set has no output of system "Nobody" for segment "1"']);
  const stored = await post(gold);
  assert.equal(stored.status, 200, JSON.stringify(stored.body));
  assert.equal(stored.body.orders, 30);
  const draft = {
    name: 'Ranking with gold e2e', task: 'ranking', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 4,
    settings: {
      hit_length: 3, rank_blocks_per_screen: 2, rank_outputs: 3, bad_refs: 1, repeats: 1, judgments_wanted: 10, redundancy: 1,
      target_language: 'English', rank_gold_blocks: 2, rank_gold_threshold: 0.6, rank_gold_min_pairs: 4,
    },
  };
  const { id, link } = await launchDraft(organizer, draft);
  // Lumen-MT first, the two others tied: of each gold block's 3 strict pairs, 2 agree.
  await rankHitsByApi(browser, organizer, link, 'E2E-GOLD', 1);

  await organizer.goto(`${server.base}/campaigns/${id}/workers`);
  await waitHydrated(organizer);
  const line = organizer.locator('.gold-agreement').first();
  await line.waitFor({ timeout: 15_000 });
  assert.match(await line.textContent(), /^gold agreement 0\.67 \((\d+) of \d+ gold pairs\) \(pass; threshold 0\.6\); degraded copies: /);
  await shot(organizer, 'ranking-gold-review-1280');
  await organizer.setViewportSize({ width: 390, height: 844 });
  const wide = await organizer.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 0, `the review page fits a phone (${wide} px too wide)`);
  assert.ok(await line.isVisible());
  await shot(organizer, 'ranking-gold-review-390');
});
