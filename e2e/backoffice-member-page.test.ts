import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../packages/platform/src/identity/service.ts';
import { admin } from '../packages/platform/test/catalog-http.ts';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import {
  login,
  memberTokens,
  register,
  uniqueEmail,
  visitorToken,
} from '../packages/platform/test/identity-client.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { PASSWORD, SQLITE, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/**
 * A member's page (/admin/members/:id) in Chromium against the built platform: reached from the members
 * table, it shows the member's profile, contact and orders (each opening the order), and offers only
 * the status actions their state allows: a waiting member is approved, then muted; another is deleted
 * with their content given to a member the merchant picks. Each shows its new state without a reload.
 */
describe.each(SQLITE)("a member's page in the back office in Chromium on %s", E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  const tag = `page${dialect}${Date.now().toString(36)}`;
  const people = {} as Record<'nora' | 'omar' | 'pia', { email: string; id: string }>;
  let orderNumbers: string[] = [];
  let omarOrderId = '';
  const shot = (name: string) => screenshot(page, `backoffice-member-page-${dialect}-${name}`);

  /** Signs a member up (waiting for approval or not); answers their session token. */
  async function signUp(name: keyof typeof people, waitForApproval: boolean): Promise<string> {
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, String(waitForApproval));
    const email = uniqueEmail(`${tag}-${name}`);
    const answer = await register(platform, await visitorToken(platform), email, PASSWORD, {
      profile: { nickname: `${name} ${tag}` },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    people[name] = { email, id: answer.body.identity.id };
    return answer.body.sessionToken;
  }

  /** The member as the platform holds them, or the status it refused with. */
  async function storedMember(name: keyof typeof people) {
    const answer = await admin(platform).get(`/members/v1/members/${people[name].id}?fieldsets=FULL`);
    return answer.status === 200 ? answer.body.member : answer.status;
  }

  /** Opens the member's page from the members table, found by their nickname. */
  async function openFromTable(name: keyof typeof people) {
    await page.goto(`${platform.url}/admin/members?q=${encodeURIComponent(tag)}`);
    await page.getByRole('link', { name: `${name} ${tag}` }).click();
    await page.waitForURL(`**/admin/members/${people[name].id}`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`${name} ${tag}`);
  }

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: false }));
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'false');
    await signUp('nora', true);
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'false');
    // Omar shops while signed in: his orders are his member page's
    await shipToUs(platform);
    const stove = await stockedProduct(platform, 'Camp Stove', 55, 10);
    const omar = (await memberTokens(platform, await signUp('omar', false))).access_token;
    for (const quantity of [1, 2]) {
      const { orderId } = await placeOrder(platform, stove.id, { auth: omar, quantity });
      omarOrderId = orderId;
      const order = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
      expect(order.buyerInfo.memberId).toBe(people.omar.id);
      orderNumbers.push(`#${order.number}`);
    }
    // newest first, as the page lists them
    orderNumbers = orderNumbers.reverse();
    await signUp('pia', false);
    page = await newTestPage(browser, { width: 1280, height: 900 });
    await page.goto(`${platform.url}/admin/members`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('member-row').first().waitFor();
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('approves a waiting member, then mutes them: only what their state allows is offered', async () => {
    await openFromTable('nora');
    expect(await page.getByTestId('member-status').textContent()).toBe('Waiting for approval');
    expect(await page.getByTestId('member-email').textContent()).toContain(people.nora.email);
    // the member's orders load on their own, after the member
    await eventually(() => page.getByRole('region', { name: 'Orders' }).textContent()).toContain(
      'No orders yet',
    );
    const signIn = async () =>
      (await login(platform, await visitorToken(platform), people.nora.email, PASSWORD)).body.state;
    expect(await signIn()).toBe('REQUIRE_OWNER_APPROVAL');
    await shot('waiting');

    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByRole('heading').textContent()).toBe(`Approve nora ${tag}?`);
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => page.getByTestId('member-status').textContent()).toBe('Approved');
    expect(await page.getByTestId('member-action-done').textContent()).toBe(
      `nora ${tag} is approved: they can sign in.`,
    );
    // the Approve button is gone: the focus is on what was done, not lost to the page
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'member-action-done',
    );
    // approving again is not offered, and the page says why
    expect(await page.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    expect(await page.getByTestId('why-not-approve').textContent()).toBe('Approve: Already approved.');
    expect(await signIn()).toBe('SUCCESS');

    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await dialog.getByRole('button', { name: 'Mute' }).click();
    await eventually(() => page.getByTestId('member-community').textContent()).toBe('Muted');
    expect(await page.getByRole('button', { name: 'Mute', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Unmute', exact: true }).count()).toBe(1);
    const stored = await storedMember('nora');
    expect(stored.activityStatus).toBe('MUTED');
    expect(stored.status).toBe('APPROVED');
    await shot('muted');
  });

  it("lists the member's orders, each opening the order", async () => {
    await openFromTable('omar');
    await eventually(() => page.getByTestId('member-order').count()).toBe(2);
    const links = page.getByRole('region', { name: 'Orders' }).getByRole('link');
    expect(await links.allTextContents()).toEqual(orderNumbers);
    await links.first().click();
    await page.waitForURL(`**/admin/orders/${omarOrderId}`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `Order ${orderNumbers[0]}`,
    );
    // and the order leads back to its member
    await page.getByRole('link', { name: 'Member’s page' }).click();
    await page.waitForURL(`**/admin/members/${people.omar.id}`);
  });

  it('deletes a member, giving their content to the member the merchant picks', async () => {
    await openFromTable('pia');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByRole('heading').textContent()).toBe(`Delete pia ${tag}?`);
    await dialog.getByLabel('Find the member who receives their content').fill(tag);
    const assignee = dialog.getByLabel('Give their content to');
    // nobody, Nora and Omar: never the member being deleted
    await eventually(() => assignee.locator('option').allTextContents()).toEqual([
      'Nobody',
      expect.stringContaining(`omar ${tag}`),
      expect.stringContaining(`nora ${tag}`),
    ]);
    await assignee.selectOption({ value: people.omar.id });
    await dialog.getByRole('button', { name: 'Delete member' }).click();

    await eventually(() => page.getByTestId('member-deleted').textContent()).toBe(
      `pia ${tag} was deleted; their content now belongs to omar ${tag}. Their orders stay with the store.`,
    );
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Member deleted');
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'member-deleted',
    );
    expect(await storedMember('pia')).toBe(404);
    const row = await platform.services.database.db
      .selectFrom('members')
      .select('content_assignee_id')
      .where('id', '=', people.pia.id)
      .executeTakeFirstOrThrow();
    expect(row.content_assignee_id).toBe(people.omar.id);
    await shot('deleted');

    await page.getByRole('link', { name: '← All members' }).click();
    await eventually(() => page.getByRole('link', { name: `pia ${tag}` }).count()).toBe(0);
  });
});
