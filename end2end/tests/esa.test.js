// Error span annotation in Chromium (issue 20): an organizer launches an ESA campaign on the
// demo's test set (documents of four segments); a crowd worker marks error spans with the mouse
// (drag over words, click a marked word to make it major), by keyboard alone (arrows,
// Shift+arrows, 1/2, the [MISSING] token) and by taps on a phone, confirms a low score with no
// error, gives the document scores, and finishes the HIT; the spans are stored exactly as
// character offsets of the text shown. axe-core finds no serious violation on the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, ok, launchDraft, DEMO, axeViolations } from './harness.js';

const env = serverAndBrowser();
const SHOTS = process.env.ASSAY_SCREENSHOTS;

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function launchEsa(organizer, task = 'esa') {
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.systems.length >= 2);
  const draft = {
    name: `${task.toUpperCase()} e2e`, task, test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 5,
    settings: {
      hit_minutes: 2, seconds_per_source_word: 0.8, bad_refs: 1, repeats: 0, judgments_wanted: 1, wanted_per: 'segment', redundancy: 1,
      document_context: 'left', document_score: true, target_language: 'English', interface_language: 'en',
    },
  };
  return launchDraft(organizer, draft);
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
  }, before).catch(async (e) => {
    // What the screen says when it did not move on (a refusal, a confirmation, a disabled Next).
    const state = await page.evaluate(() => ({
      progress: document.querySelector('#progress')?.textContent,
      next: document.querySelector('#next')?.outerHTML?.slice(0, 200),
      alerts: [...document.querySelectorAll('[role=alert], .error, [aria-live]')].map((n) => n.textContent).filter(Boolean),
      score: document.querySelector('#score')?.outerHTML?.slice(0, 300),
    }));
    throw new Error(`the screen after ${before} did not come: ${JSON.stringify(state)}\n${page.assayLog?.slice(-15).join('\n')}`, { cause: e });
  });
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
  await page.waitForSelector('.spans-screen #candidate .tok');
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
  await small.waitForSelector('.spans-screen #candidate .tok');
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

test('MQM: an error needs a category; the results show the ranking and the categories, and fit a phone', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const { id, link } = await launchEsa(organizer, 'mqm');
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-MQM`);
  await waitHydrated(page);
  const assignment = page.url().split('/work/')[1].split(/[?#]/)[0];
  await page.click('#start');
  await page.waitForSelector('.spans-screen #candidate .tok');
  assert.equal(await page.locator('#score').count(), 0, 'MQM has no slider');
  assert.ok(!(await page.isDisabled('#next')), 'a segment without errors can go on');
  // Without a category, marking is refused and said why.
  await page.click('#tok-0');
  await page.click('#mark-major');
  assert.equal(await page.locator('#esa-spans li').count(), 0);
  assert.match(await page.textContent('#esa-said'), /category first/);
  await page.selectOption('#mqm-category', 'Accuracy/Mistranslation');
  await page.click('#mark-major');
  assert.equal(await page.locator('#esa-spans li').count(), 1);
  assert.match(await page.textContent('#esa-spans li'), /Accuracy\/Mistranslation/);
  assert.deepEqual(await axeViolations(page), [], 'axe-core on the MQM screen');
  await shot(page, 'mqm-1280');
  // The design asks a document's score after its last segment (as Appraise's document task):
  // Next waits for it there.
  let documentScores = 0;
  const scoreDocument = async () => {
    if (await page.locator('#document-score').count()) {
      assert.ok(await page.isDisabled('#next'), "Next waits for the document's score");
      await setSlider(page, 'document-score', 0.7);
      documentScores++;
    }
  };
  await scoreDocument();
  await page.click('#next');
  await nextScreen(page, 0);
  // The rest without errors.
  for (;;) {
    if (await page.locator('#completion-code, .completion').count()) break;
    const p = await position(page);
    await scoreDocument();
    await page.click('#next');
    await nextScreen(page, p);
  }
  assert.ok(documentScores >= 1, 'a document score was asked at the end of a document');
  const judgments = await ok(organizer, 'assignment_judgments', { assignment });
  const first = judgments.find((j) => j.position === 0);
  assert.equal(first.score, -5, 'a major error weighs 5');
  assert.equal(first.detail.spans[0].category, 'Accuracy/Mistranslation');
  assert.ok(judgments.filter((j) => j.position > 0).every((j) => j.score === 0));

  // The results page: the MQM section, its table and plot, on a phone without sideways scrolling.
  await organizer.goto(`${server.base}/campaigns/${id}/results?exclude=none`);
  await waitHydrated(organizer);
  await organizer.waitForSelector('#esa');
  assert.match(await organizer.textContent('#esa h2'), /MQM/);
  assert.equal(await organizer.locator('#esa-spans-plot svg').count(), 1);
  await organizer.setViewportSize({ width: 390, height: 844 });
  const wide = await organizer.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 0, `the results page fits a phone (${wide} px too wide)`);
  await shot(organizer, 'mqm-results-390');
  await desktop.close();
});

test('pre-filled spans (ESA-AI): the screen starts with them; one removed, one added, the rest kept; the export gives each fate', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  // One document of three segments, two systems; each output's first word pre-filled as major.
  const lines = ['segment_id\tdocument\tsource\tsystem\toutput\tspans'];
  for (let s = 1; s <= 3; s++) {
    for (const sys of ['Aimt', 'Bimt']) {
      lines.push(`${s}\tdoc1\tThe source sentence number ${s} is here.\t${sys}\t${sys} translated sentence number ${s} well.\t[{"start_i": 0, "end_i": 4, "severity": "major"}]`);
    }
  }
  const uploaded = await organizer.evaluate(async (body) => {
    const r = await fetch('/upload/import', { method: 'POST', headers: { 'x-assay-file-name': 'esa-ai.tsv', 'x-assay-test-set': 'esa-ai', 'x-assay-pair': 'en-de' }, body });
    return { status: r.status, body: await r.text() };
  }, lines.join('\n') + '\n');
  assert.equal(uploaded.status, 200, uploaded.body);
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.name === 'esa-ai');
  const draft = {
    name: 'ESA-AI e2e', task: 'esa', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 3,
    settings: {
      hit_minutes: 30, seconds_per_source_word: 0.8, bad_refs: 2, repeats: 0, judgments_wanted: 1, wanted_per: 'segment', redundancy: 1,
      document_context: 'left', document_score: false, target_language: 'German', interface_language: 'de',
    },
  };
  const { id, link } = await launchDraft(organizer, draft);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${link}&worker=E2E-ESAAI`);
  await waitHydrated(page);
  const assignment = page.url().split('/work/')[1].split(/[?#]/)[0];
  // Both documents are shown again degraded later in the HIT (quality control): which screen
  // is which, as only the organizer knows.
  const kinds = new Map((await ok(organizer, 'assignment_items', { assignment })).map((i) => [i.position, i.item_type]));
  assert.equal(kinds.get(0), 'SYSTEM');
  assert.equal([...kinds.values()].filter((k) => k === 'BAD_REF').length, 6);
  await page.click('#start');
  await page.waitForSelector('.spans-screen #candidate .tok');

  // Screen 1: the pre-filled error is marked and listed, with the note; remove it, add another.
  assert.equal(await page.locator('#esa-spans li').count(), 1, 'the pre-filled span is listed');
  assert.equal(await page.getAttribute('#esa-spans li', 'data-severity'), 'major');
  assert.match(await page.getAttribute('#tok-0', 'class'), /major/, 'its word is marked');
  // The screen in German, the interface language chosen for this campaign.
  assert.match(await page.textContent('#esa-prefilled'), /bereits als Vorschläge markiert/);
  assert.equal(await page.getAttribute('#esa-prefilled', 'lang'), 'de');
  assert.match(await page.textContent('#esa-marked-title'), /Ein Fehler markiert/);
  assert.match(await page.textContent('#key-legend'), /Tastatur|Tasten/);
  await shot(page, 'esa-prefilled-1280');
  assert.deepEqual(await axeViolations(page), [], 'axe-core on the pre-filled screen');
  // The same screen on a phone: the spans marked, nothing scrolls sideways.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await openHydrated(phone, page.url());
  await small.waitForSelector('.spans-screen #candidate .tok');
  assert.equal(await small.locator('#esa-spans li').count(), 1);
  const overflow = await small.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
  await shot(small, 'esa-prefilled-390');
  // Issue 38 item 4: a tap on the suggested (major) span removes it; the note goes with the
  // last suggestion, and Undo (announced) brings both back. Nothing is sent from this screen.
  assert.ok(await small.isDisabled('#esa-undo'), 'nothing to undo yet');
  await small.tap('#tok-0');
  assert.equal(await small.locator('#esa-spans li').count(), 0);
  assert.ok(await small.isHidden('#esa-prefilled'), 'no suggestion left: no note');
  await small.tap('#esa-undo');
  assert.equal(await small.locator('#esa-spans li').count(), 1);
  assert.equal(await small.getAttribute('#esa-spans li', 'data-severity'), 'major');
  assert.ok(await small.isVisible('#esa-prefilled'));
  assert.match(await small.textContent('#esa-said'), /Rückgängig gemacht/);
  assert.ok(await small.isDisabled('#esa-undo'));
  await phone.close();
  // The same by mouse and keyboard on the desktop: a click removes it, Ctrl+Z brings it back.
  await page.click('#tok-0');
  assert.equal(await page.locator('#esa-spans li').count(), 0);
  assert.ok(await page.isHidden('#esa-prefilled'));
  await page.focus('#tok-0');
  await page.keyboard.press('Control+z');
  assert.equal(await page.locator('#esa-spans li').count(), 1);
  assert.ok(await page.isVisible('#esa-prefilled'));
  assert.match(await page.textContent('#esa-said'), /Rückgängig gemacht/);
  assert.match(await page.textContent('#key-legend'), /rückgängig/);
  await page.click('#esa-spans li button:has-text("Entfernen")');
  assert.equal(await page.locator('#esa-spans li').count(), 0);
  assert.ok(await page.isHidden('#esa-prefilled'), 'the note goes with the last suggestion');
  const text = await shownText(page);
  const w2 = await page.textContent('#tok-2');
  await page.click('#tok-2');
  await page.click('#mark-minor');
  const start = chars(text.slice(0, text.indexOf(w2)));
  await setSlider(page, 'score', 0.7);
  await page.click('#next');
  await nextScreen(page, 0);
  // The rest: the spans kept as they are; the degraded copies scored low.
  for (;;) {
    if (await page.locator('#completion-code, .completion').count()) break;
    const p = await position(page);
    if (kinds.get(p) === 'SYSTEM') assert.equal(await page.locator('#esa-spans li').count(), 1, `screen ${p + 1} starts with its pre-filled span`);
    await setSlider(page, 'score', kinds.get(p) === 'BAD_REF' ? 0.1 : 0.8);
    // A low score with no error marked (a copy whose damage took its span) is confirmed.
    const unmarked = (await page.locator('#esa-spans li').count()) === 0;
    await page.click('#next');
    if (kinds.get(p) === 'BAD_REF' && unmarked) {
      await page.waitForSelector('#esa-confirm');
      await page.click('#next');
    }
    await nextScreen(page, p);
  }
  await page.waitForSelector('#completion-code');

  // Stored: the final spans.
  const judgments = await ok(organizer, 'assignment_judgments', { assignment });
  assert.equal(judgments.length, 12);
  const first = judgments.find((j) => j.position === 0);
  assert.deepEqual(first.detail.spans, [{ start, end: start + chars(w2), severity: 'minor' }]);
  for (const j of judgments.filter((j) => j.position > 0 && kinds.get(j.position) === 'SYSTEM')) assert.deepEqual(j.detail.spans, [{ start: 0, end: 4, severity: 'major' }]);

  // The export: one removed and one added on the first screen, five accepted.
  const csv = await organizer.evaluate(async (id) => {
    const r = await fetch(`/campaigns/${id}/export/esa-prefilled-spans.csv?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=raw`);
    return r.text();
  }, id);
  const rowsOf = (type) => csv.trim().split('\n').slice(1).map((l) => l.split(',')).filter((f) => f[3] === type);
  assert.deepEqual(rowsOf('TGT').map((f) => f[5]).sort(), ['accepted', 'accepted', 'accepted', 'accepted', 'accepted', 'added', 'removed'], csv);
  assert.ok(rowsOf('BAD').every((f) => f[5] === 'accepted'), 'the degraded copies kept as shown');

  // The results page's table of fates per system, at 1280 px and on a phone.
  await organizer.setViewportSize({ width: 1280, height: 900 });
  await organizer.goto(`${server.base}/campaigns/${id}/results?exclude=none`);
  await waitHydrated(organizer);
  await organizer.waitForSelector('#esa-prefilled');
  const rows = await organizer.evaluate(() => [...document.querySelectorAll('#esa-prefilled tbody tr')].map((tr) => [tr.dataset.system, ...[...tr.querySelectorAll('td')].map((td) => td.textContent.trim())]));
  const total = (k) => rows.reduce((n, r) => n + Number(r[k]), 0);
  assert.deepEqual([total(2), total(3), total(4), total(5), total(6)], [6, 5, 0, 1, 1], JSON.stringify(rows));
  await shot(organizer, 'esa-prefilled-results-1280');
  await organizer.setViewportSize({ width: 390, height: 844 });
  const wide = await organizer.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 0, `the results page fits a phone (${wide} px too wide)`);
  await context.close();
});

test('ESA practice: error spans and a score, feedback on both, a round that starts over, then the HIT', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.source_lang === 'de' && s.systems.length >= 2);
  const { link } = await launchDraft(organizer, {
    name: 'ESA practice e2e', task: 'esa', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 6,
    settings: {
      hit_minutes: 2, seconds_per_source_word: 0.8, bad_refs: 1, repeats: 0, judgments_wanted: 1, wanted_per: 'segment', redundancy: 1,
      document_context: 'left', document_score: false, target_language: 'English', interface_language: 'en', practice_items: 2, practice_pass: 2,
    },
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${link}&worker=E2E-ESA-PRACTICE`);
  await waitHydrated(page);
  const assignment = page.url().split('/work/')[1].split(/[?#]/)[0];
  await page.click('#start');
  const item = async (n) => {
    await page.waitForSelector('.spans-screen #candidate .tok');
    assert.equal(await page.textContent('#practice-label'), `Practice item ${n} of 2 · not part of the HIT`);
  };
  const feedback = async () => {
    await page.click('#next');
    await page.waitForSelector('#practice-feedback');
    return {
      inRange: await page.getAttribute('#practice-feedback', 'data-in-range'),
      message: await page.textContent('#feedback-message'),
      yours: await page.textContent('#feedback-yours'),
    };
  };
  // Round 1, item 1 (a human translation): a major error marked, a high score.
  await item(1);
  assert.deepEqual(await axeViolations(page), [], 'axe-core on the ESA practice screen');
  await shot(page, 'esa-practice-1280');
  await page.click('#tok-0');
  await page.click('#mark-major');
  await setSlider(page, 'score', 0.9);
  let f = await feedback();
  assert.equal(f.inRange, 'false');
  assert.match(f.message, /^A careful reader would mark no major error here and score it high \(towards “[^”]+”\) because it is a human translation of the source text/);
  assert.match(f.yours, /^Errors you marked: 1, of them major or critical: 1\. Your rating: /);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'practice-continue');
  assert.deepEqual(await axeViolations(page), [], 'axe-core on the practice feedback');
  await shot(page, 'esa-practice-feedback-1280');
  await page.keyboard.press('Enter');
  // Item 2 (a degraded copy): an omission marked by keyboard ([MISSING], 1), a low score.
  await item(2);
  await page.focus('#tok-0');
  await page.keyboard.press('End');
  await page.keyboard.press('1');
  assert.equal(await page.locator('#esa-spans li').count(), 1);
  await setSlider(page, 'score', 0.1);
  f = await feedback();
  assert.equal(f.inRange, 'true');
  assert.match(f.message, /^A careful reader would mark at least one error here and score it low .* because part of the meaning is missing: .* so it does not say everything the source says/);
  assert.match(await page.textContent('#round-result'), /1 of 2/);
  // The round starts over; this time both as a careful reader answers.
  await page.click('#practice-continue');
  await item(1);
  await setSlider(page, 'score', 0.85);
  assert.equal((await feedback()).inRange, 'true');
  await page.click('#practice-continue');
  await item(2);
  await page.click('#tok-0');
  await page.click('#mark-minor');
  await setSlider(page, 'score', 0.15);
  f = await feedback();
  assert.equal(f.inRange, 'true');
  assert.deepEqual(await ok(organizer, 'assignment_judgments', { assignment }), [], 'practice is never a judgment');
  // The way on is the HIT: its first segment, which the server now serves.
  await page.click('#practice-continue');
  await page.waitForSelector('.spans-screen #candidate .tok');
  await page.waitForFunction(() => !document.querySelector('#practice-label') && (document.querySelector('#progress')?.textContent || '').startsWith('1 '));
  await context.close();
});
