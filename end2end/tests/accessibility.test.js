// axe-core (npm) on the organizer's, researcher's and admin's pages, at 1,280 px and on a 390 px
// phone, after the demo's adequacy HIT has been answered: no serious or critical violation
// (issue 18). Pages are checked once they have hydrated and their data has arrived; the review
// page also with a decision editor open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openHydrated, waitHydrated, DEMO, signIn, answerDemoAdequacyHit, axeViolations } from './harness.js';

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

// Each page with what shows that its data has arrived.
const pages = (id) => [
  ['organizer', '/', 'section[data-role="organizer"] #campaigns'],
  ['organizer', '/campaigns', '#campaigns'],
  ['organizer', '/campaigns/new', '#test-set'],
  ['organizer', `/campaigns/${id}`, '#annotators'],
  ['organizer', `/campaigns/${id}/workers`, '#worker-table tr.worker-row'],
  ['organizer', `/campaigns/${id}/results`, '#scores tr.system-row'],
  ['organizer', '/import', '#test-sets'],
  ['organizer', '/studies', 'main section'],
  ['organizer', '/history', '.pair-history, #history-empty'],
  ['researcher', '/', '#home-results'],
  ['researcher', '/results', '#results-campaigns'],
  ['researcher', '/account/tokens', 'main section'],
  ['admin', '/admin/users', '#users'],
];

for (const [label, viewport] of [['1280 px', { width: 1280, height: 900 }], ['390 px phone', { width: 390, height: 844, isMobile: true }]]) {
  test(`axe-core finds no serious or critical violation at ${label}`, async () => {
    const { isMobile, ...size } = viewport;
    const found = [];
    let checked = 0;
    for (const who of ['organizer', 'researcher', 'admin']) {
      const context = await browser.newContext({ viewport: size, isMobile: !!isMobile, hasTouch: !!isMobile });
      const page = await openHydrated(context, `${server.base}/login`);
      found.push(...(await axeViolations(page)).map((v) => `/login: ${v}`));
      await signIn(page, DEMO[who]);
      await page.waitForSelector(`section[data-role="${who}"]`, { timeout: 15_000 });
      for (const [role, path, ready] of pages(campaignId).filter(([r]) => r === who)) {
        await page.goto(`${server.base}${path}`);
        await waitHydrated(page);
        await page.waitForSelector(ready, { timeout: 30_000 });
        found.push(...(await axeViolations(page)).map((v) => `${role} ${path}: ${v}`));
        checked += 1;
        if (path.endsWith('/workers')) {
          await page.locator('#worker-table button.review-worker').first().click();
          await page.waitForSelector('#decision-action', { timeout: 10_000 });
          found.push(...(await axeViolations(page)).map((v) => `${role} ${path} (editor open): ${v}`));
          checked += 1;
        }
      }
      assert.deepEqual(page.assayErrors, []);
      await context.close();
    }
    console.log(`axe-core at ${label}: ${checked} page states and 3 sign-in pages checked, ${found.length} serious or critical violations`);
    assert.deepEqual(found, []);
  });
}
