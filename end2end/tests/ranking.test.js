// Relative ranking in Chromium (issue 19): an organizer launches a ranking campaign on the demo's
// test set; a crowd worker ranks a whole HIT: one screen by keyboard alone (number keys per
// translation, Enter), one with the mouse on a desktop, the last on a phone (390 px, no sideways
// scrolling), and gets a completion code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, ok, DEMO } from './harness.js';

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
      hit_length: 3, rank_blocks_per_screen: 2, rank_outputs: 3, bad_refs: 2, repeats: 1, judgments_wanted: 8, redundancy: 1,
      target_language: 'English', rank_show_reference: true,
    },
  };
  const created = await organizer.evaluate(async (draft) => {
    const r = await fetch('/api/create_campaign', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ draft }) });
    return { status: r.status, body: await r.text() };
  }, draft);
  assert.equal(created.status, 200, created.body);
  const id = created.body.trim();
  await ok(organizer, 'launch_campaign', { campaign_id: id });
  return (await ok(organizer, 'campaign_progress', { campaign_id: id })).crowd_link;
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
  const link = await launchRanking(organizer);

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-RANKER`);
  await waitHydrated(page);
  const workUrl = page.url();
  assert.match(workUrl, /\/work\//);
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
  const check = await small.evaluate(async (code) => (await fetch(`/api/verify_completion_code?code=${encodeURIComponent(code)}`)).json(), code);
  assert.equal(check.valid, true);
  await desktop.close();
  await phone.close();
});
