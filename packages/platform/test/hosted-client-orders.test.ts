import { orders, orderTransactions } from '@wix/ecom';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder, shipToUs, stockedProduct } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The hosted platform's own `orders` and `orderTransactions` modules, unchanged but for the host they
 * reach, as a merchant's app holding an API key reads the orders shoppers paid for on Cartwheel.
 */
describe.each(DIALECTS)("the hosted platform's own orders client, as a merchant app, on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let merchant: ReturnType<typeof merchantClient>;
  const paid: string[] = [];
  // the hosted platform wants the site an API key acts on; Cartwheel's platform is one site and ignores it
  const merchantClient = (apiKey: string) =>
    createClient({
      modules: { orders, orderTransactions },
      auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }),
    });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    await shipToUs(platform);
    const teapot = await stockedProduct(platform, 'Hosted Teapot', 32, 10);
    for (const quantity of [1, 2]) paid.push((await placeOrder(platform, teapot.id, { quantity })).orderId);
    merchant = merchantClient(platform.adminApiKey);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('searches the paid orders newest first and reads one by id', async () => {
    const found = await merchant.orders.searchOrders({
      filter: { status: { $eq: 'APPROVED' } },
      cursorPaging: { limit: 10 },
    } as any);
    expect(found.orders?.map((order: any) => order._id)).toEqual([...paid].reverse());
    expect(found.metadata).toMatchObject({ count: 2, hasNext: false });

    const order: any = await merchant.orders.getOrder(paid[1]!);
    expect(order).toMatchObject({
      _id: paid[1],
      number: expect.any(String),
      status: 'APPROVED',
      paymentStatus: 'PAID',
      fulfillmentStatus: 'NOT_FULFILLED',
    });
    expect(order._createdDate).toBeInstanceOf(Date);
    expect(order.lineItems.map((line: any) => [line.productName.original, line.quantity])).toEqual([
      ['Hosted Teapot', 2],
    ]);
    // two teapots at 32.00, standard shipping, New York's tax: the parts add up to the total
    const summary = order.priceSummary;
    const cents = (price: any) => Math.round(Number(price.amount) * 100);
    expect(cents(summary.subtotal)).toBe(6400);
    expect(
      cents(summary.subtotal) + cents(summary.shipping) + cents(summary.tax) - cents(summary.discount),
    ).toBe(cents(summary.total));
  });

  it("lists each order's payment, for one order and for several", async () => {
    const single: any = await merchant.orderTransactions.listTransactionsForSingleOrder(paid[0]!);
    expect(single.orderTransactions.orderId).toBe(paid[0]);
    const [payment] = single.orderTransactions.payments;
    expect(payment.regularPaymentDetails).toMatchObject({ status: 'APPROVED' });
    const order: any = await merchant.orders.getOrder(paid[0]!);
    expect(payment.amount.amount).toBe(order.priceSummary.total.amount);

    const several: any = await merchant.orderTransactions.listTransactionsForMultipleOrders(paid);
    expect(several.orderTransactions.map((entry: any) => entry.orderId).sort()).toEqual([...paid].sort());
    expect(several.orderTransactions.every((entry: any) => entry.payments.length === 1)).toBe(true);
  });
});
