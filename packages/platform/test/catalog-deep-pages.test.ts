import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createProduct, queryProducts, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A deep page starts at the nearest anchor of its listing (page-anchors.ts). Two platform processes
 * share one database here: one reads and keeps anchors, the other writes, and every page the reader
 * answers must be the page of the catalog as it is, never of the moment its anchors were read.
 * Anchors every 4 rows, so a catalog of a few dozen products has many.
 */
const ALL_PRODUCTS = '00000000-000000-000000-000000000001';
const SPACING = 4;
const LIMIT = 5;

interface Modelled {
  name: string;
  price: number;
  visible: boolean;
  numericId: number;
  collections: Set<string>;
}

type Sort = Array<{ fieldName: string; order: 'ASC' | 'DESC' }>;

const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
const SORTS: Array<{ sort: Sort; order: (a: [string, Modelled], b: [string, Modelled]) => number }> = [
  {
    sort: [{ fieldName: 'name', order: 'ASC' }],
    order: ([idA, a], [idB, b]) => compare(a.name.toLowerCase(), b.name.toLowerCase()) || compare(idA, idB),
  },
  {
    sort: [{ fieldName: 'name', order: 'DESC' }],
    order: ([idA, a], [idB, b]) => compare(b.name.toLowerCase(), a.name.toLowerCase()) || compare(idA, idB),
  },
  {
    sort: [{ fieldName: 'price', order: 'DESC' }],
    order: ([idA, a], [idB, b]) => b.price - a.price || compare(idA, idB),
  },
  { sort: [], order: ([, a], [, b]) => a.numericId - b.numericId },
];

describe.each(DIALECTS)('deep pages on %s', (dialect) => {
  const env = { CARTWHEEL_PAGE_ANCHOR_SPACING: String(SPACING), CARTWHEEL_CATALOG_CACHE_MS: '0' };
  let reader: TestPlatform;
  let writer: TestPlatform;
  let visitor: string;
  let winter: string;
  const model = new Map<string, Modelled>();

  beforeAll(async () => {
    // in the test's process: the test reads the anchors the reading process keeps
    reader = await startTestPlatform({ dialect, env, inProcess: true });
    writer = await startTestPlatform({ dialect, env, sharing: reader });
    visitor = await visitorToken(reader);
    winter = (await admin(writer).post('/stores/v1/collections', { collection: { name: 'Deep Winter' } }))
      .body.collection.id;
    // names and prices repeat, so anchors fall among equal keys too
    for (let index = 0; index < 36; index++) {
      await create(`Deep ${'abcdefghi'[index % 9]} item`, 5 + (index % 7), index % 8 !== 3);
    }
    await addTo(
      winter,
      [...model.keys()].filter((_, index) => index % 3 !== 0),
    );
  }, 120_000);
  afterAll(async () => {
    await writer?.stop();
    await reader?.stop();
  });

  async function create(name: string, price: number, visible = true) {
    const product = await createProduct(writer, { name, priceData: { price }, visible });
    model.set(product.id, {
      name,
      price,
      visible,
      numericId: Number(product.numericId),
      collections: new Set(),
    });
    return product.id as string;
  }

  async function addTo(collectionId: string, productIds: string[]) {
    const answer = await admin(writer).post(`/stores/v1/collections/${collectionId}/productIds`, {
      productIds,
    });
    expect(answer.status).toBe(200);
    for (const id of productIds) model.get(id)?.collections.add(collectionId);
  }

  async function update(id: string, product: { name?: string; price?: number; visible?: boolean }) {
    const { price, ...rest } = product;
    const answer = await admin(writer).patch(`/stores/v1/products/${id}`, {
      product: { ...rest, ...(price === undefined ? {} : { priceData: { price } }) },
    });
    expect(answer.status).toBe(200);
    Object.assign(model.get(id) as Modelled, product);
  }

  /** Every page deep enough for anchors, of every listing and order, as the reader answers them. */
  async function expectDeepPages(): Promise<void> {
    const scopes = [
      { filter: undefined, collectionId: ALL_PRODUCTS, auth: visitor, visibleOnly: true },
      { filter: undefined, collectionId: ALL_PRODUCTS, auth: reader.adminApiKey, visibleOnly: false },
      {
        filter: { collectionIds: { $hasSome: [winter] } },
        collectionId: winter,
        auth: visitor,
        visibleOnly: true,
      },
    ];
    for (const scope of scopes) {
      for (const { sort, order } of SORTS) {
        const expected = [...model.entries()]
          .filter(
            ([, product]) =>
              scope.collectionId === ALL_PRODUCTS || product.collections.has(scope.collectionId),
          )
          .filter(([, product]) => product.visible || !scope.visibleOnly)
          .sort(order)
          .map(([id]) => id);
        const offsets = [
          SPACING,
          SPACING + 1,
          2 * SPACING + 3,
          17,
          expected.length - 2,
          expected.length,
          expected.length + 3,
        ];
        for (const offset of offsets) {
          const request = { query: { filter: scope.filter, sort, paging: { limit: LIMIT, offset } } };
          // the first read of a listing finds no anchors and reads them; the second starts at one
          for (let read = 0; read < 2; read++) {
            const answer = await queryProducts(reader, request, scope.auth);
            const what = `${JSON.stringify(request)} by ${scope.auth === visitor ? 'visitor' : 'admin'}, read ${read}`;
            expect(answer.status, what).toBe(200);
            expect(
              answer.body.products.map((product: { id: string }) => product.id),
              what,
            ).toEqual(expected.slice(offset, offset + LIMIT));
            expect(answer.body.metadata.total, what).toBe(expected.length);
            await reader.services.catalog.anchors.settled();
          }
        }
      }
    }
  }

  it('are the listing as it is, through every write another process makes', async () => {
    const anchors = reader.services.catalog.anchors;
    await expectDeepPages();
    expect(anchors.stats.anchored).toBeGreaterThan(0);
    const ids = () => [...model.keys()];

    // each write moves rows across anchors: the reader's anchors are stale at its next page
    await update(ids()[1] as string, { name: 'Deep zz moved to the end' });
    await expectDeepPages();
    await update(ids()[5] as string, { price: 1 });
    await update(ids()[6] as string, { price: 99 });
    await expectDeepPages();
    const hidden = ids().find((id) => !model.get(id)?.visible) as string;
    await update(hidden, { visible: true });
    await update(ids()[2] as string, { visible: false });
    await expectDeepPages();
    const gone = ids()[7] as string;
    expect((await admin(writer).delete(`/stores/v1/products/${gone}`)).status).toBe(200);
    model.delete(gone);
    await create('Deep aa new first', 6);
    await expectDeepPages();
    const removed = ids()
      .filter((id) => model.get(id)?.collections.has(winter))
      .slice(0, 3);
    expect(
      (
        await admin(writer).post(`/stores/v1/collections/${winter}/productIds/delete`, {
          productIds: removed,
        })
      ).status,
    ).toBe(200);
    for (const id of removed) model.get(id)?.collections.delete(winter);
    await addTo(winter, [ids()[0] as string]);
    await expectDeepPages();
    expect(anchors.stats.stale).toBeGreaterThan(0);
  }, 240_000);

  it('stay good through writes that change no listing', async () => {
    const versions = async () =>
      (
        await reader.services.database.db
          .selectFrom('collections')
          .select(['id', 'listing_version'])
          .orderBy('id')
          .execute()
      ).map((row) => `${row.id}:${row.listing_version}`);
    const before = await versions();
    const [id] = [...model.keys()].filter((key) => model.get(key)?.collections.has(winter));
    const answer = await admin(writer).patch(`/stores/v1/products/${id}`, {
      product: { description: 'Only the words changed', sku: 'DEEP-SKU-1', ribbon: 'New' },
    });
    expect(answer.status).toBe(200);
    expect(await versions()).toEqual(before);

    await update(id as string, { price: 77 });
    expect(await versions()).not.toEqual(before);
    await expectDeepPages();
  });
});
