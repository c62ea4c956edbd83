// Teams (issue 17, finding 12) in the browser: the admin makes a team on the accounts page by
// keyboard, adds a new organizer to it and takes them out of Everyone; that organizer then sees
// none of Everyone's campaigns (the demo's), and sees them again once back in Everyone. axe-core
// on the page with the teams panel; the panel fits a 390 px phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openHydrated, waitHydrated, DEMO, signIn, ok, axeViolations } from './harness.js';

const env = serverAndBrowser();
const SHOTS = process.env.ASSAY_SCREENSHOTS; // a folder: screenshots of each screen, for review
const MEMBER = { email: 'lab.organizer@example.org', password: 'a long enough password' };

async function accountsPage(context) {
  const page = await openHydrated(context, `${env.server.base}/login`);
  await signIn(page, DEMO.admin);
  await page.waitForSelector('section[data-role="admin"]', { timeout: 15_000 });
  await page.goto(`${env.server.base}/admin/users`);
  await waitHydrated(page);
  await page.waitForSelector('#teams section.team[data-team="1"]');
  return page;
}

/** The organizer's home page: the names in its campaigns table, or [] when it says there are none. */
async function homeCampaigns(context) {
  const page = await openHydrated(context, `${env.server.base}/`);
  await page.waitForSelector('section[data-role="organizer"] #empty-state, section[data-role="organizer"] #campaigns', { timeout: 15_000 });
  const names = (await page.locator('#empty-state').count()) ? [] : await page.locator('#campaigns tbody tr').allTextContents();
  await page.close();
  return names;
}

test('an admin makes a team, moves an organizer into it, and the organizer sees only the team’s campaigns', async () => {
  const admin = await env.browser.newContext();
  const page = await accountsPage(admin);

  // A new organizer (invited and accepted through the server functions the pages use).
  const link = await ok(page, 'invite_user', { email: MEMBER.email, role: 'organizer' });
  const theirs = await env.browser.newContext();
  const join = await openHydrated(theirs, link.url);
  await join.fill('input[name="name"]', 'Lab Organizer');
  await join.fill('input[name="password"]', MEMBER.password);
  await join.click('text=Create my account');
  await join.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
  // In Everyone, as every new account: the demo's campaigns are theirs to see.
  assert.ok((await homeCampaigns(theirs)).some((n) => /Demo: DA adequacy/.test(n)));

  // The team, made by keyboard: the name field, typed, Enter.
  await page.reload();
  await waitHydrated(page);
  await page.focus('#new-team-name');
  await page.keyboard.type('Lab B');
  await page.keyboard.press('Enter');
  const lab = page.locator('#teams section.team', { has: page.locator('h3', { hasText: 'Lab B' }) });
  await lab.waitFor({ timeout: 15_000 });
  assert.match(await lab.textContent(), /No members yet/);

  // Add the organizer to Lab B (the select is labelled; chosen and sent by keyboard too).
  const select = lab.locator('select.add-member');
  assert.equal(await page.locator(`label[for="${await select.getAttribute('id')}"]`).textContent(), 'Add an account');
  await select.selectOption({ label: `Lab Organizer (${MEMBER.email})` });
  await select.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await lab.locator('li', { hasText: MEMBER.email }).waitFor({ timeout: 15_000 });

  // Out of Everyone: its Remove button is named for the account and the team.
  const everyone = page.locator('#teams section.team[data-team="1"]');
  const remove = everyone.getByRole('button', { name: `Remove ${MEMBER.email} from Everyone` });
  await remove.click();
  await everyone.locator('li', { hasText: MEMBER.email }).waitFor({ state: 'detached', timeout: 15_000 });
  assert.equal(await lab.locator('li', { hasText: MEMBER.email }).count(), 1);

  // A taken name is refused with a message read out.
  await page.fill('#new-team-name', 'Lab B');
  await page.click('#team-form button[type="submit"]');
  const refusal = await page.waitForSelector('#team-status [role="alert"]');
  assert.match(await refusal.textContent(), /A team named "Lab B" exists already/);

  const found = await axeViolations(page);
  assert.deepEqual(found, [], `axe-core on the accounts page with teams: ${found.join('\n')}`);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/teams-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.querySelector('#teams').scrollWidth - document.querySelector('#teams').clientWidth);
  assert.ok(overflow <= 1, `the teams panel fits 390 px (overflow ${overflow} px)`);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/teams-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The organizer now sees none of Everyone's campaigns, and may not open the demo's.
  assert.deepEqual(await homeCampaigns(theirs), []);
  const list = await openHydrated(theirs, `${env.server.base}/campaigns`);
  assert.doesNotMatch(await list.textContent('main'), /Demo: DA adequacy/);
  await list.close();

  // Back in Everyone: the demo's campaigns are theirs again.
  await page.reload();
  await waitHydrated(page);
  const back = page.locator('#teams section.team[data-team="1"]');
  await back.locator('select.add-member').selectOption({ label: `Lab Organizer (${MEMBER.email})` });
  await back.locator('button', { hasText: 'Add to team' }).click();
  await back.locator('li', { hasText: MEMBER.email }).waitFor({ timeout: 15_000 });
  assert.ok((await homeCampaigns(theirs)).some((n) => /Demo: DA adequacy/.test(n)));
  assert.deepEqual(page.assayErrors, []);
  await theirs.close();
  await admin.close();
});
