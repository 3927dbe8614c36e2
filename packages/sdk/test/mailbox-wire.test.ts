import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, cartwheelMailbox, createClient, HttpError } from '../src/index.ts';

/** `cartwheelMailbox`, the developer mailbox: what reaches a recording fetch, and the answer unwrapped. */
function recorder(answer: unknown, status = 200) {
  const calls: Array<{ method: string; url: URL; auth: string | null }> = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      auth: new Headers(init?.headers).get('authorization'),
    });
    return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const client = createClient({
    host: 'http://localhost:4000',
    auth: ApiKeyStrategy({ apiKey: 'cw_admin_test' }),
    modules: { cartwheelMailbox },
    fetch,
  });
  return { client, calls };
}

describe('cartwheelMailbox', () => {
  it('lists the messages to one recipient, at most the limit, with the admin key', async () => {
    const message = { id: 'm1', kind: 'PASSWORD_RESET', to: 'ann@example.com', subject: 'Reset', text: '' };
    const { client, calls } = recorder({ messages: [message] });
    const answer = await client.cartwheelMailbox.listMessages({ limit: 50, to: 'ann@example.com' });
    expect(answer.messages).toEqual([message]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.url.pathname).toBe('/api/cartwheel/mailbox');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ limit: '50', to: 'ann@example.com' });
    expect(calls[0]?.auth).toBe('cw_admin_test');
  });

  it('sends no parameters it was not given, and a refused key fails with its HTTP status', async () => {
    const { client, calls } = recorder({ message: 'Forbidden' }, 403);
    const failure = await client.cartwheelMailbox.listMessages().catch((error: unknown) => error);
    expect([...calls[0]!.url.searchParams]).toEqual([]);
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).status).toBe(403);
  });
});
