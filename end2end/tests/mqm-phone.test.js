// MQM's document score on a phone in Chromium (issue 38 row 15, "Done when": a phone viewport
// too): at a document's last segment the screen asks a score for the whole document; on a 390 px
// phone its slider fits the screen without sideways scrolling, is large enough to touch (44 px
// high, most of the width), is set by keyboard (arrows, Home, End; its value said in words, never as a number) and by a tap where the
// finger lands, and Next waits for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, signIn, ok, launchDraft, DEMO } from './harness.js';

const env = serverAndBrowser();

const position = (page) => page.evaluate(() => Number((document.querySelector('#progress')?.textContent || '').split(' ')[0]) - 1);

test("MQM: the document's score at a document's end fits a 390 px phone and is set by keys and by touch", async () => {
  const { server, browser } = env;
  // The organizer only calls server functions: the login form works without a bundle.
  const organizer = await (await browser.newContext()).newPage();
  await organizer.goto(`${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.systems.length >= 2);
  const { link } = await launchDraft(organizer, {
    name: 'MQM phone e2e', task: 'mqm', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 5,
    settings: {
      hit_minutes: 2, seconds_per_source_word: 0.8, bad_refs: 1, repeats: 0, judgments_wanted: 1, wanted_per: 'segment', redundancy: 1,
      document_context: 'left', document_score: true, target_language: 'English', interface_language: 'en',
    },
  });

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await openHydrated(phone, `${link}&worker=E2E-MQM-PHONE`);
  await page.tap('#start');
  await page.waitForSelector('.spans-screen #candidate .tok');
  // Segments without errors go on until a document's last one, which asks the document's score.
  for (let k = 0; k < 40 && !(await page.locator('#document-score').count()); k++) {
    const before = await position(page);
    await page.tap('#next');
    await page.waitForFunction((b) => Number((document.querySelector('#progress')?.textContent || '').split(' ')[0]) - 1 > b, before);
    await page.waitForSelector('.spans-screen #candidate .tok');
  }
  const slider = page.locator('#document-score');
  assert.equal(await slider.count(), 1, "a document's end asks its score");
  assert.equal(await slider.getAttribute('role'), 'slider');
  // Its value is where its thumb stands (no number is read out: `aria-valuetext` in words).
  const value = () => page.$eval('#document-score .thumb', (t) => (t.classList.contains('unset') ? null : parseFloat(t.style.left)));
  assert.equal(await value(), null, 'nothing suggests a value');
  assert.equal(await slider.getAttribute('aria-valuenow'), null, 'no number read out');
  assert.ok(await page.isDisabled('#next'), "Next waits for the document's score");

  // It fits: within the viewport, most of its width, touch-sized, no sideways scrolling.
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the slider fits the phone's width: ${JSON.stringify(box)}`);
  assert.ok(box.width >= 0.75 * 390, `the slider takes most of the width: ${box.width} px`);
  assert.ok(box.height >= 44, `the slider is touch-sized: ${box.height} px high`);
  const label = await page.locator('#document-score-label').boundingBox();
  assert.ok(label.x >= 0 && label.x + label.width <= 390, 'its question fits');
  const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);

  // By keyboard: End, then arrows and Home.
  await slider.focus();
  await page.keyboard.press('End');
  assert.equal(await value(), 100);
  const words = await slider.getAttribute('aria-valuetext');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await value(), 99);
  await page.keyboard.press('Home');
  assert.equal(await value(), 0);
  assert.notEqual(await slider.getAttribute('aria-valuetext'), words, 'the words follow the value');
  assert.ok(!(await page.isDisabled('#next')), 'a score given: Next goes on');
  // By touch: a tap a quarter of the way along sets about 25.
  await slider.scrollIntoViewIfNeeded();
  const at = await slider.boundingBox();
  await page.touchscreen.tap(at.x + at.width * 0.25, at.y + at.height / 2);
  const tapped = await value();
  assert.ok(Math.abs(tapped - 25) <= 4, `a tap at a quarter sets about 25, not ${tapped}`);
  const before = await position(page);
  await page.tap('#next');
  await page.waitForFunction((b) => document.querySelector('#completion-code, .completion') || Number((document.querySelector('#progress')?.textContent || '').split(' ')[0]) - 1 > b, before);
});
