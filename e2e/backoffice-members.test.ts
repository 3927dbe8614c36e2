import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../packages/platform/src/identity/service.ts';
import {
  call,
  login,
  register,
  uniqueEmail,
  visitorToken,
} from '../packages/platform/test/identity-client.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import {
  PASSWORD,
  POSTGRES,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storedRole,
} from './support/store.ts';

/**
 * The back office's members (/admin/members) in Chromium against the built platform: a merchant finds
 * the members waiting for approval, approves them in bulk (a job followed to its end), blocks one, and
 * deletes another, each answered with a result per member; what changed is what the platform holds.
 */
describe.each(POSTGRES)('the back office members in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  const tag = `crew${dialect}${Date.now().toString(36)}`;
  const people: Record<'ada' | 'grace' | 'linus', { email: string; id: string }> = {} as never;
  const shot = (name: string) => screenshot(page, `backoffice-members-${dialect}-${name}`);
  const rows = () => page.getByTestId('member-row');

  async function signUp(name: keyof typeof people, waitForApproval: boolean) {
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, String(waitForApproval));
    const email = uniqueEmail(`${tag}-${name}`);
    const answer = await register(platform, await visitorToken(platform), email, PASSWORD, {
      profile: { nickname: `${name} ${tag}` },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    people[name] = { email, id: answer.body.identity.id };
  }

  /** Where the member's sign-in lands: SUCCESS, REQUIRE_OWNER_APPROVAL, or a refusal. */
  async function signInState(name: keyof typeof people) {
    const answer = await login(platform, await visitorToken(platform), people[name].email, PASSWORD);
    return answer.body.state ?? answer.body.details?.applicationError?.code;
  }

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['backoffice', 'storefront'],
      seedDemo: false,
    }));
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'false');
    await signUp('ada', true);
    await signUp('grace', true);
    await signUp('linus', false);
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'false');
    page = await newTestPage(browser, { width: 1280, height: 900 });
    await page.goto(`${platform.url}/admin/members`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('finds the members waiting for approval, and approves them together with a result for each', async () => {
    await page.getByLabel('Find a member').fill(tag);
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => rows().count()).toBe(3);
    await page.getByLabel('Status').selectOption({ label: 'Waiting for approval' });
    await eventually(() => rows().count()).toBe(2);
    expect(await signInState('ada')).toBe('REQUIRE_OWNER_APPROVAL');

    await page.getByLabel('Select every member on this page').check();
    await eventually(() => page.getByText('2 selected').count()).toBe(1);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByRole('heading').textContent()).toBe('Approve 2 members?');
    await dialog.getByRole('button', { name: 'Approve' }).click();

    await eventually(() => page.getByTestId('bulk-outcome').textContent()).toBe('2 members approved.');
    await eventually(() => rows().count()).toBe(0);
    expect(await signInState('ada')).toBe('SUCCESS');
    expect(await signInState('grace')).toBe('SUCCESS');
    await shot('approved');
  });

  it('blocks one member, whose open storefront session is signed out, and deletes another', async () => {
    // grace is signed in to the storefront in a browser of her own while the merchant blocks her
    const shopper = await newTestPage(browser, { width: 1280, height: 900 });
    const accountMenu = () => shopper.getByTestId('account-menu');
    await shopper.goto(`${platform.url}/account/sign-in`);
    await shopper.getByLabel('Email').fill(people.grace.email);
    await shopper.getByLabel('Password').fill(PASSWORD);
    await shopper.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(() => accountMenu().textContent()).toContain(`Hi, grace ${tag}`);
    await eventually(() => storedRole(shopper)).toBe('member');

    await page.getByLabel('Status').selectOption({ label: 'Any' });
    await eventually(() => rows().count()).toBe(3);
    await page.getByLabel(`Select grace ${tag}`).check();
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Block' }).click();
    await eventually(() => page.getByTestId('bulk-outcome').textContent()).toBe('1 member blocked.');
    await eventually(() =>
      rows()
        .filter({ hasText: `grace ${tag}` })
        .textContent(),
    ).toContain('Blocked');
    expect(await signInState('grace')).not.toBe('SUCCESS');
    // her open storefront tab: the next page she opens finds her signed out, a visitor again
    await shopper.goto(`${platform.url}/account`);
    await shopper.waitForURL('**/account/sign-in?returnTo=%2Faccount');
    await accountMenu().getByRole('link', { name: 'Sign in' }).waitFor();
    await eventually(() => storedRole(shopper)).not.toBe('member');
    await shopper.context().close();

    await page.getByLabel(`Select linus ${tag}`).check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await eventually(() => page.getByTestId('bulk-outcome').textContent()).toBe('1 member deleted.');
    await eventually(() => rows().count()).toBe(2);
    const read = await call(platform, 'GET', `/members/v1/members/${people.linus.id}`, {
      auth: platform.adminApiKey,
    });
    expect(read.status).toBe(404);
    expect(await signInState('linus')).not.toBe('SUCCESS');
    await shot('after');
  });
});
