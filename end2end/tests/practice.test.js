// Practice on screens of several outputs in Chromium (issue 37 item 6, issue 38 row 15): a crowd
// worker meets the practice before the HIT, answers a practice pair (pairwise preference) or a
// practice screen (relative ranking) drawn as the real one and marked as practice, reads the
// feedback naming the better translation when the answer was not careful, starts the round
// over, passes, and then does the HIT; by keyboard on a desktop, by taps on a 390 px phone
// without sideways scrolling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, signIn, ok, launchDraft, DEMO } from './harness.js';

const env = serverAndBrowser();

async function organizerPage() {
  const { server, browser } = env;
  // The organizer only calls server functions: the login form works before (without) its bundle.
  const organizer = await (await browser.newContext()).newPage();
  await organizer.goto(`${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  return organizer;
}

async function demoSet(organizer) {
  const sets = await ok(organizer, 'list_test_sets');
  return sets.find((s) => s.systems.length >= 3);
}

async function noSidewaysScrolling(page, what) {
  const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${what}: no sideways scrolling on a phone (${overflow} px too wide)`);
}

// The feedback after a practice answer: whether it was careful, and the message.
async function feedback(page) {
  await page.waitForSelector('#practice-feedback');
  return {
    inRange: await page.getAttribute('#practice-feedback', 'data-in-range'),
    message: (await page.textContent('#feedback-message')).trim(),
    round: (await page.locator('#round-result').count()) ? (await page.textContent('#round-result')).trim() : '',
  };
}

const mobile = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

test('pairwise practice: a careless round explained and started over, then passed on a phone, then the HIT', async () => {
  const { browser } = env;
  const organizer = await organizerPage();
  const set = await demoSet(organizer);
  const { link } = await launchDraft(organizer, {
    name: 'Pairwise practice e2e', task: 'pairwise', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 4,
    settings: {
      hit_length: 8, bad_refs: 2, repeats: 1, refs: 0, sets: 1, judgments_wanted: 5, redundancy: 1, target_language: 'English',
      interface_language: 'en', rank_show_reference: true, thin_evidence: 'keep', practice_items: 2, practice_pass: 1,
    },
  });

  // Desktop, by keyboard: Start opens the practice; "about the same" (3) is not careful.
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-PAIR-PRACTICE`);
  await waitHydrated(page);
  const workUrl = page.url();
  assert.match(await page.textContent('#practice-note'), /practice/i);
  await page.click('#start');
  const better = [];
  for (let k = 0; k < 2; k++) {
    await page.waitForSelector('#pair-screen');
    assert.match(await page.textContent('#practice-label'), /Practice/, 'marked as practice');
    assert.equal(await page.locator('.pair-output').count(), 2, 'drawn as a real pair');
    await page.focus('#pair-choice-a');
    await page.keyboard.press('3');
    await page.keyboard.press('Enter');
    const f = await feedback(page);
    assert.equal(f.inRange, 'false');
    const m = f.message.match(/^A careful reader would prefer Translation ([AB]) because in Translation ([AB]), part of the meaning is missing/);
    assert.ok(m && m[1] !== m[2], f.message);
    better.push(m[1]);
    assert.equal((await page.textContent('#feedback-yours')).trim(), 'Your choice: About the same.');
    if (k === 1) assert.match(f.round, /^0 of 2 answers/, 'the round failed and starts over');
    await page.click('#practice-continue');
  }
  await page.waitForSelector('#pair-screen');

  // The second round on a phone: the practice resumes, stacked, tapped.
  const phone = await browser.newContext(mobile);
  const small = await openHydrated(phone, workUrl);
  await small.waitForSelector('#pair-screen');
  assert.match(await small.textContent('#practice-label'), /^Practice item 1 of 2/);
  for (let k = 0; k < 2; k++) {
    await small.waitForSelector('#pair-screen');
    await noSidewaysScrolling(small, 'a practice pair');
    await small.tap(better[k] === 'A' ? '#pair-choice-a' : '#pair-choice-b');
    await small.tap('#next');
    const f = await feedback(small);
    assert.equal(f.inRange, 'true', f.message);
    await noSidewaysScrolling(small, 'the feedback');
    if (k === 1) assert.match(f.round, /^Practice done: 2 of 2/);
    await small.tap('#practice-continue');
  }
  // The HIT: real pairs, no practice label, a progress count.
  await small.waitForSelector('#progress');
  await small.waitForSelector('#pair-screen');
  assert.equal(await small.locator('#practice-label').count(), 0, 'the HIT is not practice');
  const shown = await small.textContent('#progress');
  await small.tap('#pair-choice-a');
  await small.tap('#next');
  await small.waitForFunction((b) => document.querySelector('#progress')?.textContent !== b, shown);
});

test('ranking practice: the copy ranked with its original is explained, the round passed on a phone, then the HIT', async () => {
  const { browser } = env;
  const organizer = await organizerPage();
  const set = await demoSet(organizer);
  const { link } = await launchDraft(organizer, {
    name: 'Ranking practice e2e', task: 'ranking', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 3,
    settings: {
      hit_length: 3, rank_blocks_per_screen: 2, rank_outputs: 3, bad_refs: 2, repeats: 1, judgments_wanted: 30, redundancy: 1,
      target_language: 'English', interface_language: 'en', rank_show_reference: true, thin_evidence: 'exclude', accept_thin_evidence: true,
      practice_items: 2, practice_pass: 1,
    },
  });

  // Desktop, by keyboard: both outputs ranked 1 (a shared rank is not careful).
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desktop.newPage();
  await page.goto(`${link}&worker=E2E-RANK-PRACTICE`);
  await waitHydrated(page);
  const workUrl = page.url();
  await page.click('#start');
  const better = [];
  for (let k = 0; k < 2; k++) {
    await page.waitForSelector('#rank-screen');
    assert.match(await page.textContent('#practice-label'), /Practice/);
    assert.equal(await page.locator('.rank-row').count(), 2, 'an original and its copy');
    await page.focus('[data-row="0"]');
    await page.keyboard.press('1');
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    const f = await feedback(page);
    assert.equal(f.inRange, 'false');
    const m = f.message.match(/^A careful reader would rank Translation ([12]) above Translation ([12]) because in Translation \2, part of the meaning is missing/);
    assert.ok(m && m[1] !== m[2], f.message);
    better.push(Number(m[1]) - 1);
    await page.click('#practice-continue');
  }

  // The second round on a phone, by taps: the original rank 1, its copy rank 3.
  const phone = await browser.newContext(mobile);
  const small = await openHydrated(phone, workUrl);
  for (let k = 0; k < 2; k++) {
    await small.waitForSelector('#rank-screen');
    await noSidewaysScrolling(small, 'a practice screen');
    const b = better[k];
    await small.tap(`[data-row="${b}"] .rank[data-rank="1"]`);
    await small.tap(`[data-row="${1 - b}"] .rank[data-rank="3"]`);
    await small.tap('#next');
    const f = await feedback(small);
    assert.equal(f.inRange, 'true', f.message);
    await noSidewaysScrolling(small, 'the feedback');
    await small.tap('#practice-continue');
  }
  // The HIT: a real screen of two blocks of three outputs.
  await small.waitForSelector('#progress');
  await small.waitForSelector('#rank-screen');
  assert.equal(await small.locator('#practice-label').count(), 0);
  assert.equal(await small.locator('.rank-row').count(), 6);
  await noSidewaysScrolling(small, 'the HIT');
});
