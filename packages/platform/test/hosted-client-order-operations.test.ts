import { STORES_APP_ID } from '@cartwheel/sdk';
import { orderFulfillments, orders, orderTransactions } from '@wix/ecom';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { inventoryItemsV3 } from '@wix/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy } from './billing-support.ts';
import { placeOrder, shipToUs, stockedProduct, stockOf } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A merchant's day with the hosted platform's own `orders` and `orderFulfillments` modules, unchanged
 * but for the host they reach: find the orders to ship, ship one in two parts with tracking, tag
 * orders in bulk, cancel one with restock, comment on it and read its timeline; record orders from a
 * till and cancel one whose payment never came; be refused the cancel of an order holding an
 * authorization (the buyer's money would stay held) until it is voided.
 */
describe.each(DIALECTS)("the hosted platform's own client runs a merchant's day, on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let merchant: ReturnType<typeof merchantClient>;
  let productId: string;
  const placed: string[] = [];
  const merchantClient = (apiKey: string) =>
    createClient({
      modules: { orders, orderFulfillments, orderTransactions, inventoryItemsV3 },
      auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }),
    });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Hosted Kettle', 45, 20)).id;
    for (const quantity of [3, 2]) placed.push((await placeOrder(platform, productId, { quantity })).orderId);
    merchant = merchantClient(platform.adminApiKey);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('finds the orders to ship and ships one in two parts with tracking', async () => {
    const toShip = await merchant.orders.searchOrders({
      filter: { status: { $eq: 'APPROVED' }, fulfillmentStatus: { $in: ['NOT_FULFILLED'] } },
      cursorPaging: { limit: 10 },
    } as any);
    expect(toShip.orders?.map((order: any) => order._id)).toEqual([...placed].reverse());

    const [orderId] = placed as [string];
    const order: any = await merchant.orders.getOrder(orderId);
    const line = order.lineItems[0]._id;
    const first = await merchant.orderFulfillments.createFulfillment(orderId, {
      lineItems: [{ _id: line, quantity: 1 }],
      trackingInfo: { trackingNumber: '1Z42', shippingProvider: 'ups' },
    });
    expect(first.fulfillmentId).toEqual(expect.any(String));
    expect(first.orderWithFulfillments?.fulfillments?.[0]).toMatchObject({
      _id: first.fulfillmentId,
      lineItems: [{ _id: line, quantity: 1 }],
      trackingInfo: { trackingLink: 'https://www.ups.com/track?tracknum=1Z42' },
    });
    expect(first.orderWithFulfillments?.fulfillments?.[0]?._createdDate).toBeInstanceOf(Date);
    expect(((await merchant.orders.getOrder(orderId)) as any).fulfillmentStatus).toBe('PARTIALLY_FULFILLED');

    await merchant.orderFulfillments.createFulfillment(orderId, {
      lineItems: [{ _id: line, quantity: 2 }],
      trackingInfo: { trackingNumber: '9400', shippingProvider: 'usps' },
    });
    expect(((await merchant.orders.getOrder(orderId)) as any).fulfillmentStatus).toBe('FULFILLED');
    const updated = await merchant.orderFulfillments.updateFulfillment(
      { fulfillmentId: first.fulfillmentId, orderId },
      { fulfillment: { status: 'In_Delivery' } },
    );
    expect(updated.fulfillments?.map((fulfillment: any) => fulfillment.status)).toEqual([
      'In_Delivery',
      undefined,
    ]);
    const listed = await merchant.orderFulfillments.listFulfillmentsForMultipleOrders(placed);
    expect(listed.ordersWithFulfillments?.map((entry: any) => entry.fulfillments.length)).toEqual([2, 0]);

    await expect(
      merchant.orderFulfillments.createFulfillment(orderId, { lineItems: [{ _id: line, quantity: 1 }] }),
    ).rejects.toMatchObject({ details: { applicationError: { code: 'QUANTITY_EXCEEDS_UNFULFILLED' } } });
  });

  it('tags in bulk, cancels with restock, comments and reads the timeline', async () => {
    const tagged = await merchant.orders.bulkUpdateOrderTags(placed, {
      assignTags: { tags: { tagIds: ['wholesale'] }, privateTags: { tagIds: ['check-address'] } },
    });
    expect(tagged.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 0 });
    const byTag = await merchant.orders.searchOrders({
      filter: { 'tags.privateTags.tagIds': { $hasSome: ['check-address'] } },
    } as any);
    expect(byTag.orders?.map((order: any) => order._id)).toEqual([...placed].reverse());

    const orderId = placed[1]!;
    const stock = await stockOf(platform, productId);
    const canceled: any = await merchant.orders.cancelOrder(orderId, {
      restockAllItems: true,
      sendOrderCanceledEmail: true,
      customMessage: 'Out of kettles',
    });
    expect(canceled.order).toMatchObject({ _id: orderId, status: 'CANCELED' });
    expect(await stockOf(platform, productId)).toBe(stock + 2);
    await expect(merchant.orders.cancelOrder(orderId, { restockAllItems: true })).rejects.toMatchObject({
      details: { applicationError: { code: 'ORDER_STATUS_IS_NOT_SUPPORTED' } },
    });

    const commented = await merchant.orders.addActivities(orderId, {
      orderActivities: [{ merchantComment: { message: 'Refund by phone' } }],
    });
    expect(commented.activityIds).toHaveLength(1);
    const order: any = await merchant.orders.getOrder(orderId);
    expect(order.activities.map((activity: any) => activity.type)).toEqual([
      'ORDER_PLACED',
      'ORDER_PAID',
      'CUSTOM_ACTIVITY',
      'ORDER_CANCELED',
      'CUSTOM_ACTIVITY',
      'MERCHANT_COMMENT',
    ]);
    expect(order.activities.at(-1)).toMatchObject({
      _id: commented.activityIds?.[0],
      merchantComment: { message: 'Refund by phone' },
    });
    expect(order.activities.at(-1)._createdDate).toBeInstanceOf(Date);
    const afterDelete: any = await (merchant.orders as any).deleteActivity({
      _id: orderId,
      activityId: commented.activityIds?.[0],
    });
    expect(afterDelete.order.activities.map((activity: any) => activity.type)).not.toContain(
      'MERCHANT_COMMENT',
    );

    const updated: any = await merchant.orders.updateOrder(orderId, { archived: true } as any);
    expect(updated).toMatchObject({ _id: orderId, archived: true, status: 'CANCELED' });
    const counted = await (merchant.orders as any).aggregateOrders({
      aggregation: { byStatus: { $count: ['status'] } },
    });
    expect(counted.aggregates.byStatus).toEqual({ APPROVED: 1, CANCELED: 1 });
  });

  it('records a paid till order with createOrder and finds it by its channel; an unpaid one waits', async () => {
    const order: any = await merchant.orders.createOrder(
      {
        lineItems: [
          {
            productName: { original: 'Hosted Kettle' },
            catalogReference: { catalogItemId: productId, appId: STORES_APP_ID },
            itemType: { preset: 'PHYSICAL' },
            quantity: 2,
            price: { amount: '45.00' },
          },
        ],
        buyerInfo: { email: 'till@example.com' },
        channelInfo: { type: 'POS' },
        paymentStatus: 'PAID',
        priceSummary: { subtotal: { amount: '90.00' }, total: { amount: '90.00' } },
      } as any,
      { settings: { orderApprovalStrategy: 'PAYMENT_RECEIVED' } },
    );
    expect(order).toMatchObject({
      status: 'APPROVED',
      paymentStatus: 'PAID',
      fulfillmentStatus: 'NOT_FULFILLED',
      priceSummary: { total: { amount: '90.00' } },
    });
    expect(order._id).toEqual(expect.any(String));
    expect(order.lineItems[0]._id).toEqual(expect.any(String));
    // recorded unpaid under PAYMENT_RECEIVED: INITIALIZED, so not listed
    const waiting: any = await merchant.orders.createOrder(
      {
        lineItems: [{ productName: { original: 'Till extra' }, quantity: 1, price: { amount: '5.00' } }],
        buyerInfo: { email: 'till@example.com' },
        channelInfo: { type: 'POS' },
        priceSummary: { subtotal: { amount: '5.00' }, total: { amount: '5.00' } },
      } as any,
      { settings: { orderApprovalStrategy: 'PAYMENT_RECEIVED' } },
    );
    expect([waiting.status, waiting.paymentStatus]).toEqual(['INITIALIZED', 'NOT_PAID']);
    const found = await merchant.orders.searchOrders({ filter: { 'channelInfo.type': 'POS' } } as any);
    expect(found.orders?.map((hit: any) => hit._id)).toEqual([order._id]);
    // the payment never comes: the merchant cancels it, and a payment recorded afterwards is refused
    const dropped: any = await merchant.orders.cancelOrder(waiting._id, { sendOrderCanceledEmail: false });
    expect(dropped.order).toMatchObject({ _id: waiting._id, status: 'CANCELED', paymentStatus: 'NOT_PAID' });
    await expect(
      merchant.orderTransactions.addPayments(waiting._id, [{ amount: { amount: '5.00' } }] as any),
    ).rejects.toMatchObject({ details: { applicationError: { code: 'ORDER_CANCELED' } } });

    // a stores line must name a product of the store
    await expect(
      merchant.orders.createOrder({
        lineItems: [
          {
            ...order.lineItems[0],
            _id: undefined,
            catalogReference: { catalogItemId: 'gone', appId: STORES_APP_ID },
          },
        ],
        buyerInfo: { email: 'till@example.com' },
        channelInfo: { type: 'POS' },
        priceSummary: { subtotal: { amount: '90.00' }, total: { amount: '90.00' } },
      } as any),
    ).rejects.toMatchObject({
      details: {
        validationError: {
          fieldViolations: [
            expect.objectContaining({ field: 'order.lineItems[0].catalogReference.catalogItemId' }),
          ],
        },
      },
    });

    await expect(
      merchant.orders.createOrder({
        lineItems: order.lineItems.map((line: any) => ({ ...line, _id: undefined })),
        buyerInfo: { email: 'till@example.com' },
        channelInfo: { type: 'POS' },
        priceSummary: { subtotal: { amount: '90.00' }, total: { amount: '89.99' } },
      } as any),
    ).rejects.toMatchObject({ details: { applicationError: { code: 'AMOUNTS_DO_NOT_ADD_UP' } } });
  });

  it("a till order takes its units as the point-of-sale flow does: createOrder records it, the v3 decrement of its lines' items takes them", async () => {
    const tillProduct = (await stockedProduct(platform, 'Till Mug', 12, 4)).id;
    const order: any = await merchant.orders.createOrder(
      {
        lineItems: [
          {
            productName: { original: 'Till Mug' },
            catalogReference: { catalogItemId: tillProduct, appId: STORES_APP_ID },
            itemType: { preset: 'PHYSICAL' },
            quantity: 3,
            price: { amount: '12.00' },
          },
        ],
        buyerInfo: { email: 'till@example.com' },
        channelInfo: { type: 'POS' },
        paymentStatus: 'PAID',
        priceSummary: { subtotal: { amount: '36.00' }, total: { amount: '36.00' } },
      } as any,
      { settings: { orderApprovalStrategy: 'PAYMENT_RECEIVED' } },
    );
    // recording a sale moves no stock of its own (as the hosted call): the till says what left the shelf
    expect(await stockOf(platform, tillProduct)).toBe(4);
    const decrements = [];
    for (const line of order.lineItems) {
      const [item] = (
        await merchant.inventoryItemsV3
          .queryInventoryItems()
          .eq('productId', line.catalogReference.catalogItemId)
          .find()
      ).items;
      decrements.push({ inventoryItemId: item!._id!, decrementBy: line.quantity });
    }
    await merchant.inventoryItemsV3.bulkDecrementInventoryItems(decrements);
    expect(await stockOf(platform, tillProduct)).toBe(1);
    // a second till selling two more than is left is refused, and takes nothing
    const refused = await merchant.inventoryItemsV3
      .bulkDecrementInventoryItems([{ inventoryItemId: decrements[0]!.inventoryItemId, decrementBy: 2 }])
      .catch((caught: any) => caught);
    expect(refused.details.applicationError).toMatchObject({ code: 'INSUFFICIENT_INVENTORY' });
    expect(await stockOf(platform, tillProduct)).toBe(1);
  });

  it('refuses to cancel an order holding an authorization, as the hosted call does, until it is voided', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const stock = await stockOf(platform, productId);
    await expect(merchant.orders.cancelOrder(orderId, { restockAllItems: true })).rejects.toMatchObject({
      details: { applicationError: { code: 'ORDER_HAS_AUTHORIZED_TRANSACTION' } },
    });
    const held: any = await merchant.orders.getOrder(orderId);
    expect([held.status, held.paymentStatus]).toEqual(['APPROVED', 'PENDING']);
    expect(await stockOf(platform, productId)).toBe(stock);

    const { orderTransactions: before } =
      await merchant.orderTransactions.listTransactionsForSingleOrder(orderId);
    const paymentId = before?.payments?.[0]?._id as string;
    const voided = await merchant.orders.voidAuthorizedPayments(orderId, [paymentId]);
    expect(voided.orderTransactions?.payments?.[0]?.status).toBe('VOIDED');
    const canceled: any = await merchant.orders.cancelOrder(orderId, { restockAllItems: true });
    expect(canceled.order).toMatchObject({ _id: orderId, status: 'CANCELED', paymentStatus: 'CANCELED' });
    expect(await stockOf(platform, productId)).toBe(stock + 1);
    await expect(merchant.orders.preparePaymentCollection(orderId, { amount: '1.00' })).rejects.toMatchObject(
      { details: { applicationError: { code: 'ORDER_CANCELED' } } },
    );
  });
});
