// The results page and the worker review page in Chromium, after the demo's adequacy HIT has been
// answered through the annotation server functions by an attentive annotator and a random
// Prolific worker: the score table, the z plot, the heatmap, a recomputation with the other
// reliability test, and one row with its scatter per worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer, launchBrowser, openHydrated, waitHydrated, DEMO, signIn, call, ok, answerDemoAdequacyHit, axeViolations,
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
  // The researcher's home lists the campaign with judgments (it used to say none had results).
  await page.waitForSelector(`#home-results li[data-campaign="${campaignId}"]`, { timeout: 15_000 });
  assert.match(await page.locator(`#home-results li[data-campaign="${campaignId}"]`).innerText(), /200 answers/);
  assert.equal(await page.locator('#empty-state').count(), 0);
  assert.deepEqual(await axeViolations(page), [], 'axe-core: the researcher home');
  await page.goto(`${server.base}/campaigns/${campaignId}/results`);
  await waitHydrated(page);
  await page.waitForSelector('#scores tr.system-row', { timeout: 30_000 });
  const rows = await page.locator('#scores tr.system-row').count();
  // Two people judged: two workers (not a count of rows per task).
  assert.equal(await page.locator('#r-workers').innerText(), '2');
  // The heatmap's legend is whole: every line inside the drawing.
  const legend = await page.locator('#heatmap svg').evaluate((svg) => {
    const box = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text.legend')].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, inside: r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5 };
    });
  });
  assert.deepEqual(legend.map((l) => l.text), ['Row better than column:', '* p < 0.05   ** p < 0.01', '*** p < 0.001']);
  assert.ok(legend.every((l) => l.inside), JSON.stringify(legend));
  assert.deepEqual(await axeViolations(page), [], 'axe-core: the results page');
  assert.ok(rows >= 2, `${rows} system rows`);
  assert.equal(await page.locator('#z-plot svg circle.point').count(), rows);
  assert.equal(await page.locator('#heatmap svg rect').count(), rows * rows);
  assert.equal(await page.locator('#r-judgments').innerText(), '200');
  // How fresh the numbers are: when they were computed, from how many stored judgments.
  assert.match(await page.locator('#results-freshness').innerText(), /^Computed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC from the \d+ answers stored then/);
  assert.equal(await page.locator('#r-excluded-judgments').innerText(), '100');
  assert.equal(await page.locator('#r-excluded-workers').innerText(), '1');
  assert.match(await page.locator('#excluded').innerText(), /paired t/);
  await page.selectOption('#reliability_test', 'wilcoxon');
  await page.waitForFunction(() => /Wilcoxon/.test(document.querySelector('#excluded')?.innerText ?? ''), null, { timeout: 30_000 });
  // The settings live in the URL: a reload (or a shared link) keeps them.
  await page.check('#exclude_ref');
  await page.waitForFunction(() => /exclude_ref=true/.test(location.search) && /test=wilcoxon/.test(location.search), null, { timeout: 15_000 });
  await page.reload();
  await waitHydrated(page);
  await page.waitForSelector('#scores tr.system-row', { timeout: 30_000 });
  assert.equal(await page.isChecked('#exclude_ref'), true);
  assert.equal(await page.inputValue('#reliability_test'), 'wilcoxon');
  assert.match(await page.locator('#excluded').innerText(), /Wilcoxon/);
  // The export links carry the settings.
  assert.match(await page.getAttribute('#exports a.export[data-file="judgments.csv"][data-filter="raw"]', 'href'), /exclude_ref=true.*wilcoxon=true/);
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
  await page.getByRole('link', { name: 'Metrics', exact: true }).focus();
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

test('a researcher uploads a metric\'s scores on the metrics page, sees it beside BLEU, and deletes it', async (t) => {
  const page = await openHydrated(await browser.newContext({ viewport: { width: 1280, height: 900 } }), `${server.base}/login`);
  await signIn(page, DEMO.researcher);
  await page.waitForSelector('section[data-role="researcher"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/${campaignId}/metrics`);
  await waitHydrated(page);
  await page.waitForSelector('#metrics-system tbody tr', { timeout: 30_000 });
  await page.waitForSelector('#metric-uploaded-none');
  const report = await page.evaluate(async (id) => (await fetch(`/api/v1/campaigns/${id}/metrics`)).json(), campaignId);
  const systems = report.report.pairs[0].system_level.systems;
  const dir = mkdtempSync(join(tmpdir(), 'assay-e2e-metrics-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const good = join(dir, 'e2e.tsv');
  writeFileSync(good, 'system\tscore\n' + systems.map((s, i) => `${s}\t${(i * 7) % 5 + i / 10}`).join('\n') + '\n');
  const bad = join(dir, 'bad.tsv');
  writeFileSync(bad, 'system\tscore\nNo-such-system\t1\n');

  // A bad file: the errors with file and line, nothing stored, the form still there.
  await page.fill('#metric-upload-form input[name="name"]', 'E2E-metric');
  await page.setInputFiles('#metric-upload-form input[type="file"]', bad);
  await page.locator('#metric-upload-form button[type="submit"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#metric-upload-errors', { timeout: 30_000 });
  assert.match(await page.locator('#metric-upload-errors').innerText(), /bad\.tsv, line 2: system "No-such-system" is not one of the campaign's systems/);
  assert.equal(await page.locator('#metric-upload-errors').getAttribute('role'), 'alert');
  await page.waitForSelector('#metric-uploaded-none');

  // A good one, by keyboard: it joins BLEU and chrF in the tables and plots.
  await waitHydrated(page);
  await page.fill('#metric-upload-form input[name="name"]', 'E2E-metric');
  await page.setInputFiles('#metric-upload-form input[type="file"]', good);
  await page.locator('#metric-upload-form button[type="submit"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#metric-upload-done', { timeout: 30_000 });
  assert.match(await page.locator('#metric-upload-done').innerText(), new RegExp(`Uploaded E2E-metric \\(${systems.length} system scores, 0 segment scores\\)`));
  await page.waitForSelector('#metrics-system tbody tr[data-metric="E2E-metric"]', { timeout: 30_000 });
  assert.deepEqual(await page.locator('#metrics-system tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.metric)), ['BLEU', 'chrF', 'chrF++', 'E2E-metric']);
  assert.equal(await page.locator('.scatter-metric svg').count(), 4);
  assert.equal(await page.locator('#williams svg rect').count(), 16);
  assert.equal(await page.locator('#metric-uploaded tbody tr').count(), 1);
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  if (process.env.ASSAY_SCREENSHOTS) await page.screenshot({ path: `${process.env.ASSAY_SCREENSHOTS}/metrics-upload-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 0, `the metrics page with an upload fits a phone (${wide} px too wide)`);
  if (process.env.ASSAY_SCREENSHOTS) await page.screenshot({ path: `${process.env.ASSAY_SCREENSHOTS}/metrics-upload-390.png`, fullPage: true });

  // Deleted: gone from the list and the tables.
  await page.setViewportSize({ width: 1280, height: 900 });
  await waitHydrated(page);
  await page.locator('#metric-uploaded button[aria-label="Delete E2E-metric"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#metric-deleted', { timeout: 30_000 });
  await page.waitForSelector('#metric-uploaded-none', { timeout: 30_000 });
  assert.deepEqual(await page.locator('#metrics-system tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.metric)), ['BLEU', 'chrF', 'chrF++']);
  assert.deepEqual(page.assayErrors, []);
});
