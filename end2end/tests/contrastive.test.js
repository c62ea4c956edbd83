// Contrastive ESA in Chromium (issue 40 item 1): an organizer launches a contrastive campaign on
// the demo's test set (three outputs of one segment per screen); a crowd worker answers a screen
// on a desktop (the switch between translations by mouse and by arrow keys, a span marked on one
// output, each output scored; the screen is sent once every output has its answer), then the
// rest on a phone (390 px, no sideways scrolling) by taps; every output is stored as one ESA
// judgment with its spans; the results page ranks the systems within screens and fits a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, ok, launchDraft, DEMO, axeViolations } from './harness.js';

const env = serverAndBrowser();

async function launchContrastive(organizer) {
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.systems.length >= 3);
  const draft = {
    name: 'Contrastive e2e', task: 'contrastive-esa', test_set_id: set.id, systems: set.systems.map((s) => s.id).slice(0, 3), benchmark_systems: [], seed: 7,
    settings: {
      hit_length: 3, rank_blocks_per_screen: 1, rank_outputs: 3, bad_refs: 1, repeats: 0, judgments_wanted: 3, redundancy: 1,
      target_language: 'English', thin_evidence: 'keep', accept_thin_evidence: true,
    },
  };
  return launchDraft(organizer, draft);
}

async function setSlider(page, id, fraction) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  const box = await page.locator(`#${id}`).boundingBox();
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}

// The tab that is open (its index).
async function openTab(page) {
  return page.evaluate(() => [...document.querySelectorAll('#cesa-switch [role="tab"]')].findIndex((t) => t.getAttribute('aria-selected') === 'true'));
}

// Waits for the screen after the one whose progress read `before` (or the end of the HIT).
async function nextScreen(page, before) {
  await page.waitForFunction((b) => document.querySelector('#completion-code') || (document.querySelector('#cesa-screen') && document.querySelector('#progress')?.textContent !== b), before, { timeout: 30_000 });
}

test('a crowd worker marks and scores every translation of a contrastive screen by mouse, keys and taps; the results rank the systems', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const { id, link } = await launchContrastive(organizer);

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-CESA`);
  await waitHydrated(page);
  const workUrl = page.url();
  const assignment = workUrl.split('/work/')[1].split(/[?#]/)[0];
  await page.click('#start');
  await page.waitForSelector('#cesa-screen #candidate .tok');

  // The source pinned above, a tab list of three translations, the first open; nothing on the
  // screen tells an output's system or a quality-control copy.
  assert.equal(await page.getAttribute('#cesa-switch', 'role'), 'tablist');
  assert.equal(await page.locator('#cesa-switch [role="tab"]').count(), 3);
  assert.equal(await openTab(page), 0);
  assert.ok((await page.textContent('#cesa-source')).trim().length > 0, 'the source is shown');
  assert.equal(await page.locator('#cesa-screen [data-system], #cesa-screen [data-type]').count(), 0);
  assert.ok(await page.isDisabled('#next'), 'Next waits for the score');
  const firstProgress = await page.textContent('#progress');

  // Translation 1: no error, a high score (no confirmation needed); Next opens translation 2.
  await setSlider(page, 'score', 0.85);
  await page.click('#next');
  await page.waitForFunction(() => document.querySelector('#cesa-tab-1')?.getAttribute('aria-selected') === 'true');
  assert.match(await page.getAttribute('#cesa-tab-0', 'class'), /answered/, 'the first translation is marked answered');
  assert.equal(await page.textContent('#progress'), firstProgress, 'the screen is not sent before every output has its answer');

  // Translation 2: a minor error over its first word by mouse, a middle score.
  await page.click('#tok-0');
  await page.click('#mark-minor');
  assert.equal(await page.locator('#esa-spans li').count(), 1);
  await setSlider(page, 'score', 0.7);
  assert.deepEqual(await axeViolations(page), [], 'axe-core on the contrastive screen');

  // The switch by keyboard: arrows move between translations (wrapping), focus follows; the
  // answer being given on translation 2 is not lost by looking at another.
  await page.focus('#cesa-tab-1');
  await page.keyboard.press('ArrowRight');
  assert.equal(await openTab(page), 2);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'cesa-tab-2');
  await page.keyboard.press('ArrowRight');
  assert.equal(await openTab(page), 0, 'the arrows wrap');
  await page.keyboard.press('End');
  assert.equal(await openTab(page), 2);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await openTab(page), 1);
  // Back on translation 2: mark again and score, Next.
  if ((await page.locator('#esa-spans li').count()) === 0) {
    await page.click('#tok-0');
    await page.click('#mark-minor');
  }
  await setSlider(page, 'score', 0.7);
  await page.click('#next');
  await page.waitForFunction(() => document.querySelector('#cesa-tab-2')?.getAttribute('aria-selected') === 'true');

  // Translation 3: a high score; the screen goes once all three are answered.
  await setSlider(page, 'score', 0.9);
  await page.click('#next');
  await nextScreen(page, firstProgress);

  // The rest on a phone by taps: one translation at a time, the switch within the screen's width.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await openHydrated(phone, workUrl);
  await small.waitForSelector('#completion-code, #cesa-screen #candidate .tok');
  const overflow = await small.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
  let screens = 1;
  for (;;) {
    if (await small.locator('#completion-code').count()) break;
    const progress = await small.textContent('#progress');
    const box = await small.locator('#cesa-switch').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390 + 1, 'the switch fits the phone');
    for (let k = 0; k < 3; k++) {
      await small.waitForFunction((k) => document.querySelector(`#cesa-tab-${k}`)?.getAttribute('aria-selected') === 'true', k);
      await setSlider(small, 'score', 0.8);
      await small.tap('#next');
    }
    await nextScreen(small, progress);
    screens++;
  }
  await small.waitForSelector('#completion-code');
  assert.equal(screens, 3, 'a HIT of three screens');

  // Stored: one ESA judgment per output, the first screen's as answered.
  const judgments = await ok(organizer, 'assignment_judgments', { assignment });
  assert.equal(judgments.length, 9, 'three outputs on each of three screens');
  const first = judgments.filter((j) => j.position < 3).sort((a, b) => a.position - b.position);
  assert.equal(first[0].detail?.spans?.length ?? 0, 0);
  assert.equal(first[1].detail.spans.length, 1);
  assert.equal(first[1].detail.spans[0].severity, 'minor');
  assert.equal(first[1].detail.spans[0].start, 0);
  assert.ok(first[0].score > first[1].score && first[2].score > first[1].score, JSON.stringify(first.map((j) => j.score)));
  assert.ok(judgments.every((j) => j.score >= 0 && j.score <= 100));

  // The results page: the systems compared within screens, on a desktop and a phone.
  await organizer.goto(`${server.base}/campaigns/${id}/results?exclude=none`);
  await waitHydrated(organizer);
  await organizer.waitForSelector('#contrastive-results');
  assert.equal(await organizer.locator('#contrastive-ranking tbody tr').count(), 3);
  assert.ok(await organizer.locator('#contrastive-pairs tbody tr').count() >= 3);
  await organizer.setViewportSize({ width: 390, height: 844 });
  const wide = await organizer.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 0, `the results fit a phone (${wide} px too wide)`);
  await desktop.close();
  await phone.close();
});
