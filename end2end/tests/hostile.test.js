// Markup in segments in Chromium: a test set whose sources, references and outputs carry
// <script>, <img onerror> and </textarea></script> is imported and launched; a crowd worker opens
// the signed link, starts, and answers items. The markup is shown as text and nothing of it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, DEMO } from './harness.js';

const env = serverAndBrowser();

const markup = (i, who) =>
  `segment ${i} ${who} <script>window.pwned=(window.pwned||0)+1</script><img src=x onerror="window.pwned=(window.pwned||0)+1"> & </textarea></script><b>bold</b>`;

// The organizer's calls, over HTTP with the session cookie and the page's Origin.
async function organizer() {
  const headers = { origin: env.server.base };
  const login = await fetch(`${env.server.base}/api/login`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ email: DEMO.organizer.email, password: DEMO.organizer.password }),
  });
  assert.equal(login.status, 200);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return async (path, init = {}) => fetch(`${env.server.base}${path}`, { ...init, headers: { ...headers, cookie, ...(init.headers ?? {}) } });
}

test('markup in segments is shown as text and never runs', async () => {
  const org = await organizer();
  // A TSV test set: 80 segments, four systems.
  const systems = ['Alpha', 'Beta', 'Gamma', 'Delta'];
  let tsv = 'segment_id\tsource\treference\tsystem\toutput\n';
  for (let i = 0; i < 80; i++) {
    for (const s of systems) {
      tsv += `s${i}\t${markup(i, 'source')}\t${markup(i, 'reference')}\t${s}\t${markup(i, s)}\n`;
    }
  }
  const up = await org('/upload/import', {
    method: 'POST',
    headers: { 'x-assay-file-name': 'markup.tsv', 'x-assay-test-set': 'markup', 'x-assay-pair': 'en-de' },
    body: tsv,
  });
  assert.equal(up.status, 200, await up.text());
  const sets = await (await org('/api/list_test_sets', { method: 'POST' })).json();
  const set = sets.find((t) => t.name === 'markup');
  const ids = set.systems.map((s) => s.id);
  const draft = {
    name: 'markup', task: 'da-adequacy', test_set_id: set.id, systems: ids, benchmark_systems: [ids[0]], seed: 3,
    settings: { judgments_wanted: 18, redundancy: 1, target_language: 'German' },
  };
  const created = await org('/api/create_campaign', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ draft }),
  });
  const createdBody = await created.text();
  assert.equal(created.status, 200, createdBody);
  const id = JSON.parse(createdBody);
  const launched = await org('/api/launch_campaign', { method: 'POST', body: new URLSearchParams({ campaign_id: String(id) }) });
  assert.equal(launched.status, 200, await launched.text());
  const progress = await (await org('/api/campaign_progress', { method: 'POST', body: new URLSearchParams({ campaign_id: String(id) }) })).json();
  const link = new URL(progress.crowd_link);

  const context = await env.browser.newContext();
  const dialogs = [];
  const page = await openHydrated(context, `${env.server.base}${link.pathname}${link.search}&worker=mallory`);
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.waitForSelector('#start', { timeout: 15_000 });
  await page.click('#start');
  for (let n = 0; n < 3; n++) {
    await page.waitForSelector('#candidate', { timeout: 15_000 });
    const shown = await page.textContent('#candidate');
    assert.match(shown, /<script>window\.pwned/, `the markup is shown as text: ${shown}`);
    assert.match(shown, /<img src=x onerror=/);
    // No element came from the segment's text.
    assert.equal(await page.locator('#work script, #work img, #work b').count(), 0);
    assert.equal(await page.evaluate(() => window.pwned), undefined, 'no script of the segment ran');
    // Answer by keyboard and go on.
    await page.focus('[role="slider"]');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.waitForFunction((before) => document.querySelector('#candidate')?.textContent !== before, shown, { timeout: 15_000 });
  }
  // A reload renders the current item on the server: still text, still nothing runs.
  await page.reload();
  await waitHydrated(page);
  await page.waitForSelector('#candidate', { timeout: 15_000 });
  assert.match(await page.textContent('#candidate'), /<script>window\.pwned/);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(page.assayErrors, []);
});
