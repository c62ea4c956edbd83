// Signing in through the real page in Chromium: the page hydrates, the form submits through
// the wasm app, and each role lands on its own home page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, DEMO, axeViolations } from './harness.js';

const env = serverAndBrowser();

async function signIn(page, who) {
  await page.fill('input[name="email"]', who.email);
  await page.fill('input[name="password"]', who.password);
  await page.click('#login-form button[type="submit"]');
}

test('an organizer signs in and sees the organizer home page', async () => {
  const context = await env.browser.newContext();
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.organizer);
  await page.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  assert.equal(new URL(page.url()).pathname, '/');
  assert.match(await page.textContent('#who'), /Demo Organizer/);
  // `serve --demo` seeds a demo campaign, which the organizer's home lists.
  await page.waitForSelector('#campaigns', { timeout: 15_000 });
  assert.match(await page.textContent('#campaigns'), /Demo: DA adequacy/);
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === 'assay_session');
  assert.ok(session, 'a session cookie is set');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('a wrong password shows a message and signs nobody in', async () => {
  const context = await env.browser.newContext();
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, { email: DEMO.annotator.email, password: 'wrong password' });
  const alert = await page.waitForSelector('[role="alert"]', { timeout: 15_000 });
  assert.match(await alert.textContent(), /Email or password is incorrect/);
  assert.equal(new URL(page.url()).pathname, '/login');
  assert.equal((await context.cookies()).find((c) => c.name === 'assay_session'), undefined);
  await context.close();
});

test('an annotator signs in, sees the queue, and signs out', async () => {
  const context = await env.browser.newContext();
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.annotator);
  await page.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
  // The demo campaign has work for the demo annotator, and the demo HITs are listed.
  await page.waitForSelector('#queue', { timeout: 15_000 });
  assert.match(await page.textContent('#queue'), /Demo: DA adequacy/);
  await page.waitForSelector('#my-hits a[href^="/work/"]');
  // Annotators have no link to the accounts page, and the page itself refuses them.
  assert.equal(await page.locator('a[href="/admin/users"]').count(), 0);
  await page.goto(`${env.server.base}/admin/users`);
  await page.waitForSelector('[role="alert"]');
  assert.match(await page.textContent('[role="alert"]'), /needs the Administrator role/);
  await page.goto(`${env.server.base}/`);
  await waitHydrated(page);
  await page.click('text=Sign out');
  await page.waitForURL(`${env.server.base}/login`, { timeout: 15_000 });
  const me = await page.evaluate(async () => (await fetch('/api/current_user', { method: 'POST' })).json());
  assert.equal(me, null);
  await context.close();
});

/** The admin's accounts page, signed in from the start page. */
async function openAccountsPage(context) {
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.admin);
  await page.waitForSelector('section[data-role="admin"]');
  await page.click('a[href="/admin/users"]');
  await page.waitForSelector('#users');
  // The accounts page is another family's bundle: a full page load whose table is in the
  // server's HTML before its buttons work. A click before hydration did nothing, and the test
  // waited 30 s for its result (seen once under load, with the whole suite on 2 busy cores).
  await waitHydrated(page);
  return page;
}

test('an admin invites a researcher through the accounts page', async () => {
  const context = await env.browser.newContext();
  const page = await openAccountsPage(context);
  await page.fill('#invite-form input[name="email"]', 'new.researcher@example.org');
  await page.selectOption('#invite-form select[name="role"]', 'researcher');
  await page.click('#invite-form button[type="submit"]');
  const link = await page.waitForSelector('#invitation-link code');
  const url = await link.textContent();
  assert.match(url, /\/invite\/[A-Za-z0-9_-]{43}$/);

  const other = await env.browser.newContext();
  const invited = await openHydrated(other, url);
  await invited.fill('input[name="name"]', 'New Researcher');
  await invited.fill('input[name="password"]', 'a long enough password');
  await invited.click('text=Create my account');
  await invited.waitForSelector('section[data-role="researcher"]', { timeout: 15_000 });
  await other.close();
  await context.close();
});

test('an admin signs an account out everywhere, disables it and enables it again', async () => {
  const theirs = await env.browser.newContext();
  const annotator = await openHydrated(theirs, `${env.server.base}/login`);
  await signIn(annotator, DEMO.annotator);
  await annotator.waitForSelector('section[data-role="annotator"]', { timeout: 15_000 });
  const currentUser = () => annotator.evaluate(async () => (await fetch('/api/current_user', { method: 'POST' })).json());
  assert.notEqual(await currentUser(), null);

  const context = await env.browser.newContext();
  const page = await openAccountsPage(context);
  const row = page.locator('#users tr', { hasText: DEMO.annotator.email });

  await row.locator('button.sign-out-everywhere').click();
  await page.waitForSelector('#signed-out');
  assert.equal(await currentUser(), null, 'the annotator is signed out');

  await row.locator('button.set-disabled').click();
  await page.waitForSelector(`#users tr[data-disabled="true"]:has-text("${DEMO.annotator.email}")`);
  assert.equal(await row.locator('button.set-disabled').textContent(), 'Enable');
  const refused = await annotator.evaluate(async (who) => (await fetch('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(who).toString(),
  })).status, DEMO.annotator);
  assert.equal(refused, 401, 'a disabled account cannot sign in');

  await row.locator('button.set-disabled').click();
  await page.waitForSelector(`#users tr[data-disabled="false"]:has-text("${DEMO.annotator.email}")`);

  // "Set role" says what it did, in a live region.
  await row.locator('select[name="role"]').selectOption('researcher');
  await row.locator('button', { hasText: 'Set role' }).click();
  await page.waitForSelector('#role-status #role-set', { timeout: 15_000 });
  assert.match(await page.textContent('#role-set'), new RegExp(`\\(${DEMO.annotator.email.replace('.', '\\.')}\\) is now Researcher`));
  await row.locator('select[name="role"]').selectOption('annotator');
  await row.locator('button', { hasText: 'Set role' }).click();
  await page.waitForFunction(() => /is now Annotator/.test(document.querySelector('#role-set')?.textContent ?? ''), null, { timeout: 15_000 });
  assert.deepEqual(await axeViolations(page), [], 'axe-core: the accounts page with its confirmation');
  assert.deepEqual(page.assayErrors, []);
  await theirs.close();
  await context.close();
});

test('a page that needs an account says so once and leads back after signing in', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const wanted = '/campaigns/1/results?per_segment=true';
  const response = await page.goto(`${env.server.base}${wanted}`);
  assert.equal(response.status(), 401);
  assert.equal(await page.textContent('#refusal-message'), 'Please sign in.');
  assert.equal((await page.content()).split('Please sign in.').length - 1, 1, 'the message once');
  await page.click('#way-on');
  await page.waitForURL(/\/login\?next=/);
  await waitHydrated(page);
  await signIn(page, DEMO.researcher);
  await page.waitForURL(`${env.server.base}${wanted}`, { timeout: 15_000 });
  await context.close();
});
