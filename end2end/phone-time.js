// Time to the first usable item on a slow phone (issue 18 item 5), printed, never asserted:
// `scripts/phone-time` builds the release bundles and runs this; `node end2end/phone-time.js`
// with ASSAY_BIN and LEPTOS_SITE_ROOT set runs it alone. A demo server with a fresh database; for
// each run a new crowd worker of a DA adequacy campaign on the demo's test set, on a 390 px touch phone, cache
// off, Slow 4G (562.5 ms latency, 1.26 Mbit/s down, 0.675 Mbit/s up) and 4x CPU slowdown, the
// issue's profile. From the navigation to the HIT's start page (the crowd link's redirect
// resolved beforehand) it times, as a worker would go: Start tapped as soon as it is on the
// screen; the first item's slider on the screen; the slider set by a tap (the first item usable:
// its slider answers); and the page hydrated (the bundle arrived and took over). Also prints the
// bytes the page transferred (compressed as sent) and the bundle's Content-Encoding. RUNS
// (default 3) runs. OLD_FLOW=1 times it the way earlier sessions did: Start tapped only once
// the page has hydrated.
import { startServer, launchBrowser, openHydrated, signIn, ok, launchDraft, DEMO } from './tests/harness.js';

const runs = Number(process.env.RUNS ?? 3);
const server = await startServer();
const browser = await launchBrowser();
try {
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  // A DA adequacy campaign of 100-item HITs on the demo's German→English test set, a HIT per
  // run (the demo's own campaigns are handed out already).
  const set = (await ok(organizer, 'list_test_sets')).find((t) => t.source_lang === 'de' && t.systems.length >= 3);
  const draft = {
    name: 'Phone timing', task: 'da-adequacy', test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: 7,
    settings: { judgments_wanted: 70 * Math.max(runs, 1), redundancy: 1, interface_language: 'en' },
  };
  const { link } = await launchDraft(organizer, draft);
  const rows = [];
  for (let run = 1; run <= runs; run++) {
    // The crowd link answers with a redirect to the worker's /work/… page.
    const arrival = await fetch(`${link}&worker=PHONE-${run}-${Date.now()}`, { redirect: 'manual' });
    if (!arrival.headers.get('location')) throw new Error(`the crowd link answered ${arrival.status}: ${(await arrival.text()).slice(0, 300)}`);
    const work = new URL(arrival.headers.get('location'), server.base).href;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 562.5, downloadThroughput: (1.26e6 / 8), uploadThroughput: (0.675e6 / 8),
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // In the page's own clock (ms since the navigation started), so that the test driver's
    // polling of a 4x-slowed page is not counted: every tap, and the frame after the first item
    // is drawn and after its slider first moves.
    await context.addInitScript(() => {
      const p = (window.__phone = { taps: [] });
      const after = (what) => requestAnimationFrame(() => setTimeout(() => { p[what] ??= performance.now(); }, 0));
      document.addEventListener('pointerdown', (e) => p.taps.push(e.timeStamp), true);
      new MutationObserver(() => {
        if (p.hydrated === undefined && document.body?.dataset.hydrated === 'true') p.hydrated = performance.now();
        const score = document.getElementById('score');
        if (!score) return;
        if (p.itemSeen === undefined && score.offsetParent !== null) { p.itemSeen = true; after('itemDrawn'); }
        if (p.setSeen === undefined && score.dataset.set === 'true') { p.setSeen = true; after('sliderMoved'); }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'data-set', 'data-hydrated'] });
    });
    let bytes = 0;
    let encoding = '(none)';
    cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
    cdp.on('Network.responseReceived', (e) => {
      if (e.response.url.endsWith('_bg.wasm')) encoding = e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? '(none)';
    });
    const t0 = Date.now();
    const since = () => Date.now() - t0;
    await page.goto(work, { waitUntil: 'commit', timeout: 120_000 });
    const hydratedAt = page.waitForSelector('body[data-hydrated="true"]', { timeout: 120_000 }).then(since);
    if (process.env.OLD_FLOW) await hydratedAt;
    await page.waitForSelector('#start', { state: 'visible', timeout: 120_000 });
    const startShown = since();
    await page.tap('#start', { timeout: 120_000 });
    await page.waitForSelector('#score[role="slider"]', { state: 'visible', timeout: 120_000 });
    const itemShown = since();
    const box = await page.locator('#score').boundingBox();
    await page.tap('#score', { position: { x: box.width * 0.7, y: box.height / 2 }, timeout: 120_000 });
    await page.waitForSelector('#score[data-set="true"]', { timeout: 120_000 });
    const usable = since();
    const hydrated = await hydratedAt;
    const inPage = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      early: typeof window.__assayEarly === 'object',
      ...window.__phone,
    }));
    // A worker who taps Start as soon as it works has the first item live after the time Start
    // starts working (with the page's early script: as soon as the start page is painted, the
    // first contentful paint; without it: once hydrated) plus the time from that tap to the item drawn.
    const startToItem = inPage.itemDrawn - inPage.taps[0];
    const sliderAnswers = inPage.sliderMoved - inPage.taps[1];
    const startWorks = inPage.early ? inPage.fcp : inPage.hydrated;
    const paintedUsable = startWorks + startToItem;
    rows.push({ run, startShown, itemShown, usable, hydrated, paintedUsable, bytes, encoding });
    const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`run ${run}: in the page: start page painted ${s(inPage.fcp)}, Start works ${s(startWorks)}, Start's tap to the item drawn ${Math.round(startToItem)} ms, `
      + `the slider's tap to its thumb drawn ${Math.round(sliderAnswers)} ms: first item usable ${s(paintedUsable)}; as the test driver saw it: `
      + `Start on the screen ${s(startShown)}, first item on the screen ${s(itemShown)}, a tap set its slider ${s(usable)}; `
      + `hydrated ${s(hydrated)}, ${(bytes / 1024).toFixed(0)} KiB transferred, wasm Content-Encoding ${encoding}`);
    await context.close();
  }
  const median = (key) => rows.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(rows.length / 2)] / 1000;
  console.log(`median of ${runs}${process.env.OLD_FLOW ? ' (Start tapped once hydrated)' : ''}: first item usable ${median('paintedUsable').toFixed(2)} s in the page's clock; `
    + `as the driver saw it: Start on the screen ${median('startShown').toFixed(2)} s, first item on the screen ${median('itemShown').toFixed(2)} s, a tap set its slider ${median('usable').toFixed(2)} s; hydrated ${median('hydrated').toFixed(2)} s`);
} finally {
  await browser.close();
  await server.stop?.();
}
