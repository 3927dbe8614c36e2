import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { inventoryItemsV3, products, productsV3 } from '@wix/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing, buy, orderOf } from './billing-support.ts';
import { admin as adminCalls } from './catalog-http.ts';
import {
  CARDS,
  checkoutSession,
  eventSlugs,
  pageCalls,
  shipToUs,
  shopperCheckout,
} from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * The hosted `inventoryItemsV3` module against Cartwheel's built platform: an item is its variant's
 * stock in the one catalog, so v1 and v3 move the same units, and increments and decrements from two
 * processes over one PostgreSQL database never oversell and never lose a unit.
 */
const modules = { products, productsV3, inventoryItemsV3 };
const adminOf = (platform: TestPlatform) =>
  createClient({
    modules,
    auth: ApiKeyStrategy({ apiKey: platform.adminApiKey, siteId: 'cartwheel-test-site' }),
  });
type Admin = ReturnType<typeof adminOf>;

/** `POST /ecom/v1/orders/{id}/cancel` as the merchant. */
const cancelOrder = (platform: TestPlatform, orderId: string, body: Record<string, unknown>) =>
  adminCalls(platform).post(`/ecom/v1/orders/${orderId}/cancel`, body);

/** A v3 product of one variant counted at `quantity`, out of stock past it but on preorder up to `limit`. */
async function preorderProduct(admin: Admin, name: string, quantity: number, limit: number) {
  const { product, item } = await countedProduct(admin, name, quantity);
  const preorder = await admin.inventoryItemsV3.updateInventoryItem(item._id!, {
    revision: item.revision!,
    preorderInfo: { enabled: true, message: 'Ships in June', limit },
  });
  return { product, item: preorder };
}

/** A shopper's purchase of `quantity` through the hosted checkout page: its payment's answer. */
async function tryBuy(platform: TestPlatform, productId: string, quantity: number) {
  const shopper = await shopperCheckout(platform, [{ productId, quantity }]);
  const session = await checkoutSession(platform, shopper.auth, shopper.checkoutId);
  return pageCalls(platform, session).pay(`order-${shopper.checkoutId}`, CARDS.approved);
}

/** A v3 product of one variant, its item counted at `quantity`. */
async function countedProduct(admin: Admin, name: string, quantity: number) {
  const product = await admin.productsV3.createProduct({
    name,
    productType: 'PHYSICAL',
    physicalProperties: {},
    variantsInfo: { variants: [{ price: { actualPrice: { amount: '10' } } }] },
  });
  const [item] = (await admin.inventoryItemsV3.queryInventoryItems().eq('productId', product._id!).find())
    .items;
  const counted = await admin.inventoryItemsV3.updateInventoryItem(item!._id!, {
    revision: item!.revision!,
    trackQuantity: true,
    quantity,
  });
  return { product, item: counted };
}

describe.each(DIALECTS)("the hosted platform's v3 inventory client on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let admin: Admin;
  const visitor = () => createClient({ modules, auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }) });
  const PREFIX = `Inventory ${dialect}`;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    admin = adminOf(platform);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it("lists a product's items, one per variant, in stock and uncounted as made", async () => {
    const product = await admin.productsV3.createProduct({
      name: `${PREFIX} Tee`,
      productType: 'PHYSICAL',
      physicalProperties: {},
      options: [
        {
          name: 'Size',
          optionRenderType: 'TEXT_CHOICES',
          choicesSettings: {
            choices: [
              { name: 'S', choiceType: 'CHOICE_TEXT' },
              { name: 'M', choiceType: 'CHOICE_TEXT' },
            ],
          },
        },
      ],
      variantsInfo: {
        variants: ['S', 'M'].map((size) => ({
          choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: size } }],
          price: { actualPrice: { amount: '20' } },
        })),
      },
    });
    const page = await visitor().inventoryItemsV3.queryInventoryItems().eq('productId', product._id!).find();
    expect(page.items.map((item) => item.variantId)).toEqual(
      product.variantsInfo?.variants?.map((v) => v._id),
    );
    for (const item of page.items) {
      expect(item).toMatchObject({ trackQuantity: false, inStock: true, availabilityStatus: 'IN_STOCK' });
    }
    // counting is per product in Cartwheel: one item of several may not switch alone
    const refused = await admin.inventoryItemsV3
      .updateInventoryItem(page.items[0]!._id!, { revision: page.items[0]!.revision!, trackQuantity: true })
      .catch((caught) => caught);
    expect(refused.status).toBe(400);
    expect(refused.details.validationError.fieldViolations[0].field).toBe('inventoryItem.trackQuantity');
  });

  it('counts, refuses a stale revision, and moves the same units as v1', async () => {
    const { product, item } = await countedProduct(admin, `${PREFIX} Mug`, 3);
    expect(item).toMatchObject({
      trackQuantity: true,
      quantity: 3,
      availabilityStatus: 'IN_STOCK',
      revision: '2',
    });
    const stale = await admin.inventoryItemsV3
      .updateInventoryItem(item._id!, { revision: '1', quantity: 50 })
      .catch((caught) => caught);
    expect(stale.status).toBe(409);
    expect(stale.details.applicationError.code).toBe('REVISION_MISMATCH');

    await admin.inventoryItemsV3.bulkDecrementInventoryItems([
      { inventoryItemId: item._id!, decrementBy: 2 },
    ]);
    const { product: v1 } = await admin.products.getProduct(product._id!);
    expect(v1?.stock).toMatchObject({ trackInventory: true, quantity: 1, inStock: true });

    // v1 sets the stock; v3 reads it and moves it on
    // Cartwheel's v1 update takes `stock` (the hosted client's type names it on the inventory module only)
    await admin.products.updateProduct(product._id!, { stock: { quantity: 10 } } as never);
    const moved = await admin.inventoryItemsV3.bulkIncrementInventoryItems(
      [{ inventoryItemId: item._id!, incrementBy: 5 }],
      { returnEntity: true },
    );
    expect(moved.results?.[0]?.item).toMatchObject({ quantity: 15 });
    expect((await admin.productsV3.getProduct(product._id!)).inventory?.availabilityStatus).toBe('IN_STOCK');
    // each move announced the item: counting it, the decrement, v1's stock, the increment
    expect(await eventSlugs(platform, item._id!, 'inventoryItem')).toEqual([
      'updated',
      'updated',
      'updated',
      'updated',
    ]);
  });

  let shipping: Promise<void> | undefined;
  const ships = () => (shipping ??= shipToUs(platform));

  it("checkout takes and a refund's restock gives back the units v3 counts, moving the item's revision", async () => {
    await ships();
    const { product, item } = await countedProduct(admin, `${PREFIX} Vase`, 4);
    const orderId = await buy(platform, [{ productId: product._id!, quantity: 3 }]);
    const sold = await admin.inventoryItemsV3.getInventoryItem(item._id!);
    expect(sold).toMatchObject({ quantity: 1, revision: String(Number(item.revision) + 1) });

    const lineItemId = (await orderOf(platform, orderId)).lineItems[0].id as string;
    const payments = (await billing(platform).transactions(orderId)).body.orderTransactions.payments;
    const refunded = await billing(platform).refund(
      orderId,
      {
        paymentRefunds: [{ paymentId: payments[0].id }],
        refundItems: { lineItems: [{ lineItemId, quantity: 2 }] },
        sideEffects: { restock: { lineItems: [{ lineItemId, quantity: 2 }] } },
      },
      `v3-restock-${dialect}`,
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await admin.inventoryItemsV3.getInventoryItem(item._id!)).quantity).toBe(3);
  });

  it('refuses a decrement below zero with INSUFFICIENT_INVENTORY and takes nothing of the call', async () => {
    const a = await countedProduct(admin, `${PREFIX} Plate`, 2);
    const b = await countedProduct(admin, `${PREFIX} Bowl`, 5);
    const refused = await admin.inventoryItemsV3
      .bulkDecrementInventoryItems([
        { inventoryItemId: b.item._id!, decrementBy: 1 },
        { inventoryItemId: a.item._id!, decrementBy: 3 },
      ])
      .catch((caught) => caught);
    expect(refused.status).toBe(428);
    expect(refused.details.applicationError).toMatchObject({ code: 'INSUFFICIENT_INVENTORY' });
    expect((await admin.inventoryItemsV3.getInventoryItem(b.item._id!)).quantity).toBe(5);

    // unless the call lets stock go below zero
    await admin.inventoryItemsV3.bulkDecrementInventoryItems(
      [{ inventoryItemId: a.item._id!, decrementBy: 3 }],
      {
        restrictInventory: false,
      },
    );
    const below = await admin.inventoryItemsV3.getInventoryItem(a.item._id!);
    expect(below).toMatchObject({ quantity: -1, availabilityStatus: 'OUT_OF_STOCK' });
  });

  it('takes preorders up to the limit, then is out of stock; the product shows its preorder', async () => {
    const { product, item } = await countedProduct(admin, `${PREFIX} Lamp`, 0);
    expect(item.availabilityStatus).toBe('OUT_OF_STOCK');
    const preorder = await admin.inventoryItemsV3.updateInventoryItem(item._id!, {
      revision: item.revision!,
      preorderInfo: { enabled: true, message: 'Ships in May', limit: 2 },
    });
    expect(preorder).toMatchObject({
      availabilityStatus: 'PREORDER',
      preorderInfo: { enabled: true, message: 'Ships in May', limit: 2, counter: 0, quantity: 2 },
    });
    const read = await admin.productsV3.getProduct(product._id!);
    expect(read.inventory).toMatchObject({ preorderStatus: 'ENABLED', preorderAvailability: 'ALL_VARIANTS' });
    expect(read.variantsInfo?.variants?.[0]?.inventoryStatus).toEqual({
      inStock: false,
      preorderEnabled: true,
    });

    await admin.inventoryItemsV3.bulkDecrementInventoryItems([
      { inventoryItemId: item._id!, decrementBy: 2, preorderRequest: true },
    ]);
    const full = await admin.inventoryItemsV3.getInventoryItem(item._id!);
    expect(full).toMatchObject({
      availabilityStatus: 'OUT_OF_STOCK',
      preorderInfo: { counter: 2, quantity: 0 },
    });
    const over = await admin.inventoryItemsV3
      .bulkDecrementInventoryItems([{ inventoryItemId: item._id!, decrementBy: 1, preorderRequest: true }])
      .catch((caught) => caught);
    expect(over.details.applicationError.code).toBe('INSUFFICIENT_INVENTORY');
  });

  it('checkout sells a variant out of stock on preorder up to its limit; the line and order say so', async () => {
    await ships();
    const { product, item } = await preorderProduct(admin, `${PREFIX} Kettle`, 1, 2);
    // one from stock, then two preorders: the second order's line says it is a preorder
    const first = await orderOf(platform, await buy(platform, [{ productId: product._id!, quantity: 1 }]));
    expect(first.lineItems[0].descriptionLines).toEqual([]);
    const cart = await shopperCheckout(platform, [{ productId: product._id!, quantity: 2 }]);
    const session = await checkoutSession(platform, cart.auth, cart.checkoutId);
    const paid = await pageCalls(platform, session).pay(`order-${cart.checkoutId}`, CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const preordered = await orderOf(platform, paid.body.orderId);
    expect(preordered.lineItems[0]).toMatchObject({ quantity: 2 });
    expect(
      preordered.lineItems[0].descriptionLines.map((line: any) => [
        line.name.original,
        line.plainText.original,
      ]),
    ).toEqual([['Preorder', 'Ships in June']]);
    expect(await admin.inventoryItemsV3.getInventoryItem(item._id!)).toMatchObject({
      quantity: 0,
      availabilityStatus: 'OUT_OF_STOCK',
      preorderInfo: { counter: 2, quantity: 0 },
    });
    // past the limit: refused, nothing taken
    const over = await tryBuy(platform, product._id!, 1).catch((caught) => caught);
    expect(over.body?.status ?? over.message).not.toBe('APPROVED');
    expect((await admin.inventoryItemsV3.getInventoryItem(item._id!)).preorderInfo?.counter).toBe(2);
  });

  it('deletes an item: unread, unsold, unmoved, until a create makes it again as it says; a second is refused', async () => {
    await ships();
    const { product, item } = await countedProduct(admin, `${PREFIX} Clock`, 3);
    await admin.inventoryItemsV3.deleteInventoryItem(item._id!);
    expect((await admin.inventoryItemsV3.getInventoryItem(item._id!).catch((caught) => caught)).status).toBe(
      404,
    );
    const listed = await admin.inventoryItemsV3.queryInventoryItems().eq('productId', product._id!).find();
    expect(listed.items).toEqual([]);
    const moved = await admin.inventoryItemsV3
      .bulkIncrementInventoryItems([{ inventoryItemId: item._id!, incrementBy: 1 }])
      .catch((caught) => caught);
    expect(moved.status).toBe(404);
    // the product is out of stock, and checkout refuses its variant
    expect((await admin.productsV3.getProduct(product._id!)).inventory?.availabilityStatus).toBe(
      'OUT_OF_STOCK',
    );
    const refused = await tryBuy(platform, product._id!, 1).catch((caught) => caught);
    expect(refused.body?.status ?? refused.message).not.toBe('APPROVED');
    expect(
      (await admin.inventoryItemsV3.deleteInventoryItem(item._id!).catch((caught) => caught)).status,
    ).toBe(404);

    const made = await admin.inventoryItemsV3.createInventoryItem({
      productId: product._id!,
      variantId: item.variantId!,
      locationId: item.locationId!,
      quantity: 6,
      preorderInfo: { enabled: true, message: 'Back in May' },
    });
    expect(made).toMatchObject({
      _id: item._id,
      trackQuantity: true,
      quantity: 6,
      availabilityStatus: 'IN_STOCK',
      preorderInfo: { enabled: true, message: 'Back in May', counter: 0 },
    });
    expect((await admin.inventoryItemsV3.getInventoryItem(item._id!)).quantity).toBe(6);
    const twice = await admin.inventoryItemsV3
      .createInventoryItem({ productId: product._id!, variantId: item.variantId!, quantity: 1 })
      .catch((caught) => caught);
    expect(twice.status).toBe(409);
    expect(twice.details.applicationError.code).toBe('ITEM_ALREADY_EXISTS');
    const elsewhere = await admin.inventoryItemsV3
      .createInventoryItem({
        productId: product._id!,
        variantId: item.variantId!,
        locationId: '11111111-1111-4111-8111-111111111111',
      })
      .catch((caught) => caught);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.details.validationError.fieldViolations[0].field).toBe('inventoryItem.locationId');
    expect((await eventSlugs(platform, item._id!, 'inventoryItem')).slice(-2)).toEqual([
      'deleted',
      'created',
    ]);
    expect(await tryBuy(platform, product._id!, 2)).toMatchObject({ body: { status: 'APPROVED' } });
  });

  it('bulk creates, updates and deletes report each item in its place, one failure failing no other', async () => {
    const a = await countedProduct(admin, `${PREFIX} Cup`, 2);
    const b = await countedProduct(admin, `${PREFIX} Saucer`, 2);
    const deleted = await admin.inventoryItemsV3.bulkDeleteInventoryItems([
      a.item._id!,
      'no-such-item',
      b.item._id!,
    ]);
    expect(
      deleted.results!.map((result) => [result.itemMetadata?.originalIndex, result.itemMetadata?.success]),
    ).toEqual([
      [0, true],
      [1, false],
      [2, true],
    ]);
    expect(deleted.results![1]?.itemMetadata?.error?.code).toBe('INVENTORY_ITEM_NOT_FOUND');
    expect(deleted.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 1 });

    const created = await admin.inventoryItemsV3.bulkCreateInventoryItems(
      [
        { productId: a.product._id!, variantId: a.item.variantId!, quantity: 4 },
        { productId: b.product._id!, variantId: b.item.variantId!, quantity: -1 },
        { productId: a.product._id!, variantId: a.item.variantId!, quantity: 1 },
        { productId: b.product._id!, variantId: b.item.variantId!, quantity: 5 },
      ],
      { returnEntity: true },
    );
    expect(created.results!.map((result) => result.itemMetadata?.success)).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(created.results![1]?.itemMetadata?.error?.code).toBe('INVALID_ARGUMENT');
    expect(created.results![2]?.itemMetadata?.error?.code).toBe('ITEM_ALREADY_EXISTS');
    expect(created.results![3]?.item).toMatchObject({ _id: b.item._id, quantity: 5 });

    // each update at the revision it names: a stale one is refused in its place, the other done
    const [itemA, itemB] = await Promise.all(
      [a.item._id!, b.item._id!].map((id) => admin.inventoryItemsV3.getInventoryItem(id)),
    );
    const updated = await admin.inventoryItemsV3.bulkUpdateInventoryItems(
      [
        { inventoryItem: { _id: itemA!._id!, revision: '1', quantity: 50 } },
        { inventoryItem: { _id: itemB!._id!, revision: itemB!.revision!, quantity: 9 } },
      ],
      { returnEntity: true },
    );
    expect(updated.results!.map((result) => result.itemMetadata?.success)).toEqual([false, true]);
    expect(updated.results![0]?.itemMetadata?.error?.code).toBe('REVISION_MISMATCH');
    expect(updated.results![1]?.item).toMatchObject({ quantity: 9 });
    expect((await admin.inventoryItemsV3.getInventoryItem(itemA!._id!)).quantity).toBe(4);
  });

  it('updates by filter every item the filter finds, all or none, and answers a job id', async () => {
    const a = await countedProduct(admin, `${PREFIX} Fork`, 1);
    const b = await countedProduct(admin, `${PREFIX} Knife`, 2);
    const filter = { productId: { $in: [a.product._id!, b.product._id!] } };
    const { jobId } = await admin.inventoryItemsV3.bulkUpdateInventoryItemsByFilter(filter, {
      inventoryItem: { quantity: 12, preorderInfo: { enabled: true, limit: 3 } },
    });
    expect(jobId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const { item } of [a, b]) {
      expect(await admin.inventoryItemsV3.getInventoryItem(item._id!)).toMatchObject({
        quantity: 12,
        preorderInfo: { enabled: true, limit: 3 },
      });
    }
    // one item the update cannot take (it does not count) refuses it for all
    const poster = await admin.productsV3.createProduct({
      name: `${PREFIX} Spoon`,
      productType: 'PHYSICAL',
      physicalProperties: {},
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '2' } } }] },
    });
    const refused = await admin.inventoryItemsV3
      .bulkUpdateInventoryItemsByFilter(
        { productId: { $in: [a.product._id!, poster._id!] } },
        { inventoryItem: { quantity: 20 } },
      )
      .catch((caught) => caught);
    expect(refused.status).toBe(400);
    // the hosted client names the field by its own argument (`options.inventoryItem`)
    expect(refused.details.validationError.fieldViolations[0]).toMatchObject({
      field: 'options.inventoryItem.quantity',
      description: expect.stringContaining(`inventory item ${poster._id}-`),
    });
    expect((await admin.inventoryItemsV3.getInventoryItem(a.item._id!)).quantity).toBe(12);
    const unknownField = await admin.inventoryItemsV3
      .bulkUpdateInventoryItemsByFilter({ color: 'red' }, { inventoryItem: { quantity: 1 } })
      .catch((caught) => caught);
    expect(unknownField.status).toBe(400);
  });

  it('moves items by variant and location; refuses a variant id many products share, naming the item ids', async () => {
    const product = await admin.productsV3.createProduct({
      name: `${PREFIX} Scarf`,
      productType: 'PHYSICAL',
      physicalProperties: {},
      options: [
        {
          name: 'Color',
          optionRenderType: 'TEXT_CHOICES',
          choicesSettings: {
            choices: [
              { name: 'Red', choiceType: 'CHOICE_TEXT' },
              { name: 'Blue', choiceType: 'CHOICE_TEXT' },
            ],
          },
        },
      ],
      variantsInfo: {
        variants: ['Red', 'Blue'].map((color) => ({
          choices: [{ optionChoiceNames: { optionName: 'Color', choiceName: color } }],
          price: { actualPrice: { amount: '15' } },
        })),
      },
    });
    // Cartwheel counts a product's variants together: v1 turns counting on for both
    await admin.products.updateProduct(product._id!, {
      stock: { trackInventory: true, quantity: 5 },
    } as never);
    const [red, blue] = (
      await admin.inventoryItemsV3.queryInventoryItems().eq('productId', product._id!).find()
    ).items;
    expect([red?.quantity, blue?.quantity]).toEqual([5, 5]);
    const taken = await admin.inventoryItemsV3.bulkDecrementInventoryItemsByVariantAndLocation(
      [
        { variantId: red!.variantId!, locationId: red!.locationId!, decrementBy: 2 },
        { variantId: blue!.variantId!, decrementBy: 5 },
      ],
      { returnEntity: true },
    );
    expect(taken.results!.map((result) => [result.itemMetadata?._id, result.item?.quantity])).toEqual([
      [red!._id, 3],
      [blue!._id, 0],
    ]);
    const given = await admin.inventoryItemsV3.bulkIncrementInventoryItemsByVariantAndLocation(
      [{ variantId: blue!.variantId!, incrementBy: 4 }],
      { returnEntity: true },
    );
    expect(given.results![0]?.item?.quantity).toBe(4);
    // all or none: one entry short refuses the call, nothing taken
    const short = await admin.inventoryItemsV3
      .bulkDecrementInventoryItemsByVariantAndLocation([
        { variantId: red!.variantId!, decrementBy: 1 },
        { variantId: blue!.variantId!, decrementBy: 5 },
      ])
      .catch((caught) => caught);
    expect(short.details.applicationError.code).toBe('INSUFFICIENT_INVENTORY');
    expect((await admin.inventoryItemsV3.getInventoryItem(red!._id!)).quantity).toBe(3);
    const elsewhere = await admin.inventoryItemsV3
      .bulkIncrementInventoryItemsByVariantAndLocation([
        { variantId: red!.variantId!, locationId: '11111111-1111-4111-8111-111111111111', incrementBy: 1 },
      ])
      .catch((caught) => caught);
    expect(elsewhere.details.validationError.fieldViolations[0].field).toBe('incrementData[0].locationId');
    const unknown = await admin.inventoryItemsV3
      .bulkIncrementInventoryItemsByVariantAndLocation([
        { variantId: '22222222-2222-4222-8222-222222222222', incrementBy: 1 },
      ])
      .catch((caught) => caught);
    expect([unknown.status, unknown.details.applicationError.code]).toEqual([404, 'NOT_FOUND']);

    // products without options all have the one default variant id: it names no single item
    const mug = await countedProduct(admin, `${PREFIX} Tumbler`, 3);
    await countedProduct(admin, `${PREFIX} Beaker`, 3);
    const ambiguous = await admin.inventoryItemsV3
      .bulkDecrementInventoryItemsByVariantAndLocation([{ variantId: mug.item.variantId!, decrementBy: 1 }])
      .catch((caught) => caught);
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.details.applicationError.code).toBe('AMBIGUOUS_VARIANT_ID');
    const named: string[] = ambiguous.details.applicationError.data.inventoryItemIds;
    expect(named.length).toBeGreaterThan(1);
    expect(named.every((id) => id.endsWith(`-${mug.item.variantId}`))).toBe(true);
    expect((await admin.inventoryItemsV3.getInventoryItem(mug.item._id!)).quantity).toBe(3);
  });

  it("a canceled order's and a refund's restock give preordered units back to the preorder count first", async () => {
    await ships();
    const { product, item } = await preorderProduct(admin, `${PREFIX} Kite`, 1, 5);
    // one unit from stock, two preordered
    const orderId = await buy(platform, [{ productId: product._id!, quantity: 3 }]);
    expect(await admin.inventoryItemsV3.getInventoryItem(item._id!)).toMatchObject({
      quantity: 0,
      preorderInfo: { counter: 2 },
    });
    const canceled = await cancelOrder(platform, orderId, { restockAllItems: true });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(await admin.inventoryItemsV3.getInventoryItem(item._id!)).toMatchObject({
      quantity: 1,
      preorderInfo: { counter: 0, quantity: 5 },
    });
    // the order keeps its preorders to itself: the wire order has no such field
    expect(JSON.stringify(await orderOf(platform, orderId))).not.toContain('preorderedUnits');

    // a refund's restock gives back preorders first too: one of two preordered units
    const second = await buy(platform, [{ productId: product._id!, quantity: 3 }]);
    const lineItemId = (await orderOf(platform, second)).lineItems[0].id as string;
    const payments = (await billing(platform).transactions(second)).body.orderTransactions.payments;
    const refunded = await billing(platform).refund(
      second,
      {
        paymentRefunds: [{ paymentId: payments[0].id }],
        refundItems: { lineItems: [{ lineItemId, quantity: 1 }] },
        sideEffects: { restock: { lineItems: [{ lineItemId, quantity: 1 }] } },
      },
      `v3-preorder-restock-${dialect}`,
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(await admin.inventoryItemsV3.getInventoryItem(item._id!)).toMatchObject({
      quantity: 0,
      preorderInfo: { counter: 1 },
    });
  });

  it('refuses to count down an item that does not count, and names an unknown item', async () => {
    const product = await admin.productsV3.createProduct({
      name: `${PREFIX} Poster`,
      productType: 'PHYSICAL',
      physicalProperties: {},
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '5' } } }] },
    });
    const [item] = (await admin.inventoryItemsV3.queryInventoryItems().eq('productId', product._id!).find())
      .items;
    const untracked = await admin.inventoryItemsV3
      .bulkDecrementInventoryItems([{ inventoryItemId: item!._id!, decrementBy: 1 }])
      .catch((caught) => caught);
    expect(untracked.details.applicationError.code).toBe('INVENTORY_QUANTITY_NOT_TRACKED');
    const unknown = await admin.inventoryItemsV3.getInventoryItem('no-such-item').catch((caught) => caught);
    expect(unknown.status).toBe(404);
    const refusedVisitor = await visitor()
      .inventoryItemsV3.bulkIncrementInventoryItems([{ inventoryItemId: item!._id!, incrementBy: 1 }])
      .catch((caught) => caught);
    expect(refusedVisitor.status).toBe(403);
  });
});

describe('v3 stock moved from two processes over one PostgreSQL database', () => {
  let first: TestPlatform;
  let second: TestPlatform;
  let removeRoute: () => Promise<void>;

  beforeAll(async () => {
    first = await startTestPlatform({ dialect: 'postgres' });
    second = await startTestPlatform({ dialect: 'postgres', sharing: first });
    removeRoute = await routeHostedApiTo(first.url);
  });
  afterAll(async () => {
    await removeRoute?.();
    await second?.stop();
    await first?.stop();
  });

  /** A raw call to one process: the hosted client's route sends every client to the first. */
  const call = (platform: TestPlatform, path: string, body: unknown) =>
    fetch(`${platform.url}${path}`, {
      method: 'POST',
      headers: { authorization: platform.adminApiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('never sells past the preorder limit when both processes take the last preorders', async () => {
    const admin = adminOf(first);
    await shipToUs(first);
    const { product, item } = await preorderProduct(admin, 'Hot preorder', 0, 3);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => tryBuy(index % 2 === 0 ? first : second, product._id!, 1)),
    );
    const approved = answers.filter((answer) => answer.body?.status === 'APPROVED');
    expect(approved).toHaveLength(3);
    expect((await admin.inventoryItemsV3.getInventoryItem(item._id!)).preorderInfo).toMatchObject({
      counter: 3,
      quantity: 0,
    });
  });

  it('never oversells when both processes take two items of one product by variant and location', async () => {
    const admin = adminOf(first);
    const product = await admin.productsV3.createProduct({
      name: 'Hot pair',
      productType: 'PHYSICAL',
      physicalProperties: {},
      options: [
        {
          name: 'Side',
          optionRenderType: 'TEXT_CHOICES',
          choicesSettings: {
            choices: [
              { name: 'Left', choiceType: 'CHOICE_TEXT' },
              { name: 'Right', choiceType: 'CHOICE_TEXT' },
            ],
          },
        },
      ],
      variantsInfo: {
        variants: ['Left', 'Right'].map((side) => ({
          choices: [{ optionChoiceNames: { optionName: 'Side', choiceName: side } }],
          price: { actualPrice: { amount: '8' } },
        })),
      },
    });
    await admin.products.updateProduct(product._id!, {
      stock: { trackInventory: true, quantity: 10 },
    } as never);
    const items = (await admin.inventoryItemsV3.queryInventoryItems().eq('productId', product._id!).find())
      .items;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        call(
          index % 2 === 0 ? first : second,
          '/stores/v3/bulk/inventory-items/decrement-by-variant-and-location',
          {
            decrementData: items.map((item) => ({ variantId: item.variantId, decrementBy: 1 })),
          },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 428)).toHaveLength(20);
    for (const item of items) {
      expect((await admin.inventoryItemsV3.getInventoryItem(item._id!)).quantity).toBe(0);
    }
  });

  it('never oversells a hot item and never loses an increment', async () => {
    const admin = adminOf(first);
    const { item } = await countedProduct(admin, 'Hot item', 30);
    const decrement = (platform: TestPlatform) =>
      call(platform, '/stores/v3/bulk/inventory-items/decrement', {
        decrementData: [{ inventoryItemId: item._id, decrementBy: 1 }],
      });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => decrement(index % 2 === 0 ? first : second)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 428)).toHaveLength(20);
    expect((await admin.inventoryItemsV3.getInventoryItem(item._id!)).quantity).toBe(0);

    // increments and decrements together: every increment lands, no decrement takes what is not there
    const mixed = await Promise.all(
      Array.from({ length: 40 }, (_, index) => {
        const platform = index % 2 === 0 ? first : second;
        return index % 4 < 2
          ? call(platform, '/stores/v3/bulk/inventory-items/increment', {
              incrementData: [{ inventoryItemId: item._id, incrementBy: 2 }],
            })
          : decrement(platform);
      }),
    );
    const increments = mixed.filter((_, index) => index % 4 < 2);
    const decrements = mixed.filter((_, index) => index % 4 >= 2);
    expect(increments.every((answer) => answer.status === 200)).toBe(true);
    const taken = decrements.filter((answer) => answer.status === 200).length;
    expect(decrements.every((answer) => answer.status === 200 || answer.status === 428)).toBe(true);
    expect((await admin.inventoryItemsV3.getInventoryItem(item._id!)).quantity).toBe(20 * 2 - taken);
  });
});
