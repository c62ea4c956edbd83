// The results page and the worker review page in Chromium, after the demo's adequacy HIT has been
// answered through the annotation server functions by an attentive annotator and a random
// Prolific worker: the score table, the z plot, the heatmap, a recomputation with the other
// reliability test, and one row with its scatter per worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openHydrated, DEMO } from './harness.js';

let server;
let browser;
let campaignId;

async function signIn(page, who) {
  await page.fill('input[name="email"]', who.email);
  await page.fill('input[name="password"]', who.password);
  await page.click('#login-form button[type="submit"]');
}

async function call(page, name, fields = {}) {
  return page.evaluate(async ([name, fields]) => {
    const r = await fetch(`/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
    return { status: r.status, body: await r.text() };
  }, [name, fields]);
}

async function ok(page, name, fields) {
  const r = await call(page, name, fields);
  assert.equal(r.status, 200, `${name}: ${r.body}`);
  return JSON.parse(r.body);
}

async function answerAll(organizer, worker, assignment, score) {
  const items = await ok(organizer, 'assignment_items', { assignment });
  await ok(worker, 'start_work', { assignment });
  for (const it of items) {
    await ok(worker, 'submit_judgment', {
      assignment, position: String(it.position), score: String(score(it)), time_on_screen_ms: '4000', key: `k${it.position}`,
    });
  }
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const campaigns = await ok(organizer, 'list_campaigns');
  campaignId = campaigns.find((c) => c.task === 'da-adequacy').id;
  const all = await ok(organizer, 'list_assignments');
  const crowd = all.find((a) => a.platform === 'prolific').assignment;

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
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a researcher sees the scores, the z plot and the heatmap, and recomputes with Wilcoxon', async () => {
  const page = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(page, DEMO.researcher);
  await page.waitForSelector('section[data-role="researcher"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/${campaignId}/results`);
  await page.waitForSelector('body[data-hydrated="true"]', { timeout: 30_000 });
  await page.waitForSelector('#scores tr.system-row', { timeout: 30_000 });
  const rows = await page.locator('#scores tr.system-row').count();
  assert.ok(rows >= 2, `${rows} system rows`);
  assert.equal(await page.locator('#z-plot svg circle.point').count(), rows);
  assert.equal(await page.locator('#heatmap svg rect').count(), rows * rows);
  assert.equal(await page.locator('#r-judgments').innerText(), '200');
  assert.equal(await page.locator('#r-excluded-judgments').innerText(), '100');
  assert.equal(await page.locator('#r-excluded-workers').innerText(), '1');
  assert.match(await page.locator('#excluded').innerText(), /paired t/);
  await page.selectOption('#reliability_test', 'wilcoxon');
  await page.waitForFunction(() => /Wilcoxon/.test(document.querySelector('#excluded')?.innerText ?? ''), null, { timeout: 30_000 });
  assert.deepEqual(page.assayErrors, []);
});

test('an organizer reviews each worker with a scatter; a researcher cannot', async () => {
  const page = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/${campaignId}/workers`);
  await page.waitForSelector('#worker-table tr.worker-row', { timeout: 30_000 });
  assert.equal(await page.locator('#worker-table tr.worker-row').count(), 2);
  assert.equal(await page.locator('#worker-table tr.worker-row svg line.diagonal').count(), 2);
  assert.equal(await page.locator('#worker-table tr[data-verdict="pass"]').count(), 1);
  assert.ok(await page.locator('#worker-table tr[data-verdict="pass"] svg circle.pair').count() > 0);

  const researcher = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(researcher, DEMO.researcher);
  await researcher.waitForSelector('section[data-role="researcher"]', { timeout: 15_000 });
  await researcher.goto(`${server.base}/campaigns/${campaignId}/workers`);
  await researcher.waitForSelector('#workers-error', { timeout: 30_000 });
});
