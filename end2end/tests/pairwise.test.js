// Pairwise preference in Chromium (issue 37 item 6): an organizer launches a pairwise campaign
// on the demo's test set through the designer's server functions; a crowd worker answers a HIT
// by keyboard (1/2/3, arrows, Enter) on a desktop, then by taps on a phone (390 px, no sideways
// scrolling); a second worker answers through the annotators' endpoint; the results page shows
// the Bradley–Terry ratings and the win-rate heatmap, and the export offers pairwise-<pair>.csv.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, ok, launchDraft, DEMO } from './harness.js';

const env = serverAndBrowser();

async function launchPairwise(organizer) {
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.systems.length >= 3);
  const draft = {
    name: 'Pairwise e2e', task: 'pairwise', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 4,
    settings: {
      hit_length: 8, bad_refs: 2, repeats: 1, refs: 0, sets: 1, judgments_wanted: 5, redundancy: 1,
      target_language: 'English', rank_show_reference: true, thin_evidence: 'keep',
    },
  };
  return launchDraft(organizer, draft);
}

// A worker answers a whole HIT through the annotators' endpoint: the left translation (1) each
// time, the side clicked being what the screen sends.
async function answerByApi(browser, link, worker) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${link}&worker=${worker}`);
  const assignment = page.url().split('/work/')[1].split(/[?#]/)[0];
  let step = await ok(page, 'start_work', { assignment });
  while (!step.completion) {
    const position = step.item.position;
    step = await ok(page, 'submit_judgment', { assignment, position, score: position % 3 === 0 ? 0.5 : 1, time_on_screen_ms: 4000, key: `k${position}` });
  }
  await context.close();
}

test('a crowd worker picks the better of two translations by keyboard and on a phone; the results rate the systems', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const { id, link } = await launchPairwise(organizer);

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-PAIRS`);
  await waitHydrated(page);
  const workUrl = page.url();
  assert.match(workUrl, /\/work\//);
  await page.click('#start');
  await page.waitForSelector('#pair-screen');

  // Two translations side by side, the source (and the reference) above; a radio group of three.
  assert.equal(await page.locator('.pair-output').count(), 2);
  assert.equal(await page.locator('.pair-choice[role="radio"]').count(), 3);
  assert.equal(await page.getAttribute('.pair-choices', 'role'), 'radiogroup');
  assert.equal((await page.textContent('#statement')).trim(), 'Which translation is better?');
  const [left, right] = await page.locator('.pair-output').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()));
  assert.ok(right.left >= left.right - 1, 'side by side on a desktop');
  assert.ok(await page.isDisabled('#next'), 'Next waits for a choice');
  // Nothing tells the two outputs or a quality-control pair apart: no score, rank or count on
  // the screen but the progress, only the two texts and the three choices.
  assert.equal(await page.locator('#pair-screen [data-system], #pair-screen [data-type]').count(), 0);

  // By keyboard: into the radio group, 2 chooses B, the arrows move the choice, Enter goes on.
  const before = await page.textContent('#progress');
  await page.focus('#pair-choice-a');
  await page.keyboard.press('2');
  assert.equal(await page.getAttribute('#pair-choice-b', 'aria-checked'), 'true');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#pair-choice-same', 'aria-checked'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'pair-choice-same', 'focus follows the choice');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('#pair-choice-a', 'aria-checked'), 'true');
  await page.keyboard.press('Enter');
  await page.waitForFunction((b) => document.querySelector('#progress')?.textContent !== b, before);
  // The next pair's screen is in place when nothing is chosen on it yet (a key pressed while the
  // previous screen is still being replaced would land on the old one).
  await page.waitForFunction(() => document.querySelector('#pair-screen') && !document.querySelector('.pair-choice[aria-checked="true"]') && document.querySelector('#next')?.disabled);
  // The progress is read before Enter: read after it, the next pair may already be there, and
  // the wait would be for a change that has happened (the flake of sessions 24 and 25).
  const second = await page.textContent('#progress');
  await page.focus('#pair-choice-a');
  await page.keyboard.press('3');
  assert.equal(await page.getAttribute('#pair-choice-same', 'aria-checked'), 'true');
  await page.keyboard.press('Enter');
  await page.waitForFunction((b) => document.querySelector('#progress')?.textContent !== b, second);

  // The rest on a phone: the same HIT resumes, stacked, 390 px wide without sideways scrolling;
  // taps on the choices.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await openHydrated(phone, workUrl);
  await small.waitForSelector('#pair-screen');
  const [top, below] = await small.locator('.pair-output').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()));
  assert.ok(below.top >= top.bottom - 1, 'stacked on a phone');
  const overflow = await small.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
  for (let k = 0; k < 20 && !(await small.locator('#completion-code').count()); k++) {
    const shown = await small.textContent('#progress');
    await small.tap(k % 2 ? '#pair-choice-b' : '#pair-choice-a');
    await small.tap('#next');
    await small.waitForFunction((b) => document.querySelector('#completion-code') || document.querySelector('#progress')?.textContent !== b, shown);
  }
  await small.waitForSelector('#completion-code');

  // A second worker takes the other HIT(s).
  await answerByApi(browser, link, 'E2E-PAIRS-2');

  // The results: the ratings table, the win-rate heatmap with its text alternative, the file.
  await organizer.goto(`${server.base}/campaigns/${id}/results`);
  await waitHydrated(organizer);
  await organizer.waitForSelector('#pairwise-results');
  assert.ok((await organizer.locator('#pairwise-ratings tbody tr').count()) >= 3);
  assert.equal(await organizer.locator('#pairwise-heatmap svg').count(), 1);
  assert.ok((await organizer.locator('#pairwise-heatmap svg desc').count()) === 1, 'the heatmap has a text alternative');
  const exports = await organizer.textContent('#exports');
  assert.ok(exports.includes('pairwise-'), 'pairwise-<pair>.csv among the exports');
  const view = await ok(organizer, 'campaign_results', { campaign_id: id, exclude_ref: false, exclude_bad_ref: false, per_segment: false, wilcoxon: false });
  const file = view.export_files.find((f) => f.startsWith('pairwise-'));
  const csv = await organizer.evaluate(async (url) => (await fetch(url)).text(),
    `/campaigns/${id}/export/${file}?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=cleaned`);
  assert.equal(csv.split('\n')[0], 'system,rating,ci_low,ci_high,rank_low,rank_high,wins,losses,ties,n');
  assert.ok(csv.trim().split('\n').length >= 4, csv);
});
