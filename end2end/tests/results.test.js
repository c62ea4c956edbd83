// The results page and the worker review page in Chromium, after the demo's adequacy HIT has been
// answered through the annotation server functions by an attentive annotator and a random
// Prolific worker: the score table, the z plot, the heatmap, a recomputation with the other
// reliability test, and one row with its scatter per worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openHydrated, waitHydrated, DEMO, signIn, call, ok, answerDemoAdequacyHit,
} from './harness.js';

let server;
let browser;
let campaignId;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  campaignId = await answerDemoAdequacyHit(server, browser);
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
  await waitHydrated(page);
  await page.waitForSelector('#scores tr.system-row', { timeout: 30_000 });
  const rows = await page.locator('#scores tr.system-row').count();
  assert.ok(rows >= 2, `${rows} system rows`);
  assert.equal(await page.locator('#z-plot svg circle.point').count(), rows);
  assert.equal(await page.locator('#heatmap svg rect').count(), rows * rows);
  assert.equal(await page.locator('#r-judgments').innerText(), '200');
  // How fresh the numbers are: when they were computed, from how many stored judgments.
  assert.match(await page.locator('#results-freshness').innerText(), /^Computed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC from the \d+ judgments stored then/);
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

test('a researcher compares the human scores with BLEU, chrF and chrF++ on the metrics page', async () => {
  const page = await openHydrated(await browser.newContext({ viewport: { width: 1280, height: 900 } }), `${server.base}/login`);
  await signIn(page, DEMO.researcher);
  await page.waitForSelector('section[data-role="researcher"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/${campaignId}/results`);
  await waitHydrated(page);
  await page.waitForSelector('#scores tr.system-row', { timeout: 30_000 });
  // From the results page, by keyboard: the link to the metrics.
  await page.locator('a', { hasText: 'Metrics' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#metrics-system tbody tr', { timeout: 30_000 });
  assert.match(page.url(), /\/metrics$/);
  const metrics = await page.locator('#metrics-system tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.metric));
  assert.deepEqual(metrics, ['BLEU', 'chrF', 'chrF++']);
  // Each correlation with its interval; a scatter per metric; the Williams heatmap between them.
  assert.match(await page.locator('#metrics-system tbody tr:first-child td').first().innerText(), /^-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]$/);
  assert.equal(await page.locator('.scatter-metric svg').count(), 3);
  assert.equal(await page.locator('#williams svg rect').count(), 9);
  assert.match(await page.locator('#metric-signatures').innerText(), /BLEU: nrefs:1\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:2\.4\.3/);
  assert.equal(await page.locator('#metrics-segment tbody tr').count(), 3);
  for (const region of await page.locator('#metrics .table-scroll').all()) assert.equal(await region.getAttribute('tabindex'), '0');
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  const culprits = await page.evaluate(() => [...document.querySelectorAll('#metrics *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className}`));
  assert.ok(wide <= 0, `the metrics page fits a phone (${wide} px too wide: ${culprits})`);
  assert.equal(await page.locator('#metrics table td:not([data-label])').count(), 0);
  if (process.env.ASSAY_SCREENSHOTS) await page.screenshot({ path: `${process.env.ASSAY_SCREENSHOTS}/metrics-390.png`, fullPage: true });
  assert.deepEqual(page.assayErrors, []);
});
