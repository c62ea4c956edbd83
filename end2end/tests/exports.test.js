// Exports from the results page's buttons, in Chromium: after the demo's adequacy HIT has been
// answered by an attentive annotator and a random Prolific worker, a researcher clicks every
// export link and the downloaded files are checked (headers, field counts, row counts, the
// archive's signature, the manifest). Then the API token page: a token is created, read with,
// and revoked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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

const RAW_HEADER = 'judgment_id,campaign_id,task,src_lang,trg_lang,hit,assignment,slot,worker,platform,position,item_type,system,'
  + 'segment,document,score,score2,skipped,submitted_at_ms,time_on_screen_ms,seconds,worker_verdict,worker_p_value,worker_excluded,worker_decision,z,z2';

function lines(text) {
  return text.split('\n').filter((l) => l.length > 0);
}

// Judgments expected: both workers' 100 (raw) or the attentive worker's only (cleaned).
function checkJudgmentFile(file, filter, text) {
  const rows = filter === 'raw' ? 200 : 100;
  const ls = lines(text);
  if (file === 'judgments.csv') {
    assert.equal(ls[0], RAW_HEADER, file);
    assert.equal(ls.length, rows + 1, `${file} (${filter})`);
    // Cleaned: only passing, retained workers (no decision was taken here: that field is
    // empty), each judgment with its z (a number) and no z2 (DA has one question).
    if (filter === 'cleaned') {
      for (const l of ls.slice(1)) {
        const f = l.split(',');
        assert.deepEqual([f.at(-6), f.at(-4), f.at(-3), f.at(-1)], ['pass', 'false', '', ''], l);
        assert.ok(Number.isFinite(Number(f.at(-2))) && f.at(-2) !== '', `z of ${l}`);
      }
    }
  } else if (file === 'judgments.jsonl') {
    assert.equal(ls.length, rows, `${file} (${filter})`);
    const first = JSON.parse(ls[0]);
    assert.deepEqual(Object.keys(first).sort(), RAW_HEADER.split(',').sort());
  } else {
    const width = { 'appraise-wmt22.csv': 9, 'appraise-wmt23.csv': 11, 'appraise-wmt24.csv': 12 }[file];
    assert.equal(ls.length, rows, `${file} (${filter})`);
    for (const l of ls) {
      const f = l.split(',');
      assert.equal(f.length, width, `${file}: ${l}`);
      assert.deepEqual([f[4], f[5]], ['deu', 'eng'], `${file}: ${l}`);
      assert.ok(['TGT', 'BAD', 'CHK', 'REF'].includes(f[3]), `${file}: ${l}`);
    }
  }
}

test('a researcher downloads every export from the results page', async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await openHydrated(context, `${server.base}/login`);
  await signIn(page, DEMO.researcher);
  await page.waitForSelector('section[data-role="researcher"]', { timeout: 15_000 });
  await page.goto(`${server.base}/campaigns/${campaignId}/results`);
  await waitHydrated(page);
  await page.waitForSelector('#exports a.export', { timeout: 30_000 });
  // The agreement section: intra and inter rows for all and retained workers.
  assert.equal(await page.locator('#agreement-table tr.agreement-row').count(), 4);
  const inter = page.locator('#agreement-table tr[data-scope="all workers"][data-kind="inter"]');
  assert.match(await inter.innerText(), /r = -?\d\.\d{3}/);

  const links = await page.locator('#exports a.export').evaluateAll((as) => as.map((a) => ({
    file: a.dataset.file, filter: a.dataset.filter, id: a.getAttribute('href'),
  })));
  const files = new Set(links.map((l) => l.file));
  for (const want of ['judgments.csv', 'judgments.jsonl', 'appraise-wmt22.csv', 'appraise-wmt23.csv', 'appraise-wmt24.csv',
    'all.zip', 'manifest.json', 'analysis.json', 'agreement.json', 'ad-sys-scores-de-en.csv', 'ad-seg-scores-de-en.csv',
    'ad-wrkr-stats.csv', 'adwilcox-de-en.csv', 'ad-DA-diff-wilcoxon-rs-de-en.csv', 'clusters.csv', 'de-en.assay-z.sys.score',
    'de-en.assay-raw.seg.score', 'DA-seglevel.csv', 'DA-syslevel.csv',
    // The metrics page's tables (issue 21).
    'metrics-system-level.csv', 'metrics-segment-level.csv', 'metrics-tests.csv', 'metrics-clusters.csv',
    'metrics-system-significance.csv', 'metrics.json']) {
    assert.ok(files.has(want), `no button for ${want}`);
  }
  const systems = await page.locator('#scores tr.system-row').count();
  for (const link of links) {
    // Clicked back to back, headless Chromium never starts the eleventh download (it seems to
    // throttle consecutive downloads); a short pause, as a person's, lets every one through.
    await page.waitForTimeout(300);
    const a = page.locator(`#exports a.export[href="${link.id}"]`);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), a.click()])
      .catch((e) => { throw new Error(`${link.file} (${link.filter}): ${e}`); });
    // The campaign and, where the content depends on it, the filter are in the name: raw and
    // cleaned files of several campaigns can sit in one folder.
    const perFilter = /^(judgments\.|appraise-)/.test(link.file) || link.file === 'all.zip' || link.file === 'manifest.json';
    assert.equal(download.suggestedFilename(), perFilter ? `campaign-${campaignId}-${link.filter}-${link.file}` : `campaign-${campaignId}-${link.file}`);
    const bytes = readFileSync(await download.path());
    const text = bytes.toString('utf8');
    if (link.file === 'all.zip') {
      assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK', 'a zip archive');
      assert.ok(bytes.includes(Buffer.from('manifest.json')), 'the manifest is in the archive');
    } else if (link.file.startsWith('judgments.') || link.file.startsWith('appraise-')) {
      checkJudgmentFile(link.file, link.filter, text);
    } else if (link.file.endsWith('.json')) {
      const v = JSON.parse(text);
      if (link.file === 'manifest.json') {
        assert.equal(v.input.id, campaignId);
        assert.equal(v.filter.kind, 'raw');
        assert.equal(v.excluded_workers.length, 1);
        assert.ok(v.files.includes('judgments.csv') && v.assay_version);
      }
      if (link.file === 'agreement.json') assert.ok(v.all_workers[0].inter.pairs > 0);
      if (link.file === 'analysis.json') assert.equal(v.result.judgments, 200);
      if (link.file === 'metrics.json') assert.deepEqual(v.pairs[0].system_level.metrics.map((m) => m.metric), ['BLEU', 'chrF', 'chrF++']);
    } else if (link.file.startsWith('ad-sys-scores')) {
      assert.equal(lines(text)[0], 'RAW.SCR Z.SCR N SYS N.ALL ');
      assert.equal(lines(text).length, systems + 1);
    } else if (link.file.endsWith('.sys.score')) {
      assert.equal(lines(text).length, systems);
    } else if (link.file === 'clusters.csv') {
      assert.equal(lines(text)[0], 'SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM');
      assert.equal(lines(text).length, systems + 1);
    } else if (link.file === 'metrics-system-level.csv') {
      assert.ok(lines(text)[0].startsWith('pair,metric,systems,pearson,pearson_p,'), lines(text)[0]);
      assert.deepEqual(lines(text).slice(1).map((l) => l.split(',')[1]), ['BLEU', 'chrF', 'chrF++']);
    } else if (link.file === 'unreliable-workers.txt') {
      assert.equal(lines(text).length, 1);
    } else {
      assert.ok(text.length > 0, `${link.file} is empty`);
    }
  }
  assert.ok(links.length >= 30, `${links.length} export links`);
});

test('a researcher creates an API token, reads with it, and revokes it', async () => {
  const page = await openHydrated(await browser.newContext(), `${server.base}/login`);
  await signIn(page, DEMO.researcher);
  await page.waitForSelector('section[data-role="researcher"]', { timeout: 15_000 });
  await page.goto(`${server.base}/account/tokens`);
  await waitHydrated(page);
  await page.waitForSelector('#tokens-empty');
  await page.fill('#token-name', 'e2e script');
  await page.click('#token-form button[type="submit"]');
  const secret = (await page.locator('#new-token-secret').innerText({ timeout: 15_000 })).trim();
  assert.match(secret, /^assay_[A-Za-z0-9_-]{43}$/);
  await page.waitForSelector('#tokens tr.token-row');
  const read = await fetch(`${server.base}/api/v1/campaigns/${campaignId}/export/judgments.csv?filter=cleaned`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  assert.equal(read.status, 200);
  assert.equal(lines(await read.text()).length, 101);
  await page.click('#tokens button.revoke');
  await page.waitForSelector('#tokens td.token-status:text("revoked")', { timeout: 15_000 });
  const refused = await fetch(`${server.base}/api/v1/campaigns`, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(refused.status, 401);
});
