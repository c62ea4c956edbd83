// The first DA item before the page's bundle has arrived (issue 18, item 5): a DA HIT's page
// comes with its first item and a small script, so that a worker on a slow phone can press Start,
// set the slider and press Next while the bundle is still on its way; the bundle then takes over
// what was done and sends the answer. With the bundle there, Start shows the first item at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, signIn, ok, launchDraft, record, waitHydrated, DEMO } from './harness.js';

const env = serverAndBrowser();
let organizer;
let link;
let total;

// The organizer's page and a launched DA campaign's crowd link, made once.
let made;
async function setUp() {
  made ??= make();
  return made;
}
async function make() {
  organizer = await openHydrated(await env.browser.newContext(), `${env.server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const set = (await ok(organizer, 'list_test_sets')).find((t) => t.source_lang === 'de' && t.systems.length >= 3);
  const draft = {
    name: 'Before the bundle', task: 'da-adequacy', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 11,
    settings: { judgments_wanted: 210, redundancy: 1, interface_language: 'en' },
  };
  ({ link } = await launchDraft(organizer, draft));
}

// A new crowd worker's work page (the crowd link's redirect): [url, assignment].
async function arrive(worker) {
  await setUp();
  const arrival = await fetch(`${link}&worker=${worker}`, { redirect: 'manual' });
  const location = arrival.headers.get('location');
  assert.ok(location, `the crowd link answered ${arrival.status}`);
  const url = new URL(location, env.server.base).href;
  return [url, new URL(url).pathname.split('/').pop()];
}

// A new crowd worker's work page in a new context (`options`), opened with the bundle's
// WebAssembly held back until `release()`: { page, assignment, release, context }.
async function openWithBundleHeld(worker, options = {}) {
  const [url, assignment] = await arrive(worker);
  const context = await env.browser.newContext(options);
  const page = await context.newPage();
  record(page);
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*_bg.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  return { page, assignment, release, context };
}

async function progress(page) {
  return (await page.textContent('#progress')).trim();
}

async function waitProgress(page, n) {
  await page.waitForFunction((want) => {
    const p = document.querySelector('#progress');
    return p && p.offsetParent !== null && p.textContent.trim().startsWith(want);
  }, `${n} of `, { timeout: 15_000 });
}

async function thumb(page) {
  return page.evaluate(() => {
    const t = document.querySelector('#score');
    return { set: t.dataset.set, left: t.querySelector('.thumb').style.left, words: t.getAttribute('aria-valuetext') };
  });
}

test('before the bundle arrives, a phone starts the HIT, sets the slider and presses Next; the bundle sends that answer', async () => {
  // The bundle's WebAssembly is held back until the test lets it through.
  const { page, assignment, release, context } = await openWithBundleHeld(`EARLY-${Date.now()}`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  assert.equal(await page.evaluate(() => document.body.dataset.hydrated ?? null), null, 'the bundle has not run');
  // The first item is in the page, behind the instructions.
  assert.equal(await page.isVisible('#score'), false);
  assert.equal(await page.isVisible('#start'), true);

  await page.tap('#start');
  await page.waitForSelector('#score', { state: 'visible', timeout: 5_000 });
  const tapped = Date.now();
  assert.equal(await page.isVisible('#start'), false, 'the instructions are gone');
  assert.match(await progress(page), /^1 of \d+$/);
  total = Number((await progress(page)).split(' of ')[1]);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'score', 'the slider has the focus');
  assert.equal(await page.isDisabled('#next'), true);
  assert.notEqual((await page.textContent('#next-why')).trim(), '', 'Next says why it is disabled');
  const unset = await thumb(page);
  assert.equal(unset.set, 'false');

  // Keys as on the hydrated slider: from "not set" the first press starts in the middle.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const keyed = await thumb(page);
  assert.equal(keyed.set, 'true');
  assert.equal(parseFloat(keyed.left), 53);
  assert.doesNotMatch(keyed.words, /\d/, `no number is said: ${keyed.words}`);
  assert.notEqual(keyed.words, unset.words);
  assert.equal(await page.isDisabled('#next'), false);
  assert.equal((await page.textContent('#next-why')).trim(), '');
  // A tap at 80% of the track, then two steps left.
  const box = await page.locator('#score').boundingBox();
  await page.tap('#score', { position: { x: box.width * 0.8, y: box.height / 2 } });
  const tappedAt = parseFloat((await thumb(page)).left);
  assert.ok(Math.abs(tappedAt - 80) < 1.5, `a tap at 80% of the track: ${tappedAt}`);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const expected = await page.evaluate(() => window.__assayEarly.value);
  assert.ok(Math.abs(parseFloat((await thumb(page)).left) - (tappedAt - 2)) < 1e-3);
  assert.ok(Math.abs(expected - (tappedAt - 2)) < 1e-3);

  await page.tap('#next');
  assert.equal(await page.isDisabled('#next'), true, 'Next is kept as pressed');
  assert.deepEqual(await ok(organizer, 'assignment_judgments', { assignment }), [], 'nothing is sent before the bundle');
  // Time passes on the item before the bundle arrives.
  await page.waitForTimeout(1_200);
  assert.equal(await page.evaluate(() => document.body.dataset.hydrated ?? null), null);

  release();
  await waitHydrated(page);
  await waitProgress(page, 2);
  const [first, ...rest] = await ok(organizer, 'assignment_judgments', { assignment });
  assert.equal(rest.length, 0);
  assert.ok(Math.abs(first.score - expected) < 1e-6, `the answer given before the bundle is stored: ${first.score} (set ${expected})`);
  assert.ok(first.time_on_screen_ms >= Date.now() - tapped - 5_000 && first.time_on_screen_ms >= 1_200,
    `the time on screen counts from Start: ${first.time_on_screen_ms} ms`);
  // The server was told at Start, by the script: its own time of the item covers the wait.
  assert.ok(first.submitted_at - first.shown_at >= 1_200, `the server's time of the item: ${first.submitted_at - first.shown_at} ms`);
  assert.ok(first.active_ms > 0 && first.active_ms <= first.time_on_screen_ms, `active time: ${first.active_ms} of ${first.time_on_screen_ms} ms`);

  // The second item is the bundle's: unset, the same keys, the same words for the same place.
  assert.equal((await thumb(page)).set, 'false');
  await page.locator('#score').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  assert.equal((await thumb(page)).words, keyed.words, 'the script and the bundle say the same words at 53');
  await page.keyboard.press('Enter');
  await waitProgress(page, 3);
  assert.equal((await ok(organizer, 'assignment_judgments', { assignment })).length, 2);
  assert.deepEqual(page.assayErrors, [], 'no error while the bundle took over');
  await context.close();
});

test('before the bundle arrives, the first item is done by keyboard alone: Tab to Start, Enter, arrows, Enter', async () => {
  const { page, assignment, release, context } = await openWithBundleHeld(`EARLY-K-${Date.now()}`);
  // Tab until Start has the focus (the header's controls come first).
  for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.id)) !== 'start'; i++) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'start');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#score', { state: 'visible', timeout: 5_000 });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'score', 'the slider has the focus');
  await page.keyboard.press('End');
  await page.keyboard.press('PageDown');
  assert.equal(parseFloat((await thumb(page)).left), 90);
  await page.keyboard.press('Enter');
  assert.equal(await page.isDisabled('#next'), true, 'Enter is kept as Next');
  assert.equal(await page.evaluate(() => document.body.dataset.hydrated ?? null), null, 'all before the bundle');
  release();
  await waitHydrated(page);
  await waitProgress(page, 2);
  const stored = await ok(organizer, 'assignment_judgments', { assignment });
  assert.deepEqual(stored.map((j) => j.score), [90]);
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('with the bundle, Start shows the first item at once; its answer is kept until the server has started the HIT', async () => {
  const [url, assignment] = await arrive(`EARLY-B-${Date.now()}`);
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  let release;
  const held = new Promise((r) => { release = r; });
  await context.route('**/api/start_work', async (route) => { await held; await route.continue(); });
  const page = await openHydrated(context, url);
  await page.click('#start');
  await page.waitForSelector('#score', { state: 'visible', timeout: 2_000 });
  assert.equal(await page.isVisible('#start'), false);
  assert.equal(await progress(page), `1 of ${total}`);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'score', 'the slider has the focus');
  await page.keyboard.press('End');
  assert.equal((await thumb(page)).set, 'true');
  // Enter before the server has answered: the answer is kept (Next waits), not dropped.
  assert.equal(await page.isDisabled('#next'), false);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#next[disabled]', { timeout: 2_000 });
  assert.equal(await progress(page), `1 of ${total}`);
  assert.deepEqual(await ok(organizer, 'assignment_judgments', { assignment }), []);
  release();
  await waitProgress(page, 2);
  const stored = await ok(organizer, 'assignment_judgments', { assignment });
  assert.equal(stored.length, 1);
  assert.equal(stored[0].score, 100);
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('a reload after Start resumes at the first item, drawn as any other', async () => {
  const [url] = await arrive(`EARLY-C-${Date.now()}`);
  const context = await env.browser.newContext();
  const page = await openHydrated(context, url);
  // The item shows at once; the reload waits for the server to have started the HIT (a reload
  // before that finds the instructions again, as it should).
  const started = page.waitForResponse((r) => r.url().endsWith('/api/start_work'));
  await page.click('#start');
  await page.waitForSelector('#score', { state: 'visible' });
  assert.equal((await started).status(), 200);
  await page.reload();
  await waitHydrated(page);
  await waitProgress(page, 1);
  assert.equal(await page.locator('#ahead-item').count(), 0, 'a started HIT draws its item without the instructions');
  assert.equal(await page.locator('#start').count(), 0);
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});
