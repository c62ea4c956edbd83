// Time to the first usable item on a slow phone (issue 18 item 5), printed, never asserted:
// `scripts/phone-time` builds the release bundles and runs this; `node end2end/phone-time.js`
// with ASSAY_BIN and LEPTOS_SITE_ROOT set runs it alone. A demo server with a fresh database; for
// each run a new browser (an empty cache) as a 390 px touch phone, Slow 4G (562.5 ms latency,
// 1.26 Mbit/s down, 0.675 Mbit/s up) and 4x CPU slowdown, the profile, in which a crowd
// worker of a DA adequacy campaign on the demo's test set does a first HIT and then a second one
// (issue 36 item 3: what the browser kept from the first). From the navigation to each HIT's
// start page (the crowd link's redirect resolved beforehand) it times, as a worker would go:
// Start tapped as soon as it is on the screen; the first item's slider on the screen; the slider
// set by a tap (the first item usable: its slider answers); and the page hydrated (the bundle
// arrived and took over). Also prints the bytes each HIT's page transferred from the network
// (compressed as sent; nothing for what came from the browser's cache), those of the bundle's
// files, and the wasm's Content-Encoding. RUNS (default 3) runs. OLD_FLOW=1 times it the way
// earlier sessions did: Start tapped only once the page has hydrated.
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
  // A HIT's work page for a new crowd worker (the crowd link answers with a redirect to it).
  const arrive = async (worker) => {
    const arrival = await fetch(`${link}&worker=${worker}-${Date.now()}`, { redirect: 'manual' });
    if (!arrival.headers.get('location')) throw new Error(`the crowd link answered ${arrival.status}: ${(await arrival.text()).slice(0, 300)}`);
    return new URL(arrival.headers.get('location'), server.base).href;
  };
  // One HIT in a new page of `context`, timed as the header says.
  const hit = async (context, work) => {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 562.5, downloadThroughput: (1.26e6 / 8), uploadThroughput: (0.675e6 / 8),
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let bytes = 0;
    let bundleBytes = 0;
    let encoding = '(none)';
    const bundle = new Set();
    cdp.on('Network.responseReceived', (e) => {
      if (new URL(e.response.url).pathname.startsWith('/pkg/')) bundle.add(e.requestId);
      if (e.response.url.endsWith('_bg.wasm')) {
        encoding = e.response.fromDiskCache ? '(from the cache)'
          : e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? '(none)';
      }
    });
    cdp.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
      if (bundle.has(e.requestId)) bundleBytes += e.encodedDataLength;
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
    await page.close();
    return { startShown, itemShown, usable, hydrated, paintedUsable, bytes, bundleBytes, encoding, inPage, startWorks, startToItem, sliderAnswers };
  };
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const show = (label, r) => console.log(`${label}: in the page: start page painted ${s(r.inPage.fcp)}, Start works ${s(r.startWorks)}, Start's tap to the item drawn ${Math.round(r.startToItem)} ms, `
    + `the slider's tap to its thumb drawn ${Math.round(r.sliderAnswers)} ms: first item usable ${s(r.paintedUsable)}; as the test driver saw it: `
    + `Start on the screen ${s(r.startShown)}, first item on the screen ${s(r.itemShown)}, a tap set its slider ${s(r.usable)}; `
    + `hydrated ${s(r.hydrated)}, ${(r.bytes / 1024).toFixed(1)} KiB transferred (bundle ${(r.bundleBytes / 1024).toFixed(1)} KiB), wasm ${r.encoding}`);
  const rows = [];
  const seconds = [];
  for (let run = 1; run <= runs; run++) {
    const first = await arrive(`PHONE-${run}`);
    const second = await arrive(`PHONE-${run}-B`);
    // A new browser context: an empty cache (a worker's first HIT), kept for the second HIT.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
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
    const one = await hit(context, first);
    show(`run ${run}, first HIT`, one);
    rows.push(one);
    // The same worker's browser opens another HIT (after the first one's page is closed).
    const two = await hit(context, second);
    show(`run ${run}, second HIT in the same browser`, two);
    seconds.push(two);
    await context.close();
  }
  const median = (list, key) => list.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(list.length / 2)] / 1000;
  for (const [label, list] of [['first HIT', rows], ['second HIT, same browser', seconds]]) {
    console.log(`median of ${runs}, ${label}${process.env.OLD_FLOW ? ' (Start tapped once hydrated)' : ''}: first item usable ${median(list, 'paintedUsable').toFixed(2)} s in the page's clock; `
      + `as the driver saw it: Start on the screen ${median(list, 'startShown').toFixed(2)} s, first item on the screen ${median(list, 'itemShown').toFixed(2)} s, a tap set its slider ${median(list, 'usable').toFixed(2)} s; hydrated ${median(list, 'hydrated').toFixed(2)} s; `
      + `${(median(list, 'bytes') * 1000 / 1024).toFixed(1)} KiB transferred (bundle files ${(median(list, 'bundleBytes') * 1000 / 1024).toFixed(1)} KiB)`);
  }
} finally {
  await browser.close();
  await server.stop?.();
}
