// Bundles a phone downloads once (issue 36 item 3): the bundles and the style sheet under names
// with their content's hash, kept by the browser for good; pages revalidated by their ETag; a
// second page in the same browser loads no bundle bytes from the network.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverAndBrowser, startServer, openHydrated, waitHydrated, signIn, DEMO } from './harness.js';

const env = serverAndBrowser();
const IMMUTABLE = 'public, max-age=31536000, immutable';

// The bundle and style sheet addresses a page names: { js, wasm, css }.
async function named(base, path) {
  const html = await (await fetch(`${base}${path}`)).text();
  const js = html.match(/\/pkg\/assay-[a-z]+-[0-9a-f]{16}\.js/g);
  const wasm = html.match(/\/pkg\/assay-[a-z]+-[0-9a-f]{16}_bg\.wasm/g);
  const css = html.match(/\/assay-[0-9a-f]{16}\.css/g);
  assert.ok(js && wasm && css, `${path} names its bundle and style sheet by hash: ${html.slice(0, 1500)}`);
  return { js: js[0], wasm: wasm[0], css: css[0] };
}

test('the bundles and the style sheet are kept for good under their hashes; other files are asked about again', async () => {
  const base = env.server.base;
  const files = await named(base, '/login');
  assert.match(files.js, /^\/pkg\/assay-annotate-/);
  assert.equal(files.wasm, files.js.replace(/\.js$/, '_bg.wasm'), 'the glue and the wasm carry one hash');
  for (const path of Object.values(files)) {
    const r = await fetch(`${base}${path}`);
    await r.arrayBuffer();
    assert.equal(r.status, 200, path);
    assert.equal(r.headers.get('cache-control'), IMMUTABLE, path);
    assert.match(r.headers.get('vary') ?? '', /accept-encoding/i, path);
    // Still the precompressed copy (node's fetch accepts gzip and brotli).
    assert.match(r.headers.get('content-encoding') ?? '', /^(gzip|br)$/, path);
  }
  // The same files under their plain names: served, but never kept without asking.
  for (const path of ['/pkg/assay-annotate.js', '/pkg/assay-annotate_bg.wasm', '/assay.css']) {
    const r = await fetch(`${base}${path}`);
    await r.arrayBuffer();
    assert.equal(r.status, 200, path);
    assert.equal(r.headers.get('cache-control'), 'no-cache', path);
  }
  // A hash that is not the file's, or no such file: not found, not kept.
  for (const path of ['/pkg/assay-annotate-0123456789abcdef.js', '/pkg/assay-annotate-0123456789abcdef_bg.wasm', '/assay-0123456789abcdef.css', '/pkg/no-such-file.js']) {
    const r = await fetch(`${base}${path}`);
    await r.arrayBuffer();
    assert.equal(r.status, 404, path);
    assert.notEqual(r.headers.get('cache-control'), IMMUTABLE, path);
  }
});

// A crowd worker's page names its protocol's work bundle by hash (issue 37 item 5), kept for good
// like the others: the worker's next HIT of the same protocol downloads nothing again.
test("a HIT's page names its protocol's bundle by hash, kept for good", async () => {
  const base = env.server.base;
  const context = await env.browser.newContext();
  const page = await openHydrated(context, `${base}/login`);
  await signIn(page, DEMO.annotator);
  await page.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
  const mine = await page.evaluate(async () => (await fetch('/api/my_assignments', { method: 'POST' })).text());
  await context.close();
  for (const [task, bundle] of [['da-adequacy', 'da'], ['word-order', 'woj']]) {
    // (A work page carries its style sheet in the page: no address for it.)
    const html = await (await fetch(`${base}/work/${JSON.parse(mine).find((a) => a.task === task).assignment}`)).text();
    const files = { js: html.match(/\/pkg\/assay-[a-z]+-[0-9a-f]{16}\.js/g)?.[0], wasm: html.match(/\/pkg\/assay-[a-z]+-[0-9a-f]{16}_bg\.wasm/g)?.[0] };
    assert.ok(files.js && files.wasm, `${task}: ${html.slice(0, 1500)}`);
    assert.match(files.js, new RegExp(`^/pkg/assay-${bundle}-`), task);
    assert.equal(files.wasm, files.js.replace(/\.js$/, '_bg.wasm'), 'the glue and the wasm carry one hash');
    for (const path of [files.js, files.wasm]) {
      const r = await fetch(`${base}${path}`);
      await r.arrayBuffer();
      assert.equal(r.status, 200, path);
      assert.equal(r.headers.get('cache-control'), IMMUTABLE, path);
    }
  }
});

// A conditional GET of `path` with the tag of a copy fetched just before, tried until the page
// renders the same twice (pages are streamed: whether a resource is ready when the frame is sent
// changes the bytes, so two renders of the same content can differ): the answer, its tag, and
// the tag asked.
async function revalidate(get, path) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const copy = await get(path, {});
    await copy.text();
    const tag = copy.headers.get('etag');
    const again = await get(path, { 'if-none-match': tag });
    const body = await again.text();
    if (again.status === 304) return { again, body, tag };
    // Otherwise the page itself, under another tag.
    assert.equal(again.status, 200, path);
    assert.notEqual(again.headers.get('etag'), tag, `${path}: the same tag, yet not 304`);
  }
  assert.fail(`${path}: never answered 304 in 10 tries`);
}

test('pages are revalidated by their ETag, and never answered 304 for another content', async () => {
  const base = env.server.base;
  const first = await fetch(`${base}/login`);
  await first.text();
  assert.equal(first.headers.get('cache-control'), 'no-cache, private');
  const tag = first.headers.get('etag');
  assert.match(tag ?? '', /^W\/"[0-9a-f]+"$/);
  // The same page again (a fresh nonce, the same content): 304, without a policy of its own, so
  // that the browser keeps the one stored with its copy (whose nonce its scripts carry).
  const get = (path, headers) => fetch(`${base}${path}`, { headers });
  const { again, body, tag: asked } = await revalidate(get, '/login');
  assert.equal(body, '');
  assert.equal(again.headers.get('etag'), asked);
  assert.equal(again.headers.get('cache-control'), 'no-cache, private');
  assert.equal(again.headers.get('content-security-policy'), null);
  // Another tag: the page.
  const other = await fetch(`${base}/login`, { headers: { 'if-none-match': 'W/"0000"' } });
  assert.equal(other.status, 200);
  assert.match(await other.text(), /login-form/);

  // The start page as nobody, then as a signed-in annotator with the anonymous copy's tag: the
  // annotator's own page, not a 304 for the anonymous one.
  const anonymous = await fetch(`${base}/`);
  await anonymous.text();
  const anonymousTag = anonymous.headers.get('etag');
  const context = await env.browser.newContext();
  const page = await openHydrated(context, `${base}/login`);
  await signIn(page, DEMO.annotator);
  await page.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
  const mine = await context.request.get(`${base}/`, { headers: { 'if-none-match': anonymousTag } });
  assert.equal(mine.status(), 200);
  assert.notEqual(mine.headers().etag, anonymousTag);
  assert.match(await mine.text(), /data-role="annotator"/);
  await context.close();
});

test('a changed bundle gets a new name, and the old name is no longer served', async () => {
  const built = process.env.LEPTOS_SITE_ROOT ?? join(import.meta.dirname, '..', '..', 'target', 'site');
  const site = mkdtempSync(join(tmpdir(), 'assay-e2e-site-'));
  cpSync(join(built, 'assay.css'), join(site, 'assay.css'));
  mkdirSync(join(site, 'pkg'));
  for (const f of readdirSync(join(built, 'pkg')).filter((f) => f.startsWith('assay-annotate'))) {
    cpSync(join(built, 'pkg', f), join(site, 'pkg', f));
  }
  const server = await startServer({ siteRoot: site });
  try {
    const before = await named(server.base, '/login');
    // The glue rebuilt (a comment more), with its compressed copy, as the build writes them.
    const glue = join(site, 'pkg', 'assay-annotate.js');
    const changed = `${readFileSync(glue, 'utf8')}\n// rebuilt\n`;
    writeFileSync(`${glue}.gz`, gzipSync(changed));
    rmSync(`${glue}.br`, { force: true });
    writeFileSync(glue, changed);
    const after = await named(server.base, '/login');
    assert.notEqual(after.js, before.js);
    assert.notEqual(after.wasm, before.wasm, 'the wasm goes with its glue');
    assert.equal(after.css, before.css, 'the style sheet did not change');
    for (const path of [before.js, before.wasm]) {
      const r = await fetch(`${server.base}${path}`);
      await r.arrayBuffer();
      assert.equal(r.status, 404, `${path}: the old name is gone`);
    }
    const r = await fetch(`${server.base}${after.js}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), IMMUTABLE);
    assert.equal(await r.text(), changed);
  } finally {
    await server.stop();
    rmSync(site, { recursive: true, force: true });
  }
});

// Every response of `page` under /pkg/ or a style sheet, through the DevTools protocol:
// [{ url, bytes }], bytes as transferred from the network (0 from the cache).
async function recordFiles(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const byId = new Map();
  cdp.on('Network.responseReceived', (e) => {
    const { pathname } = new URL(e.response.url);
    if (pathname.startsWith('/pkg/') || pathname.endsWith('.css')) {
      byId.set(e.requestId, { url: pathname, bytes: 0 });
    }
  });
  cdp.on('Network.loadingFinished', (e) => { if (byId.has(e.requestId)) byId.get(e.requestId).bytes = e.encodedDataLength; });
  return () => {
    const files = [...byId.values()];
    byId.clear();
    return files;
  };
}

test('a second page in the same browser loads no bundle bytes from the network', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const files = await recordFiles(page);
  await page.goto(`${env.server.base}/login`);
  await waitHydrated(page);
  const first = files();
  const sent = (list) => list.reduce((n, f) => n + f.bytes, 0);
  assert.ok(first.some((f) => f.url.endsWith('_bg.wasm') && f.bytes > 0), JSON.stringify(first));
  assert.ok(sent(first) > 10_000, `the first page downloads the bundle: ${JSON.stringify(first)}`);
  // Another page of the same family, as a new document (a crowd worker's next HIT).
  await page.goto(`${env.server.base}/invite/no-such-invitation`);
  await waitHydrated(page);
  const second = files();
  assert.ok(second.some((f) => f.url.endsWith('_bg.wasm')), `the second page loads the bundle: ${JSON.stringify(second)}`);
  // From the browser's memory or disk cache: not a byte from the network (even a 304 would
  // count its headers).
  assert.ok(second.every((f) => f.bytes === 0), `all from the cache: ${JSON.stringify(second)}`);
  // Only the hashed names are ever asked for (the glue loads the wasm the page names).
  for (const f of [...first, ...second]) assert.match(f.url, /-[0-9a-f]{16}(\.js|_bg\.wasm|\.css)$/);
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});
