// Starts the real `assay serve --demo` on a free loopback port with a fresh SQLite database,
// and launches Debian's Chromium headless through playwright-core (no browser download).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

const root = resolve(import.meta.dirname, '..', '..');

export const DEMO = {
  admin: { email: 'admin@demo.assay', password: 'demo-admin-pass' },
  organizer: { email: 'organizer@demo.assay', password: 'demo-organizer-pass' },
  researcher: { email: 'researcher@demo.assay', password: 'demo-researcher-pass' },
  annotator: { email: 'annotator@demo.assay', password: 'demo-annotator-pass' },
};

// The servers this test file started: a failed wait shows what they logged.
const servers = [];

function freePort() {
  return new Promise((ok, fail) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

// Whether the socket listening on 127.0.0.1:`port` is process `pid`'s: true or false when
// Linux's /proc says, null when it cannot be told. A port from `freePort` is free only until
// somebody binds it, and `assay serve` binds only after migrating and seeding: a server of
// another test file started at the same time can take the port first and answer /health, and
// the test would go on with a server that is not its own (the same race the Rust harness
// guards against, tests/src/lib.rs `listener_is_process`).
function listenerIsProcess(port, pid) {
  let table;
  try { table = readFileSync('/proc/net/tcp', 'utf8'); } catch { return null; }
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set();
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length > 9 && f[1] === local && f[3] === '0A') inodes.add(`socket:[${f[9]}]`);
  }
  let fds;
  try { fds = readdirSync(`/proc/${pid}/fd`); } catch { return null; }
  return fds.some((fd) => {
    try { return inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`)); } catch { return false; }
  });
}

// `siteRoot`: another site than the built one (default: LEPTOS_SITE_ROOT or target/site).
// `port`: the port to try first (a test of the guard below gives a port another server holds).
// When another process takes the port before the server can listen, it is started again on
// another port (up to ten times).
export async function startServer(options = {}) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await startServerOnce({ ...options, port: attempt === 0 ? options.port : undefined });
    } catch (e) {
      if (!(e instanceof PortTaken) || attempt >= 9) throw e;
    }
  }
}

class PortTaken extends Error {}

async function startServerOnce({ siteRoot = process.env.LEPTOS_SITE_ROOT ?? join(root, 'target', 'site'), port: wanted } = {}) {
  const bin = process.env.ASSAY_BIN ?? join(root, 'target', 'debug', 'assay');
  const dataDir = mkdtempSync(join(tmpdir(), 'assay-e2e-'));
  const port = wanted ?? await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, ASSAY_DATA_DIR: dataDir, ASSAY_BIND: `127.0.0.1:${port}`, LEPTOS_SITE_ROOT: siteRoot, ASSAY_LOG: 'warn' };
  delete env.DATABASE_URL; // the embedded SQLite database in the fresh data directory
  const child = spawn(bin, ['serve', '--demo'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const server = { base, stderr: () => stderr };
  servers.push(server);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      servers.splice(servers.indexOf(server), 1);
      rmSync(dataDir, { recursive: true, force: true });
      if (stderr.includes('cannot listen on')) throw new PortTaken(stderr);
      throw new Error(`assay serve exited: ${stderr}`);
    }
    try {
      const r = await fetch(`${base}/health`);
      // Another server answering on this port is not this one: wait until this one listens
      // (if that one goes away) or exits because the port is taken.
      if (r.ok && listenerIsProcess(port, child.pid) !== false) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error(`assay serve did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Object.assign(server, {
    async stop() {
      servers.splice(servers.indexOf(server), 1);
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  // Every page of every context records what it reports (see `record`), however the test opened it.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.on('page', record);
    return context;
  };
  return browser;
}

// Records what `page` reports, so that a failed wait can say why (see `waitHydrated`): console
// messages (a panic in the bundle is logged there by console_error_panic_hook), uncaught errors,
// failed requests, HTTP errors and the documents it loads, each with the time since it opened.
// `page.assayErrors` gets the uncaught errors and the Content-Security-Policy violations (a
// script or wasm the page's policy blocked), which tests expect to be none.
export function record(page) {
  if (page.assayLog) return;
  const opened = Date.now();
  const log = [];
  const note = (what) => log.push(`${String(Date.now() - opened).padStart(6)} ms  ${what}`);
  page.assayLog = log;
  page.assayErrors = [];
  page.on('console', (m) => {
    note(`console.${m.type()}: ${m.text()} ${m.location()?.url ?? ''}`);
    if (/Content Security Policy/i.test(m.text())) page.assayErrors.push(`CSP: ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    page.assayErrors.push(String(e));
    note(`uncaught: ${e.name}: ${e.message} ${e.stack ?? ''}`);
  });
  page.on('requestfailed', (r) => note(`request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
  page.on('requestfinished', (r) => {
    if (new URL(r.url()).pathname.startsWith('/pkg/')) note(`loaded ${r.url()}`);
  });
  // An error status with its headers and the start of its body: a bundle file answered 404 with
  // the file itself as the body was the sign of a status leaking from another request.
  page.on('response', async (r) => {
    if (r.status() < 400) return;
    const i = log.length;
    note(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    const headers = await r.allHeaders().catch(() => ({}));
    const body = await r.text().catch((e) => `(no body: ${e.message.split('\n')[0]})`);
    log[i] += ` ${JSON.stringify(headers)} ${JSON.stringify(body.slice(0, 200))}`;
  });
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) note(`document ${f.url()}`); });
  page.on('load', () => note('load event'));
  page.on('crash', () => note('the page crashed'));
  page.on('close', () => note('closed'));
}

// Waits until the document in `page` has hydrated: its bundle ran `hydrate()`, which marks the
// body with data-hydrated. On failure the error tells what the page and the server reported.
export async function waitHydrated(page, timeout = 30_000) {
  try {
    await page.waitForSelector('body[data-hydrated="true"]', { timeout });
  } catch (e) {
    throw new Error(`${page.url()} did not hydrate: ${e.message.split('\n')[0]}\n${await diagnose(page)}`, { cause: e });
  }
}

// What is known about `page` and the servers: its log (see `record`), the document's state and
// the timing of its bundle's files, and the servers' log.
export async function diagnose(page) {
  const state = await Promise.race([
    page.evaluate(() => JSON.stringify({
      url: location.href,
      readyState: document.readyState,
      hydrated: document.body?.dataset.hydrated ?? null,
      pkg: performance.getEntriesByType('resource').filter((r) => r.name.includes('/pkg/')).map((r) => ({
        name: r.name.split('/').pop(), start: Math.round(r.startTime), end: Math.round(r.responseEnd), bytes: r.transferSize,
      })),
    })),
    new Promise((ok) => setTimeout(() => ok('(the page did not answer within 5 s)'), 5_000)),
  ]).catch((e) => `(the page could not be read: ${e.message})`);
  const logs = servers.map((s) => `server ${s.base} logged:\n${s.stderr().slice(-4000) || '(nothing at ASSAY_LOG=warn)'}`);
  return [`page log (ms since the page opened):`, ...(page.assayLog ?? ['(not recorded)']), `page state: ${state}`, ...logs].join('\n');
}

// Starts the server and the browser before a test file's tests and stops them after: the returned
// object's `server` and `browser` are set by the time the tests run.
export function serverAndBrowser() {
  const env = {};
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

// Opens a page and waits until the app has hydrated (the wasm bundle ran).
export async function openHydrated(context, url) {
  const page = await context.newPage();
  record(page);
  await page.goto(url);
  await waitHydrated(page);
  return page;
}

// Signs in on the login form of `page`.
export async function signIn(page, who) {
  await page.fill('input[name="email"]', who.email);
  await page.fill('input[name="password"]', who.password);
  await page.click('#login-form button[type="submit"]');
}

// Calls a server function from inside `page` (its cookies, its origin): { status, body }.
export async function call(page, name, fields = {}) {
  return page.evaluate(async ([name, fields]) => {
    const r = await fetch(`/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
    return { status: r.status, body: await r.text() };
  }, [name, fields]);
}

// `call` that must answer 200; the parsed JSON.
export async function ok(page, name, fields = {}) {
  const r = await call(page, name, fields);
  if (r.status !== 200) throw new Error(`${name}: ${r.status} ${r.body}`);
  return JSON.parse(r.body);
}

// Creates a campaign from `draft` (the designer's JSON) as the signed-in `organizer` and
// launches it: { id, link } with its crowd link. A refusal throws with the server's answer.
export async function launchDraft(organizer, draft) {
  const created = await organizer.evaluate(async (draft) => {
    const r = await fetch('/api/create_campaign', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ draft }) });
    return { status: r.status, body: await r.text() };
  }, draft);
  if (created.status !== 200) throw new Error(`create_campaign: ${created.status} ${created.body}`);
  const id = created.body.trim();
  await ok(organizer, 'launch_campaign', { campaign_id: id });
  return { id, link: (await ok(organizer, 'campaign_progress', { campaign_id: id })).crowd_link };
}

// Answers every item of `assignment` as `worker` with `score(item)`.
export async function answerAll(organizer, worker, assignment, score) {
  const items = await ok(organizer, 'assignment_items', { assignment });
  await ok(worker, 'start_work', { assignment });
  for (const it of items) {
    await ok(worker, 'submit_judgment', {
      assignment, position: String(it.position), score: String(score(it)), time_on_screen_ms: '4000', key: `k${it.position}`,
    });
  }
}

// The demo's adequacy HIT answered by the attentive demo annotator (originals by system, bad
// references low, references high) and at random by its Prolific worker; the campaign's id.
export async function answerDemoAdequacyHit(server, browser) {
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const campaignId = (await ok(organizer, 'list_campaigns')).find((c) => c.task === 'da-adequacy').id;
  const crowd = (await ok(organizer, 'list_assignments')).find((a) => a.platform === 'prolific').assignment;
  const annotator = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(annotator, DEMO.annotator);
  await annotator.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
  const own = (await ok(annotator, 'my_assignments')).find((a) => a.task === 'da-adequacy').assignment;
  const items = await ok(organizer, 'assignment_items', { assignment: own });
  const systems = [...new Set(items.map((i) => i.system).filter(Boolean))].sort();
  const base = (s) => 40 + 15 * Math.max(0, systems.indexOf(s));
  await answerAll(organizer, annotator, own, (it) => ({
    BAD_REF: 5 + (it.position % 5), REF: 97, REPEAT: base(it.system) + 3,
  }[it.item_type] ?? base(it.system) + (it.position % 7)));
  const random = await openHydrated(await browser.newContext(), `${server.base}/`);
  await answerAll(organizer, random, crowd, (it) => (it.position * 37 + 11) % 101);
  return campaignId;
}

// axe-core (npm), read once; injected into a page through the DevTools protocol, which the
// pages' Content-Security-Policy does not govern.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The serious and critical accessibility violations axe-core finds on the page as it is now,
// each as "rule: target (summary)", for an assertion that lists them when it fails.
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`));
}
