// An organizer imports a test set, designs a DA adequacy and a word-order campaign in the
// browser (live implications, the builder's objections, degraded previews), launches them, and
// an annotator (account) and a crowd worker (signed link) receive HITs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, DEMO, axeViolations } from './harness.js';

const env = serverAndBrowser();
const SHOTS = process.env.ASSAY_SCREENSHOTS; // a folder: screenshots of the campaign page, for review

const WORDS = ['the', 'house', 'river', 'green', 'quickly', 'children', 'morning', 'bridge', 'music', 'light',
  'stone', 'garden', 'letter', 'window', 'storm', 'mountain', 'city', 'quiet', 'bread', 'winter'];
const sentence = (i, salt) => {
  const n = 6 + ((i * 7 + salt * 3) % 9);
  return Array.from({ length: n }, (_, j) => WORDS[(i * 5 + j * 11 + salt * 13 + j * j) % WORDS.length]).join(' ') + '.';
};

// A long-format TSV: 40 segments × 2 systems, with references.
function tsv() {
  const rows = ['segment_id\tsource\treference\tsystem\toutput'];
  for (let i = 1; i <= 40; i++) {
    for (const [k, sys] of ['Orion', 'Vega'].entries()) {
      rows.push(`${i}\t${sentence(i, 0)}\t${sentence(i, 1)}\t${sys}\t${sentence(i, 2 + k)}`);
    }
  }
  return Buffer.from(rows.join('\n') + '\n');
}

async function signIn(page, who) {
  await page.fill('input[name="email"]', who.email);
  await page.fill('input[name="password"]', who.password);
  await page.click('#login-form button[type="submit"]');
  await page.waitForSelector('section[data-role]', { timeout: 15_000 });
}

async function chooseTestSet(page, name) {
  await page.waitForSelector('#test-set');
  const value = await page.$eval('#test-set', (el, n) => [...el.options].find((o) => o.textContent.startsWith(n))?.value, name);
  assert.ok(value, `test set ${name} is offered`);
  await page.selectOption('#test-set', value);
  await page.waitForSelector('#systems input[name="system"]');
  for (const box of await page.$$('#systems input[name="system"]')) await box.check();
}

async function text(page, selector) {
  return (await page.textContent(selector)).trim();
}

async function createAndLaunch(page) {
  await page.click('#create-campaign');
  await page.waitForURL(/\/campaigns\/\d+$/, { timeout: 15_000 });
  await page.waitForSelector('#launch');
  assert.equal(await text(page, '#campaign-state'), 'draft');
  await page.click('#launch');
  await page.waitForSelector('#launch-done', { timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('#campaign-state')?.textContent === 'launched', null, { timeout: 15_000 });
  return text(page, '#launch-done');
}

test('an organizer imports, designs, previews and launches; workers receive HITs', async () => {
  const context = await env.browser.newContext();
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.organizer);

  // Import (a plain form; the file is streamed to the server).
  await page.goto(`${env.server.base}/import`);
  await page.fill('input[name="test_set_name"]', 'e2e-set');
  await page.fill('input[name="pair"]', 'en-de');
  await page.setInputFiles('input[name="file"]', { name: 'e2e.tsv', mimeType: 'text/tab-separated-values', buffer: tsv() });
  await page.click('#import-form button[type="submit"]');
  await page.waitForSelector('#import-done', { timeout: 15_000 });
  assert.match(await text(page, '#import-done'), /e2e-set en-de \(40 segments\).*80 system outputs/);
  // A broken file: the errors name the file and line, nothing is saved.
  await page.setInputFiles('input[name="file"]', { name: 'broken.tsv', mimeType: 'text/plain', buffer: Buffer.from('segment_id\tsource\n1\tok\n2\ta\tb\n') });
  await page.fill('input[name="test_set_name"]', 'broken');
  await page.fill('input[name="pair"]', 'en-de');
  await page.click('#import-form button[type="submit"]');
  await page.waitForSelector('#import-errors', { timeout: 15_000 });
  assert.match(await text(page, '#import-errors'), /broken\.tsv, line 3/);
  assert.doesNotMatch(await text(page, '#test-sets'), /broken/);
  // What was typed is kept: only the file must be chosen again.
  assert.equal(await page.inputValue('input[name="test_set_name"]'), 'broken');
  assert.equal(await page.inputValue('input[name="pair"]'), 'en-de');
  assert.match(await text(page, '#import-form'), /choose it again/);
  // The documents file's line format is told on the page.
  assert.match(await page.textContent('#import-formats'), /DOMAIN DOCNAME/);

  // DA adequacy: the design's implications update while editing.
  const designer = await openHydrated(context, `${env.server.base}/campaigns/new`);
  await designer.fill('#campaign-name', 'E2E adequacy');
  await chooseTestSet(designer, 'e2e-set');
  await designer.fill('#redundancy', '3');
  await designer.fill('#payment', '2');
  await designer.waitForFunction(() => document.querySelector('#imp-hits')?.textContent === '2');
  assert.equal(await text(designer, '#imp-assignments'), '6');
  assert.equal(await text(designer, '#imp-workers'), '3');
  assert.equal(await text(designer, '#imp-cost'), '12.00');
  assert.equal(await text(designer, '#imp-minutes'), '30 min');
  assert.equal(await text(designer, '#imp-per-system'), '210');
  // The target language comes from the test set; the statement is METHOD §1's.
  assert.equal(await designer.inputValue('#target-language'), 'German');
  assert.match(await designer.inputValue('#statement'), /adequately expresses the meaning of the gray text/);
  // The builder refuses what it cannot place, and says why.
  // (The check follows every edit; wait for the answer to this one.)
  const shows = (selector, pattern) => designer.waitForFunction(
    ([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ''), [selector, pattern], { timeout: 15_000 });
  await designer.fill('#bad-refs', '40');
  await shows('#design-problems', '40 bad references .* system items');
  await designer.fill('#bad-refs', '10');
  await shows('#design-ok', 'The design builds: 2 HITs');
  // Degraded items are previewed before launch.
  const rows = await designer.$$('#degraded-preview tbody tr');
  assert.ok(rows.length >= 2, 'degraded samples shown');
  assert.match(await text(designer, '#degraded-preview tbody tr:first-child'), /deleted \d word/);
  // The dry run, by keyboard: a crowd with a third careless workers, systems 20 points apart.
  await designer.fill('#dry-careless', '34');
  await designer.fill('#dry-spread', '20');
  await designer.focus('#dry-run');
  await designer.keyboard.press('Enter');
  await designer.waitForSelector('#dry-run-summary', { timeout: 60_000 });
  assert.match(await text(designer, '#dry-run-summary'), /^\d+ simulated runs of 2 HITs \(600 judgments each\)/);
  const widths = await designer.$$eval('#dry-run-systems tbody tr td:nth-child(2)', (tds) => tds.map((td) => Number(td.textContent)));
  assert.equal(widths.length, 2);
  assert.ok(widths.every((w) => w > 0 && w < 3), `interval widths ${widths}`);
  assert.match(await text(designer, '#dry-separated'), /^\d+%$/);
  assert.match(await text(designer, '#dry-removed'), /^\d+\.\d of \d+\.\d$/);
  const launched = await createAndLaunch(designer);
  assert.match(launched, /Launched: 2 HITs, 200 items/);
  // The organizer can inspect a stored HIT item by item.
  await designer.waitForFunction(() => document.querySelectorAll('#hit-items tbody tr').length === 100, null, { timeout: 15_000 });
  const types = await designer.$$eval('#hit-items tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.textContent));
  assert.equal(types.filter((t) => t === 'BAD_REF').length, 10);
  assert.equal(types.filter((t) => t === 'REF').length, 10);
  assert.match(await text(designer, '#hit-items'), /deleted \d word/);
  const link = await text(designer, '#crowd-link');
  assert.match(link, /\/c\/[A-Za-z0-9_-]+\?sig=[0-9a-f]{64}$/);
  assert.equal(await text(designer, '#p-open'), '6');
  // The status page polls: a crowd worker starting shows up without a reload.
  const crowd = await fetch(`${link}&workerId=E2E-WORKER&assignmentId=A1&hitId=H1`, { redirect: 'manual' });
  assert.equal(crowd.status, 303);
  await designer.waitForFunction(() => document.querySelector('#p-active')?.textContent === '1', null, { timeout: 15_000 });
  assert.equal(await text(designer, '#p-open'), '5');

  // Word order: other defaults and questions.
  const woj = await openHydrated(context, `${env.server.base}/campaigns/new`);
  await woj.fill('#campaign-name', 'E2E word order');
  await woj.selectOption('#task', 'word-order');
  await chooseTestSet(woj, 'e2e-set');
  await woj.waitForSelector('#woj-q1');
  assert.equal(await woj.inputValue('#hit-length'), '50');
  assert.match(await woj.inputValue('#woj-q1'), /How difficult would it be to grasp the meaning/);
  await woj.fill('#judgments-wanted', '25');
  await woj.waitForFunction(() => /The design builds: 2 HITs/.test(document.querySelector('#design-ok')?.textContent ?? ''), null, { timeout: 15_000 });
  assert.match(await createAndLaunch(woj), /Launched: 2 HITs, 100 items/);
  assert.deepEqual(page.assayErrors.concat(designer.assayErrors, woj.assayErrors), []);
  await context.close();

  // The crowd worker was sent to a HIT, and is sent back to it.
  const first = crowd.headers.get('location');
  assert.match(first, /^\/work\/[A-Za-z0-9_-]{43}$/);
  const again = await fetch(`${link}&workerId=E2E-WORKER&assignmentId=A1&hitId=H1`, { redirect: 'manual' });
  assert.equal(again.headers.get('location'), first, 'the same worker resumes the same HIT');
  // Knowing the worker id alone (another MTurk assignment) does not hand over that HIT: that
  // platform session gets a HIT of its own (issue 17, finding 6).
  const other = await fetch(`${link}&workerId=E2E-WORKER&assignmentId=A2&hitId=H1`, { redirect: 'manual' });
  assert.equal(other.status, 303);
  assert.match(other.headers.get('location'), /^\/work\/[A-Za-z0-9_-]{43}$/);
  assert.notEqual(other.headers.get('location'), first);
  // One hex digit of the signature changed (always to another digit: a signature may start with 0).
  const forged = await fetch(link.replace(/sig=(.)/, (_, c) => `sig=${c === '0' ? '1' : '0'}`), { redirect: 'manual' });
  assert.equal(forged.status, 403);

  // An annotator with an account sees the campaign in the queue.
  const annotator = await env.browser.newContext();
  const home = await openHydrated(annotator, `${env.server.base}/login`);
  await signIn(home, DEMO.annotator);
  await home.waitForSelector('#queue', { timeout: 15_000 });
  assert.match(await text(home, '#queue'), /E2E adequacy/);
  assert.match(await text(home, '#queue'), /E2E word order/);
  await annotator.close();
});

// Issue 18, item 7: the campaign page as the organizer's hub. A draft has no crowd link yet and
// can be edited in the designer (its design fills the form; saved, the page shows it); launched,
// it cannot be edited, its crowd link is copied by keyboard (and "Copied" is announced), the
// page links to results, workers and the exports, and lists each annotator's work.
test('the campaign page: edit a draft, no crowd link before launch, copy it after, every link, each annotator', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.base });
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.goto(`${env.server.base}/campaigns/new`);
  await page.waitForSelector('body[data-hydrated="true"]', { timeout: 30_000 });
  await page.fill('#campaign-name', 'Hub draft');
  await chooseTestSet(page, 'Assay demo news de-en');
  await page.waitForSelector('#design-ok', { timeout: 15_000 });
  await page.click('#create-campaign');
  await page.waitForURL(/\/campaigns\/\d+$/, { timeout: 15_000 });
  const id = page.url().split('/').pop();
  await page.waitForSelector('#campaign-hub', { timeout: 15_000 });
  // A draft: no crowd link (it would only answer "No work right now"), an edit button.
  assert.equal(await page.locator('#crowd-link').count(), 0);
  assert.match(await text(page, '#crowd-link-later'), /appears here once the campaign is launched/);
  assert.equal(await page.getAttribute('#hub-results', 'href'), `/campaigns/${id}/results`);
  assert.equal(await page.getAttribute('#hub-workers', 'href'), `/campaigns/${id}/workers`);
  const exports = await page.$$eval('#hub-exports a.export', (as) => as.map((a) => a.getAttribute('href')));
  assert.ok(exports.includes(`/campaigns/${id}/export/judgments.csv?filter=cleaned`), exports.join(' '));
  assert.ok(exports.includes(`/campaigns/${id}/export/all.zip?filter=raw`), exports.join(' '));
  assert.equal(await page.getAttribute('#hub-mturk', 'href'), `/campaigns/${id}/mturk-batch.csv`);

  // Edit the draft: the designer opens on its design; the change is saved.
  await page.click('#edit-draft');
  await page.waitForURL(new RegExp(`/campaigns/${id}/edit$`), { timeout: 15_000 });
  await page.waitForSelector('#editing-draft', { timeout: 15_000 });
  await page.waitForFunction(() => document.querySelector('#campaign-name')?.value === 'Hub draft', null, { timeout: 15_000 });
  // The test set (its list arrives on its own) is chosen, and its systems are ticked.
  await page.waitForFunction(() => Number(document.querySelector('#test-set')?.value ?? 0) > 0, null, { timeout: 15_000 });
  await page.waitForSelector('#systems input[name="system"]:checked', { timeout: 15_000 });
  await page.fill('#campaign-name', 'Hub draft, edited');
  await page.fill('#redundancy', '2');
  await page.waitForFunction(() => /The design builds/.test(document.querySelector('#design-ok')?.textContent ?? ''), null, { timeout: 15_000 });
  assert.deepEqual(await axeViolations(page), [], 'axe-core: the designer on a draft');
  await page.click('#save-draft');
  await page.waitForURL(new RegExp(`/campaigns/${id}$`), { timeout: 15_000 });
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Hub draft, edited', null, { timeout: 15_000 });

  // Launched: no more editing; the crowd link, copied by keyboard.
  await page.click('#launch');
  await page.waitForFunction(() => document.querySelector('#campaign-state')?.textContent === 'launched', null, { timeout: 30_000 });
  await page.waitForSelector('#crowd-link', { timeout: 15_000 });
  assert.equal(await page.locator('#edit-draft').count(), 0);
  assert.match(await text(page, '#hub-no-edit'), /cannot be edited/);
  const link = await text(page, '#crowd-link');
  await page.focus('#copy-crowd-link');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#copy-status')?.textContent === 'Copied.', null, { timeout: 10_000 });
  assert.equal(await page.locator('[aria-live="polite"]#copy-status').count(), 1);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  // Without the Clipboard API (plain HTTP from another host is not a secure context) the link
  // is selected and copied the old way, and the page keeps working.
  await page.evaluate(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true }));
  await page.focus('#copy-crowd-link');
  await page.keyboard.press('Enter');
  await page.waitForFunction((l) => window.getSelection().toString().trim() === l, link, { timeout: 10_000 });
  assert.match(await text(page, '#copy-status'), /^Copied\.$|Ctrl\+C/);

  // A crowd worker starts: the annotators' table lists them with a HIT in progress.
  const crowd = await fetch(`${link}&worker=HUB-1`, { redirect: 'manual' });
  assert.equal(crowd.status, 303);
  await page.waitForSelector('#annotators tr.annotator-row[data-worker="link:HUB-1"][data-active="1"]', { timeout: 15_000 });
  // The crowd worker's page offers no "Sign in" (they have no account here).
  const worker = await env.browser.newContext();
  const work = await openHydrated(worker, `${link}&worker=HUB-2`);
  assert.match(work.url(), /\/work\//);
  assert.equal(await work.locator('header a[href="/login"]').count(), 0);
  assert.equal(await work.locator('header a.brand').count(), 0);
  await worker.close();
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/campaign-1280.png`, fullPage: false });
  assert.deepEqual(await axeViolations(page), [], 'axe-core: the campaign page (1280 px)');

  // The edit page of a launched campaign says why it cannot be edited.
  await page.goto(`${env.server.base}/campaigns/${id}/edit`);
  await page.waitForSelector('#edit-error', { timeout: 15_000 });
  assert.match(await text(page, '#edit-error'), /only a draft can be edited/);
  assert.equal(await page.locator('#save-draft').isDisabled(), true);

  // On a phone: nothing scrolls sideways.
  const phone = await env.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await openHydrated(phone, `${env.server.base}/login`);
  await signIn(small, DEMO.organizer);
  await small.goto(`${env.server.base}/campaigns/${id}`);
  await small.waitForSelector('#annotators', { timeout: 30_000 });
  assert.ok(await small.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling on a phone');
  if (SHOTS) await small.screenshot({ path: `${SHOTS}/campaign-390.png`, fullPage: false });
  assert.deepEqual(await axeViolations(small), [], 'axe-core: the campaign page on a phone');
  assert.deepEqual(page.assayErrors.concat(small.assayErrors), []);
  await phone.close();
  await context.close();
});

// Issue 20: ESA and MQM designed in the browser on the demo's documents: the fields of each,
// the builder's HIT count, the whole document as context on the worker's screen; MQM's error
// categories edited as text, a bad line refused by its number.
test('an organizer designs an ESA and an MQM campaign on documents in the browser', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.organizer);
  const esa = await openHydrated(context, `${env.server.base}/campaigns/new`);
  await esa.fill('#campaign-name', 'E2E ESA');
  await esa.selectOption('#task', 'esa');
  await chooseTestSet(esa, 'demo de-en');
  await esa.waitForSelector('#hit-minutes');
  assert.equal(await esa.inputValue('#hit-minutes'), '60');
  assert.equal(await esa.inputValue('#seconds-per-word'), '0.8');
  assert.equal(await esa.locator('#hit-length').count(), 0, 'no item count: HITs are filled with whole documents');
  assert.equal(await esa.locator('#practice-items').count(), 1, 'ESA offers practice');
  assert.match(await esa.textContent('#practice-hint'), /With error spans \(ESA, MQM\), a careful answer marks no major error/);
  assert.equal(await esa.locator('#mqm-taxonomy').count(), 0);
  await esa.fill('#hit-minutes', '2');
  await esa.selectOption('#document-context', 'whole');
  await esa.check('#document-score');
  assert.ok(await esa.isChecked('#show-prefilled'), 'pre-filled spans (ESA-AI) are shown by default');
  assert.match(await esa.textContent('label:has(#show-prefilled)'), /pre-filled error spans/);
  await esa.waitForFunction(() => /The design builds: \d+ HITs/.test(document.querySelector('#design-ok')?.textContent ?? ''), null, { timeout: 15_000 });
  const hits = Number((await text(esa, '#design-ok')).match(/(\d+) HITs/)[1]);
  assert.ok(hits >= 2, `${hits} HITs of about two minutes`);
  assert.match(await createAndLaunch(esa), new RegExp(`Launched: ${hits} HITs`));
  await esa.waitForSelector('#crowd-link');
  const link = await esa.textContent('#crowd-link');
  const worker = await openHydrated(await env.browser.newContext(), `${link.trim()}&worker=E2E-DOC`);
  await worker.click('#start');
  await worker.waitForSelector('.spans-screen #candidate .tok');
  assert.equal(await worker.locator('.doc-context.before').count(), 0, 'the first segment has nothing before it');
  assert.ok((await worker.locator('.doc-context.after li').count()) >= 1, 'the whole document: the rest shown after');

  // MQM: its own fields; a category list edited as text.
  const mqm = await openHydrated(context, `${env.server.base}/campaigns/new`);
  await mqm.fill('#campaign-name', 'E2E MQM');
  await mqm.selectOption('#task', 'mqm');
  await chooseTestSet(mqm, 'demo de-en');
  await mqm.waitForSelector('#mqm-taxonomy');
  assert.match(await mqm.inputValue('#mqm-taxonomy'), /Accuracy\/Mistranslation/);
  assert.equal(await mqm.inputValue('#mqm-max-errors'), '5');
  // MQM scores segments by their errors; like Appraise's document task it may also ask a
  // document's score at the document's end, off unless the organizer asks for it.
  assert.equal(await mqm.locator('#document-score').count(), 1, "MQM offers the document's score");
  assert.equal(await mqm.isChecked('#document-score'), false, "MQM's document score is off by default");
  await mqm.fill('#mqm-taxonomy', 'Accuracy/Mistranslation\nFluency//Grammar\n');
  await mqm.locator('#mqm-taxonomy').blur();
  await mqm.waitForSelector('#mqm-taxonomy-error');
  assert.match(await text(mqm, '#mqm-taxonomy-error'), /line 2/);
  await mqm.fill('#mqm-taxonomy', 'Accuracy/Mistranslation\nAccuracy/Omission\nFluency/Grammar\nStyle/Awkward\n');
  await mqm.locator('#mqm-taxonomy').blur();
  await mqm.waitForFunction(() => !document.querySelector('#mqm-taxonomy-error'));
  await mqm.fill('#hit-minutes', '2');
  await mqm.waitForFunction(() => /The design builds/.test(document.querySelector('#design-ok')?.textContent ?? ''), null, { timeout: 15_000 });
  assert.match(await createAndLaunch(mqm), /Launched: \d+ HITs/);
  assert.deepEqual(await axeViolations(mqm), []);
  await context.close();
});

// Issue 18 item 8: the designer explains itself. A 30-segment, 4-system set (the size the issue
// tried): word order's default design builds; every field says what it means (read with it by a
// screen reader); only the chosen task's fields are shown; the preview speaks plainly; what the
// design implies stays beside the form at 1,280 px and a summary line stays in sight on a phone.
test('the designer explains: help for every field, the task\'s fields only, the summary beside the form', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.organizer);
  const rows = ['segment_id\tsource\treference\tsystem\toutput'];
  for (let i = 1; i <= 30; i++) {
    for (const [k, sys] of ['Alder', 'Birch', 'Cedar', 'Damson'].entries()) {
      rows.push(`${i}\t${sentence(i, 0)}\t${sentence(i, 1)}\t${sys}\t${sentence(i, 2 + k)}`);
    }
  }
  await page.goto(`${env.server.base}/import`);
  await page.fill('input[name="test_set_name"]', 'small-set');
  await page.fill('input[name="pair"]', 'en-de');
  await page.setInputFiles('input[name="file"]', { name: 'small.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from(rows.join('\n') + '\n') });
  await page.click('#import-form button[type="submit"]');
  await page.waitForSelector('#import-done', { timeout: 15_000 });

  const d = await openHydrated(context, `${env.server.base}/campaigns/new`);
  await d.fill('#campaign-name', 'Small word order');
  await d.selectOption('#task', 'word-order');
  await chooseTestSet(d, 'small-set');
  await d.waitForFunction(() => /The design builds: 4 HITs/.test(document.querySelector('#design-ok')?.textContent ?? ''), null, { timeout: 15_000 });
  // Every number, text and select field of the form has help it is described by.
  const undescribed = await d.$$eval('.designer-form input:not([type=checkbox]), .designer-form select', (els) =>
    els.filter((el) => el.id !== 'campaign-name' && el.id !== 'task' && el.id !== 'test-set' && el.id !== 'interface-language')
      .filter((el) => {
        const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
        return !ids.some((id) => (document.getElementById(id)?.textContent ?? '').trim().length > 10);
      })
      .map((el) => el.id));
  assert.deepEqual(undescribed, []);
  assert.match(await d.textContent('#woj-permutations-help'), /words out of order/);
  // The preview describes reorderings plainly, never a word that stayed where it was.
  await d.waitForSelector('#degraded-preview tbody tr');
  const changes = await d.$$eval('#degraded-preview td[data-label="What changed"]', (tds) => tds.map((t) => t.textContent));
  for (const c of changes) {
    assert.doesNotMatch(c, /from word (\d+) to word \1\b/);
    assert.match(c, /moved “.+” \d+ words? (later|earlier)|changed the order|swapped|copied|replaced|deleted/);
  }
  // Only the task's fields: fluency has its own time per judgment and no choice of damage.
  assert.equal(await d.$('#degradation'), null, 'word order reorders references; no damage policy');
  await d.selectOption('#task', 'da-fluency');
  await d.waitForSelector('#sec-fluency');
  assert.equal(await d.$('#sec-adequacy'), null);
  assert.equal(await d.$('#degradation'), null);
  await d.selectOption('#task', 'da-adequacy');
  await d.waitForSelector('#degradation');
  assert.equal(await d.$('#sec-fluency'), null);
  // Beside the form, and still in sight far down the form.
  await d.locator('#seed').scrollIntoViewIfNeeded();
  const form = await d.locator('.designer-form').boundingBox();
  const summary = await d.locator('.design-summary').boundingBox();
  assert.ok(summary.x >= form.x + form.width, `summary at x=${summary.x}, form ends at ${form.x + form.width}`);
  assert.ok(summary.y >= 0 && summary.y < 900, `summary in view at y=${summary.y}`);
  assert.ok(await d.isVisible('#create-campaign'));
  assert.equal(await d.isVisible('.design-bar'), false);
  // On a phone: one column, no sideways scrolling, the summary line in sight.
  await d.setViewportSize({ width: 390, height: 800 });
  await d.locator('#seed').scrollIntoViewIfNeeded();
  assert.ok(await d.isVisible('.design-bar'));
  const bar = await d.locator('.design-bar').boundingBox();
  assert.ok(bar.y + bar.height <= 801 && bar.y > 600, `summary line at the bottom (y=${bar.y})`);
  assert.match(await d.textContent('.design-bar'), /HITs · \d+ assignments/);
  assert.equal(await d.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false);
  assert.deepEqual(page.assayErrors.concat(d.assayErrors), []);
  await context.close();
});
