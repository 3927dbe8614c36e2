import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { orders } from '@wix/ecom';
import { redirects } from '@wix/redirects';
import { AppStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, visitorToken } from './catalog-http.ts';
import { uniqueEmail } from './identity-client.ts';
import { as, createKey } from './staff-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** A receiver on a loopback port: keeps each delivery's body and answers as `answer` says. */
async function receiver() {
  const bodies: string[] = [];
  let answer: (body: string) => number = () => 200;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(answer(body)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    answers(next: (body: string) => number) {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The domain event a JWT delivery carries, read without verifying: to tell deliveries apart. */
function eventOf(body: string): { entityId: string; slug: string } {
  const claims = JSON.parse(Buffer.from(body.split('.')[1] ?? '', 'base64url').toString('utf8'));
  return JSON.parse(JSON.parse(claims.data).data);
}

/** A till's sale the merchant records: an order placed, with its own events. */
const recordedOrder = (email: string) => ({
  order: {
    lineItems: [
      {
        productName: { original: 'Espresso Beans 1kg' },
        catalogReference: { catalogItemId: 'till-beans', appId: 'till' },
        quantity: 1,
        price: { amount: '18.50' },
        itemType: { preset: 'PHYSICAL' },
      },
    ],
    buyerInfo: { email },
    channelInfo: { type: 'POS' },
    priceSummary: {
      subtotal: { amount: '18.50' },
      shipping: { amount: '0' },
      tax: { amount: '0' },
      discount: { amount: '0' },
      total: { amount: '18.50' },
    },
  },
});

/**
 * Webhooks over the wire (issue 31), on the built platform: apps (here, API keys holding
 * `webhooks.manage`) register endpoints and read their public key; an order placed reaches the
 * receiver signed as the hosted platform signs it, which the hosted client's own `webhooks.process`
 * accepts; one order's failing deliveries hold up no other's; 410 pauses. Retry schedules, outages and
 * dead letters run on a moved clock in webhooks-delivery.test.ts.
 */
describe.each(DIALECTS)('webhooks for apps, on %s', (dialect) => {
  let platform: TestPlatform;
  let app: string;
  let otherApp: string;
  const receivers: Awaited<ReturnType<typeof receiver>>[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect,
      env: { CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' },
    });
    app = (await createKey(platform, platform.adminApiKey, ['webhooks.manage', 'orders.read'])).key;
    otherApp = (await createKey(platform, platform.adminApiKey, ['webhooks.manage', 'orders.read'])).key;
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await platform?.stop();
  });

  async function endpoint(eventTypes: string[]) {
    const listening = await receiver();
    receivers.push(listening);
    const created = await as(platform, app).post('/api/cartwheel/webhooks', {
      webhook: { url: listening.url, eventTypes },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return { ...listening, id: created.body.webhook.id as string };
  }
  const placeOrder = async () => {
    const placed = await admin(platform).post('/ecom/v1/orders', recordedOrder(uniqueEmail('webhook-buyer')));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    return placed.body.order.id as string;
  };

  it("registers, lists, changes and deletes an app's endpoints; another app sees none of them", async () => {
    const listening = await receiver();
    receivers.push(listening);
    const created = await as(platform, app).post('/api/cartwheel/webhooks', {
      webhook: { url: listening.url, eventTypes: ['wix.ecom.v1.order_created'] },
    });
    expect(created.status).toBe(200);
    const { webhook } = created.body;
    expect(webhook).toMatchObject({
      url: listening.url,
      eventTypes: ['wix.ecom.v1.order_created'],
      status: 'ACTIVE',
      signature: 'JWT',
    });
    expect(created.body.secret).toBeUndefined();
    const mine = await as(platform, app).get('/api/cartwheel/webhooks');
    expect(mine.body.webhooks.map((w: { id: string }) => w.id)).toContain(webhook.id);
    expect((await as(platform, otherApp).get('/api/cartwheel/webhooks')).body.webhooks).toEqual([]);
    expect((await as(platform, otherApp).get(`/api/cartwheel/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await as(platform, otherApp).delete(`/api/cartwheel/webhooks/${webhook.id}`)).status).toBe(404);

    const changed = await as(platform, app).patch(`/api/cartwheel/webhooks/${webhook.id}`, {
      webhook: { eventTypes: ['com.wix.ecommerce.catalog.api.v1.ProductCreated'], status: 'PAUSED' },
    });
    expect(changed.body.webhook).toMatchObject({
      eventTypes: ['com.wix.ecommerce.catalog.api.v1.ProductCreated'],
      status: 'PAUSED',
      pausedReason: 'REQUESTED',
    });
    expect((await as(platform, app).delete(`/api/cartwheel/webhooks/${webhook.id}`)).status).toBe(200);
    expect((await as(platform, app).get(`/api/cartwheel/webhooks/${webhook.id}`)).status).toBe(404);

    // each app has its own key; a key without the permission manages none
    const [key, otherKey] = await Promise.all([
      as(platform, app).get('/api/cartwheel/webhooks/public-key'),
      as(platform, otherApp).get('/api/cartwheel/webhooks/public-key'),
    ]);
    expect(key.body.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(otherKey.body.publicKey).not.toBe(key.body.publicKey);
    expect((await as(platform, app).get('/api/cartwheel/webhooks/public-key')).body).toEqual(key.body);
    const reader = (await createKey(platform, platform.adminApiKey, ['orders.read'])).key;
    expect((await as(platform, reader).get('/api/cartwheel/webhooks')).status).toBe(403);
  });

  it('refuses an app the events of what it may not read: a delivery carries the order or the member', async () => {
    const catalogOnly = (await createKey(platform, platform.adminApiKey, ['webhooks.manage'])).key;
    const listening = await receiver();
    receivers.push(listening);
    const register = (eventTypes: string[]) =>
      as(platform, catalogOnly).post('/api/cartwheel/webhooks', {
        webhook: { url: listening.url, eventTypes },
      });
    const catalog = await register(['com.wix.ecommerce.catalog.api.v1.ProductCreated']);
    expect(catalog.status).toBe(200);
    for (const [eventTypes, permission] of [
      [['com.wix.ecommerce.catalog.api.v1.ProductCreated', 'wix.ecom.v1.order_created'], 'orders.read'],
      [['wix.members.v1.member_created'], 'members.read'],
    ] as const) {
      const refused = await register([...eventTypes]);
      expect(refused.status).toBe(403);
      expect(refused.body.details.applicationError.data).toEqual({
        field: `webhook.eventTypes[${eventTypes.length - 1}]`,
        permission,
      });
    }
    const widened = await as(platform, catalogOnly).patch(
      `/api/cartwheel/webhooks/${catalog.body.webhook.id}`,
      {
        webhook: { eventTypes: ['wix.ecom.v1.order_created'] },
      },
    );
    expect(widened.status).toBe(403);
    expect((await as(platform, catalogOnly).get('/api/cartwheel/webhooks')).body.webhooks).toMatchObject([
      { eventTypes: ['com.wix.ecommerce.catalog.api.v1.ProductCreated'] },
    ]);
  });

  it('refuses a URL that is not https or points at a private address, and an unknown event type, naming the field', async () => {
    const register = (url: string, eventTypes = ['wix.ecom.v1.order_created']) =>
      as(platform, app).post('/api/cartwheel/webhooks', { webhook: { url, eventTypes } });
    for (const url of [
      'ftp://127.0.0.1/hooks',
      'not a url',
      'http://93.184.216.34/hooks',
      'https://10.0.0.7/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/',
      'https://user:secret@127.0.0.1/hooks',
    ]) {
      const refused = await register(url);
      expect(refused.status, url).toBe(400);
      expect(refused.body.details.validationError.fieldViolations[0].field, url).toBe('webhook.url');
    }
    const unknown = await register('http://127.0.0.1:9/hooks', [
      'wix.ecom.v1.order_created',
      'wix.ecom.v1.order_exploded',
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.validationError.fieldViolations).toMatchObject([
      { field: 'webhook.eventTypes[1]', description: expect.stringContaining('wix.ecom.v1.order_exploded') },
    ]);
    const extra = await as(platform, app).post('/api/cartwheel/webhooks', {
      webhook: { url: 'http://127.0.0.1:9/hooks', eventTypes: ['wix.ecom.v1.order_created'], colour: 'red' },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.details.validationError.fieldViolations[0].field).toBe('webhook.colour');
  });

  it("an order placed reaches the app as wix.ecom.v1.order_created, which the hosted client's webhooks.process accepts", async () => {
    const listening = await endpoint(['wix.ecom.v1.order_created']);
    const { publicKey } = (await as(platform, app).get('/api/cartwheel/webhooks/public-key')).body;
    const orderId = await placeOrder();
    await expect.poll(() => listening.bodies.length, { timeout: 10_000 }).toBe(1);

    const hosted: { entity: { _id?: string }; metadata: Record<string, unknown> }[] = [];
    const client = createClient({
      auth: AppStrategy({ appId: 'cartwheel-app', publicKey }),
      modules: { orders },
    });
    client.orders.onOrderCreated((event) => {
      hosted.push(event as never);
    });
    await client.webhooks.process(listening.bodies[0]!);
    expect(hosted).toHaveLength(1);
    expect(hosted[0]!.entity._id).toBe(orderId);
    expect(hosted[0]!.metadata).toMatchObject({ entityId: orderId, entityEventSequence: '1' });
  });

  it('a redirect session made reaches the app as wix.headless.v1.redirect_session_created, which the hosted client handles', async () => {
    const listening = await endpoint(['wix.headless.v1.redirect_session_created']);
    const { publicKey } = (await as(platform, app).get('/api/cartwheel/webhooks/public-key')).body;
    const made = await fetch(`${platform.url}/_api/redirects-api/v1/redirect-session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: await visitorToken(platform) },
      body: JSON.stringify({ storesProduct: { productSlug: 'espresso-beans' } }),
    });
    expect(made.status).toBe(200);
    const { redirectSession } = await made.json();
    await expect.poll(() => listening.bodies.length, { timeout: 10_000 }).toBe(1);

    const hosted: { entity: { _id?: string; fullUrl?: string } }[] = [];
    const client = createClient({
      auth: AppStrategy({ appId: 'cartwheel-app', publicKey }),
      modules: { redirects },
    });
    client.redirects.onRedirectSessionCreated((event) => {
      hosted.push(event as never);
    });
    await client.webhooks.process(listening.bodies[0]!);
    expect(hosted).toHaveLength(1);
    expect(hosted[0]!.entity).toMatchObject({ _id: redirectSession.id, fullUrl: redirectSession.fullUrl });
  });

  it("a receiver that answers 500 to one order's events does not hold up another order's", async () => {
    const listening = await endpoint(['wix.ecom.v1.order_created']);
    // the first order it hears of fails there every time
    let failing: string | undefined;
    listening.answers((body) => {
      failing ??= eventOf(body).entityId;
      return eventOf(body).entityId === failing ? 500 : 200;
    });
    const placed = [await placeOrder(), await placeOrder()];
    await expect
      .poll(() => new Set(listening.bodies.map((body) => eventOf(body).entityId)), { timeout: 10_000 })
      .toEqual(new Set(placed));
    type Entry = { status: string; attempts: { statusCode: number }[]; nextAttemptDate: string };
    const deliveries = async () =>
      (await as(platform, app).get(`/api/cartwheel/webhooks/${listening.id}/deliveries`)).body
        .deliveries as Entry[];
    // the receiver has answered both; the platform writes each answer to the log just after
    let log: Entry[] = [];
    await expect
      .poll(
        async () => {
          log = await deliveries();
          return log.map((d) => `${d.status} ${d.attempts.length > 0}`).sort();
        },
        { timeout: 10_000 },
      )
      .toEqual(['DELIVERED true', 'PENDING true']);
    const [stuck, sent] = [
      log.find((d) => d.status === 'PENDING'),
      log.find((d) => d.status === 'DELIVERED'),
    ];
    expect(stuck!.attempts[0]!.statusCode).toBe(500);
    // its retry is due within about 5 seconds of the failure
    expect(Date.parse(stuck!.nextAttemptDate) - Date.now()).toBeLessThan(5_000);
    expect(sent!.attempts.map((attempt) => attempt.statusCode)).toEqual([200]);
  });

  it('an endpoint that answers 410 is paused, not deleted', async () => {
    const listening = await endpoint(['wix.ecom.v1.order_created']);
    listening.answers(() => 410);
    await placeOrder();
    await expect
      .poll(
        async () => (await as(platform, app).get(`/api/cartwheel/webhooks/${listening.id}`)).body.webhook,
        {
          timeout: 10_000,
        },
      )
      .toMatchObject({ status: 'PAUSED', pausedReason: 'GONE' });
    const log = (await as(platform, app).get(`/api/cartwheel/webhooks/${listening.id}/deliveries`)).body;
    expect(log.deliveries.map((d: { status: string }) => d.status)).toEqual(['PENDING']);
  });

  it("sends a test event of the endpoint's own type, which the hosted client's webhooks.process handles, through the log", async () => {
    const listening = await endpoint(['wix.ecom.v1.order_created', 'wix.ecom.v1.order_updated']);
    const { publicKey } = (await as(platform, app).get('/api/cartwheel/webhooks/public-key')).body;
    const sent = await as(platform, app).post(`/api/cartwheel/webhooks/${listening.id}/test`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const { delivery } = sent.body;
    expect(delivery).toMatchObject({ eventType: 'wix.ecom.v1.order_created', test: true });
    expect(delivery.eventId).toMatch(/^test-/);
    await expect.poll(() => listening.bodies.length, { timeout: 10_000 }).toBe(1);

    const hosted: { entity: { _id?: string }; metadata: Record<string, unknown> }[] = [];
    const client = createClient({
      auth: AppStrategy({ appId: 'cartwheel-app', publicKey }),
      modules: { orders },
    });
    client.orders.onOrderCreated((event) => {
      hosted.push(event as never);
    });
    await client.webhooks.process(listening.bodies[0]!);
    expect(hosted[0]!.metadata).toMatchObject({ _id: delivery.eventId, entityId: delivery.payload.entityId });
    expect(hosted[0]!.entity._id).toBe(delivery.payload.entityId);
    await expect
      .poll(
        async () => (await as(platform, app).get(`/api/cartwheel/webhooks/${listening.id}/deliveries`)).body,
      )
      .toMatchObject({ deliveries: [{ eventId: delivery.eventId, status: 'DELIVERED', test: true }] });
    // another app's endpoint is not found to it
    expect(
      (await as(platform, otherApp).post(`/api/cartwheel/webhooks/${listening.id}/test`, {})).status,
    ).toBe(404);
  });

  it('replays a delivered delivery with the same event id, and every delivery since a time; one still waiting is refused', async () => {
    const listening = await endpoint(['wix.ecom.v1.order_created']);
    const log = async () =>
      (await as(platform, app).get(`/api/cartwheel/webhooks/${listening.id}/deliveries`)).body.deliveries as {
        id: string;
        eventId: string;
        status: string;
        attempts: unknown[];
        payload: { entityId: string };
      }[];
    const first = await placeOrder();
    await expect.poll(() => listening.bodies.length, { timeout: 10_000 }).toBe(1);
    const since = new Date().toISOString();
    const later = [await placeOrder(), await placeOrder()];
    await expect.poll(() => listening.bodies.length, { timeout: 10_000 }).toBe(3);
    await expect
      .poll(async () => (await log()).map((d) => d.status))
      .toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);

    const firstDelivery = (await log()).find((d) => d.payload.entityId === first)!;
    const replay = (deliveryId: string) =>
      as(platform, app).post(`/api/cartwheel/webhooks/${listening.id}/deliveries/${deliveryId}/replay`, {});
    const replayed = await replay(firstDelivery.id);
    expect(replayed.status, JSON.stringify(replayed.body)).toBe(200);
    expect(replayed.body.delivery.eventId).toBe(firstDelivery.eventId);
    await expect.poll(() => listening.bodies.length, { timeout: 10_000 }).toBe(4);
    expect(eventOf(listening.bodies[3]!).entityId).toBe(first);
    await expect
      .poll(async () => (await log()).find((d) => d.id === firstDelivery.id))
      .toMatchObject({ status: 'DELIVERED', attempts: [{}, {}] });

    // everything since `since`: the two later orders, each once more
    const again = await as(platform, app).post(`/api/cartwheel/webhooks/${listening.id}/replay`, { since });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ replayed: 2 });
    await expect.poll(() => listening.bodies.length, { timeout: 10_000 }).toBe(6);
    expect(new Set(listening.bodies.slice(4).map((body) => eventOf(body).entityId))).toEqual(new Set(later));

    // paused, the endpoint's new delivery waits: replaying it is refused, as it goes on its own
    await as(platform, app).patch(`/api/cartwheel/webhooks/${listening.id}`, {
      webhook: { status: 'PAUSED' },
    });
    await placeOrder();
    await expect.poll(async () => (await log()).filter((d) => d.status === 'PENDING').length).toBe(1);
    const waiting = (await log()).find((d) => d.status === 'PENDING')!;
    const refused = await replay(waiting.id);
    expect(refused.status).toBe(428);
    expect(refused.body.details.applicationError.code).toBe('DELIVERY_PENDING');
    expect((await replay('no-such-delivery')).status).toBe(404);
    expect(
      (await as(platform, otherApp).post(`/api/cartwheel/webhooks/${listening.id}/replay`, { since })).status,
    ).toBe(404);

    for (const [body, field] of [
      [{ since: 'yesterday' }, 'since'],
      [{}, 'since'],
      [{ since, until: since }, 'until'],
    ] as const) {
      const bad = await as(platform, app).post(`/api/cartwheel/webhooks/${listening.id}/replay`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.details.validationError.fieldViolations[0].field).toBe(field);
    }
  });

  it("lists the event types an endpoint may take with each one's permission, and counts the app's dead letters", async () => {
    const types = (await as(platform, app).get('/api/cartwheel/webhooks/event-types')).body.eventTypes;
    expect(types).toContainEqual({ eventType: 'wix.ecom.v1.order_created', permission: 'orders.read' });
    expect(types).toContainEqual({ eventType: 'wix.members.v1.member_created', permission: 'members.read' });
    expect(types).toContainEqual({
      eventType: 'com.wix.ecommerce.catalog.api.v1.ProductCreated',
      permission: null,
    });
    // dead letters take three days of retries: webhooks-delivery.test.ts moves a clock through them
    expect((await as(platform, app).get('/api/cartwheel/webhooks/dead-letters/count')).body).toEqual({
      count: 0,
    });
    const reader = (await createKey(platform, platform.adminApiKey, ['orders.read'])).key;
    expect((await as(platform, reader).get('/api/cartwheel/webhooks/dead-letters/count')).status).toBe(403);
  });
});
