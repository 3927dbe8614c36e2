import { createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { orders } from '@wix/ecom';
import { AppStrategy, createClient } from '@wix/sdk';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ClientMessages } from '../src/errors/client-error.ts';
import type { Order } from '../src/types/ecom-orders.ts';
import { createWebhookReceiver, standardSignature, type WebhookEvent } from '../src/webhooks/index.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PUBLIC_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const OTHER_PRIVATE = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
// The hosted client reads the wall clock when it checks a token's `exp`, so tokens are signed
// at the test's start; Cartwheel's receiver is handed that same instant.
const NOW = Date.now();
const nowSeconds = Math.floor(NOW / 1000);

const base64Url = (text: string | Buffer) => Buffer.from(text).toString('base64url');

/** A delivery as the hosted platform signs one: an RS256 JWT of `{data, iat, exp}`. */
function jwt(claims: Record<string, unknown>, options: { key?: typeof privateKey; alg?: string } = {}) {
  const head = base64Url(JSON.stringify({ alg: options.alg ?? 'RS256', typ: 'JWT' }));
  const body = base64Url(JSON.stringify(claims));
  const signature = createSign('RSA-SHA256')
    .update(`${head}.${body}`)
    .sign(options.key ?? privateKey);
  return `${head}.${body}.${base64Url(signature)}`;
}

const ORDER = { id: 'order-1', number: '10001', status: 'APPROVED' } as Order;
const orderCreated = {
  id: 'event-1',
  entityFqdn: 'wix.ecom.v1.order',
  slug: 'created',
  entityId: ORDER.id,
  eventTime: new Date(NOW - 1000).toISOString(),
  entityEventSequence: '1',
  createdEvent: { entity: ORDER },
};
const identity = { identityType: 'MEMBER', memberId: 'member-1' };

function delivery(eventType: string, payload: unknown, times = { iat: nowSeconds, exp: nowSeconds + 3600 }) {
  const data = JSON.stringify({
    eventType,
    instanceId: 'store-1',
    identity: JSON.stringify(identity),
    data: JSON.stringify(payload),
  });
  return jwt({ data, ...times });
}

describe('receiving webhooks (@cartwheel/sdk/webhooks)', () => {
  it("hands an order-created handler the same entity and metadata the hosted client's handler gets", async () => {
    const body = delivery('wix.ecom.v1.order_created', orderCreated);
    const ours: WebhookEvent<'wix.ecom.v1.order_created'>[] = [];
    const receiver = createWebhookReceiver({ publicKey: PUBLIC_PEM, now: () => NOW });
    receiver.on('wix.ecom.v1.order_created', (event) => {
      ours.push(event);
    });
    const processed = await receiver.process(body);

    const hosted: unknown[] = [];
    const client = createClient({
      auth: AppStrategy({ appId: 'app-1', publicKey: PUBLIC_PEM }),
      modules: { orders },
    });
    client.orders.onOrderCreated((event) => {
      hosted.push(event);
    });
    await client.webhooks.process(body);

    expect(processed.eventType).toBe('wix.ecom.v1.order_created');
    expect(ours).toHaveLength(1);
    expect(ours[0]!.entity.id).toBe('order-1');
    expect(ours[0]!.metadata).toMatchObject({ entityEventSequence: '1', instanceId: 'store-1', identity });
    expect(hosted).toHaveLength(1);
    const theirs = hosted[0] as { entity: { _id?: string }; metadata: Record<string, unknown> };
    // the hosted client names ids `_id`; the envelope is otherwise the same, dates as `Date`s in both
    expect(theirs.entity._id).toBe(ours[0]!.entity.id);
    const { _id, ...theirMetadata } = theirs.metadata;
    expect({ ...theirMetadata, id: _id }).toEqual(ours[0]!.metadata);
    expect(ours[0]!.metadata.eventTime).toEqual(new Date(orderCreated.eventTime));
  });

  it("refuses a body signed by another key, a changed body, 'none' and an expired token with 'JWT is not valid'", async () => {
    const receiver = createWebhookReceiver({ publicKey: PUBLIC_PEM, now: () => NOW });
    receiver.on('wix.ecom.v1.order_created', () => {});
    const good = delivery('wix.ecom.v1.order_created', orderCreated);
    const [head, , signature] = good.split('.');
    const data = JSON.stringify({ eventType: 'wix.ecom.v1.order_created', data: '{}' });
    const bodies = [
      jwt({ data, iat: nowSeconds, exp: nowSeconds + 60 }, { key: OTHER_PRIVATE }),
      `${head}.${base64Url(JSON.stringify({ data, iat: nowSeconds }))}.${signature}`,
      `${base64Url('{"alg":"none"}')}.${base64Url(JSON.stringify({ data }))}.`,
      delivery('wix.ecom.v1.order_created', orderCreated, { iat: nowSeconds - 7200, exp: nowSeconds - 3600 }),
      'not a token',
      '',
    ];
    for (const body of bodies) {
      await expect(receiver.process(body)).rejects.toThrow(ClientMessages.jwtNotValid);
    }
  });

  it('names the unexpected type as the hosted client does, and says when nothing handles events at all', async () => {
    const body = delivery('wix.ecom.v1.order_updated', { ...orderCreated, slug: 'updated' });
    const receiver = createWebhookReceiver({ publicKey: PUBLIC_PEM, now: () => NOW });
    await expect(receiver.process(body)).rejects.toThrow(
      ClientMessages.noImplementationFound('wix.ecom.v1.order_updated'),
    );
    receiver.on('wix.ecom.v1.order_created', () => {});
    const message = ClientMessages.unexpectedEventType('wix.ecom.v1.order_updated', [
      'wix.ecom.v1.order_created',
    ]);
    await expect(receiver.process(body)).rejects.toThrow(message);

    const client = createClient({
      auth: AppStrategy({ appId: 'app-1', publicKey: PUBLIC_PEM }),
      modules: { orders },
    });
    client.orders.onOrderCreated(() => {});
    await expect(client.webhooks.process(body)).rejects.toThrow(message);
    // a type the caller expects without a handler of its own is taken
    await expect(
      receiver.process(body, { expectedEvents: [{ type: 'wix.ecom.v1.order_updated' }] }),
    ).resolves.toMatchObject({ eventType: 'wix.ecom.v1.order_updated' });
  });

  it('reads a Request: the JWT body, or Standard Webhooks headers the reference library signed', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const receiver = createWebhookReceiver({ publicKey: PUBLIC_PEM, standardSecret: secret, now: () => NOW });
    const seen: string[] = [];
    receiver.on('wix.ecom.v1.order_created', (event) => {
      seen.push(event.entity.id ?? '');
    });
    await receiver.processRequest(
      new Request('http://app.test/webhooks', {
        method: 'POST',
        body: delivery('wix.ecom.v1.order_created', orderCreated),
      }),
    );

    const body = JSON.stringify({
      type: 'wix.ecom.v1.order_created',
      timestamp: orderCreated.eventTime,
      identity,
      data: orderCreated,
    });
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(nowSeconds) };
    const reference = new Webhook(secret).sign('msg_1', new Date(NOW), body);
    expect(await standardSignature(secret, 'msg_1', String(nowSeconds), body)).toBe(reference);
    await receiver.processRequest(
      new Request('http://app.test/webhooks', {
        method: 'POST',
        body,
        headers: { ...headers, 'webhook-signature': `v1,bm90IGl0 ${reference}` },
      }),
    );
    expect(seen).toEqual(['order-1', 'order-1']);

    const stale = { ...headers, 'webhook-timestamp': String(nowSeconds - 301) };
    const staleSignature = new Webhook(secret).sign('msg_1', new Date((nowSeconds - 301) * 1000), body);
    const refused = [
      { ...headers, 'webhook-signature': reference.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) },
      { ...stale, 'webhook-signature': staleSignature },
    ];
    for (const bad of refused) {
      await expect(
        receiver.processRequest(
          new Request('http://app.test/webhooks', { method: 'POST', body, headers: bad }),
        ),
      ).rejects.toThrow(ClientMessages.jwtNotValid);
    }
  });
});
