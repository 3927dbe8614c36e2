import { createClient, members, OAuthStrategy } from '@cartwheel/sdk';
import { QueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../../platform/src/identity/service.ts';
import {
  DIALECTS,
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../../platform/test/support/platform.ts';
import {
  CartwheelProvider,
  cartwheelKeys,
  finishDirectLogin,
  memberQueries,
  refreshAfterAuthChange,
  useAuth,
  useCurrentMember,
} from '../src/index.ts';

const PASSWORD = 'correct horse battery';

/** The visitor an access token speaks for (`sub`). */
const visitorOf = (accessToken: string): string =>
  JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')).sub;

function storeClient(platform: TestPlatform) {
  return createClient({
    host: platform.url,
    auth: OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url, redirectUri: `${platform.url}/` }),
    modules: { members },
  });
}

/** What the account corner of a page would say, rendered on the server. */
function SignedInProbe() {
  const { loggedIn } = useAuth();
  const member = useCurrentMember();
  return createElement('p', null, `${loggedIn ? 'member' : 'visitor'}/${member.loggedIn}`);
}

describe('refreshAfterAuthChange', () => {
  it("drops the member's answers, refetches who-dependent ones, and leaves the catalog alone", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(cartwheelKeys.members.current, { id: 'previous-member' });
    queryClient.setQueryData(['cartwheel', 'cart', 'current'], { id: 'cart-1' });
    queryClient.setQueryData(cartwheelKeys.products.byId('p1'), { id: 'p1' });
    queryClient.setQueryData(cartwheelKeys.collections.bySlug('mugs'), { id: 'c1' });

    await refreshAfterAuthChange(queryClient);

    expect(queryClient.getQueryData(cartwheelKeys.members.current)).toBeUndefined();
    expect(queryClient.getQueryState(['cartwheel', 'cart', 'current'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(cartwheelKeys.products.byId('p1'))?.isInvalidated).toBe(false);
    expect(queryClient.getQueryState(cartwheelKeys.collections.bySlug('mugs'))?.isInvalidated).toBe(false);
  });
});

describe.each(DIALECTS)('auth hooks against the platform on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'false');
  });
  afterAll(() => platform?.stop());

  it('a registration that succeeds signs the same visitor in as a member, whom the member query reads', async () => {
    const client = storeClient(platform);
    const email = `ada.${Date.now().toString(36)}@example.com`;
    // a visitor first: the member must be this same visitor
    const visitorTokens = await client.auth.generateVisitorTokens({
      baseUrl: platform.url,
      fetch: globalThis.fetch,
    });
    client.auth.setTokens(visitorTokens);

    const result = await finishDirectLogin(
      client.auth,
      await client.auth.register({ email, password: PASSWORD, profile: { nickname: 'Ada' } }),
    );
    expect(result.loginState).toBe('SUCCESS');
    expect(client.auth.loggedIn()).toBe(true);
    expect(client.auth.getTokens().refreshToken.role).toBe('member');
    expect(visitorOf(client.auth.getTokens().accessToken.value)).toBe(
      visitorOf(visitorTokens.accessToken.value),
    );

    const member = await new QueryClient().fetchQuery(memberQueries.current(client));
    expect(member).toMatchObject({ loginEmail: email, profile: { nickname: 'Ada' } });

    const html = renderToString(createElement(CartwheelProvider, { client }, createElement(SignedInProbe)));
    expect(html).toContain('member/true');
  });

  it('a login that fails leaves the visitor as they were, tokens and all', async () => {
    const client = storeClient(platform);
    const visitorTokens = await client.auth.generateVisitorTokens({
      baseUrl: platform.url,
      fetch: globalThis.fetch,
    });
    client.auth.setTokens(visitorTokens);

    const result = await finishDirectLogin(
      client.auth,
      await client.auth.login({ email: 'nobody@example.com', password: PASSWORD }),
    );
    expect(result).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidEmail' });
    expect(client.auth.getTokens()).toEqual(visitorTokens);
    expect(client.auth.loggedIn()).toBe(false);

    const html = renderToString(createElement(CartwheelProvider, { client }, createElement(SignedInProbe)));
    expect(html).toContain('visitor/false');
  });
});
