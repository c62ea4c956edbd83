// The annotator's interface language in Chromium (issue 18 item 3): a DA campaign whose test set
// translates into German is worked through to the end in German, whatever the browser's
// language (the target language wins); the demo's English→Arabic HIT runs right to left on a
// 390 px phone, interface and text alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, signIn, ok, launchDraft, DEMO } from './harness.js';

const env = serverAndBrowser();
const SHOTS = process.env.ASSAY_SCREENSHOTS; // a folder: screenshots of the screens, for review

async function organizer() {
  const page = await openHydrated(await env.browser.newContext(), `${env.server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  return page;
}

// Uploads an en-de TSV test set (40 segments, three systems), creates and launches a 12-item DA
// campaign on it; its crowd link.
async function launchGerman(org) {
  const systems = ['Alpha', 'Beta', 'Gamma'];
  const words = ['Haus', 'Garten', 'Stadt', 'Fluss', 'Brücke', 'Markt', 'Schule', 'Bahnhof'];
  let tsv = 'segment_id\tsource\treference\tsystem\toutput\n';
  for (let i = 0; i < 40; i++) {
    const ref = `Am Morgen gingen wir zusammen zum ${words[i % 8]} und sprachen lange über den Tag ${i}.`;
    systems.forEach((s, k) => {
      const out = k === 0 ? ref : `Am Morgen wir gingen zum ${words[(i + k) % 8]} und sprachen über Tag ${i}.`;
      tsv += `s${i}\tIn the morning we walked to the ${i} together and talked for a long time.\t${ref}\t${s}\t${out}\n`;
    });
  }
  const { status, body } = await org.evaluate(async (tsv) => {
    const r = await fetch('/upload/import', {
      method: 'POST', headers: { 'x-assay-file-name': 'i18n.tsv', 'x-assay-test-set': 'i18n-de', 'x-assay-pair': 'en-de' }, body: tsv,
    });
    return { status: r.status, body: await r.text() };
  }, tsv);
  assert.equal(status, 200, body);
  const set = (await ok(org, 'list_test_sets')).find((t) => t.name === 'i18n-de');
  const draft = {
    name: 'Deutsch e2e', task: 'da-adequacy', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 8,
    settings: { hit_length: 12, bad_refs: 2, repeats: 1, refs: 1, sets: 2, judgments_wanted: 1, redundancy: 1, target_language: 'German' },
  };
  const link = new URL((await launchDraft(org, draft)).link);
  return `${link.pathname}${link.search}`;
}

test('a German campaign is annotated to the end in German, whatever the browser says', async () => {
  const org = await organizer();
  const link = await launchGerman(org);
  // The browser asks for English: the campaign's target language (German) wins.
  const context = await env.browser.newContext({ locale: 'en-US' });
  const page = await openHydrated(context, `${env.server.base}${link}&worker=anna`);
  await page.waitForSelector('#start', { timeout: 15_000 });
  assert.equal(await page.getAttribute('#work', 'lang'), 'de');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de', 'the document follows the interface');
  assert.equal((await page.textContent('#start')).trim(), 'Beginnen');
  assert.equal((await page.textContent('#instructions-heading')).trim(), 'Anleitung');
  assert.match(await page.textContent('#hit-size'), /^Dieser HIT umfasst 12 Elemente\.$/);
  assert.match(await page.textContent('#instructions'), /Sie lesen Textpaare/);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/i18n-de-start.png`, fullPage: true });
  await page.click('#start');
  for (let i = 1; i <= 12; i++) {
    await page.waitForFunction((want) => document.querySelector('#progress')?.textContent.trim() === want, `${i} von 12`, { timeout: 15_000 });
    const look = await page.evaluate(() => ({
      next: document.querySelector('#next').textContent.trim(),
      disabled: document.querySelector('#next').disabled,
      why: document.querySelector('#next-why').textContent.trim(),
      labels: [...document.querySelectorAll('.text-label')].map((l) => l.textContent.trim()),
      anchors: [...document.querySelectorAll('.anchor')].map((a) => a.textContent.trim()),
      legend: document.querySelector('#key-legend').textContent,
      unset: document.querySelector('.unset-note').textContent.trim(),
      valuetext: document.querySelector('[role="slider"]').getAttribute('aria-valuetext'),
      statement: document.querySelector('#statement').textContent,
    }));
    assert.equal(look.next, 'Weiter');
    assert.equal(look.disabled, true, 'Next waits for the slider');
    assert.equal(look.why, 'Bewegen Sie den Schieberegler, um Ihre Bewertung abzugeben.');
    assert.deepEqual(look.labels, ['Referenz', 'Zu bewertende Übersetzung']);
    assert.deepEqual(look.anchors, ['stimme überhaupt nicht zu', 'stimme voll und ganz zu']);
    assert.match(look.legend, /^Tasten: .*ein wenig verschieben/);
    assert.equal(look.unset, 'Noch nicht gesetzt');
    assert.equal(look.valuetext, 'nicht gesetzt; zwischen „stimme überhaupt nicht zu“ und „stimme voll und ganz zu“');
    assert.match(look.statement, /gibt die Bedeutung des grauen Textes angemessen wieder/);
    if (i === 1 && SHOTS) await page.screenshot({ path: `${SHOTS}/i18n-de-item.png`, fullPage: true });
    await page.focus('[role="slider"]');
    await page.keyboard.press(i % 2 ? 'End' : 'Home');
    assert.equal(await page.getAttribute('[role="slider"]', 'aria-valuetext'), i % 2 ? '„stimme voll und ganz zu“' : '„stimme überhaupt nicht zu“');
    assert.equal(await page.textContent('#next-why'), '', 'no reason once the slider is set');
    await page.keyboard.press('Enter');
  }
  await page.waitForSelector('#completion-code', { timeout: 15_000 });
  assert.equal((await page.textContent('.finished h1')).trim(), 'Vielen Dank: Dieser HIT ist abgeschlossen');
  assert.match(await page.textContent('.finished'), /Ihr Abschlusscode:/);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/i18n-de-done.png`, fullPage: true });
  const items = await ok(org, 'list_assignments');
  const mine = items.find((a) => a.campaign_name === 'Deutsch e2e');
  assert.equal((await ok(org, 'assignment_judgments', { assignment: mine.assignment })).length, 12);
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('the Arabic HIT is right to left on a 390 px phone: interface, wording and texts', async () => {
  const org = await organizer();
  const id = (await ok(org, 'list_assignments')).find((a) => a.task === 'da-fluency').assignment;
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });
  const page = await openHydrated(context, `${env.server.base}/work/${id}`);
  await page.waitForSelector('#start', { timeout: 15_000 });
  assert.equal(await page.getAttribute('#work', 'lang'), 'ar');
  assert.equal(await page.getAttribute('#work', 'dir'), 'rtl');
  assert.equal((await page.textContent('#start')).trim(), 'ابدأ');
  assert.equal((await page.textContent('#hit-size')).trim(), 'عدد العناصر في هذه المهمة: 12.');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/i18n-ar-start-390.png`, fullPage: true });
  await page.tap('#start');
  await page.waitForFunction(() => document.querySelector('#progress')?.textContent.trim() === '1 من 12', null, { timeout: 15_000 });
  const look = await page.evaluate(() => {
    const dir = (sel) => getComputedStyle(document.querySelector(sel)).direction;
    return {
      progress: dir('#progress'),
      why: dir('#next-why'),
      legend: dir('#key-legend'),
      candidate: dir('#candidate'),
      slider: dir('.slider'),
      whyText: document.querySelector('#next-why').textContent.trim(),
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      html: [document.documentElement.lang, document.documentElement.dir],
    };
  });
  assert.deepEqual([look.progress, look.why, look.legend, look.candidate], ['rtl', 'rtl', 'rtl', 'rtl']);
  assert.equal(look.slider, 'ltr', 'the slider runs left to right (its anchors keep their places)');
  assert.equal(look.whyText, 'حرّك المؤشر لتعطي تقييمك.');
  assert.equal(look.sideways, 0, 'nothing scrolls sideways at 390 px');
  assert.deepEqual(look.html, ['ar', 'rtl']);
  const shot = `${SHOTS ?? '/tmp'}/i18n-ar-item-390.png`;
  await page.screenshot({ path: shot, fullPage: true });
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

// The signed-in annotator's home page speaks the browser's language (issue 18 item 3): German
// for a German browser, right to left for an Arabic one, English otherwise; the same when the
// server renders it (a reload) as after signing in.
test("a signed-in annotator's home page is in the browser's language", async () => {
  const cases = [
    { locale: 'de-DE', lang: 'de', dir: 'ltr', welcome: /^Willkommen, /, work: 'Ihre Arbeit', hits: 'Ihre HITs', state: /Elemente|abgeschlossen/, role: 'Annotator·in', signOut: 'Abmelden' },
    { locale: 'ar-EG', lang: 'ar', dir: 'rtl', welcome: /^مرحبًا، /, work: 'عملك', hits: 'مهامك', state: /عنصر|منتهية/, role: 'مقيِّم الترجمات', signOut: 'تسجيل الخروج' },
    { locale: 'en-US', lang: 'en', dir: 'ltr', welcome: /^Welcome, /, work: 'Your work', hits: 'Your HITs', state: /items|finished/, role: 'Annotator', signOut: 'Sign out' },
  ];
  for (const c of cases) {
    const context = await env.browser.newContext({ locale: c.locale });
    const page = await openHydrated(context, `${env.server.base}/login`);
    await signIn(page, DEMO.annotator);
    for (const how of ['after signing in', 'rendered by the server']) {
      const p = how === 'after signing in' ? page : await openHydrated(context, `${env.server.base}/`);
      const home = await p.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
      assert.equal(await home.getAttribute('lang'), c.lang, `${c.locale}, ${how}`);
      assert.equal(await home.getAttribute('dir'), c.dir, `${c.locale}, ${how}`);
      assert.match(await p.textContent('section[data-role="annotator"] h1'), c.welcome, `${c.locale}, ${how}`);
      // The header too: the role and the sign-out button, in a nav marked with their language.
      const nav = await p.$('header.top nav');
      assert.deepEqual([await nav.getAttribute('lang'), await nav.getAttribute('dir')], [c.lang, c.dir], `${c.locale}, ${how}`);
      assert.ok((await p.textContent('#who')).endsWith(` · ${c.role}`), `${c.locale}, ${how}: ${await p.textContent('#who')}`);
      assert.equal((await p.textContent('header.top nav button[type="submit"]')).trim(), c.signOut, `${c.locale}, ${how}`);
      const headings = await p.$$eval('section[data-role="annotator"] h2', (hs) => hs.map((h) => h.textContent));
      assert.deepEqual(headings, [c.work, c.hits], `${c.locale}, ${how}`);
      await p.waitForSelector('#my-hits .hit-state', { timeout: 15_000 });
      for (const state of await p.$$eval('#my-hits .hit-state', (s) => s.map((x) => x.textContent))) {
        assert.match(state, c.state, `${c.locale}, ${how}`);
      }
      assert.deepEqual(p.assayErrors ?? [], [], `${c.locale}, ${how}`);
    }
    await context.close();
  }
});
