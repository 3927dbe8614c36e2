import { STORES_APP_ID } from '@cartwheel/sdk';
import { backInStockNotifications, backInStockSettings } from '@wix/ecom';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { inventoryItemsV3 } from '@wix/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { admin, call, createSizedProduct, fieldsOf, visitorToken } from './catalog-http.ts';
import { stockedProduct } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { startMailServer } from './support/mail-server.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

const PATH = '/back-in-stock-service/v1/back-in-stock-notification-requests';
const modules = { backInStockNotifications, backInStockSettings, inventoryItemsV3 };

/**
 * Back-in-stock requests through the hosted platform's own `backInStockNotifications` and
 * `backInStockSettings` modules, unchanged but for the host they reach, against two built processes of
 * one store: a visitor asks for an out-of-stock variant, the merchant reads, counts and deletes
 * requests, and restocking the variant (v1 on one process, v3 on the other, at the same moment)
 * emails each shopper once, RECEIVED → PROCESSING → NOTIFICATION_SENT.
 */
describe.each(DIALECTS)("the hosted platform's own back-in-stock clients, on %s", (dialect) => {
  let platform: TestPlatform;
  let second: TestPlatform;
  let removeRoute: () => Promise<void>;
  let mail: Awaited<ReturnType<typeof startMailServer>>;
  const merchantOf = (apiKey: string) =>
    createClient({ modules, auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }) });
  let merchant: ReturnType<typeof merchantOf>;
  const visitor = () => createClient({ modules, auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }) });
  const ask = (catalogItemId: string, email: string, options?: Record<string, unknown>) =>
    visitor().backInStockNotifications.createBackInStockNotificationRequest(
      { catalogReference: { appId: STORES_APP_ID, catalogItemId, ...(options ? { options } : {}) }, email },
      { name: 'Lamp', price: '$30.00' },
    );
  const emailsTo = async (to: string) =>
    (await platform.services.mailer.recent({ to })).filter((message) => message.kind === 'BACK_IN_STOCK');
  const statusOf = async (id: string) =>
    ((await merchant.backInStockNotifications.getBackInStockNotificationRequest(id)) as any).status;

  beforeAll(async () => {
    mail = await startMailServer();
    const env = { SMTP_URL: `smtp://127.0.0.1:${mail.port}` };
    platform = await startTestPlatform({ dialect, env });
    second = await startTestPlatform({ dialect, env, sharing: platform });
    removeRoute = await routeHostedApiTo(platform.url);
    merchant = merchantOf(platform.adminApiKey);
    // two built processes and the test's view of the store start here, each running its migrations check
  }, 120_000);
  afterAll(async () => {
    await removeRoute?.();
    await second?.stop();
    await platform?.stop();
    await mail?.close();
  });

  it('a visitor asks for a sold-out variant; the merchant gets, queries, counts and deletes requests', async () => {
    const sized = await createSizedProduct(platform, `Sized ${dialect}`, 20);
    const soldOut = await admin(platform).patch(`/stores/v1/products/${sized.id}/variants`, {
      variants: [{ choices: { Size: 'M' }, inStock: false }],
    });
    expect(soldOut.status).toBe(200);

    const made: any = await ask(sized.id, 'ada@example.com', { options: { Size: 'M' } });
    expect(made).toMatchObject({ status: 'RECEIVED', email: 'ada@example.com' });
    expect(made._createdDate).toBeInstanceOf(Date);
    const again = await ask(sized.id, 'ADA@example.com', { options: { Size: 'M' } }).catch(
      (caught) => caught,
    );
    expect(again.details.applicationError.code).toBe('BACK_IN_STOCK_NOTIFICATION_REQUEST_ALREADY_EXISTS');
    const other: any = await ask(sized.id, 'bob@example.com', { options: { Size: 'M' } });

    const got: any = await merchant.backInStockNotifications.getBackInStockNotificationRequest(made._id);
    expect(got).toMatchObject({
      _id: made._id,
      status: 'RECEIVED',
      catalogReference: { catalogItemId: sized.id },
    });
    const received: any = await merchant.backInStockNotifications
      .queryBackInStockNotificationRequests()
      .eq('status', 'RECEIVED')
      .descending('_createdDate')
      .limit(1)
      .find();
    expect(received.items.map((item: any) => item._id)).toEqual([other._id]);
    expect(received.hasNext()).toBe(true);
    expect((await received.next()).items.map((item: any) => item._id)).toEqual([made._id]);

    const counts: any =
      await merchant.backInStockNotifications.getBackInStockNotificationRequestsCountByCatalogReferences([
        { appId: STORES_APP_ID, catalogItemId: sized.id, options: { options: { Size: 'M' } } },
        { appId: STORES_APP_ID, catalogItemId: sized.id, options: { options: { Size: 'S' } } },
        { appId: STORES_APP_ID, catalogItemId: sized.id },
      ]);
    expect(counts.countsPerCatalogReference.map((entry: any) => entry.count)).toEqual([2, 0, 2]);

    await merchant.backInStockNotifications.deleteBackInStockNotificationRequest(other._id);
    const gone = await merchant.backInStockNotifications
      .getBackInStockNotificationRequest(other._id)
      .catch((caught) => caught);
    expect(gone.status).toBe(404);
    const marked: any = await merchant.backInStockNotifications.markAsNotificationSent(made._id);
    expect(marked.request).toMatchObject({ status: 'NOTIFICATION_SENT', autoNotified: false });
    expect(await emailsTo('ada@example.com')).toEqual([]);

    const events = await readEvents(platform.services.database.db, { entityId: made._id });
    expect(events.map((event) => `${event.entity} ${event.slug}`)).toEqual([
      'backInStockRequest created',
      'backInStockRequest updated',
    ]);
  });

  it('refuses an in-stock, unknown or unnamed item with field violations, and strangers its reads', async () => {
    const sized = await createSizedProduct(platform, `Refused ${dialect}`, 20);
    const token = await visitorToken(platform);
    const create = (catalogReference: Record<string, unknown>, email = 'ada@example.com') =>
      call(
        platform,
        'POST',
        PATH,
        {
          request: { catalogReference: { appId: STORES_APP_ID, ...catalogReference }, email },
          itemDetails: { name: 'Tee', price: '$20.00' },
        },
        token,
      );
    const inStock = await create({ catalogItemId: sized.id, options: { options: { Size: 'S' } } });
    expect(inStock.status).toBe(400);
    expect(fieldsOf(inStock)).toEqual(['request.catalogReference']);
    const unknownVariant = await create({
      catalogItemId: sized.id,
      options: { variantId: 'no-such-variant' },
    });
    expect(fieldsOf(unknownVariant)).toEqual(['request.catalogReference.options']);
    const unknownProduct = await create({ catalogItemId: 'no-such-product' });
    expect(fieldsOf(unknownProduct)).toEqual(['request.catalogReference.catalogItemId']);
    const badEmail = await create(
      { catalogItemId: sized.id, options: { options: { Size: 'S' } } },
      'not an email',
    );
    expect(fieldsOf(badEmail)).toContain('request.email');

    // a shopper may ask, not read what others asked; an anonymous caller may do neither
    expect((await call(platform, 'POST', `${PATH}/query`, { query: {} }, token)).status).toBe(403);
    expect((await call(platform, 'POST', `${PATH}/query`, { query: {} })).status).toBe(401);
    const badFilter = await admin(platform).post(`${PATH}/query`, { query: { filter: { secret: 1 } } });
    expect(fieldsOf(badFilter)).toEqual(['query.filter.secret']);
    for (const [filter, field] of [
      [{ constructor: 'x' }, 'query.filter.constructor'],
      [{ autoNotified: 'yes' }, 'query.filter.autoNotified.$eq'],
      [{ status: { toString: 'x' } }, 'query.filter.status.toString'],
      [{ autoNotified: { $startsWith: 't' } }, 'query.filter.autoNotified.$startsWith'],
    ] as const) {
      const refused = await admin(platform).post(`${PATH}/query`, { query: { filter } });
      expect(fieldsOf(refused), JSON.stringify(filter)).toEqual([field]);
    }
  });

  it('stopping the collection refuses new requests until it starts again', async () => {
    const product = await stockedProduct(platform, `Paused ${dialect}`, 30, 0);
    const stopped: any = await merchant.backInStockSettings.stopCollectingRequests(STORES_APP_ID);
    expect(stopped.settings.collectionStates).toEqual([{ appId: STORES_APP_ID, collectingRequests: false }]);
    expect(((await visitor().backInStockSettings.getSettings()) as any).settings.collectionStates[0]).toEqual(
      {
        appId: STORES_APP_ID,
        collectingRequests: false,
      },
    );
    const refused = await ask(product.id, 'ada@example.com').catch((caught) => caught);
    expect(refused.details.applicationError.code).toBe('REQUEST_COLLECTION_DISABLED');
    const other = await merchant.backInStockSettings.stopCollectingRequests('some-other-app').catch((c) => c);
    expect(other.details.applicationError.code).toBe('NOT_SUPPORTED_APP_DEF_ID');
    await merchant.backInStockSettings.startCollectingRequests(STORES_APP_ID);
    expect(await ask(product.id, 'ada@example.com')).toMatchObject({ status: 'RECEIVED' });
  });

  it('restocked at the same moment on two processes (v1 and v3), each shopper is emailed once', async () => {
    const product = await stockedProduct(platform, `Restocked ${dialect}`, 30, 0);
    const shoppers = ['one@example.com', 'two@example.com', 'three@example.com'];
    const requests: any[] = [];
    for (const email of shoppers) requests.push(await ask(product.id, email));
    const [item] = (await merchant.inventoryItemsV3.queryInventoryItems().eq('productId', product.id).find())
      .items;

    // the v1 stock update on one process and a v3 increment on the other at the same moment; then, while
    // their events reach the bus's subscriber, the merchant's own report on both processes at once:
    // every path races to claim the same three requests
    const restocked = await Promise.all([
      admin(platform).patch(`/stores/v1/products/${product.id}`, { product: { stock: { quantity: 4 } } }),
      admin(second).post('/stores/v3/bulk/inventory-items/increment', {
        incrementData: [{ inventoryItemId: item!._id!, incrementBy: 2 }],
      }),
    ]);
    expect(restocked.map((answer) => answer.status)).toEqual([200, 200]);
    const report = {
      itemDetails: { name: 'Lamp', price: '$30.00' },
      catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id },
    };
    const reported = await Promise.all([
      admin(platform).post(`${PATH}/report-items-back-in-stock`, report),
      admin(second).post(`${PATH}/report-items-back-in-stock`, report),
    ]);
    expect(reported.map((answer) => answer.status)).toEqual([200, 200]);

    for (const request of requests) {
      await expect.poll(() => statusOf(request._id), { timeout: 10_000 }).toBe('NOTIFICATION_SENT');
    }
    for (const email of shoppers) {
      const sent = await emailsTo(email);
      expect(sent, email).toHaveLength(1);
      expect(sent[0]!.text).toContain(`${platform.url}/product-page/`);
    }
    const sentOne: any = await merchant.backInStockNotifications.getBackInStockNotificationRequest(
      requests[0]._id,
    );
    expect(sentOne).toMatchObject({ status: 'NOTIFICATION_SENT', autoNotified: true });
    const statuses = (await readEvents(platform.services.database.db, { entityId: requests[0]._id })).map(
      (event) => (event.payload as any).entity?.status,
    );
    expect(statuses).toEqual(['RECEIVED', 'PROCESSING', 'NOTIFICATION_SENT']);
  });

  it('a claim its process left (killed mid-way) is taken again once it lapses, and emailed once', async () => {
    const product = await stockedProduct(platform, `Stranded ${dialect}`, 30, 0);
    const request: any = await ask(product.id, 'stranded@example.com');
    const db = platform.services.database.db;
    // as a process stopped between its claim and its email leaves a request
    await db
      .updateTable('back_in_stock_requests')
      .set({
        status: 'PROCESSING',
        claim: 'a-stopped-process',
        attempts: 1,
        retry_at: new Date(Date.now() + 300_000).toISOString(),
      })
      .where('id', '=', request._id)
      .execute();
    const backInStock = platform.services.backInStock;
    expect(await backInStock.retryDue(new Date())).toBe(0);
    const lapsed = new Date(Date.now() + 301_000);
    const retried = await Promise.all([backInStock.retryDue(lapsed), backInStock.retryDue(lapsed)]);
    expect(retried.sort()).toEqual([0, 1]);
    expect(await statusOf(request._id)).toBe('NOTIFICATION_SENT');
    expect(await emailsTo('stranded@example.com')).toHaveLength(1);
  });

  it('a mail server refusing or down leaves the request FAILED with its reason; the retry job sends it once it is due, once', async () => {
    const product = await stockedProduct(platform, `Refused mail ${dialect}`, 30, 0);
    const to = `refused-${dialect}@example.com`;
    const request: any = await ask(product.id, to);
    const delivered = () => mail.received.filter((message) => message.includes(`To: ${to}`));
    const row = () =>
      platform.services.database.db
        .selectFrom('back_in_stock_requests')
        .select(['status', 'attempts', 'retry_at'])
        .where('id', '=', request._id)
        .executeTakeFirstOrThrow();
    const backInStock = platform.services.backInStock;

    // the restock's own try, on the store's process: the server refuses the recipient
    mail.refuse = '451 4.3.0 mailbox busy, try again later';
    const restocked = await admin(platform).patch(`/stores/v1/products/${product.id}`, {
      product: { stock: { quantity: 3 } },
    });
    expect(restocked.status).toBe(200);
    await expect.poll(() => statusOf(request._id), { timeout: 10_000 }).toBe('FAILED');
    const failed: any = await merchant.backInStockNotifications.getBackInStockNotificationRequest(
      request._id,
    );
    expect(failed.failureReason).toContain('451 4.3.0 mailbox busy');
    const first = await row();
    expect(first.attempts).toBe(1);
    // not before its wait is over, however often the job runs
    expect(await backInStock.retryDue(new Date(new Date(first.retry_at!).getTime() - 1000))).toBe(0);

    // the job's next try, the clock moved past the wait: the server is down now, a failure again,
    // and the next wait twice as long
    mail.refuse = undefined;
    mail.down = true;
    const secondTry = new Date(first.retry_at!);
    expect(await backInStock.retryDue(secondTry)).toBe(0);
    const second = await row();
    expect([second.status, second.attempts]).toEqual(['FAILED', 2]);
    expect(new Date(second.retry_at!).getTime() - secondTry.getTime()).toBe(2 * 60_000);
    const downReason: any = await merchant.backInStockNotifications.getBackInStockNotificationRequest(
      request._id,
    );
    expect(downReason.failureReason).toMatch(/421/);
    expect(delivered()).toEqual([]);

    // the server back: two processes' jobs at once send it, once, and it is NOTIFICATION_SENT
    mail.down = false;
    const thirdTry = new Date(second.retry_at!);
    const retried = await Promise.all([backInStock.retryDue(thirdTry), backInStock.retryDue(thirdTry)]);
    expect(retried.sort()).toEqual([0, 1]);
    expect(await row()).toMatchObject({ status: 'NOTIFICATION_SENT', attempts: 3, retry_at: null });
    const sent: any = await merchant.backInStockNotifications.getBackInStockNotificationRequest(request._id);
    expect(sent).toMatchObject({ status: 'NOTIFICATION_SENT', autoNotified: true });
    expect(sent.failureReason).toBeUndefined();
    expect(await backInStock.retryDue(new Date(thirdTry.getTime() + 24 * 60 * 60_000))).toBe(0);
    expect(delivered()).toHaveLength(1);
    expect(delivered()[0]).toContain('is back in stock');
    // the refused tries are kept in the outbox, marked, beside the one sent
    expect((await emailsTo(to)).map((message) => message.status).sort()).toEqual([
      'FAILED',
      'FAILED',
      'SENT',
    ]);
    const statuses = (await readEvents(platform.services.database.db, { entityId: request._id })).map(
      (event) => (event.payload as any).entity?.status,
    );
    expect(statuses).toEqual([
      'RECEIVED',
      'PROCESSING',
      'FAILED',
      'PROCESSING',
      'FAILED',
      'PROCESSING',
      'NOTIFICATION_SENT',
    ]);
  });
});
