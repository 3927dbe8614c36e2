import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authorizationCodeFromFrame } from '../src/auth/index.ts';
import {
  ClientError,
  type FrameHost,
  OAuthStrategy,
  type OAuthStrategyOptions,
  SILENT_LOGIN_TIMEOUT_MS,
} from '../src/index.ts';
import {
  AUTHORIZE_PATH,
  type HostedAuthPlatform,
  playHostedAuthPlatform,
} from './support/hosted-auth-platform.ts';
import { type LoopbackServer, startLoopbackServer } from './support/loopback-server.ts';

const server: LoopbackServer = await startLoopbackServer();
afterAll(() => server.close());
let platform: HostedAuthPlatform;
beforeEach(() => {
  server.requests.length = 0;
  platform = playHostedAuthPlatform(server);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const strategy = (options: Partial<OAuthStrategyOptions> = {}) =>
  OAuthStrategy({ clientId: 'client-1', host: server.url, ...options });
const requestsTo = (path: string) => server.requests.filter((r) => r.path === path);
const REDIRECT_SESSION = '/_api/redirects-api/v1/redirect-session';
/** Never requested: the code is read from the Location pointing here, not by following it. */
const NODE_REDIRECT_URI = 'http://127.0.0.1:9/callback';

class FakeFrame {
  src = '';
  style = { display: '' };
  hidden = false;
  removed = false;
  setAttribute(name: string) {
    if (name === 'aria-hidden') this.hidden = true;
  }
  remove() {
    this.removed = true;
  }
}

/**
 * The part of a browser the frame path touches. The page a frame loads is the loopback server's
 * authorization endpoint, fetched for real; what that page would post to its parent is up to `page`.
 */
class FakeBrowser extends EventTarget {
  frames: FakeFrame[] = [];
  listeners = 0;
  location = { origin: 'https://shop.example', href: 'https://shop.example/account' };
  page: (frame: FakeFrame) => void = (frame) => void this.postAnswerOf(frame, server.url);
  document = {
    createElement: () => new FakeFrame(),
    body: {
      appendChild: (frame: FakeFrame) => {
        this.frames.push(frame);
        this.page(frame);
        return frame;
      },
    },
  };
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>) {
    this.listeners++;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>) {
    this.listeners--;
    super.removeEventListener(...args);
  }
  /** Loads the frame's page and posts what it answers, as the platform's web_message page does. */
  async postAnswerOf(frame: FakeFrame, origin: string) {
    const answer = await (await fetch(frame.src)).json();
    this.post(answer, origin);
  }
  post(data: unknown, origin: string) {
    this.dispatchEvent(new MessageEvent('message', { data, origin }));
  }
}

function inBrowser(): FakeBrowser {
  const browser = new FakeBrowser();
  vi.stubGlobal('window', browser);
  return browser;
}

describe('session token → member tokens in a browser: a hidden frame (point 4)', () => {
  it('loads the prompt-none authorization URL in a hidden frame and exchanges the posted code for member tokens', async () => {
    const browser = inBrowser();
    const auth = strategy();
    const tokens = await auth.getMemberTokensForDirectLogin('session-1');

    const session = requestsTo(REDIRECT_SESSION)[0]?.body as {
      auth: { authRequest: Record<string, string>; prompt: string };
    };
    expect(session.auth.prompt).toBe('none');
    expect(session.auth.authRequest).toMatchObject({
      responseMode: 'web_message',
      sessionToken: 'session-1',
      redirectUri: 'https://shop.example',
    });
    expect(browser.frames).toHaveLength(1);
    expect(browser.frames[0]?.src).toBe(`${server.url}${AUTHORIZE_PATH}?session=rs-1`);
    expect(browser.frames[0]).toMatchObject({ hidden: true, style: { display: 'none' }, removed: true });
    expect(browser.listeners).toBe(0);
    expect(requestsTo('/oauth2/token').at(-1)?.body).toMatchObject({
      grantType: 'authorization_code',
      code: 'code-for-session-1',
      redirectUri: 'https://shop.example',
    });
    expect(tokens.refreshToken).toEqual({ value: 'member-refresh', role: 'member' });
    auth.setTokens(tokens);
    expect(auth.loggedIn()).toBe(true);
  });

  it('ignores messages from other origins and from other flows', async () => {
    const browser = inBrowser();
    browser.page = (frame) => {
      browser.post({ code: 'forged', state: platform.sessions.get('rs-1')?.state }, 'https://evil.example');
      browser.post({ code: 'other-flow', state: 'another-state' }, server.url);
      browser.post('not an answer', server.url);
      void browser.postAnswerOf(frame, server.url);
    };
    await strategy().getMemberTokensForDirectLogin('session-1');
    expect(requestsTo('/oauth2/token').at(-1)?.body).toMatchObject({ code: 'code-for-session-1' });
  });

  it('fails at once when the platform posts redirect_uri_not_allowed, naming the URI to register', async () => {
    const browser = inBrowser();
    browser.page = () =>
      browser.post({ error: 'redirect_uri_not_allowed', error_description: 'not registered' }, server.url);
    const started = Date.now();
    const failure = strategy().getMemberTokensForDirectLogin('session-1');
    await expect(failure).rejects.toBeInstanceOf(ClientError);
    await expect(failure).rejects.toThrow(
      'Register https://shop.example as an allowed redirect URI of the OAuth client client-1',
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(browser.frames[0]?.removed).toBe(true);
    expect(browser.listeners).toBe(0);
  });

  it('fails with the platform’s error and description for any other posted error', async () => {
    const browser = inBrowser();
    browser.page = () =>
      browser.post(
        {
          error: 'login_required',
          error_description: 'session expired',
          state: platform.sessions.get('rs-1')?.state,
        },
        server.url,
      );
    await expect(strategy().getMemberTokensForDirectLogin('session-1')).rejects.toThrow(
      'Silent login refused: login_required (session expired)',
    );
  });

  it("gives up with 'OAuth flow timed out' when the frame never answers", async () => {
    const browser = inBrowser();
    browser.page = () => {};
    const failure = strategy({ silentLoginTimeoutMs: 50 }).getMemberTokensForDirectLogin('session-1');
    await expect(failure).rejects.toThrow(new ClientError('OAuth flow timed out'));
    expect(browser.frames[0]?.removed).toBe(true);
    expect(browser.listeners).toBe(0);
    expect(requestsTo('/oauth2/token').filter((r) => (r.body as Record<string, string>).code)).toHaveLength(
      0,
    );
  });

  it("waits 120000 ms by default (point 9) before 'OAuth flow timed out'", async () => {
    vi.useFakeTimers();
    expect(SILENT_LOGIN_TIMEOUT_MS).toBe(120_000);
    const browser = new FakeBrowser();
    browser.page = () => {};
    let outcome: unknown = 'pending';
    const flow = authorizationCodeFromFrame('https://platform.example/authorize', {
      state: 's',
      redirectUri: 'https://shop.example',
      clientId: 'client-1',
      origins: ['https://platform.example'],
      host: browser as unknown as FrameHost,
    }).catch((error: unknown) => {
      outcome = error;
    });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await flow;
    expect(outcome).toEqual(new ClientError('OAuth flow timed out'));
  });
});

describe('session token → member tokens in Node: manual redirects (point 4)', () => {
  it('logs in with email and password, then reads the code from the Location header and gets member tokens', async () => {
    platform.answers.set('/_api/iam/authentication/v2/login', () => ({
      body: { state: 'SUCCESS', sessionToken: 'session-1' },
    }));
    const auth = strategy({ redirectUri: NODE_REDIRECT_URI });
    const login = await auth.login({ email: 'ada@example.com', password: 'secret1' });
    expect(login.loginState).toBe('SUCCESS');
    const tokens = await auth.getMemberTokensForDirectLogin(
      login.loginState === 'SUCCESS' ? login.data.sessionToken : '',
    );

    expect(requestsTo(REDIRECT_SESSION)[0]?.body).toMatchObject({
      auth: {
        authRequest: { responseMode: 'query', sessionToken: 'session-1', redirectUri: NODE_REDIRECT_URI },
        prompt: 'none',
      },
    });
    expect(requestsTo(AUTHORIZE_PATH)).toHaveLength(1);
    expect(requestsTo('/oauth2/token').at(-1)?.body).toMatchObject({
      grantType: 'authorization_code',
      code: 'code-for-session-1',
      redirectUri: NODE_REDIRECT_URI,
    });
    auth.setTokens(tokens);
    expect(auth.loggedIn()).toBe(true);
  });

  it('follows the platform’s own redirects until one points at the redirect URI', async () => {
    platform.authorize = (session) => ({
      status: 303,
      headers: { location: `/hop?state=${encodeURIComponent(session.state)}` },
    });
    platform.answers.set('/hop', (request) => ({
      status: 302,
      headers: {
        location: `${NODE_REDIRECT_URI}?code=hopped&state=${encodeURIComponent(request.query.get('state') ?? '')}`,
      },
    }));
    await strategy({ redirectUri: NODE_REDIRECT_URI }).getMemberTokensForDirectLogin('session-1');
    expect(requestsTo('/hop')).toHaveLength(1);
    expect(requestsTo('/oauth2/token').at(-1)?.body).toMatchObject({ code: 'hopped' });
  });

  it('fails naming the URI to register when the authorization endpoint refuses the redirect URI', async () => {
    platform.authorize = () => ({ status: 400, body: { error: 'redirect_uri_not_allowed' } });
    await expect(
      strategy({ redirectUri: NODE_REDIRECT_URI }).getMemberTokensForDirectLogin('session-1'),
    ).rejects.toThrow(
      `Register ${NODE_REDIRECT_URI} as an allowed redirect URI of the OAuth client client-1`,
    );
  });

  it('fails with the platform’s error when the redirect URI receives one', async () => {
    platform.authorize = (session) => ({
      status: 302,
      headers: {
        location: `${NODE_REDIRECT_URI}?error=login_required&error_description=expired&state=${session.state}`,
      },
    });
    await expect(
      strategy({ redirectUri: NODE_REDIRECT_URI }).getMemberTokensForDirectLogin('session-1'),
    ).rejects.toThrow('Silent login refused: login_required (expired)');
  });

  it('fails clearly when the authorization endpoint shows a page instead of redirecting', async () => {
    platform.authorize = () => ({ status: 200, body: '<html>login</html>' });
    await expect(
      strategy({ redirectUri: NODE_REDIRECT_URI }).getMemberTokensForDirectLogin('session-1'),
    ).rejects.toThrow('the authorization endpoint answered 200 instead of redirecting');
  });

  it("fails with 'Missing code or _state' when the redirect carries no code", async () => {
    platform.authorize = (session) => ({
      status: 302,
      headers: { location: `${NODE_REDIRECT_URI}?state=${session.state}` },
    });
    await expect(
      strategy({ redirectUri: NODE_REDIRECT_URI }).getMemberTokensForDirectLogin('session-1'),
    ).rejects.toThrow(new ClientError('Missing code or _state'));
  });

  it("fails with 'Invalid _state' when the redirect carries another flow's state", async () => {
    platform.authorize = () => ({
      status: 302,
      headers: { location: `${NODE_REDIRECT_URI}?code=c1&state=forged` },
    });
    await expect(
      strategy({ redirectUri: NODE_REDIRECT_URI }).getMemberTokensForDirectLogin('session-1'),
    ).rejects.toThrow(new ClientError('Invalid _state'));
    expect(requestsTo('/oauth2/token').filter((r) => (r.body as Record<string, string>).code)).toHaveLength(
      0,
    );
  });

  it('asks for a redirect URI when there is neither a browser nor one configured', async () => {
    await expect(strategy().getMemberTokensForDirectLogin('session-1')).rejects.toThrow(
      /OAuthStrategy\(\{ redirectUri \}\)/,
    );
    expect(server.requests).toHaveLength(0);
  });
});
