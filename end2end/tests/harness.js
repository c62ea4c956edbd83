// Starts the real `assay serve --demo` on a free loopback port with a fresh SQLite database,
// and launches Debian's Chromium headless through playwright-core (no browser download).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..', '..');

export const DEMO = {
  admin: { email: 'admin@demo.assay', password: 'demo-admin-pass' },
  organizer: { email: 'organizer@demo.assay', password: 'demo-organizer-pass' },
  researcher: { email: 'researcher@demo.assay', password: 'demo-researcher-pass' },
  annotator: { email: 'annotator@demo.assay', password: 'demo-annotator-pass' },
};

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

export async function startServer() {
  const bin = process.env.ASSAY_BIN ?? join(root, 'target', 'debug', 'assay');
  const siteRoot = process.env.LEPTOS_SITE_ROOT ?? join(root, 'target', 'site');
  const dataDir = mkdtempSync(join(tmpdir(), 'assay-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, ASSAY_DATA_DIR: dataDir, ASSAY_BIND: `127.0.0.1:${port}`, LEPTOS_SITE_ROOT: siteRoot, ASSAY_LOG: 'warn' };
  delete env.DATABASE_URL; // the embedded SQLite database in the fresh data directory
  const child = spawn(bin, ['serve', '--demo'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`assay serve exited: ${stderr}`);
    try {
      const r = await fetch(`${base}/health`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error(`assay serve did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

// Opens a page and waits until the app has hydrated (the wasm bundle ran).
export async function openHydrated(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('body[data-hydrated="true"]', { timeout: 30_000 });
  page.assayErrors = errors;
  return page;
}
