import type { RecordedResponse } from './baseline-server.ts';
import { BENCH_CLIENT_ID } from './processes.ts';

/** Response headers the baseline repeats: the rest (date, connection, keep-alive) are the server's own. */
const HEADERS_THAT_MATTER = ['content-type', 'x-request-id', 'cache-control', 'etag', 'vary'];

/** An anonymous visitor's access token from the platform at `url`. */
export async function visitorToken(url: string): Promise<string> {
  const response = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: BENCH_CLIENT_ID, grantType: 'anonymous' }),
  });
  if (response.status !== 200)
    throw new Error(`no visitor token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The platform's answer to one request, as the baseline server answers it back (bench/support/baseline-server.ts). */
export async function recordResponse(
  url: string,
  requestPath: string,
  request: { method?: string; headers: Record<string, string>; body?: string },
): Promise<RecordedResponse> {
  const response = await fetch(url + requestPath, {
    method: request.method ?? 'GET',
    headers: request.headers,
    ...(request.body ? { body: request.body } : {}),
  });
  const body = Buffer.from(await response.arrayBuffer());
  const kept: Record<string, string> = {};
  for (const name of HEADERS_THAT_MATTER) {
    const value = response.headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return { status: response.status, headers: kept, body: body.toString('base64') };
}
