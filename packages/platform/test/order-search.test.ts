import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './catalog-http.ts';
import {
  adminOrder,
  checkoutCalls,
  placeOrder,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  violatedFields,
} from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Order search as the hosted client sends it: cursor paging (next and previous pages), newest first
 * by default, the wire's filter operators on ids, statuses, numbers and dates, and clear refusals.
 */
describe.each(DIALECTS)('order search, on %s', (dialect) => {
  let platform: TestPlatform;
  /** Oldest first. */
  const orders: Array<{ id: string; number: string; createdDate: string }> = [];

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    const product = await stockedProduct(platform, 'Searched Frame', 10, 100);
    for (let index = 0; index < 5; index++) {
      const { orderId } = await placeOrder(platform, product.id);
      const order = await adminOrder(platform, orderId);
      orders.push({ id: orderId, number: order.number, createdDate: order.createdDate });
    }
    // an order created by create-order and not paid yet: INITIALIZED, never listed
    const unpaid = await shopperCheckout(platform, [{ productId: product.id, quantity: 1 }]);
    expect((await checkoutCalls(platform, unpaid.auth).createOrder(unpaid.checkoutId)).status).toBe(200);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const search = (body: unknown) => admin(platform).post('/ecom/v1/orders/search', body);
  const ids = (answer: { body: any }) => answer.body.orders.map((order: { id: string }) => order.id);

  it('lists newest first by default, never an INITIALIZED order, with the wire metadata', async () => {
    const answer = await search({});
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual([...orders].reverse().map((order) => order.id));
    expect(answer.body.metadata).toEqual({ count: 5, cursors: { next: null, prev: null }, hasNext: false });
    const named = await search({ search: { filter: { status: { $in: ['INITIALIZED', 'APPROVED'] } } } });
    expect(ids(named)).toHaveLength(5);
  });

  it('pages forward and back with cursors', async () => {
    const first = await search({ search: { cursorPaging: { limit: 2 } } });
    expect(ids(first)).toEqual([orders[4]!.id, orders[3]!.id]);
    expect(first.body.metadata.hasNext).toBe(true);
    expect(first.body.metadata.cursors.prev).toBeNull();
    const second = await search({
      search: { cursorPaging: { limit: 2, cursor: first.body.metadata.cursors.next } },
    });
    expect(ids(second)).toEqual([orders[2]!.id, orders[1]!.id]);
    const third = await search({ search: { cursorPaging: { cursor: second.body.metadata.cursors.next } } });
    expect(ids(third)).toEqual([orders[0]!.id]);
    expect(third.body.metadata).toMatchObject({ count: 1, hasNext: false, cursors: { next: null } });
    const back = await search({ search: { cursorPaging: { cursor: third.body.metadata.cursors.prev } } });
    expect(ids(back)).toEqual([orders[2]!.id, orders[1]!.id]);
    const forged = await search({ search: { cursorPaging: { cursor: 'not-a-cursor' } } });
    expect(forged.status).toBe(400);
    expect(violatedFields(forged)).toEqual(['search.cursorPaging.cursor']);
  });

  it('a tag filter walks the tagged orders newest first, page by page, forward and back', async () => {
    const tag = `walk-${dialect}`;
    // orders 0, 1, 3 and 4 hold the tag (3 with a private one too); 2 holds none
    const tagged = [orders[0]!, orders[1]!, orders[3]!, orders[4]!];
    const assigned = await admin(platform).post('/ecom/v1/bulk/orders/update-tags', {
      orderIds: tagged.map((order) => order.id),
      assignTags: { tags: { tagIds: [tag, 'other'] } },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const privately = await admin(platform).post('/ecom/v1/bulk/orders/update-tags', {
      orderIds: [orders[3]!.id],
      assignTags: { privateTags: { tagIds: [tag] } },
    });
    expect(privately.status, JSON.stringify(privately.body)).toBe(200);
    const newestFirst = [...tagged].reverse().map((order) => order.id);

    for (const filter of [
      { 'tags.tags.tagIds': { $hasSome: [tag] } },
      { 'tags.tags.tagIds': { $hasAll: [tag, 'other'] } },
      { $and: [{ 'tags.tags.tagIds': tag }, { status: 'APPROVED' }] },
    ]) {
      const first = await search({ search: { filter, cursorPaging: { limit: 3 } } });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(ids(first)).toEqual(newestFirst.slice(0, 3));
      expect(first.body.metadata.hasNext).toBe(true);
      const second = await search({
        search: { cursorPaging: { limit: 3, cursor: first.body.metadata.cursors.next } },
      });
      expect(ids(second)).toEqual(newestFirst.slice(3));
      expect(second.body.metadata).toMatchObject({ hasNext: false, cursors: { next: null } });
      const back = await search({ search: { cursorPaging: { cursor: second.body.metadata.cursors.prev } } });
      expect(ids(back)).toEqual(newestFirst.slice(0, 3));
    }
    // oldest first, the private tag, a tag no order holds and another filter beside the tag
    const oldest = await search({
      search: {
        filter: { 'tags.tags.tagIds': { $hasSome: [tag] } },
        sort: [{ fieldName: 'createdDate', order: 'ASC' }],
      },
    });
    expect(ids(oldest)).toEqual(tagged.map((order) => order.id));
    const secret = await search({ search: { filter: { 'tags.privateTags.tagIds': { $hasSome: [tag] } } } });
    expect(ids(secret)).toEqual([orders[3]!.id]);
    expect(
      ids(await search({ search: { filter: { 'tags.tags.tagIds': { $hasSome: ['nobody'] } } } })),
    ).toEqual([]);
    const numbered = await search({
      search: { filter: { 'tags.tags.tagIds': tag, number: { $lte: orders[1]!.number } } },
    });
    expect(ids(numbered)).toEqual([orders[1]!.id, orders[0]!.id]);

    // unassigning takes the order out of the tag's walk
    await admin(platform).post('/ecom/v1/bulk/orders/update-tags', {
      orderIds: [orders[4]!.id],
      unassignTags: { tags: { tagIds: [tag] } },
    });
    const after = await search({ search: { filter: { 'tags.tags.tagIds': { $hasSome: [tag] } } } });
    expect(ids(after)).toEqual(newestFirst.slice(1));
  });

  it('filters by id, number, statuses and dates with the wire operators, and sorts by number', async () => {
    expect(ids(await search({ search: { filter: { id: orders[1]!.id } } }))).toEqual([orders[1]!.id]);
    expect(ids(await search({ search: { filter: { number: { $gte: orders[3]!.number } } } }))).toEqual([
      orders[4]!.id,
      orders[3]!.id,
    ]);
    expect(
      ids(
        await search({
          search: {
            filter: { $and: [{ paymentStatus: { $in: ['PAID'] } }, { fulfillmentStatus: 'NOT_FULFILLED' }] },
            sort: [{ fieldName: 'number', order: 'ASC' }],
            cursorPaging: { limit: 3 },
          },
        }),
      ),
    ).toEqual(orders.slice(0, 3).map((order) => order.id));
    expect(
      ids(await search({ search: { filter: { createdDate: { $lte: orders[0]!.createdDate } } } })),
    ).toEqual([orders[0]!.id]);
    expect(
      ids(
        await search({ search: { filter: { $or: [{ id: orders[0]!.id }, { number: orders[4]!.number }] } } }),
      ),
    ).toEqual([orders[4]!.id, orders[0]!.id]);
    expect(ids(await search({ search: { filter: { status: { $ne: 'APPROVED' } } } }))).toEqual([]);
  });

  it('refuses a field or operator it cannot filter on, and a page over 100', async () => {
    const field = await search({ search: { filter: { 'buyerInfo.phone': '555' } } });
    expect(field.status).toBe(400);
    expect(violatedFields(field)).toEqual(['search.filter.buyerInfo.phone']);
    const operator = await search({ search: { filter: { status: { $regex: '.*' } } } });
    expect(violatedFields(operator)).toEqual(['search.filter.status.$regex']);
    const date = await search({ search: { filter: { createdDate: { $gt: 'yesterday' } } } });
    expect(violatedFields(date)).toEqual(['search.filter.createdDate.$gt']);
    const limit = await search({ search: { cursorPaging: { limit: 101 } } });
    expect(violatedFields(limit)).toEqual(['search.cursorPaging.limit']);
    const sort = await search({ search: { sort: [{ fieldName: 'total' }] } });
    expect(violatedFields(sort)).toEqual(['search.sort[0].fieldName']);
  });

  it('refuses fields, operators and sorts named like what every JavaScript object inherits', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      const field = await search({ search: { filter: JSON.parse(`{"${name}": "x"}`) } });
      expect([field.status, violatedFields(field)]).toEqual([400, [`search.filter.${name}`]]);
      const operator = await search({ search: { filter: { status: JSON.parse(`{"${name}": "x"}`) } } });
      expect([operator.status, violatedFields(operator)]).toEqual([400, [`search.filter.status.${name}`]]);
      const sort = await search({ search: { sort: [{ fieldName: name }] } });
      expect([sort.status, violatedFields(sort)]).toEqual([400, ['search.sort[0].fieldName']]);
    }
  });

  it('holds a filter to the query budget: long lists, many conditions and deep nesting are refused', async () => {
    const ids = Array.from({ length: 101 }, (_, index) => `id-${index}`);
    const list = await search({ search: { filter: { id: { $in: ids } } } });
    expect(list.status).toBe(400);
    expect(violatedFields(list)).toEqual(['search.filter.id.$in']);
    const many = await search({
      search: { filter: { $or: Array.from({ length: 60 }, (_, index) => ({ number: index })) } },
    });
    expect(many.status).toBe(400);
    expect(violatedFields(many)).toEqual(['search.filter']);
    let deep: Record<string, unknown> = { status: 'APPROVED' };
    for (let level = 0; level < 8; level++) deep = { $and: [deep] };
    const nested = await search({ search: { filter: deep } });
    expect(nested.status).toBe(400);
    expect(nested.body.details.validationError.fieldViolations[0].ruleName).toBe('MAX_SIZE');
  });
});
