import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Route } from 'playwright-core';
import { sharedChromium } from '../../../e2e/support/browser.ts';
import { HOSTED_API_HOSTS } from './hosted-client-route.ts';

/**
 * Runs a client (the hosted platform's own `@wix/sdk`, unchanged, or Cartwheel's SDK), bundled by esbuild,
 * in Chromium on a page of the platform's origin: register, log in, then `getMemberTokensForDirectLogin`,
 * which loads the authorization URL in a hidden frame and waits for its `web_message` answer. The page's calls to the
 * hosted API hosts are routed to the platform (Playwright's request routing, the browser's equivalent
 * of hosted-client-route.ts); the frame itself loads the platform directly.
 */
export interface DirectLoginResult {
  loginState: string;
  role: string;
  loggedIn: boolean;
  accessToken: string;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TEST_PAGE = '/__hosted-client-auth-test';

/** The hosted platform's own client: register, log in, and the direct login's hidden frame. */
const HOSTED_CLIENT_ENTRY = `
import { createClient, OAuthStrategy } from '@wix/sdk';
window.run = async ({ clientId, email, password }) => {
  const { auth } = createClient({ modules: {}, auth: OAuthStrategy({ clientId }) });
  const registered = await auth.register({ email, password });
  if (registered.loginState !== 'SUCCESS') throw new Error('register: ' + JSON.stringify(registered));
  const login = await auth.login({ email, password });
  if (login.loginState !== 'SUCCESS') return { loginState: login.loginState };
  const tokens = await auth.getMemberTokensForDirectLogin(login.data.sessionToken);
  auth.setTokens(tokens);
  return {
    loginState: login.loginState,
    role: tokens.refreshToken.role,
    loggedIn: auth.loggedIn(),
    accessToken: tokens.accessToken.value,
  };
};
`;

/** Cartwheel's own SDK, the same steps, its host given as the platform's origin (the page's own). */
const CARTWHEEL_SDK_ENTRY = `
import { OAuthStrategy } from '@cartwheel/sdk';
window.run = async ({ clientId, email, password }) => {
  const auth = OAuthStrategy({ clientId, host: window.location.origin });
  const registered = await auth.register({ email, password });
  if (registered.loginState !== 'SUCCESS') throw new Error('register: ' + JSON.stringify(registered));
  const login = await auth.login({ email, password });
  if (login.loginState !== 'SUCCESS') return { loginState: login.loginState };
  const tokens = await auth.getMemberTokensForDirectLogin(login.data.sessionToken);
  auth.setTokens(tokens);
  return {
    loginState: login.loginState,
    role: tokens.refreshToken.role,
    loggedIn: auth.loggedIn(),
    accessToken: tokens.accessToken.value,
  };
};
`;

const bundles = new Map<string, Promise<string>>();
function bundle(entry: string): Promise<string> {
  let bundled = bundles.get(entry);
  if (!bundled) {
    bundled = build({
      stdin: { contents: entry, resolveDir: HERE, loader: 'js' },
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    }).then((result) => result.outputFiles[0]!.text);
    bundles.set(entry, bundled);
  }
  return bundled;
}

export interface DirectLoginInput {
  clientId: string;
  email: string;
  password: string;
}

/** `@wix/sdk`'s direct login in Chromium. */
export const hostedClientDirectLogin = (platformUrl: string, input: DirectLoginInput) =>
  runInChromium(platformUrl, HOSTED_CLIENT_ENTRY, input);

/** `@cartwheel/sdk`'s direct login in Chromium (its framed `web_message` path). */
export const cartwheelSdkDirectLogin = (platformUrl: string, input: DirectLoginInput) =>
  runInChromium(platformUrl, CARTWHEEL_SDK_ENTRY, input);

async function runInChromium(
  platformUrl: string,
  entry: string,
  input: DirectLoginInput,
): Promise<DirectLoginResult> {
  const script = await bundle(entry);
  const context = await (await sharedChromium()).newContext();
  try {
    const page = await context.newPage();
    const origin = new URL(platformUrl).origin;
    await page.route(`${origin}${TEST_PAGE}`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
      }),
    );
    for (const host of HOSTED_API_HOSTS) {
      await page.route(`https://${host}/**`, (route) => forward(route, platformUrl, origin));
    }
    await page.goto(`${origin}${TEST_PAGE}`);
    return (await page.evaluate(
      (args) => (window as unknown as { run(a: typeof args): Promise<unknown> }).run(args),
      input,
    )) as DirectLoginResult;
  } finally {
    await context.close();
  }
}

/** A hosted-API call from the page, answered by the platform, with the CORS headers a real host sends. */
async function forward(route: Route, platformUrl: string, pageOrigin: string): Promise<void> {
  const request = route.request();
  const cors = {
    'access-control-allow-origin': pageOrigin,
    'access-control-allow-credentials': 'true',
    'access-control-allow-headers': request.headers()['access-control-request-headers'] ?? '*',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-expose-headers': '*',
  };
  if (request.method() === 'OPTIONS') {
    await route.fulfill({ status: 204, headers: cors });
    return;
  }
  const url = new URL(request.url());
  const headers = { ...request.headers() };
  for (const name of ['host', 'origin', 'referer', 'content-length', 'cookie']) delete headers[name];
  const response = await fetch(`${platformUrl}${url.pathname}${url.search}`, {
    method: request.method(),
    headers,
    ...(request.postDataBuffer() ? { body: new Uint8Array(request.postDataBuffer()!) } : {}),
  });
  const answerHeaders: Record<string, string> = { ...cors };
  response.headers.forEach((value, name) => {
    if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
      answerHeaders[name] = value;
  });
  await route.fulfill({
    status: response.status,
    headers: answerHeaders,
    body: Buffer.from(await response.arrayBuffer()),
  });
}
