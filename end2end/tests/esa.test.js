// Error span annotation in Chromium (issue 20): an organizer launches an ESA campaign on the
// demo's test set (documents of four segments); a crowd worker marks error spans with the mouse
// (drag over words, click a marked word to make it major), by keyboard alone (arrows,
// Shift+arrows, 1/2, the [MISSING] token) and by taps on a phone, confirms a low score with no
// error, gives the document scores, and finishes the HIT; the spans are stored exactly as
// character offsets of the text shown. axe-core finds no serious violation on the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, ok, DEMO, axeViolations } from './harness.js';

const env = serverAndBrowser();
const SHOTS = process.env.ASSAY_SCREENSHOTS;

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function launchEsa(organizer) {
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.systems.length >= 2);
  const draft = {
    name: 'ESA e2e', task: 'esa', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 5,
    settings: {
      hit_minutes: 2, seconds_per_source_word: 0.8, bad_refs: 1, repeats: 0, judgments_wanted: 1, wanted_per: 'segment', redundancy: 1,
      document_context: 'left', document_score: true, target_language: 'English',
    },
  };
  const created = await organizer.evaluate(async (draft) => {
    const r = await fetch('/api/create_campaign', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ draft }) });
    return { status: r.status, body: await r.text() };
  }, draft);
  assert.equal(created.status, 200, created.body);
  const id = created.body.trim();
  await ok(organizer, 'launch_campaign', { campaign_id: id });
  return { id, link: (await ok(organizer, 'campaign_progress', { campaign_id: id })).crowd_link };
}

// The translation shown (without the [MISSING] token) and its words, from the page.
async function shownText(page) {
  return page.evaluate(() => {
    const parts = [...document.querySelectorAll('#candidate > span')].filter((s) => !s.classList.contains('missing-token'));
    parts.pop(); // the space before [MISSING]
    return parts.map((s) => s.textContent).join('');
  });
}

// Characters (code points) of a JavaScript string.
const chars = (s) => Array.from(s).length;

async function setSlider(page, id, fraction) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  const box = await page.locator(`#${id}`).boundingBox();
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}

async function position(page) {
  return page.evaluate(() => Number((document.querySelector('#progress')?.textContent || '').split(' ')[0]) - 1);
}

// Waits for the screen after `before` (its position).
async function nextScreen(page, before) {
  await page.waitForFunction((b) => {
    const p = document.querySelector('#progress')?.textContent || '';
    return document.querySelector('#completion-code, .completion') || (p && Number(p.split(' ')[0]) - 1 > b);
  }, before);
}

test('a crowd worker marks error spans by mouse, keyboard and touch and they are stored exactly', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const { link } = await launchEsa(organizer);

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-ESA`);
  await waitHydrated(page);
  const workUrl = page.url();
  const assignment = workUrl.split('/work/')[1].split(/[?#]/)[0];
  await page.click('#start');
  await page.waitForSelector('.esa #candidate .tok');
  assert.equal(await position(page), 0);
  assert.ok(await page.isDisabled('#next'), 'Next waits for the score');
  assert.match(await page.textContent('#next-why'), /Move the slider/);
  const expected = new Map(); // position → spans expected in storage

  // Screen 1, mouse: drag over the first two words, mark minor, then click the marked word:
  // minor becomes major.
  const text1 = await shownText(page);
  const w0 = await page.textContent('#tok-0');
  const w1 = await page.textContent('#tok-1');
  const box0 = await page.locator('#tok-0').boundingBox();
  const box1 = await page.locator('#tok-1').boundingBox();
  await page.mouse.move(box0.x + 2, box0.y + box0.height / 2);
  await page.mouse.down();
  await page.mouse.move(box1.x + box1.width / 2, box1.y + box1.height / 2, { steps: 5 });
  await page.mouse.up();
  assert.match(await page.textContent('#esa-selection'), new RegExp(`${w0}.*${w1}`));
  await page.click('#mark-minor');
  assert.equal(await page.locator('#esa-spans li').count(), 1);
  assert.equal(await page.getAttribute('#esa-spans li', 'data-severity'), 'minor');
  await page.click('#tok-0');
  assert.equal(await page.getAttribute('#esa-spans li', 'data-severity'), 'major', 'a click makes it major');
  assert.match(await page.textContent('#esa-said'), /now a major error/);
  const end1 = chars(text1.slice(0, text1.indexOf(w1, w0.length) + w1.length));
  expected.set(0, [{ start: 0, end: end1, severity: 'major' }]);
  await setSlider(page, 'score', 0.3);
  assert.equal(await page.isDisabled('#next'), (await page.locator('#document-score').count()) > 0);
  if (await page.locator('#document-score').count()) await setSlider(page, 'document-score', 0.4);
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], 'axe-core on the ESA screen');
  await shot(page, 'esa-1280');
  await page.click('#next');
  await nextScreen(page, 0);

  // Screen 2, keyboard alone: the document so far is shown above; Shift+arrow (in reading order) selects two words,
  // 2 marks them major; End reaches [MISSING], 1 marks an omission; the slider by keys; Enter.
  assert.equal(await page.locator('.doc-context.before li').count(), 1, 'the first segment as context');
  assert.equal((await page.textContent('.doc-context.before .ctx-target')).trim(), text1.trim());
  const text2 = await shownText(page);
  const v0 = await page.textContent('#tok-0');
  const v1 = await page.textContent('#tok-1');
  // The demo translates into Arabic: the next word in reading order is to the left.
  const rtl = (await page.getAttribute('#candidate', 'dir')) === 'rtl';
  await page.focus('#tok-0');
  await page.keyboard.press(rtl ? 'Shift+ArrowLeft' : 'Shift+ArrowRight');
  await page.keyboard.press('2');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), '[MISSING]');
  await page.keyboard.press('1');
  assert.equal(await page.locator('#esa-spans li').count(), 2);
  const end2 = chars(text2.slice(0, text2.indexOf(v1, v0.length) + v1.length));
  expected.set(1, [{ start: 0, end: end2, severity: 'major' }, { start: 0, end: 0, severity: 'minor', missing: true }]);
  await page.focus('#score');
  for (let k = 0; k < 3; k++) await page.keyboard.press('PageDown');
  if (await page.locator('#document-score').count()) {
    await page.focus('#document-score');
    await page.keyboard.press('PageDown');
  }
  await page.keyboard.press('Enter');
  await nextScreen(page, 1);

  // Screen 3: a low score with no error asks first; pressing again sends it.
  await setSlider(page, 'score', 0.2);
  if (await page.locator('#document-score').count()) await setSlider(page, 'document-score', 0.2);
  await page.click('#next');
  await page.waitForSelector('#esa-confirm');
  assert.equal(await position(page), 2, 'not sent yet');
  await page.click('#next');
  await nextScreen(page, 2);
  expected.set(2, []);

  // The rest on a phone, by taps: the first word, then the third, then Major.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await openHydrated(phone, workUrl);
  await small.waitForSelector('.esa #candidate .tok');
  const overflow = await small.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
  await shot(small, 'esa-390');
  for (;;) {
    if (await small.locator('#completion-code, .completion').count()) break;
    const p = await position(small);
    const text = await shownText(small);
    const words = await small.locator('#candidate .tok:not(.missing-token)').allTextContents();
    if (words.length >= 3) {
      await small.tap('#tok-0');
      await small.tap('#tok-2');
      await small.tap('#mark-major');
      let at = 0;
      for (const w of words.slice(0, 3)) at = text.indexOf(w, at) + w.length;
      expected.set(p, [{ start: 0, end: chars(text.slice(0, at)), severity: 'major' }]);
    } else {
      expected.set(p, []);
    }
    await setSlider(small, 'score', 0.8);
    if (await small.locator('#document-score').count()) await setSlider(small, 'document-score', 0.8);
    await small.tap('#next');
    await nextScreen(small, p);
  }
  await small.waitForSelector('#completion-code');

  // Stored exactly: character offsets of the text shown, end exclusive.
  const judgments = await ok(organizer, 'assignment_judgments', { assignment });
  assert.equal(judgments.length, expected.size);
  for (const j of judgments) {
    const want = expected.get(j.position);
    assert.deepEqual(j.detail?.spans || [], want, `position ${j.position}`);
    assert.ok(j.score >= 0 && j.score <= 100);
  }
  // Every document's last segment carries the document's score, and no other segment does.
  const items = await ok(organizer, 'assignment_items', { assignment });
  assert.ok(items.length === judgments.length);
  assert.ok(judgments.some((j) => j.detail?.document_score !== undefined), 'document scores are stored');
  await desktop.close();
  await phone.close();
});
