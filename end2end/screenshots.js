// Screenshots of every page at 1,280 px and on a 390 px phone, for looking at a change (issue 18):
// `scripts/screenshots DIR` builds what it needs and runs this; `node end2end/screenshots.js DIR`
// with ASSAY_BIN and LEPTOS_SITE_ROOT set runs it alone. A demo server with a fresh database; the
// demo's adequacy HIT answered (so results, workers and metrics have data); each page signed in as
// the least role that sees it. Writes DIR/<page>-1280.png and DIR/<page>-390.png and prints one
// line per page with its sideways overflow at 390 px (0 is right). The images stay out of the
// repository.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, launchBrowser, openHydrated, waitHydrated, signIn, ok, DEMO, answerDemoAdequacyHit } from './tests/harness.js';

const out = process.argv[2];
if (!out) {
  console.error('usage: node end2end/screenshots.js DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });

const server = await startServer();
const browser = await launchBrowser();
let failed = 0;
try {
  const campaign = await answerDemoAdequacyHit(server, browser);
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const assignment = (await ok(organizer, 'list_assignments')).find((a) => a.platform === 'prolific')?.assignment;
  const studies = await ok(organizer, 'list_studies').catch(() => []);
  // (name, path, who signs in; null: nobody)
  const pages = [
    ['login', '/login', null],
    ['home-annotator', '/', DEMO.annotator],
    ['work', assignment ? `/work/${assignment}` : null, null],
    ['home-organizer', '/', DEMO.organizer],
    ['import', '/import', DEMO.organizer],
    ['campaigns', '/campaigns', DEMO.organizer],
    ['designer', '/campaigns/new', DEMO.organizer],
    ['campaign', `/campaigns/${campaign}`, DEMO.organizer],
    ['results-index', '/results', DEMO.researcher],
    ['results', `/campaigns/${campaign}/results`, DEMO.researcher],
    ['metrics', `/campaigns/${campaign}/metrics`, DEMO.researcher],
    ['workers', `/campaigns/${campaign}/workers`, DEMO.organizer],
    ['studies', '/studies', DEMO.researcher],
    ['study-designer', '/studies/new', DEMO.organizer],
    ['study', studies[0] ? `/studies/${studies[0].id}` : null, DEMO.researcher],
    ['history', '/history', DEMO.researcher],
    ['tokens', '/account/tokens', DEMO.researcher],
    ['users', '/admin/users', DEMO.admin],
  ];
  const sessions = new Map();
  for (const [name, path, who] of pages) {
    if (!path) {
      console.log(`${name}: skipped (nothing to show in the demo)`);
      continue;
    }
    const key = who?.email ?? 'nobody';
    if (!sessions.has(key)) {
      const context = await browser.newContext();
      if (who) {
        const page = await openHydrated(context, `${server.base}/login`);
        await signIn(page, who);
        // The signed-in home (its role's section) is the proof that the session cookie is set:
        // 'networkidle' right after the click could resolve before the sign-in's request left,
        // and closing the page then aborted it, so the next page was the "Please sign in" one.
        await page.waitForSelector('section[data-role]', { timeout: 15_000 });
        await page.close();
      }
      sessions.set(key, context);
    }
    const page = await sessions.get(key).newPage();
    try {
      for (const [width, height] of [[1280, 900], [390, 844]]) {
        await page.setViewportSize({ width, height });
        await page.goto(`${server.base}${path}`);
        await waitHydrated(page);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: join(out, `${name}-${width}.png`), fullPage: true });
      }
      const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
      console.log(`${name}: ${path} → ${name}-1280.png, ${name}-390.png; sideways overflow at 390 px: ${overflow} px`);
      if (overflow > 0) failed += 1;
    } catch (e) {
      failed += 1;
      console.log(`${name}: ${path} failed: ${e.message.split('\n')[0]}`);
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(failed ? `${failed} page(s) overflow at 390 px or failed` : 'every page fits 390 px');
process.exit(failed ? 1 : 0);
