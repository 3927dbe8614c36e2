import {
  ApiKeyStrategy as CartwheelApiKey,
  createClient as cartwheelClient,
  subscriptionContracts as cartwheelContracts,
  STORES_APP_ID,
} from '@cartwheel/sdk';
import { subscriptionContracts } from '@wix/ecom';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { productsV3 } from '@wix/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServices } from '../src/platform.ts';
import { RENEWAL_CLAIM_MS } from '../src/subscriptions/service.ts';
import { cartCalls, signUpFrom } from './cart-calls.ts';
import { admin, call, visitorToken } from './catalog-http.ts';
import {
  applicationCode,
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockOf,
  violatedFields,
} from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const DAY = 24 * 60 * 60_000;
const CONTRACT_PATH = '/ecom/subscription-contracts/v1/subscription-contracts';
/** The store's processes look for due cycles this often (the test's platform): a due contract is renewed at once. */
const RENEWALS_EVERY_MS = 100;

/**
 * Subscription contracts (issue 34) against the built platform, through the hosted platform's own
 * `subscriptionContracts` and `productsV3` modules and Cartwheel's SDK: a product sold by subscription
 * (its frequency checked), a member's checkout of it priced with the subscription's discount, the
 * contract its paid order starts, renewals made on time as the clock moves and charged once each, by
 * two processes at once and across a kill -9 of the platform in the middle of one, and who may read
 * and change a contract. One platform per database; the kill comes last.
 */
describe.each(DIALECTS)('subscription contracts on %s', (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let productId: string;
  let daily: string;
  let monthly: string;
  const hosted = (apiKey: string) =>
    createClient({
      modules: { subscriptionContracts, productsV3 },
      auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }),
    });
  let merchant: ReturnType<typeof hosted>;

  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect,
      env: { CARTWHEEL_SUBSCRIPTION_RENEWALS_EVERY_MS: String(RENEWALS_EVERY_MS) },
    });
    removeRoute = await routeHostedApiTo(platform.url);
    await shipToUs(platform);
    merchant = hosted(platform.adminApiKey);
    const product: any = await merchant.productsV3.createProduct({
      name: `Coffee subscription ${dialect}`,
      productType: 'PHYSICAL',
      physicalProperties: {},
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '20' } } }] },
      subscriptionDetails: {
        subscriptions: [
          {
            title: 'Every day',
            frequency: 'DAY',
            interval: 1,
            autoRenewal: true,
            discount: { type: 'PERCENT', percentOff: 10 },
          },
          {
            title: 'Monthly, 6 times',
            frequency: 'MONTH',
            interval: 1,
            billingCycles: 6,
            discount: { type: 'AMOUNT', amountOff: '2.5' },
          },
        ],
        allowOneTimePurchases: true,
      },
    } as any);
    productId = product._id;
    daily = product.subscriptionDetails.subscriptions[0]._id;
    monthly = product.subscriptionDetails.subscriptions[1]._id;
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  /** A line of the product bought by the subscription `subscriptionOptionId` (the hosted catalog's way). */
  const subscriptionLine = (subscriptionOptionId: string, quantity = 1, catalogItemId = productId) => ({
    catalogReference: { appId: STORES_APP_ID, catalogItemId, options: { subscriptionOptionId } },
    quantity,
  });

  /** A member's checkout of the product by `option`, paid on the hosted page: the order and contract. */
  async function subscribe(auth: string, option: string, number = CARDS.approved, catalogItemId = productId) {
    const cart = cartCalls(platform, auth);
    expect((await cart.add({ lineItems: [subscriptionLine(option, 1, catalogItemId)] })).status).toBe(200);
    const created = await cart.createCheckout({ channelType: 'WEB' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const checkoutId = created.body.checkoutId as string;
    const email = uniqueEmail('subscriber');
    expect((await checkoutCalls(platform, auth).patch(checkoutId, buyerDetails(email))).status).toBe(200);
    const page = pageCalls(platform, await checkoutSession(platform, auth, checkoutId));
    const paid = await page.pay(`subscribe-${checkoutId}`, number);
    return { checkoutId, paid, page };
  }

  const contractOfOrder = async (orderId: string) =>
    platform.services.database.db
      .selectFrom('subscription_contracts')
      .selectAll()
      .where('first_order_id', '=', orderId)
      .executeTakeFirst();

  const member = async (label: string) =>
    signUpFrom(platform, await visitorToken(platform), uniqueEmail(label));

  it('sells a product by subscription on the hosted wire, and refuses a frequency of 0 as a field violation', async () => {
    const read: any = await merchant.productsV3.getProduct(productId);
    expect(read.subscriptionDetails).toMatchObject({
      allowOneTimePurchases: true,
      subscriptions: [
        {
          title: 'Every day',
          frequency: 'DAY',
          interval: 1,
          autoRenewal: true,
          discount: { percentOff: 10 },
        },
        { title: 'Monthly, 6 times', frequency: 'MONTH', billingCycles: 6, discount: { amountOff: '2.5' } },
      ],
    });
    // each keeps its id from one write to the next (contracts name it)
    expect(read.subscriptionDetails.subscriptions.map((one: any) => one._id)).toEqual([daily, monthly]);
    const bad = (subscription: Record<string, unknown>) =>
      admin(platform).post('/stores/v3/products', {
        product: {
          name: 'Bad subscription',
          productType: 'PHYSICAL',
          variantsInfo: { variants: [{ price: { actualPrice: { amount: '5' } } }] },
          subscriptionDetails: {
            subscriptions: [{ title: 'Bad', frequency: 'WEEK', autoRenewal: true, ...subscription }],
          },
        },
      });
    const field = 'product.subscriptionDetails.subscriptions[0]';
    for (const [subscription, violated] of [
      [{ frequency: 0 }, `${field}.frequency`],
      [{ frequency: 'UNDEFINED' }, `${field}.frequency`],
      [{ interval: 0 }, `${field}.interval`],
      [{ autoRenewal: undefined }, `${field}.autoRenewal`],
      [{ discount: { type: 'AMOUNT' } }, `${field}.discount.amountOff`],
    ] as const) {
      const answer = await bad(subscription);
      expect([answer.status, violatedFields(answer)], JSON.stringify(answer.body)).toEqual([400, [violated]]);
    }
  });

  it("prices a line bought by subscription with its discount, and the paid order starts the member's contract", async () => {
    const auth = await member('subscriber');
    const cart = cartCalls(platform, auth);
    const added = await cart.add({ lineItems: [subscriptionLine(daily, 2)] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const line = added.body.cart.lineItems[0];
    // 20 less 10%, bought by subscription
    expect([line.price.amount, line.subscriptionOptionInfo.subscriptionSettings]).toEqual([
      '18.00',
      expect.objectContaining({ frequency: 'DAY', interval: 1, autoRenewal: true }),
    ]);
    // the same product bought once is another line, at its full price
    const once = await cart.add({
      lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: productId }, quantity: 1 }],
    });
    expect(once.body.cart.lineItems.map((item: any) => item.price.amount).sort()).toEqual(['18.00', '20.00']);
    const created = await cart.createCheckout({ channelType: 'WEB' });
    const checkoutId = created.body.checkoutId as string;
    expect((await checkoutCalls(platform, auth).patch(checkoutId, buyerDetails())).status).toBe(200);
    const page = pageCalls(platform, await checkoutSession(platform, auth, checkoutId));
    // a subscription is bought on its own
    const mixed = await page.pay('mixed', CARDS.approved);
    expect(applicationCode(mixed)).toBe('SUBSCRIPTION_BOUGHT_ALONE');
    const oneTimeLine = (await checkoutCalls(platform, auth).get(checkoutId)).body.checkout.lineItems.find(
      (item: any) => !item.subscriptionOptionInfo,
    );
    expect((await checkoutCalls(platform, auth).removeLines(checkoutId, [oneTimeLine.id])).status).toBe(200);
    const paid = await page.pay('alone', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');

    const row = (await contractOfOrder(paid.body.orderId))!;
    expect(row).toBeDefined();
    const contract: any = await merchant.subscriptionContracts.getSubscriptionContract(row.id);
    expect(contract).toMatchObject({
      _id: row.id,
      title: 'Every day',
      subscriptionSettings: {
        frequency: 'DAY',
        interval: 1,
        autoRenewal: true,
        enableCustomerCancellation: true,
      },
      lineItems: [
        expect.objectContaining({ quantity: 2, price: expect.objectContaining({ amount: '18.00' }) }),
      ],
      billingInfo: { address: expect.objectContaining({ city: 'New York' }) },
      recipientInfo: { address: expect.objectContaining({ addressLine1: '1 Main Street' }) },
      shippingInfo: expect.objectContaining({ code: 'standard' }),
      buyerInfo: expect.objectContaining({ memberId: row.member_id }),
      status: 'ACTIVE',
      cyclesBilled: 1,
    });
    expect(contract.subscriptionSettings.startDate).toBeInstanceOf(Date);
    expect(contract._createdDate).toBeInstanceOf(Date);
    expect(new Date(contract.nextBillingDate).getTime()).toBe(
      new Date(contract.subscriptionSettings.startDate).getTime() + DAY,
    );
    // the first order is the contract's first cycle, paid with the card now saved with the provider
    const order = (await admin(platform).get(`/ecom/v1/orders/${paid.body.orderId}`)).body.order;
    expect(order.lineItems[0].subscriptionInfo).toMatchObject({
      cycleNumber: 1,
      subscriptionOptionTitle: 'Every day',
    });
    expect(row.saved_method_id).toMatch(/^pm_/);
    const byId: any = await merchant.subscriptionContracts
      .querySubscriptionContracts()
      .eq('_id', row.id)
      .find();
    expect(byId.items.map((item: any) => item._id)).toEqual([row.id]);
    // Cartwheel's own filter by status, through the hosted client's query builder
    const active: any = await (merchant.subscriptionContracts.querySubscriptionContracts() as any)
      .eq('status', 'ACTIVE')
      .find();
    expect(active.items.map((item: any) => item._id)).toContain(row.id);

    // the member reads and changes their own; another member finds none of it
    const mine = await call(platform, 'GET', `${CONTRACT_PATH}/${row.id}`, undefined, auth);
    expect(mine.status).toBe(200);
    const theirs = await member('someone-else');
    expect((await call(platform, 'GET', `${CONTRACT_PATH}/${row.id}`, undefined, theirs)).status).toBe(404);
    expect(
      (await call(platform, 'POST', `/api/cartwheel/subscription-contracts/${row.id}/cancel`, {}, theirs))
        .status,
    ).toBe(404);
    const listed = await call(platform, 'POST', `${CONTRACT_PATH}/query`, { query: {} }, theirs);
    expect(listed.body.subscriptionContracts).toEqual([]);
    const paused = await call(
      platform,
      'POST',
      `/api/cartwheel/subscription-contracts/${row.id}/pause`,
      {},
      auth,
    );
    expect(paused.body.subscriptionContract.status).toBe('PAUSED');
    // a visitor cannot buy by subscription: it is kept in a member's account
    const visitor = await visitorToken(platform);
    const { paid: refused } = await subscribe(visitor, daily);
    expect(applicationCode(refused)).toBe('SUBSCRIPTION_REQUIRES_MEMBER');

    // the merchant resumes it and cancels it through Cartwheel's SDK, each change an event
    const store = cartwheelClient({
      host: platform.url,
      auth: CartwheelApiKey({ apiKey: platform.adminApiKey }),
      modules: { subscriptionContracts: cartwheelContracts },
    });
    expect((await store.subscriptionContracts.resumeSubscriptionContract(row.id)).status).toBe('ACTIVE');
    const canceled = await store.subscriptionContracts.cancelSubscriptionContract(row.id);
    expect([canceled.status, canceled.nextBillingDate]).toEqual(['CANCELED', undefined]);
    const events = await platform.services.database.db
      .selectFrom('events_outbox')
      .select('slug')
      .where('entity_id', '=', row.id)
      .orderBy('sequence')
      .execute();
    expect(events.map((event) => event.slug)).toEqual(['created', 'updated', 'updated', 'updated']);
    const bad = await call(
      platform,
      'POST',
      `${CONTRACT_PATH}/query`,
      { query: { filter: { title: 'x' } } },
      platform.adminApiKey,
    );
    expect(bad.status).toBe(400);
  });

  it('retries a declined renewal with backoff, its next date kept, and gives up PAYMENT_FAILED until resumed', async () => {
    // a card that asks its owner to authenticate: paid with them present, declined without them
    const auth = await member('declines');
    const { paid, page } = await subscribe(auth, daily, CARDS.threeDSecure);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('REQUIRES_ACTION');
    const attemptId = new URL(paid.body.actionUrl, platform.url).searchParams.get('attempt') as string;
    const confirmed = await page.confirm(attemptId, true);
    expect(confirmed.body.status, JSON.stringify(confirmed.body)).toBe('APPROVED');
    const row = (await contractOfOrder(confirmed.body.orderId))!;
    const start = new Date(row.anchor_at).getTime();
    const subscriptions = platform.services.subscriptions;
    const read = async () =>
      (await call(platform, 'GET', `${CONTRACT_PATH}/${row.id}`, undefined, auth)).body.subscriptionContract;
    const HOUR = 60 * 60_000;
    let at = start + DAY + 1000;
    for (const [attempt, wait] of [
      [1, HOUR],
      [2, 6 * HOUR],
      [3, 24 * HOUR],
    ] as const) {
      expect(await subscriptions.renewDue(new Date(at))).toBeGreaterThanOrEqual(1);
      const contract = await read();
      expect(contract).toMatchObject({
        status: 'ACTIVE',
        cyclesBilled: 1,
        renewalFailure: { code: 'AUTHENTICATION_REQUIRED', failedAttempts: attempt },
      });
      // the next order's date stays: it moves only when that order is made
      expect(new Date(contract.nextBillingDate).getTime()).toBe(start + DAY);
      expect(new Date(contract.renewalFailure.nextAttemptDate).getTime()).toBe(at + wait);
      // not tried again before its wait is over
      expect(await subscriptions.renewDue(new Date(at + wait - 60_000))).toBe(0);
      at += wait + 1000;
    }
    expect(await subscriptions.renewDue(new Date(at))).toBeGreaterThanOrEqual(1);
    const failed = await read();
    expect(failed).toMatchObject({ status: 'PAYMENT_FAILED', renewalFailure: { failedAttempts: 4 } });
    expect(await subscriptions.renewDue(new Date(at + 7 * DAY))).toBe(0);
    // one order waits for the cycle, never paid; no charge was approved for it
    const renewals = await platform.services.database.db
      .selectFrom('subscription_renewals')
      .selectAll()
      .where('contract_id', '=', row.id)
      .execute();
    expect(renewals.map((renewal) => [renewal.cycle, renewal.status, renewal.try])).toEqual([
      [2, 'FAILED', 4],
    ]);
    const resumed = await call(
      platform,
      'POST',
      `/api/cartwheel/subscription-contracts/${row.id}/resume`,
      {},
      auth,
    );
    expect(resumed.body.subscriptionContract.status).toBe('ACTIVE');
    // out of the next test's way: its counts are of its own contracts
    const canceled = await call(
      platform,
      'POST',
      `/api/cartwheel/subscription-contracts/${row.id}/cancel`,
      {},
      auth,
    );
    expect(canceled.body.subscriptionContract.status).toBe('CANCELED');
  });

  it("queries contracts on the hosted fields (buyerInfo.contactId, _id) with the hosted client's operators, sort and cursor, and refuses the rest", async () => {
    const buyers = [await member('contact-one'), await member('contact-two')];
    const ids: string[] = [];
    for (const auth of buyers) {
      const { paid } = await subscribe(auth, monthly);
      expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
      ids.push((await contractOfOrder(paid.body.orderId))!.id);
    }
    const rows = await platform.services.database.db
      .selectFrom('subscription_contracts')
      .select(['id', 'contact_id'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    const contacts = rows.map((row) => row.contact_id as string);
    expect(contacts.every(Boolean)).toBe(true);
    expect(new Set(contacts).size).toBe(2);
    const query = () => merchant.subscriptionContracts.querySubscriptionContracts();
    const idsOf = (page: any) => page.items.map((item: any) => item._id);

    expect(idsOf(await query().eq('buyerInfo.contactId', contacts[1]).find())).toEqual([ids[1]]);
    const both = await query().in('buyerInfo.contactId', contacts).descending('buyerInfo.contactId').find();
    expect(idsOf(both)).toEqual(
      [...rows].sort((a, b) => (a.contact_id! < b.contact_id! ? 1 : -1)).map((row) => row.id),
    );
    expect(idsOf(await query().in('buyerInfo.contactId', contacts).ne('_id', ids[0]).find())).toEqual([
      ids[1],
    ]);
    // a page of one, and the next page's cursor carries the filter and sort on
    const first: any = await query().in('buyerInfo.contactId', contacts).ascending('_id').limit(1).find();
    expect([idsOf(first), first.hasNext()]).toEqual([[ids[0]], true]);
    const second: any = await first.next();
    expect([idsOf(second), second.hasNext()]).toEqual([[ids[1]], false]);
    const startsWith = await query().startsWith('buyerInfo.contactId', contacts[0]!.slice(0, 30)).find();
    expect(idsOf(startsWith)).toContain(ids[0]);

    // a member's own only, whatever contact they ask for
    const theirs = await call(
      platform,
      'POST',
      `${CONTRACT_PATH}/query`,
      { query: { filter: { 'buyerInfo.contactId': contacts[1] } } },
      buyers[0],
    );
    expect(theirs.body.subscriptionContracts).toEqual([]);
    const own = await call(
      platform,
      'POST',
      `${CONTRACT_PATH}/query`,
      { query: { filter: { 'buyerInfo.contactId': { $in: contacts } } } },
      buyers[0],
    );
    expect(own.body.subscriptionContracts.map((contract: any) => contract.id)).toEqual([ids[0]]);

    // a field, operator or sort the query does not take is a field violation, never ignored
    for (const [body, field] of [
      [{ filter: { 'buyerInfo.email': 'x' } }, 'query.filter.buyerInfo.email'],
      [
        { filter: { 'buyerInfo.contactId': { $contains: 'x' } } },
        'query.filter.buyerInfo.contactId.$contains',
      ],
      [{ filter: { 'buyerInfo.contactId': 5 } }, 'query.filter.buyerInfo.contactId.$eq'],
      [{ sort: [{ fieldName: 'status' }] }, 'query.sort[0].fieldName'],
      [{ cursorPaging: { cursor: 'not-a-cursor' } }, 'query.cursorPaging.cursor'],
    ] as const) {
      const refused = await admin(platform).post(`${CONTRACT_PATH}/query`, { query: body });
      expect([refused.status, violatedFields(refused)], JSON.stringify(body)).toEqual([400, [field]]);
    }
    // out of the next tests' way: their counts are of their own contracts
    for (const [index, id] of ids.entries()) {
      const canceled = await call(
        platform,
        'POST',
        `/api/cartwheel/subscription-contracts/${id}/cancel`,
        {},
        buyers[index],
      );
      expect(canceled.body.subscriptionContract.status).toBe('CANCELED');
    }
  });

  it('a renewal takes its stock as any order; out of stock it is a failed try that says so, retried on the schedule, and a shopper racing it for the last unit never oversells', async () => {
    const made: any = await merchant.productsV3.createProduct({
      name: `Counted beans ${dialect}`,
      productType: 'PHYSICAL',
      physicalProperties: {},
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '12' } } }] },
      subscriptionDetails: {
        subscriptions: [{ title: 'Daily beans', frequency: 'DAY', interval: 1, autoRenewal: true }],
        allowOneTimePurchases: true,
      },
    } as any);
    const beans = made._id as string;
    const option = made.subscriptionDetails.subscriptions[0]._id as string;
    const restock = async (quantity: number) => {
      const answer = await admin(platform).patch(`/stores/v1/products/${beans}`, {
        product: { stock: { trackInventory: true, quantity } },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    await restock(2);
    const auth = await member('counted');
    const { paid } = await subscribe(auth, option, CARDS.approved, beans);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    expect(await stockOf(platform, beans)).toBe(1);
    const row = (await contractOfOrder(paid.body.orderId))!;
    const start = new Date(row.anchor_at).getTime();
    const subscriptions = platform.services.subscriptions;
    const { db } = platform.services.database;
    const read = async () =>
      (await call(platform, 'GET', `${CONTRACT_PATH}/${row.id}`, undefined, auth)).body.subscriptionContract;
    const renewals = () =>
      db
        .selectFrom('subscription_renewals')
        .select(['cycle', 'status', 'try'])
        .where('contract_id', '=', row.id)
        .orderBy('cycle')
        .execute();
    const chargesOf = async (cycle: number) =>
      (await db.selectFrom('gateway_charges').select('idempotency_key').execute()).filter((charge) =>
        charge.idempotency_key.startsWith(`subscription:${row.id}:${cycle}:`),
      );

    // cycle 2 takes the last unit, as an order of it would
    expect(await subscriptions.renew(row.id, new Date(start + DAY + 1000))).toBe(true);
    expect(await stockOf(platform, beans)).toBe(0);
    expect((await read()).cyclesBilled).toBe(2);

    // cycle 3 finds none: a failed try naming the product, no charge asked for, tried again in an hour
    const third = start + 2 * DAY + 1000;
    expect(await subscriptions.renew(row.id, new Date(third))).toBe(true);
    const short = await read();
    expect(short).toMatchObject({
      status: 'ACTIVE',
      cyclesBilled: 2,
      renewalFailure: { code: 'OUT_OF_STOCK', failedAttempts: 1 },
    });
    expect(short.renewalFailure.description).toContain(`Counted beans ${dialect}`);
    expect(new Date(short.renewalFailure.nextAttemptDate).getTime()).toBe(third + 60 * 60_000);
    expect(await chargesOf(3)).toEqual([]);
    expect(await stockOf(platform, beans)).toBe(0);
    expect(await subscriptions.renew(row.id, new Date(third + 59 * 60_000))).toBe(false);
    // still none at the retry: a second failed try, the next wait six hours
    expect(await subscriptions.renew(row.id, new Date(third + 60 * 60_000))).toBe(true);
    expect((await read()).renewalFailure).toMatchObject({ code: 'OUT_OF_STOCK', failedAttempts: 2 });

    // restocked: the next try on the schedule orders, charges and takes it
    await restock(1);
    const retried = third + 60 * 60_000 + 6 * 60 * 60_000;
    expect(await subscriptions.renew(row.id, new Date(retried))).toBe(true);
    const renewed = await read();
    expect(renewed.cyclesBilled).toBe(3);
    expect(renewed.renewalFailure).toBeUndefined();
    expect(await stockOf(platform, beans)).toBe(0);
    expect(await chargesOf(3)).toHaveLength(1);

    // cycle 4 and a shopper's order of the last unit at the same moment (the shopper through the store's
    // process, the renewal through the test's: two processes over one database): one of them gets it
    await restock(1);
    const shopper = await shopperCheckout(platform, [{ productId: beans, quantity: 1 }]);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const [bought, renewedFourth] = await Promise.all([
      page.pay(`race-${shopper.checkoutId}`, CARDS.approved),
      subscriptions.renew(row.id, new Date(start + 3 * DAY + 1000)),
    ]);
    expect(renewedFourth).toBe(true);
    const fourth = (await renewals()).find((renewal) => renewal.cycle === 4)!;
    const shopperGotIt = bought.body.status === 'APPROVED';
    if (shopperGotIt) {
      expect(fourth.status).toBe('RETRYING');
      expect((await read()).renewalFailure.code).toBe('OUT_OF_STOCK');
    } else {
      expect(applicationCode(bought), JSON.stringify(bought.body)).toBe('OUT_OF_STOCK');
      expect(fourth.status).toBe('PAID');
    }
    expect(await stockOf(platform, beans)).toBe(0);
    // every unit the product held went to one paid order: the first order's, cycles 2 and 3, the raced one
    const sold = await db
      .selectFrom('orders')
      .select(['status', 'doc'])
      .where('status', '=', 'APPROVED')
      .execute();
    const units = sold
      .flatMap((order) => JSON.parse(order.doc).lineItems as any[])
      .filter((line) => line.catalogReference?.catalogItemId === beans)
      .reduce((sum, line) => sum + line.quantity, 0);
    expect(units).toBe(4);
    // out of the next test's way: its counts are of its own contracts
    const canceled = await call(
      platform,
      'POST',
      `/api/cartwheel/subscription-contracts/${row.id}/cancel`,
      {},
      auth,
    );
    expect(canceled.body.subscriptionContract.status).toBe('CANCELED');
  });

  it('makes the next three orders on time as the clock moves, each charged once, by two processes at once and across a kill -9', async () => {
    const auth = await member('renewals');
    const started: string[] = [];
    for (let n = 0; n < 6; n++) {
      const { paid } = await subscribe(auth, daily);
      expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
      started.push((await contractOfOrder(paid.body.orderId))!.id);
    }
    const { db } = platform.services.database;
    const contracts = () =>
      db.selectFrom('subscription_contracts').selectAll().where('id', 'in', started).orderBy('id').execute();
    const start = new Date((await contracts())[0]!.anchor_at).getTime();
    const subscriptions = platform.services.subscriptions;

    // cycle 2 falls a day after the first order: not a minute early, at once when due, by two processes at once
    expect(await subscriptions.renewDue(new Date(start - 60_000 + DAY))).toBe(0);
    const due = new Date(start + DAY + 5 * 60_000);
    if (dialect === 'postgres') {
      // several processes of one store share PostgreSQL: a second one's services race the first's
      const other = await openServices({ ...platform.services.config, logLevel: 'silent' });
      try {
        const [one, two] = await Promise.all([
          subscriptions.renewDue(due),
          other.services.subscriptions.renewDue(due),
        ]);
        expect(one + two).toBe(started.length);
      } finally {
        await other.close();
      }
    } else {
      // SQLite is one process's store (two connections in one Node process would wait on each other)
      expect(await subscriptions.renewDue(due)).toBe(started.length);
    }
    expect(await subscriptions.renewDue(due)).toBe(0);
    for (const row of await contracts()) {
      expect([row.cycles_billed, row.next_billing_at]).toEqual([
        2,
        new Date(new Date(row.anchor_at).getTime() + 2 * DAY).toISOString(),
      ]);
    }

    // cycle 3 falls due for the store's own process (its worker reads its own clock): killed mid-way
    const nowIso = new Date().toISOString();
    await db
      .updateTable('subscription_contracts')
      .set({ due_at: nowIso, next_billing_at: nowIso })
      .where('id', 'in', started)
      .execute();
    await expect
      .poll(
        async () =>
          (
            await db
              .selectFrom('subscription_renewals')
              .select('status')
              .where('contract_id', 'in', started)
              .where('cycle', '=', 3)
              .execute()
          ).length,
        { timeout: 20_000, interval: 5 },
      )
      .toBeGreaterThan(0);
    await platform.kill();
    // the kill came in the middle: the process had begun cycle 3 and not finished every contract's
    const atKill = await db
      .selectFrom('subscription_renewals')
      .select('status')
      .where('contract_id', 'in', started)
      .where('cycle', '=', 3)
      .execute();
    expect(atKill.filter((renewal) => renewal.status === 'PAID').length).toBeLessThan(started.length);

    // the store's next process, once the dead one's claims lapse: the rest of cycle 3, then cycle 4 on time
    const after = new Date(Date.now() + RENEWAL_CLAIM_MS + 60_000);
    await subscriptions.renewDue(after);
    for (const row of await contracts()) expect(row.cycles_billed).toBe(3);
    await subscriptions.renewDue(new Date(start + 3 * DAY + 60_000));

    const renewalCharges = await db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('status', '<>', 'CLOSED')
      .execute();
    for (const row of await contracts()) {
      expect([row.status, row.cycles_billed]).toEqual(['ACTIVE', 4]);
      expect(row.next_billing_at).toBe(new Date(new Date(row.anchor_at).getTime() + 4 * DAY).toISOString());
      const renewals = await db
        .selectFrom('subscription_renewals')
        .selectAll()
        .where('contract_id', '=', row.id)
        .orderBy('cycle')
        .execute();
      expect(renewals.map((renewal) => [renewal.cycle, renewal.status])).toEqual([
        [2, 'PAID'],
        [3, 'PAID'],
        [4, 'PAID'],
      ]);
      for (const renewal of renewals) {
        // one charge under the cycle's key, one payment on its order, the order approved once
        const charges = renewalCharges.filter((charge) =>
          charge.idempotency_key.startsWith(`subscription:${row.id}:${renewal.cycle}:`),
        );
        expect(charges).toHaveLength(1);
        const payments = await db
          .selectFrom('order_payments')
          .select(['status'])
          .where('order_id', '=', renewal.order_id)
          .execute();
        expect(payments).toEqual([{ status: 'APPROVED' }]);
        const order = await db
          .selectFrom('orders')
          .select(['status', 'doc'])
          .where('id', '=', renewal.order_id)
          .executeTakeFirstOrThrow();
        expect(order.status).toBe('APPROVED');
        expect(JSON.parse(order.doc).lineItems[0].subscriptionInfo).toMatchObject({
          id: row.id,
          cycleNumber: renewal.cycle,
        });
      }
      const orders = await db
        .selectFrom('orders')
        .select('id')
        .where('member_id', '=', row.member_id)
        .where('status', '=', 'APPROVED')
        .execute();
      expect(orders.length).toBeGreaterThanOrEqual(4);
    }
  });
});
