// Browser bundles: each family of pages loads its own wasm (app::ui::BrowserBundle). A link from
// a page of one bundle to a page of another loads that page from the server with its own bundle;
// the back button returns to the first page, live again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverAndBrowser, startServer, openHydrated, waitHydrated, signIn, ok, DEMO } from './harness.js';

const env = serverAndBrowser();

// Records the wasm files `page` requests, by file name without its hash (`assay-annotate_bg.wasm`
// for `assay-annotate-<hash>_bg.wasm`: app::ui::assets).
function recordWasm(page) {
  const files = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith('.wasm')) files.push(path.split('/').pop().replace(/-[0-9a-f]{16}(?=_bg\.wasm$)/, ''));
  });
  return files;
}

test('an annotator downloads the sign-in bundle, then the work bundle of the HIT it opens', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const wasm = recordWasm(page);
  await page.goto(`${env.server.base}/login`);
  await waitHydrated(page);
  await signIn(page, DEMO.annotator);
  await page.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
  assert.deepEqual([...new Set(wasm)], ['assay-annotate_bg.wasm']);
  // Open the DA HIT from the home page's list, as an annotator does: its page comes from the
  // server with the DA work bundle.
  await page.click('#my-hits li[data-task="da-adequacy"] a[href^="/work/"]');
  await page.waitForSelector('#work[data-task="da-adequacy"]', { timeout: 15_000 });
  await waitHydrated(page);
  assert.deepEqual([...new Set(wasm)], ['assay-annotate_bg.wasm', 'assay-da_bg.wasm']);
  await context.close();
});

// A crowd worker's page (issue 37 item 5): the HIT's protocol's bundle, never another's.
test("a DA HIT's page loads the DA bundle and never the spans one; an ESA HIT's the spans one", async () => {
  const context = await env.browser.newContext();
  const signin = await openHydrated(context, `${env.server.base}/login`);
  await signIn(signin, DEMO.annotator);
  await signin.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
  const mine = await ok(signin, 'my_assignments');
  await signin.close();
  // Opens a work page, presses Start (the item is then drawn by the bundle) and returns the
  // wasm files the page loaded.
  const open = async (url, task, drawn) => {
    const page = await context.newPage();
    const wasm = recordWasm(page);
    await page.goto(url);
    await page.waitForURL(/\/work\//, { timeout: 15_000 });
    await waitHydrated(page);
    await page.waitForSelector(`#work[data-task="${task}"]`, { timeout: 15_000 });
    await page.click('#start');
    await page.waitForSelector(drawn, { timeout: 15_000 });
    await page.close();
    return [...new Set(wasm)];
  };
  // The demo annotator's DA and word-order HITs.
  const url = (task) => `${env.server.base}/work/${mine.find((a) => a.task === task).assignment}`;
  assert.deepEqual(await open(url('da-adequacy'), 'da-adequacy', '#score'), ['assay-da_bg.wasm']);
  assert.deepEqual(await open(url('word-order'), 'word-order', '#q1'), ['assay-woj_bg.wasm']);
  // A crowd worker of the demo's ESA campaign, arriving by its link.
  const organizer = await openHydrated(await env.browser.newContext(), `${env.server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const esa = (await ok(organizer, 'list_campaigns')).find((c) => c.task === 'esa').id;
  const link = (await ok(organizer, 'campaign_progress', { campaign_id: String(esa) })).crowd_link;
  await organizer.context().close();
  assert.deepEqual(await open(`${link}&worker=E2E-BUNDLES`, 'esa', '#candidate .tok'), ['assay-spans_bg.wasm']);
  await context.close();
});

test('a link into another family of pages loads that page with its own bundle, and back returns', async () => {
  const context = await env.browser.newContext();
  const page = await openHydrated(context, `${env.server.base}/login`);
  const wasm = recordWasm(page);
  const errors = page.assayErrors;
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  assert.deepEqual(wasm, [], 'signing in stays on the page already loaded');

  // "/" is an annotate page; the header's Campaigns link leads into the campaigns bundle.
  const entries = await page.evaluate(() => history.length);
  await page.click('header nav a[href="/campaigns"]');
  await page.waitForURL(`${env.server.base}/campaigns`, { timeout: 15_000 });
  await waitHydrated(page);
  assert.equal(await page.evaluate(() => history.length), entries + 1, 'one history entry for one link');
  await page.waitForSelector('#campaigns', { timeout: 15_000 });
  assert.match(await page.textContent('#campaigns'), /Demo: DA adequacy/);
  assert.deepEqual(wasm, ['assay-campaigns_bg.wasm']);
  const live = await page.evaluate(() => document.body.dataset.hydrated);
  assert.equal(live, 'true');

  // Within the bundle, links stay in the page: no new document, no new wasm.
  await page.evaluate(() => { window.sameDocument = true; });
  await page.click('a[href="/campaigns/new"]');
  await page.waitForURL(`${env.server.base}/campaigns/new`, { timeout: 15_000 });
  await page.waitForSelector('#campaign-name', { timeout: 15_000 });
  assert.equal(await page.evaluate(() => window.sameDocument), true);
  assert.deepEqual(wasm, ['assay-campaigns_bg.wasm']);

  // Back twice: /campaigns (same document), then / (a new document, the annotate bundle).
  await page.goBack();
  await page.waitForURL(`${env.server.base}/campaigns`, { timeout: 15_000 });
  await page.goBack();
  await page.waitForURL(`${env.server.base}/`, { timeout: 15_000 });
  await waitHydrated(page);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  assert.equal(wasm.at(-1), 'assay-annotate_bg.wasm');
  assert.deepEqual(errors, []);
  await context.close();
});

test('every page names the bundle of its family', async () => {
  const expected = {
    // A HIT that does not exist: its page (which says so) with the DA work bundle.
    '/': 'annotate', '/login': 'annotate', '/invite/x': 'annotate', '/work/x': 'da',
    '/import': 'campaigns', '/campaigns': 'campaigns', '/campaigns/new': 'campaigns', '/campaigns/1': 'campaigns',
    '/admin/users': 'accounts', '/account/tokens': 'accounts',
    '/results': 'results', '/campaigns/1/results': 'results', '/campaigns/1/workers': 'results', '/campaigns/1/metrics': 'results',
    '/studies': 'studies', '/studies/new': 'studies', '/studies/1': 'studies', '/history': 'studies',
    '/no/such/page': 'annotate',
  };
  // Signed in as the admin, who may open every page (a page that needs an account answers a
  // signed-out visitor with the sign-in gate's page, which loads no bundle: checked below).
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.server.base}/login`);
  await waitHydrated(page);
  await signIn(page, DEMO.admin);
  await page.waitForSelector('section[data-role="admin"], section[data-role="organizer"]', { timeout: 15_000 });
  const bundlesOf = (html) => [...new Set(html.match(/assay-[a-z]+(?=-[0-9a-f]{16}(_bg\.wasm|\.js))/g))];
  for (const [path, bundle] of Object.entries(expected)) {
    const html = await (await context.request.get(`${env.server.base}${path}`)).text();
    assert.deepEqual(bundlesOf(html), [`assay-${bundle}`], path);
  }
  await context.close();
  // A HIT's page names the bundle of its protocol, whoever asks (the page itself refuses).
  const annotator = await openHydrated(await env.browser.newContext(), `${env.server.base}/login`);
  await signIn(annotator, DEMO.annotator);
  await annotator.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
  const work = { 'da-adequacy': 'da', 'da-fluency': 'da', 'da-source': 'da', 'word-order': 'woj', ranking: 'rank', esa: 'spans', mqm: 'spans' };
  for (const a of await ok(annotator, 'my_assignments')) {
    const html = await (await annotator.context().request.get(`${env.server.base}/work/${a.assignment}`)).text();
    assert.deepEqual(bundlesOf(html), [`assay-${work[a.task]}`], a.task);
  }
  await annotator.context().close();
  const gate = await fetch(`${env.server.base}/import`);
  assert.equal(gate.status, 401);
  assert.deepEqual(bundlesOf(await gate.text()), [], 'the sign-in gate loads no bundle');
});

// Browsers ask for /favicon.ico at every page load, and the server answers with the not-found
// page. A bundle file served while such a page rendered once took its status (404, with the
// file as the body): the browser refused the module and the page never hydrated.
test('the bundle files are answered 200 while not-found pages render beside them', async () => {
  const files = ['/pkg/assay-annotate.js', '/pkg/assay-results.js', '/assay.css'];
  const wrong = [];
  const status = async (path) => {
    const r = await fetch(`${env.server.base}${path}`);
    await r.arrayBuffer();
    return r.status;
  };
  await Promise.all([
    ...Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 60; i++) assert.equal(await status('/favicon.ico'), 404);
    }),
    ...Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; i < 60; i++) {
        const path = files[(w + i) % files.length];
        const got = await status(path);
        if (got !== 200) wrong.push(`${path}: ${got}`);
      }
    }),
  ]);
  assert.deepEqual(wrong, []);
});

// Issue 18 item 5: the bundles went out uncompressed (the server serves precompressed files, but
// none were made), so a phone on a slow network waited for three times the bytes. A browser that
// accepts gzip gets the .gz beside each file, with the file's own type; one that does not gets
// the file itself; both are the same bytes once decoded.
test('the bundles and the stylesheet are sent compressed to browsers that accept it', async () => {
  const { gunzipSync } = await import('node:zlib');
  for (const path of ['/pkg/assay-annotate_bg.wasm', '/pkg/assay-annotate.js', '/assay.css']) {
    const plain = await fetch(`${env.server.base}${path}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.status, 200, path);
    assert.equal(plain.headers.get('content-encoding'), null, path);
    const body = Buffer.from(await plain.arrayBuffer());
    // Node's fetch would decode: ask with http to see the bytes as sent.
    const sent = await new Promise((resolve, reject) => {
      import('node:http').then(({ get }) => get(`${env.server.base}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject));
    });
    assert.equal(sent.headers['content-encoding'], 'gzip', path);
    assert.equal(sent.headers['content-type'], plain.headers.get('content-type'), path);
    assert.ok(sent.body.length < body.length / 2, `${path}: ${sent.body.length} bytes sent for ${body.length}`);
    assert.ok(gunzipSync(sent.body).equals(body), `${path}: the same file once decoded`);
  }
});

// Issue 15, the first start: scripts/run builds the bundle with every page first and starts
// Assay; the five page-family bundles follow while it runs. Until a family's bundle is there,
// its pages hydrate with the one with every page; once its wasm is there, with their own.
test('the bundle with every page serves each family until its own bundle is built', async () => {
  const built = join(process.env.LEPTOS_SITE_ROOT ?? join(import.meta.dirname, '..', '..', 'target', 'site'));
  const site = mkdtempSync(join(tmpdir(), 'assay-e2e-site-'));
  cpSync(join(built, 'assay.css'), join(site, 'assay.css'));
  mkdirSync(join(site, 'pkg'));
  const copy = (prefix) => {
    const files = readdirSync(join(built, 'pkg')).filter((f) => f.startsWith(prefix));
    assert.ok(files.some((f) => f.endsWith('_bg.wasm')), `${prefix}: built (scripts/test builds it)`);
    // As scripts/lib.sh installs a bundle: everything else first, the wasm last by renaming.
    for (const f of files.filter((f) => !f.endsWith('_bg.wasm'))) cpSync(join(built, 'pkg', f), join(site, 'pkg', f));
    const wasm = files.find((f) => f.endsWith('_bg.wasm'));
    cpSync(join(built, 'pkg', wasm), join(site, 'pkg', `.${wasm}.new`));
    renameSync(join(site, 'pkg', `.${wasm}.new`), join(site, 'pkg', wasm));
  };
  copy('assay-all');
  const server = await startServer({ siteRoot: site });
  const context = await env.browser.newContext();
  try {
    const page = await context.newPage();
    const wasm = recordWasm(page);
    await page.goto(`${server.base}/login`);
    await waitHydrated(page);
    await signIn(page, DEMO.organizer);
    await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
    // Every page is in this bundle: the campaigns page opens in the same document.
    await page.evaluate(() => { window.sameDocument = true; });
    await page.click('header nav a[href="/campaigns"]');
    await page.waitForSelector('#campaigns', { timeout: 15_000 });
    assert.match(await page.textContent('#campaigns'), /Demo: DA adequacy/);
    assert.equal(await page.evaluate(() => window.sameDocument), true);
    assert.deepEqual(wasm, ['assay-all_bg.wasm']);

    // The campaigns bundle arrives while the server runs: its pages now load it; the others
    // still load the bundle with every page.
    copy('assay-campaigns');
    await page.goto(`${server.base}/campaigns`);
    await waitHydrated(page);
    await page.waitForSelector('#campaigns', { timeout: 15_000 });
    await page.goto(`${server.base}/results`);
    await waitHydrated(page);
    assert.deepEqual(wasm, ['assay-all_bg.wasm', 'assay-campaigns_bg.wasm', 'assay-all_bg.wasm']);
    assert.deepEqual(page.assayErrors ?? [], []);
  } finally {
    await context.close();
    await server.stop();
    rmSync(site, { recursive: true, force: true });
  }
});
