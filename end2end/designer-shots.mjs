// Screenshots of the designer's check panel for a design that would waste its budget (issue 38),
// at 1,280 and 390 px. Not part of the suite: `node end2end/designer-shots.mjs DIR`.
import { join } from 'node:path';
import { startServer, launchBrowser, openHydrated, waitHydrated, signIn, ok, DEMO } from './tests/harness.js';

const out = process.argv[2];
const server = await startServer();
const browser = await launchBrowser();
try {
  const page = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const sets = await ok(page, 'list_test_sets');
  const set = sets.find((t) => t.systems.length >= 2) ?? sets[0];
  const draft = {
    name: 'Fluency, 20-item HITs', task: 'da-fluency', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 1,
    settings: { hit_length: 20, bad_refs: 2, repeats: 2, refs: 2, sets: 2, judgments_wanted: 28, redundancy: 2, thin_evidence: 'exclude', interface_language: 'en' },
  };
  const created = await page.evaluate(async (draft) => {
    const r = await fetch('/api/create_campaign', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ draft }) });
    return { status: r.status, body: await r.text() };
  }, draft);
  if (created.status !== 200) throw new Error(`create_campaign: ${created.body}`);
  const id = created.body.trim();
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.goto(`${server.base}/campaigns/${id}/edit`);
    await waitHydrated(page);
    await page.waitForSelector('#thin-evidence-warning', { timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await page.locator('.design-summary').screenshot({ path: join(out, `designer-panel-${width}.png`) });
    await page.screenshot({ path: join(out, `designer-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
    console.log(`${width}: words: ${await page.textContent('#thin-evidence-words')}; overflow ${overflow}px`);
  }
  // Launch without "I know": refused in words.
  const launch = await page.evaluate(async (id) => {
    const r = await fetch('/api/launch_campaign', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `campaign_id=${id}` });
    return { status: r.status, body: await r.text() };
  }, id);
  console.log(`launch without I know: ${launch.status} ${launch.body.slice(0, 200)}`);
} finally {
  await browser.close();
  await server.stop();
}
