import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, visitorToken } from './catalog-http.ts';
import {
  adminOrder,
  applicationCode,
  eventSlugs,
  placeOrder,
  shipToUs,
  stockedProduct,
  stockOf,
  violatedFields,
} from './checkout-support.ts';
import { mailbox, uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The merchant runs placed orders: updates what the hosted platform lets change, cancels with restock
 * and the buyer's email, tags in bulk (concurrently, losing none), writes and deletes comments on the
 * timeline, ships in parts with tracking, and counts orders for dashboards; every change is told by
 * an activity and an event, and illegal transitions answer the hosted platform's reason codes.
 */
describe.each(DIALECTS)("the merchant's order operations, on %s", (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Operated Lamp', 20, 500)).id;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const order = async (quantity = 1) => (await placeOrder(platform, productId, { quantity })).orderId;
  const fulfil = (orderId: string, fulfillment: unknown) =>
    admin(platform).post(`/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`, {
      orderId,
      fulfillment,
    });
  const types = (order: any) => order.activities.map((activity: { type: string }) => activity.type);

  it('updates only the fields the hosted platform lets change and keeps the rest', async () => {
    const id = await order();
    const before = await adminOrder(platform, id);
    const email = uniqueEmail('buyer');
    const answer = await admin(platform).patch(`/ecom/v1/orders/${id}`, {
      order: {
        id,
        buyerInfo: { email },
        archived: true,
        seenByAHuman: true,
        billingInfo: { contactDetails: { firstName: 'Grace' } },
        // not the merchant's to change: kept as they were
        status: 'CANCELED',
        number: '1',
        priceSummary: { total: { amount: '0.01' } },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const updated = answer.body.order;
    expect(updated).toMatchObject({
      id,
      buyerInfo: { email },
      archived: true,
      seenByAHuman: true,
      status: 'APPROVED',
      number: before.number,
      priceSummary: before.priceSummary,
      lineItems: before.lineItems,
    });
    expect(updated.billingInfo.contactDetails.firstName).toBe('Grace');
    expect(updated.billingInfo.address).toEqual(before.billingInfo.address);
    expect(types(updated)).toEqual([...types(before), 'EMAIL_EDITED', 'CUSTOM_ACTIVITY']);
    expect(await adminOrder(platform, id)).toEqual(updated);
    expect(await eventSlugs(platform, id)).toContain('updated');

    const found = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'buyerInfo.email': email.toUpperCase(), archived: true } },
    });
    expect(found.body.orders.map((o: { id: string }) => o.id)).toEqual([id]);

    const removed = await admin(platform).patch(`/ecom/v1/orders/${id}`, {
      order: { buyerInfo: { email: null } },
    });
    expect(removed.status).toBe(400);
    expect(violatedFields(removed)).toEqual(['order.buyerInfo.email']);
    const wrongType = await admin(platform).patch(`/ecom/v1/orders/${id}`, { order: { archived: 'yes' } });
    expect(wrongType.status).toBe(400);
    const missing = await admin(platform).patch('/ecom/v1/orders/no-such-order', {
      order: { archived: true },
    });
    expect(missing.status).toBe(404);
    expect(applicationCode(missing)).toBe('ORDER_NOT_FOUND');
  });

  it('a field mask limits an update to the fields it names', async () => {
    const id = await order();
    const answer = await admin(platform).patch(`/ecom/v1/orders/${id}`, {
      order: { id, archived: true, seenByAHuman: true, buyerLanguage: 'fr' },
      fieldMask: 'seenByAHuman,buyerLanguage',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.order).toMatchObject({ seenByAHuman: true, buyerLanguage: 'fr' });
    expect(answer.body.order.archived).toBeUndefined();
  });

  it('bulk updates answer a result per order, with the order when asked', async () => {
    const [a, b] = [await order(), await order()];
    const answer = await admin(platform).post('/ecom/v1/bulk/orders/update', {
      orders: [
        { order: { id: a, archived: true } },
        { order: { id: 'missing', archived: true } },
        { order: { id: b, seenByAHuman: true } },
      ],
      returnEntity: true,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(
      answer.body.results.map((r: any) => [
        r.itemMetadata.id,
        r.itemMetadata.originalIndex,
        r.itemMetadata.success,
      ]),
    ).toEqual([
      [a, 0, true],
      ['missing', 1, false],
      [b, 2, true],
    ]);
    expect(answer.body.results[1].itemMetadata.error.code).toBe('ORDER_NOT_FOUND');
    expect(answer.body.results[0].item).toMatchObject({ id: a, archived: true });
    expect(answer.body.bulkActionMetadata).toEqual({
      totalSuccesses: 2,
      totalFailures: 1,
      undetailedFailures: 0,
    });

    const quiet = await admin(platform).post('/ecom/v1/bulk/orders/update', {
      orders: [{ order: { id: a, archived: false } }],
    });
    expect(quiet.body.results[0].item).toBeUndefined();
    const tooMany = await admin(platform).post('/ecom/v1/bulk/orders/update', {
      orders: Array.from({ length: 101 }, () => ({ order: { id: a } })),
    });
    expect(tooMany.status).toBe(400);
    expect(violatedFields(tooMany)).toEqual(['orders']);
  });

  it('cancels with restock of exactly what was bought and the buyer told; a canceled order is not cancelled, fulfilled or changed in status again', async () => {
    const stock = await stockOf(platform, productId);
    const id = await order(3);
    expect(await stockOf(platform, productId)).toBe(stock - 3);
    const email = uniqueEmail('buyer');
    await admin(platform).patch(`/ecom/v1/orders/${id}`, { order: { buyerInfo: { email } } });

    const answer = await admin(platform).post(`/ecom/v1/orders/${id}/cancel`, {
      id,
      sendOrderCanceledEmail: true,
      customMessage: 'Sorry, <we> ran out of wax.',
      restockAllItems: true,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.order).toMatchObject({ id, status: 'CANCELED' });
    expect(types(answer.body.order)).toContain('ORDER_CANCELED');
    expect(await stockOf(platform, productId)).toBe(stock);
    expect((await eventSlugs(platform, id)).slice(-2)).toEqual(['updated', 'canceled']);
    const [message] = (await mailbox(platform, email)).filter((m) => m.kind === 'ORDER_CANCELED');
    expect(message?.text).toContain('Sorry, <we> ran out of wax.');
    expect(message?.html).toContain('Sorry, &lt;we&gt; ran out of wax.');

    const again = await admin(platform).post(`/ecom/v1/orders/${id}/cancel`, { restockAllItems: true });
    expect(again.status).toBe(428);
    expect(applicationCode(again)).toBe('ORDER_STATUS_IS_NOT_SUPPORTED');
    expect(await stockOf(platform, productId)).toBe(stock);
    const line = answer.body.order.lineItems[0].id;
    const shipped = await fulfil(id, { lineItems: [{ id: line, quantity: 1 }] });
    expect(shipped.status).toBe(428);
    expect(applicationCode(shipped)).toBe('ORDER_STATUS_IS_NOT_SUPPORTED');

    // without restock, the stock stays sold
    const kept = await order(2);
    await admin(platform).post(`/ecom/v1/orders/${kept}/cancel`, {});
    expect(await stockOf(platform, productId)).toBe(stock - 2);
  });

  it('ships in two parts with tracking: partial, then fulfilled; never more than bought; deleting reopens', async () => {
    const id = await order(3);
    const email = uniqueEmail('buyer');
    await admin(platform).patch(`/ecom/v1/orders/${id}`, { order: { buyerInfo: { email } } });
    const line = (await adminOrder(platform, id)).lineItems[0].id;

    const first = await fulfil(id, {
      lineItems: [{ id: line, quantity: 1 }],
      trackingInfo: { trackingNumber: '1Z999', shippingProvider: 'ups' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.fulfillmentId).toEqual(expect.any(String));
    expect(first.body.orderWithFulfillments.fulfillments).toEqual([
      {
        id: first.body.fulfillmentId,
        createdDate: expect.any(String),
        lineItems: [{ id: line, quantity: 1 }],
        trackingInfo: {
          trackingNumber: '1Z999',
          shippingProvider: 'ups',
          trackingLink: 'https://www.ups.com/track?tracknum=1Z999',
        },
      },
    ]);
    expect((await adminOrder(platform, id)).fulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    const [shippingEmail] = (await mailbox(platform, email)).filter(
      (m) => m.kind === 'SHIPPING_CONFIRMATION',
    );
    expect(shippingEmail?.text).toContain('1Z999');
    expect(shippingEmail?.html).toContain('https://www.ups.com/track?tracknum=1Z999');

    const tooMuch = await fulfil(id, { lineItems: [{ id: line, quantity: 3 }] });
    expect(tooMuch.status).toBe(428);
    expect(applicationCode(tooMuch)).toBe('QUANTITY_EXCEEDS_UNFULFILLED');
    const unknown = await fulfil(id, { lineItems: [{ id: 'not-a-line', quantity: 1 }] });
    expect(unknown.status).toBe(400);
    expect(violatedFields(unknown)).toEqual(['fulfillment.lineItems[0].id']);

    // no quantity: what is left of the line
    const second = await fulfil(id, {
      lineItems: [{ id: line }],
      trackingInfo: {
        trackingNumber: 'LOCAL-7',
        shippingProvider: 'Bike courier',
        trackingLink: 'https://courier.test/LOCAL-7',
      },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.orderWithFulfillments.fulfillments[1].lineItems).toEqual([{ id: line, quantity: 2 }]);
    let current = await adminOrder(platform, id);
    expect(current.fulfillmentStatus).toBe('FULFILLED');
    expect(types(current)).toEqual(
      expect.arrayContaining([
        'TRACKING_NUMBER_ADDED',
        'ORDER_FULFILLED',
        'SHIPPING_CONFIRMATION_EMAIL_SENT',
      ]),
    );
    expect((await fulfil(id, { lineItems: [{ id: line, quantity: 1 }] })).status).toBe(428);

    const updated = await admin(platform).patch(
      `/ecom/v1/fulfillments/${first.body.fulfillmentId}/orders/${id}`,
      {
        fulfillment: {
          id: first.body.fulfillmentId,
          trackingInfo: { trackingNumber: '94001', shippingProvider: 'usps' },
          status: 'In_Delivery',
        },
        orderId: id,
      },
    );
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.orderWithFulfillments.fulfillments[0]).toMatchObject({
      lineItems: [{ id: line, quantity: 1 }],
      status: 'In_Delivery',
      trackingInfo: { trackingLink: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=94001' },
    });
    const moved = await admin(platform).patch(
      `/ecom/v1/fulfillments/${first.body.fulfillmentId}/orders/${id}`,
      {
        fulfillment: { lineItems: [{ id: line, quantity: 2 }] },
      },
    );
    expect(moved.status).toBe(400);

    // a shipped order is not canceled
    const cancel = await admin(platform).post(`/ecom/v1/orders/${id}/cancel`, { restockAllItems: true });
    expect(applicationCode(cancel)).toBe('ORDER_STATUS_IS_NOT_SUPPORTED');

    const deleted = await admin(platform).delete(
      `/ecom/v1/fulfillments/${second.body.fulfillmentId}/orders/${id}`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body.orderWithFulfillments.fulfillments.map((f: { id: string }) => f.id)).toEqual([
      first.body.fulfillmentId,
    ]);
    current = await adminOrder(platform, id);
    expect(current.fulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    expect(
      (await admin(platform).delete(`/ecom/v1/fulfillments/${first.body.fulfillmentId}/orders/${id}`)).status,
    ).toBe(200);
    expect((await adminOrder(platform, id)).fulfillmentStatus).toBe('NOT_FULFILLED');
    expect(
      (await admin(platform).delete(`/ecom/v1/fulfillments/${first.body.fulfillmentId}/orders/${id}`)).status,
    ).toBe(404);

    const slugs = (await import('../src/events/outbox.ts')).readEvents;
    const events = await slugs(platform.services.database.db, { entityId: id });
    expect(events.filter((e) => e.entity === 'fulfillments').map((e) => e.slug)).toEqual([
      'updated',
      'updated',
      'updated',
      'updated',
      'updated',
    ]);
  });

  it('bulk creates fulfillments and lists them for one and for several orders', async () => {
    const [a, b] = [await order(2), await order(1)];
    const lineOf = async (id: string) => (await adminOrder(platform, id)).lineItems[0].id;
    const answer = await admin(platform).post('/ecom/v1/fulfillments/orders/bulk/create-fulfillments', {
      ordersWithFulfillments: [
        {
          orderId: a,
          fulfillments: [
            { lineItems: [{ id: await lineOf(a), quantity: 1 }] },
            { lineItems: [{ id: await lineOf(a), quantity: 1 }] },
          ],
        },
        { orderId: b, fulfillments: [{ lineItems: [{ id: await lineOf(b), quantity: 5 }] }] },
      ],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.results.map((r: any) => r.itemMetadata.success)).toEqual([true, false]);
    expect(answer.body.results[0].ordersWithFulfillments.fulfillments).toHaveLength(2);
    expect(answer.body.results[1].itemMetadata.error.code).toBe('QUANTITY_EXCEEDS_UNFULFILLED');
    expect((await adminOrder(platform, a)).fulfillmentStatus).toBe('FULFILLED');
    expect((await adminOrder(platform, b)).fulfillmentStatus).toBe('NOT_FULFILLED');

    const single = await admin(platform).get(`/ecom/v1/fulfillments/orders/${a}?orderId=${a}`);
    expect(single.body.orderWithFulfillments.fulfillments).toHaveLength(2);
    const several = await admin(platform).post('/ecom/v1/fulfillments/list-by-ids', { orderIds: [b, a] });
    expect(several.body.ordersWithFulfillments.map((o: any) => [o.orderId, o.fulfillments.length])).toEqual([
      [b, 0],
      [a, 2],
    ]);
  });

  it('a cancel racing a fulfillment: exactly one of them succeeds, and stock follows the winner', async () => {
    for (let round = 0; round < 4; round++) {
      const stock = await stockOf(platform, productId);
      const id = await order(2);
      const line = (await adminOrder(platform, id)).lineItems[0].id;
      const [canceled, shipped] = await Promise.all([
        admin(platform).post(`/ecom/v1/orders/${id}/cancel`, { restockAllItems: true }),
        fulfil(id, { lineItems: [{ id: line, quantity: 1 }] }),
      ]);
      expect([canceled.status, shipped.status].sort()).toEqual([200, 428]);
      const after = await adminOrder(platform, id);
      if (canceled.status === 200) {
        expect(after).toMatchObject({ status: 'CANCELED', fulfillmentStatus: 'NOT_FULFILLED' });
        expect(await stockOf(platform, productId)).toBe(stock);
      } else {
        expect(after).toMatchObject({ status: 'APPROVED', fulfillmentStatus: 'PARTIALLY_FULFILLED' });
        expect(await stockOf(platform, productId)).toBe(stock - 2);
      }
    }
  });

  it('tags in bulk: assign and unassign public and private tags in one call; search finds them', async () => {
    const [a, b] = [await order(), await order()];
    const first = await admin(platform).post('/ecom/v1/bulk/orders/update-tags', {
      orderIds: [a, b, 'missing'],
      assignTags: { tags: { tagIds: ['gift', 'rush'] }, privateTags: { tagIds: ['vip'] } },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.results.map((r: any) => r.itemMetadata.success)).toEqual([true, true, false]);
    expect(first.body.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 1 });
    const second = await admin(platform).post('/ecom/v1/bulk/orders/update-tags', {
      orderIds: [b],
      assignTags: { privateTags: { tagIds: ['fraud-check'] } },
      unassignTags: { tags: { tagIds: ['rush'] }, privateTags: { tagIds: ['vip'] } },
    });
    expect(second.status).toBe(200);
    expect((await adminOrder(platform, a)).tags).toEqual({
      privateTags: { tagIds: ['vip'] },
      tags: { tagIds: ['gift', 'rush'] },
    });
    const tagged = await adminOrder(platform, b);
    expect(tagged.tags).toEqual({ privateTags: { tagIds: ['fraud-check'] }, tags: { tagIds: ['gift'] } });
    expect(types(tagged).filter((type: string) => type === 'CUSTOM_ACTIVITY')).toHaveLength(2);

    const search = async (filter: unknown) =>
      (await admin(platform).post('/ecom/v1/orders/search', { search: { filter } })).body.orders.map(
        (o: { id: string }) => o.id,
      );
    expect(await search({ 'tags.privateTags.tagIds': { $hasSome: ['vip', 'fraud-check'] } })).toEqual([b, a]);
    expect(await search({ 'tags.tags.tagIds': { $hasAll: ['gift', 'rush'] } })).toEqual([a]);
    expect(await search({ 'tags.privateTags.tagIds': { $hasSome: ['fraud-check'] } })).toEqual([b]);

    const tooMany = await admin(platform).post('/ecom/v1/bulk/orders/update-tags', {
      orderIds: Array.from({ length: 101 }, () => a),
      assignTags: { tags: { tagIds: ['x'] } },
    });
    expect(tooMany.status).toBe(400);
  });

  it('100 concurrent tag updates on one order lose none', async () => {
    const id = await order();
    const tags = Array.from({ length: 100 }, (_, index) => `t${index}`);
    const answers = await Promise.all(
      tags.map((tag) =>
        admin(platform).post('/ecom/v1/bulk/orders/update-tags', {
          orderIds: [id],
          assignTags: { tags: { tagIds: [tag] } },
        }),
      ),
    );
    expect(
      answers.every((answer) => answer.status === 200 && answer.body.results[0].itemMetadata.success),
    ).toBe(true);
    expect([...(await adminOrder(platform, id)).tags.tags.tagIds].sort()).toEqual([...tags].sort());
    const found = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'tags.tags.tagIds': { $hasAll: ['t0', 't99'] } } },
    });
    expect(found.body.orders.map((o: { id: string }) => o.id)).toEqual([id]);
  });

  it('merchant comments join the timeline and leave it; what the platform wrote stays', async () => {
    const id = await order();
    const added = await admin(platform).post(`/ecom/v1/orders/${id}/activities/add`, {
      orderId: id,
      orderActivities: [
        { merchantComment: { message: 'Called the buyer' } },
        { merchantComment: { message: 'Gift wrap' } },
      ],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.activityIds).toHaveLength(2);
    const comments = added.body.order.activities.filter((a: any) => a.type === 'MERCHANT_COMMENT');
    expect(comments.map((a: any) => [a.id, a.merchantComment.message])).toEqual([
      [added.body.activityIds[0], 'Called the buyer'],
      [added.body.activityIds[1], 'Gift wrap'],
    ]);
    const deleted = await admin(platform).delete(
      `/ecom/v1/orders/${id}/activities/${added.body.activityIds[0]}`,
    );
    expect(deleted.status).toBe(200);
    expect(
      deleted.body.order.activities.filter((a: any) => a.type === 'MERCHANT_COMMENT').map((a: any) => a.id),
    ).toEqual([added.body.activityIds[1]]);
    const placed = deleted.body.order.activities.find((a: any) => a.type === 'ORDER_PLACED');
    const refused = await admin(platform).delete(`/ecom/v1/orders/${id}/activities/${placed.id}`);
    expect(refused.status).toBe(428);
    expect(applicationCode(refused)).toBe('ACTIVITY_NOT_DELETABLE');
    const gone = await admin(platform).delete(
      `/ecom/v1/orders/${id}/activities/${added.body.activityIds[0]}`,
    );
    expect(gone.status).toBe(404);
    const empty = await admin(platform).post(`/ecom/v1/orders/${id}/activities/add`, {
      orderActivities: [{}],
    });
    expect(empty.status).toBe(400);
    expect(violatedFields(empty)).toEqual(['orderActivities[0]']);
  });

  it('searches by payment and fulfillment status, buyer, total, product, channel; bad filters are field violations', async () => {
    const id = await order(4);
    const current = await adminOrder(platform, id);
    const search = async (filter: unknown, sort?: unknown) =>
      admin(platform).post('/ecom/v1/orders/search', {
        search: { filter, ...(sort ? { sort } : {}), cursorPaging: { limit: 100 } },
      });
    const ids = (answer: any) => answer.body.orders.map((o: { id: string }) => o.id);
    expect(
      ids(await search({ paymentStatus: 'PAID', fulfillmentStatus: { $in: ['NOT_FULFILLED'] } })),
    ).toContain(id);
    expect(ids(await search({ fulfillmentStatus: 'FULFILLED', id }))).toEqual([]);
    expect(
      ids(await search({ 'lineItems.catalogReference.catalogItemId': { $hasSome: [productId] }, id })),
    ).toEqual([id]);
    expect(
      ids(await search({ 'lineItems.productName.original': { $hasSome: ['Operated Lamp'] }, id })),
    ).toEqual([id]);
    expect(
      ids(await search({ 'priceSummary.total.amount': { $gte: current.priceSummary.total.amount }, id })),
    ).toEqual([id]);
    expect(ids(await search({ 'priceSummary.total.amount': { $lt: '1.00' }, id }))).toEqual([]);
    expect(
      ids(await search({ 'channelInfo.type': 'WEB', 'buyerInfo.contactId': { $exists: true }, id })),
    ).toEqual(current.buyerInfo.contactId ? [id] : []);
    expect(
      ids(await search({ purchasedDate: { $gte: current.purchasedDate }, number: current.number })),
    ).toEqual([id]);
    const byTotal = await search({}, [{ fieldName: 'priceSummary.total.amount', order: 'DESC' }]);
    const totals = byTotal.body.orders.map((o: any) => Number(o.priceSummary.total.amount));
    expect(totals).toEqual([...totals].sort((x, y) => y - x));

    const unknownField = await search({ 'buyerInfo.phone': '1' });
    expect(unknownField.status).toBe(400);
    expect(violatedFields(unknownField)).toEqual(['search.filter.buyerInfo.phone']);
    const badOperator = await search({ 'tags.tags.tagIds': { $gt: 'a' } });
    expect(violatedFields(badOperator)).toEqual(['search.filter.tags.tags.tagIds.$gt']);
    const badAmount = await search({ 'priceSummary.total.amount': { $gt: 'lots' } });
    expect(violatedFields(badAmount)).toEqual(['search.filter.priceSummary.total.amount.$gt']);
    const badBoolean = await search({ archived: 'yes' });
    expect(violatedFields(badBoolean)).toEqual(['search.filter.archived']);
  });

  it('aggregates counts and sums by status, payment and fulfillment status and day', async () => {
    const counted = await admin(platform).post('/ecom/v1/orders/aggregate', {
      aggregation: {
        byStatus: { $count: ['status'] },
        byFulfillment: { $count: 'fulfillmentStatus' },
        queue: { $count: ['paymentStatus', 'fulfillmentStatus'] },
        revenue: { $sum: 'priceSummary.total.amount' },
        perDay: { $sum: 'priceSummary.total.amount', groupBy: ['createdDate'] },
      },
    });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    const search = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { status: { $in: ['APPROVED', 'CANCELED'] } }, cursorPaging: { limit: 100 } },
    });
    const listed: any[] = search.body.orders;
    const count = (key: (o: any) => string) => {
      const table: Record<string, number> = {};
      for (const o of listed) table[key(o)] = (table[key(o)] ?? 0) + 1;
      return table;
    };
    const { aggregates } = counted.body;
    expect(aggregates.byStatus).toEqual(count((o) => o.status));
    expect(aggregates.byFulfillment).toEqual(count((o) => o.fulfillmentStatus));
    expect(aggregates.queue).toEqual(count((o) => `(${o.paymentStatus}|${o.fulfillmentStatus})`));
    const cents = listed.reduce((sum, o) => sum + Math.round(Number(o.priceSummary.total.amount) * 100), 0);
    expect(Math.round(aggregates.revenue * 100)).toBe(cents);
    const today = new Date().toISOString().slice(0, 10);
    expect(Math.round(aggregates.perDay[today] * 100)).toBe(cents);

    const bad = await admin(platform).post('/ecom/v1/orders/aggregate', {
      aggregation: { x: { $count: ['buyerInfo.email'] } },
    });
    expect(bad.status).toBe(400);
    expect(violatedFields(bad)).toEqual(['aggregation.x.$count[0]']);
  });

  it('only the admin key runs merchant operations; a buyer reads their own fulfillments, not another’s', async () => {
    const { auth, orderId } = await placeOrder(platform, productId);
    const line = (await adminOrder(platform, orderId)).lineItems[0].id;
    const stranger = await visitorToken(platform);
    const calls: Array<[string, string, unknown]> = [
      ['PATCH', `/ecom/v1/orders/${orderId}`, { order: { archived: true } }],
      ['POST', '/ecom/v1/bulk/orders/update', { orders: [{ order: { id: orderId } }] }],
      ['POST', `/ecom/v1/orders/${orderId}/cancel`, {}],
      ['POST', '/ecom/v1/bulk/orders/update-tags', { orderIds: [orderId] }],
      [
        'POST',
        `/ecom/v1/orders/${orderId}/activities/add`,
        { orderActivities: [{ merchantComment: { message: 'x' } }] },
      ],
      ['POST', '/ecom/v1/orders/aggregate', { aggregation: { a: { $count: ['status'] } } }],
      [
        'POST',
        `/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`,
        { fulfillment: { lineItems: [{ id: line }] } },
      ],
      ['POST', '/ecom/v1/fulfillments/orders/bulk/create-fulfillments', { ordersWithFulfillments: [] }],
    ];
    for (const [method, path, body] of calls) {
      expect((await call(platform, method, path, body, auth)).status, `${method} ${path}`).toBe(403);
      expect((await call(platform, method, path, body)).status, `${method} ${path}`).toBe(401);
    }
    expect((await adminOrder(platform, orderId)).status).toBe('APPROVED');

    expect((await fulfil(orderId, { lineItems: [{ id: line }] })).status).toBe(200);
    const mine = await call(platform, 'GET', `/ecom/v1/fulfillments/orders/${orderId}`, undefined, auth);
    expect(mine.status).toBe(200);
    expect(mine.body.orderWithFulfillments.fulfillments).toHaveLength(1);
    const theirs = await call(
      platform,
      'GET',
      `/ecom/v1/fulfillments/orders/${orderId}`,
      undefined,
      stranger,
    );
    expect(theirs.status).toBe(404);
    const listed = await call(
      platform,
      'POST',
      '/ecom/v1/fulfillments/list-by-ids',
      { orderIds: [orderId] },
      stranger,
    );
    expect(listed.body.ordersWithFulfillments).toEqual([]);
  });
});

/**
 * Two platform processes behind one load balancer over one PostgreSQL database: the order's row lock
 * is the database's, so concurrent changes sent to different processes lose nothing either.
 */
describe('order operations on two platform processes over one PostgreSQL', () => {
  let first: TestPlatform;
  let second: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    first = await startTestPlatform({ dialect: 'postgres' });
    second = await startTestPlatform({ dialect: 'postgres', sharing: first });
    await shipToUs(first);
    productId = (await stockedProduct(first, 'Shared Lamp', 20, 200)).id;
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  const either = (index: number) => (index % 2 === 0 ? first : second);

  it('100 tag updates split across the processes lose none', async () => {
    const { orderId } = await placeOrder(first, productId);
    const tags = Array.from({ length: 100 }, (_, index) => `p${index}`);
    const answers = await Promise.all(
      tags.map((tag, index) =>
        admin(either(index)).post('/ecom/v1/bulk/orders/update-tags', {
          orderIds: [orderId],
          assignTags: { privateTags: { tagIds: [tag] } },
        }),
      ),
    );
    expect(answers.every((answer) => answer.body.results?.[0]?.itemMetadata.success)).toBe(true);
    const order = await adminOrder(second, orderId);
    expect([...order.tags.privateTags.tagIds].sort()).toEqual([...tags].sort());
  });

  it('a cancel on one process racing a fulfillment on the other: exactly one succeeds', async () => {
    for (let round = 0; round < 4; round++) {
      const stock = await stockOf(first, productId);
      const { orderId } = await placeOrder(first, productId, { quantity: 2 });
      const line = (await adminOrder(first, orderId)).lineItems[0].id;
      const [canceled, shipped] = await Promise.all([
        admin(either(round)).post(`/ecom/v1/orders/${orderId}/cancel`, { restockAllItems: true }),
        admin(either(round + 1)).post(`/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`, {
          fulfillment: { lineItems: [{ id: line, quantity: 2 }] },
        }),
      ]);
      expect([canceled.status, shipped.status].sort()).toEqual([200, 428]);
      const after = await adminOrder(second, orderId);
      expect(after.status).toBe(canceled.status === 200 ? 'CANCELED' : 'APPROVED');
      expect(after.fulfillmentStatus).toBe(canceled.status === 200 ? 'NOT_FULFILLED' : 'FULFILLED');
      expect(await stockOf(first, productId)).toBe(canceled.status === 200 ? stock : stock - 2);
    }
  });
});
