// Onboarding and the annotation screen in Chromium (issue 18, items 1 and 2): the Mechanical Turk
// preview shows the instructions and a sample item; a crowd worker reads the instructions page
// (paragraphs, a list, examples), does the practice with feedback ("a careful reader would score
// this … because …"), fails a round and passes the next, resumes after a reload where they were,
// and only then gets real items; the server refuses to start the HIT before. The item screen
// labels its texts for screen readers, shows the empty slider and why Next waits, and lists the
// keys; every `lang` is a BCP 47 tag. ASSAY_SCREENSHOTS=DIR saves the screens at 1280 and 390 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, call, ok, launchDraft, DEMO } from './harness.js';

const env = serverAndBrowser();
const SHOTS = process.env.ASSAY_SCREENSHOTS;

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

// An adequacy campaign on the demo's German→English test set with 4 practice items, 3 to pass;
// its id and crowd link.
async function launchWithPractice(organizer) {
  const sets = await ok(organizer, 'list_test_sets');
  const set = sets.find((s) => s.source_lang === 'de' && s.systems.length >= 3);
  const draft = {
    name: 'Onboarding e2e', task: 'da-adequacy', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 5,
    settings: { judgments_wanted: 18, redundancy: 2, target_language: 'English', practice_items: 4, practice_pass: 3 },
  };
  return launchDraft(organizer, draft);
}

// Every lang attribute of the page is a BCP 47 tag (language[-Script][-REGION], or und).
async function langs(page) {
  return page.evaluate(() => [...document.querySelectorAll('[lang]')].map((e) => e.getAttribute('lang')));
}
const BCP47 = /^([a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?|und)$/;

async function noSidewaysScroll(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1);
}

test('the MTurk preview, the instructions page, practice with feedback, then real items with labelled texts', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const { link } = await launchWithPractice(organizer);

  // The preview before accepting: instructions with a list, and a sample item, read-only.
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const context = await browser.newContext({ viewport: { width, height } });
    const preview = await context.newPage();
    const r = await preview.goto(`${link}&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1`);
    assert.equal(r.status(), 200);
    assert.match(await preview.textContent('#crowd-message'), /Accept the HIT to start/);
    assert.ok((await preview.locator('#instructions ul li').count()) >= 2, 'the instructions have a list');
    assert.match(await preview.textContent('#instructions'), /Examples/);
    assert.equal(await preview.textContent('#sample-candidate-label'), 'Candidate translation');
    assert.equal(await preview.textContent('#sample-context-label'), 'Reference');
    assert.ok((await preview.textContent('#sample-candidate')).trim().length > 0);
    assert.equal(await preview.locator('#sample-item .slider-track[data-set="false"]').count(), 1);
    assert.equal(await preview.locator('script, input, button').count(), 0, 'read-only, no script');
    assert.ok((await langs(preview)).every((l) => BCP47.test(l)), (await langs(preview)).join(' '));
    assert.ok(await noSidewaysScroll(preview), `preview at ${width} px`);
    await shot(preview, `preview-${width}`);
    // Nothing was handed out by a preview.
    await context.close();
  }

  // The worker's start page: the instructions page and what the practice asks.
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-LEARNER`);
  await waitHydrated(page);
  const assignment = page.url().split('/work/')[1];
  assert.ok(assignment, page.url());
  assert.ok((await page.locator('#instructions ul li').count()) >= 3);
  assert.ok((await page.locator('#instructions p').count()) >= 3);
  assert.match(await page.textContent('#practice-note'), /4 practice items.*not part of the HIT.*At least 3 of the 4/);
  assert.equal((await page.textContent('#start')).trim(), 'Start the practice');
  await shot(page, 'start-page-1280');

  // The server starts no HIT before the practice is passed, whatever the browser sends.
  const early = await call(page, 'start_work', { assignment });
  assert.equal(early.status, 409, early.body);
  assert.match(early.body, /practice/);

  // Practice item 1, drawn like a real item: labelled texts, the empty slider, why Next waits.
  await page.click('#start');
  await page.waitForSelector('#practice-label');
  assert.equal(await page.textContent('#practice-label'), 'Practice item 1 of 4 · not part of the HIT');
  assert.equal(await page.textContent('#candidate-label'), 'Candidate translation');
  assert.equal(await page.textContent('#context-label'), 'Reference');
  assert.equal(await page.getAttribute('.text-block:has(#candidate)', 'aria-labelledby'), 'candidate-label');
  assert.equal(await page.getAttribute('.text-block:has(#candidate)', 'role'), 'group');
  assert.ok(await page.isDisabled('#next'));
  assert.equal(await page.textContent('#next-why'), 'Move the slider to give your rating.');
  assert.equal(await page.getAttribute('#next', 'aria-describedby'), 'next-why');
  assert.ok(await page.isVisible('.unset-note'), 'the empty slider says so');
  assert.equal(await page.getAttribute('#score', 'data-set'), 'false');
  assert.match(await page.getAttribute('#score', 'aria-valuetext'), /^not set/);
  assert.equal(await page.getAttribute('#score', 'aria-valuenow'), null, 'no number, ever');
  const legend = await page.textContent('#key-legend');
  for (const key of ['←', '→', 'Page Up', 'Page Down', 'Home', 'End', 'Enter']) assert.ok(legend.includes(key), `${key} in ${legend}`);
  await shot(page, 'practice-1280');

  // Round 1: every answer the wrong way round (high items at the far left, low at the far
  // right); feedback after each, and the round starts over.
  const answer = async (key) => {
    await page.waitForSelector('#score');
    await page.focus('#score');
    await page.keyboard.press(key);
    assert.equal(await page.textContent('#next-why'), '');
    assert.ok(!(await page.isVisible('.unset-note')));
    await page.keyboard.press('Enter');
    await page.waitForSelector('#practice-feedback');
  };
  await answer('Home');
  assert.equal(await page.getAttribute('#practice-feedback', 'data-in-range'), 'false');
  assert.match(await page.textContent('#feedback-message'), /^A careful reader would score this high \(towards “strongly agree”\) because it is a human translation/);
  assert.match(await page.textContent('#feedback-yours'), /^Your rating: “strongly disagree”\.$/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'practice-continue', 'the way on has the focus');
  await shot(page, 'practice-feedback-1280');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#score');
  assert.equal(await page.textContent('#practice-label'), 'Practice item 2 of 4 · not part of the HIT');
  await answer('End');
  assert.match(await page.textContent('#feedback-message'), /^A careful reader would score this low \(towards “strongly disagree”\) because part of the meaning is missing: “[^”]+” (was|were) left out/);
  // A reload resumes the practice where it stood.
  await page.reload();
  await waitHydrated(page);
  await page.waitForSelector('#practice-label');
  assert.equal(await page.textContent('#practice-label'), 'Practice item 3 of 4 · not part of the HIT');
  await answer('Home');
  await page.click('#practice-continue');
  await answer('End');
  assert.match(await page.textContent('#round-result'), /^0 of 4 answers .* at least 3 are needed/);
  assert.equal((await page.textContent('#practice-continue')).trim(), 'Start the practice again');
  await page.click('#practice-continue');

  // Round 2: three of four as a careful reader would.
  await page.waitForSelector('#score');
  assert.equal(await page.textContent('#practice-label'), 'Practice item 1 of 4 · not part of the HIT');
  for (const [k, key] of ['End', 'Home', 'Home', 'Home'].entries()) {
    await answer(key);
    assert.equal(await page.getAttribute('#practice-feedback', 'data-in-range'), String(k !== 2));
    if (k < 3) await page.click('#practice-continue');
  }
  assert.match(await page.textContent('#round-result'), /^Practice done: 3 of 4/);
  assert.equal((await page.textContent('#practice-continue')).trim(), 'Start the HIT');
  assert.deepEqual(await ok(organizer, 'assignment_judgments', { assignment }), [], 'practice answers are never judgments');
  await page.click('#practice-continue');

  // The real HIT: the same labelled screen, with a progress count and no practice label.
  await page.waitForSelector('#progress');
  assert.equal((await page.textContent('#progress')).trim(), '1 of 100');
  assert.equal(await page.locator('#practice-label').count(), 0);
  assert.equal(await page.textContent('#context-label'), 'Reference');
  assert.equal(await page.textContent('#next-why'), 'Move the slider to give your rating.');
  assert.ok((await langs(page)).every((l) => BCP47.test(l)), (await langs(page)).join(' '));
  assert.equal(await page.getAttribute('#candidate', 'lang'), 'en');
  await shot(page, 'item-1280');
  await page.focus('#score');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#progress')?.textContent.trim() === '2 of 100', null, { timeout: 15_000 });
  assert.equal((await ok(organizer, 'assignment_judgments', { assignment })).length, 1);
  // A reload of a started HIT shows the item, not the practice.
  await page.reload();
  await waitHydrated(page);
  await page.waitForSelector('#progress');
  assert.equal((await page.textContent('#progress')).trim(), '2 of 100');
  assert.deepEqual(page.assayErrors ?? [], []);
  await desktop.close();

  // On a phone: the practice and its feedback fit the width.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await small.goto(`${link}&worker=E2E-PHONE`);
  await waitHydrated(small);
  await small.tap('#start');
  await small.waitForSelector('#score');
  assert.ok(await noSidewaysScroll(small));
  await shot(small, 'practice-390');
  const box = await small.locator('#score').boundingBox();
  await small.tap('#score', { position: { x: box.width * 0.95, y: box.height / 2 } });
  await small.tap('#next');
  await small.waitForSelector('#practice-feedback');
  assert.equal(await small.getAttribute('#practice-feedback', 'data-in-range'), 'true');
  assert.ok(await noSidewaysScroll(small));
  await shot(small, 'practice-feedback-390');
  await phone.close();
});

test('word-order practice: boxes by keyboard, feedback in the questions\' words, then the HIT', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const set = (await ok(organizer, 'list_test_sets')).find((s) => s.source_lang === 'de' && s.systems.length >= 3);
  const draft = {
    name: 'Word-order practice e2e', task: 'word-order', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 9,
    settings: {
      hit_length: 50, bad_refs: 0, repeats: 0, refs: 0, sets: 1, woj_permutations: 25, judgments_wanted: 1, redundancy: 1,
      target_language: 'English', source_language_name: 'German', practice_items: 2, practice_pass: 2,
    },
  };
  const { link } = await launchDraft(organizer, draft);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${link}&worker=E2E-WOJ-LEARNER`);
  await waitHydrated(page);
  assert.match(await page.textContent('#instructions'), /Question 2/);
  await page.click('#start');
  await page.waitForSelector('#practice-label');
  assert.equal(await page.textContent('#candidate-label'), 'First sentence');
  assert.equal(await page.textContent('#context-label'), 'Second sentence');
  assert.equal(await page.textContent('#next-why'), 'Choose a box for both questions to go on.');
  assert.match(await page.textContent('#key-legend'), /1–5 choose a box/);
  assert.equal(await page.locator('#skip').count(), 0, 'no skipping in practice');
  // Item 1 (the second sentence shown as the first): boxes 5 and 5, as a careful reader.
  await page.keyboard.press('5');
  assert.equal(await page.textContent('#next-why'), 'Choose a box for the second question to go on.');
  await page.keyboard.press('5');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#practice-feedback');
  assert.equal(await page.getAttribute('#practice-feedback', 'data-in-range'), 'true');
  assert.match(await page.textContent('#feedback-message'), /^A careful reader would answer towards “Very easy” and “Not at all” because the first sentence is the same as the second/);
  assert.equal(await page.textContent('#feedback-yours'), 'Your answers: box 5 of 5 and box 5 of 5.');
  await shot(page, 'woj-practice-feedback-1280');
  await page.keyboard.press('Enter');
  // Item 2 (a permuted copy): the order clouds the meaning.
  await page.waitForSelector('#practice-label');
  assert.notEqual(await page.textContent('#candidate'), await page.textContent('#context'));
  await page.keyboard.press('3');
  await page.keyboard.press('1');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#practice-feedback');
  assert.match(await page.textContent('#feedback-message'), /^A careful reader would answer the second question towards “Enormously” because its words are out of order \(“/);
  assert.match(await page.textContent('#round-result'), /^Practice done: 2 of 2/);
  await page.click('#practice-continue');
  await page.waitForSelector('#progress');
  assert.equal((await page.textContent('#progress')).trim(), '1 of 50');
  await context.close();
});

test('the designer edits the instructions page, the labels and the practice, with defaults per task', async () => {
  const { server, browser } = env;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await openHydrated(context, `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/new`);
  await waitHydrated(page);
  await page.waitForSelector('#instructions');
  assert.equal(await page.evaluate(() => document.querySelector('#instructions').tagName), 'TEXTAREA');
  assert.match(await page.inputValue('#instructions'), /\n- towards "strongly agree"/);
  assert.equal(await page.getAttribute('#instructions', 'aria-describedby'), 'instructions-hint');
  assert.equal(await page.inputValue('#label-candidate'), 'Candidate translation');
  assert.equal(await page.inputValue('#practice-items'), '0');
  await page.selectOption('#task', 'word-order');
  await page.waitForFunction(() => /Question 1/.test(document.querySelector('#instructions')?.value ?? ''));
  // Ranking has practice too (issue 38 row 15): an original beside its degraded copy.
  await page.selectOption('#task', 'ranking');
  await page.waitForSelector('#rank-outputs');
  assert.equal(await page.locator('#practice-items').count(), 1, 'ranking offers practice');
  assert.match(await page.textContent('#practice-hint'), /several translations on a screen \(pairwise preference, ranking\)/);
  await page.selectOption('#task', 'da-fluency');
  await page.waitForSelector('#practice-items');
  await page.fill('#campaign-name', 'Practice design');
  await page.fill('#practice-items', '4');
  await page.fill('#practice-pass', '5');
  await page.selectOption('#test-set', { index: 1 });
  await page.waitForFunction(() => /practice answers needed to go on \(5\) cannot be more than the practice items \(4\)/.test(document.body.textContent), null, { timeout: 15_000 });
  await context.close();
});

test('active time: idle time past the gap is not counted, and organizers see words per active hour', async () => {
  const { server, browser } = env;
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const set = (await ok(organizer, 'list_test_sets')).find((s) => s.source_lang === 'de' && s.systems.length >= 3);
  const draft = {
    name: 'Active time e2e', task: 'da-fluency', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 11,
    settings: { judgments_wanted: 18, redundancy: 1, target_language: 'English', idle_gap_seconds: 5, payment_per_hit: 3, payment_currency: 'EUR' },
  };
  const { id, link } = await launchDraft(organizer, draft);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${link}&worker=E2E-IDLE`);
  await waitHydrated(page);
  const assignment = page.url().split('/work/')[1];
  await page.click('#start');
  await page.waitForSelector('#score');
  // Item 1: answered at once. Item 2: left alone for 9 s (the gap is 5 s), then answered.
  await page.focus('#score');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#progress')?.textContent.trim().startsWith('2 of'));
  await page.waitForTimeout(9_000);
  await page.focus('#score');
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#progress')?.textContent.trim().startsWith('3 of'));
  const stored = await ok(organizer, 'assignment_judgments', { assignment });
  assert.equal(stored.length, 2);
  for (const j of stored) assert.ok(j.active_ms !== null && j.active_ms <= j.time_on_screen_ms, JSON.stringify(j));
  const idle = stored[1];
  assert.ok(idle.time_on_screen_ms >= 9_000, JSON.stringify(idle));
  assert.ok(idle.active_ms <= 7_000 && idle.active_ms >= 3_000, `about the 5 s gap counted, not the 9 s: ${JSON.stringify(idle)}`);
  await context.close();

  // The campaign page shows the active time and words per active hour.
  await organizer.goto(`${server.base}/campaigns/${id}`);
  await waitHydrated(organizer);
  await organizer.waitForSelector('#at-active', { timeout: 20_000 });
  assert.match(await organizer.textContent('#at-active'), /^\d+ s of \d+ s on screen \(\d+ %\), over 2 judgments$/);
  assert.match(await organizer.textContent('#at-pay'), /no finished HIT yet/);
  await shot(organizer, 'campaign-active-time-1280');
});
