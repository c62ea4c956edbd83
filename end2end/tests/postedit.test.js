// Post-editing in Chromium (issue 40 item 2): an organizer launches a post-editing campaign on
// the demo's test set through the designer's server functions; a crowd worker corrects the
// translation in a pre-filled, labelled text field by keyboard (typing, Ctrl+Enter goes on,
// Enter alone a new line), presses "No change needed", then goes on on a phone (390 px, no
// sideways scrolling); the results page shows the HTER table and the export offers
// postedit-<pair>.csv.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, ok, launchDraft, DEMO } from './harness.js';

const env = serverAndBrowser();

async function launchPostEdit(organizer) {
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.systems.length >= 3);
  const draft = {
    name: 'Post-editing e2e', task: 'post-edit', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 4,
    settings: { hit_length: 8, bad_refs: 2, repeats: 1, refs: 0, sets: 2, judgments_wanted: 3, redundancy: 1, target_language: 'English', thin_evidence: 'keep' },
  };
  return launchDraft(organizer, draft);
}

test('a crowd worker post-edits by keyboard and on a phone; the results give HTER per system', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const { id, link } = await launchPostEdit(organizer);

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-PE`);
  await waitHydrated(page);
  const workUrl = page.url();
  await page.click('#start');
  await page.waitForSelector('#postedit-screen');

  // A labelled field pre-filled with the translation, the source above it; nothing else tells
  // a quality-control item apart.
  const field = page.locator('#post-edit');
  const shown = await field.inputValue();
  assert.ok(shown.length > 0, 'pre-filled');
  assert.equal(await page.locator('label[for="post-edit"]').count(), 1, 'the field has a label');
  assert.equal(await page.locator('#postedit-screen [data-system], #postedit-screen [data-type]').count(), 0);
  assert.ok(await page.isEnabled('#next'));

  // By keyboard: Enter alone makes a new line (stored as a space), Ctrl+Enter goes on.
  const before = await page.textContent('#progress');
  await field.focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' really');
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent('#progress'), before, 'Enter alone does not go on');
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction((b) => document.querySelector('#progress')?.textContent !== b, before);
  // Emptied: Next waits and says why; "No change needed" goes on.
  await page.waitForSelector('#postedit-screen');
  await page.fill('#post-edit', '');
  assert.ok(await page.isDisabled('#next'));
  const second = await page.textContent('#progress');
  await page.click('#no-change');
  await page.waitForFunction((b) => document.querySelector('#progress')?.textContent !== b, second);

  // The rest on a phone, 390 px wide without sideways scrolling; taps.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await openHydrated(phone, workUrl);
  await small.waitForSelector('#postedit-screen');
  const overflow = await small.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
  for (let k = 0; k < 20 && !(await small.locator('#completion-code').count()); k++) {
    const at = await small.textContent('#progress');
    if (k % 2) {
      await small.tap('#no-change');
    } else {
      await small.fill('#post-edit', 'A corrected translation.');
      await small.tap('#next');
    }
    await small.waitForFunction((b) => document.querySelector('#completion-code') || document.querySelector('#progress')?.textContent !== b, at);
  }
  await small.waitForSelector('#completion-code');

  await organizer.goto(`${server.base}/campaigns/${id}/results`);
  await waitHydrated(organizer);
  await organizer.waitForSelector('#postedit-results');
  assert.ok((await organizer.locator('#postedit-hter tbody tr').count()) >= 1);
  const view = await ok(organizer, 'campaign_results', { campaign_id: id, exclude_ref: false, exclude_bad_ref: false, per_segment: false, wilcoxon: false });
  const file = view.export_files.find((f) => /^postedit-[^/]*\.csv$/.test(f) && !f.includes('-segments') && !f.includes('-judgments'));
  const csv = await organizer.evaluate(async (url) => (await fetch(url)).text(),
    `/campaigns/${id}/export/${file}?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=cleaned`);
  assert.equal(csv.split('\n')[0], 'system,hter,ci_low,ci_high,rank_low,rank_high,edits,words,segments,post_edits,mean_segment_hter,median_edit_ms');
});
