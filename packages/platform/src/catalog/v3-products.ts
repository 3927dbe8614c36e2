import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { DomainError, notFound } from '../shared/errors.ts';
import type { ProductRecord } from './model.ts';
import type { ProductWrites } from './product-writes.ts';
import {
  type CompileOptions,
  compileFilter,
  escapeLike,
  orderBy,
  parseSort,
  type QueryFields,
} from './query.ts';
import { nameSubstringIndex, textSearch } from './search.ts';
import type { CatalogStorage, Viewer } from './storage.ts';
import { customizationsNamedBy } from './v3-assigned-customizations.ts';
import { categoriesOf } from './v3-categories.ts';
import { applyProductV3, checkRevision } from './v3-input.ts';
import { readOnlyVariantV3, renderProductV3, type ViewV3 } from './v3-model.ts';
import {
  type CursorPage,
  checkFilter,
  cursorMetadata,
  DEFAULT_V3_SORT,
  PRODUCT_V3_FIELDS,
  PRODUCT_V3_SORT,
  PRODUCT_V3_VISITOR_FIELDS,
  readCursorPage,
} from './v3-query.ts';
import type {
  FieldsInput,
  ProductInputV3,
  QueryProductsV3Request,
  QueryVariantsV3Request,
  RequestedField,
  SearchProductsV3Request,
  SearchVariantsV3Request,
} from './v3-schemas.ts';

/** One item's outcome in a v3 bulk call (the hosted `itemMetadata`), with the product when asked. */
interface BulkItemResult {
  itemMetadata: {
    id?: string;
    originalIndex: number;
    success: boolean;
    error?: { code: string; description: string; data?: Record<string, unknown> };
  };
  item?: unknown;
}

/** What the read-only variants query filters on, over `product_variants v`. */
const VARIANT_V3_FIELDS: QueryFields = {
  id: { column: 'v.variant_id', kind: 'string' },
  variantId: { column: 'v.variant_id', kind: 'string' },
  'productData.productId': { column: 'v.product_id', kind: 'string' },
  sku: { column: 'v.sku', kind: 'string', emptyIsAbsent: true },
  visible: { column: 'v.visible', kind: 'boolean' },
  'productData.visible': { column: 'v.product_visible', kind: 'boolean' },
  'inventoryStatus.inStock': { column: 'v.in_stock', kind: 'boolean' },
};
const VARIANT_V3_SORT = { id: 'v.variant_id', sku: 'v.sku', 'productData.productId': 'v.product_id' };

/**
 * The v3 product calls (`/stores/v3/products...`, `/stores/v3/bulk/products...`) and read-only
 * variants, over the one catalog: writes build the same record v1 writes (v3-input.ts) and save it
 * through the same rows, events and revisions (product-writes.ts); reads render v3 from the record
 * (v3-model.ts). Answers are JSON text.
 */
export class ProductsV3 {
  private readonly search: CompileOptions;

  constructor(
    private readonly storage: CatalogStorage,
    private readonly writes: ProductWrites,
  ) {
    this.search = { substringIndex: nameSubstringIndex(storage.dialect) };
  }

  async productJson(id: string, viewer: Viewer, fields: FieldsInput | undefined): Promise<string> {
    return this.productBy('id', id, viewer, fields);
  }

  async productBySlugJson(slug: string, viewer: Viewer, fields: FieldsInput | undefined): Promise<string> {
    return this.productBy('slug', slug, viewer, fields);
  }

  private async productBy(
    key: 'id' | 'slug',
    value: string,
    viewer: Viewer,
    fields: FieldsInput | undefined,
  ): Promise<string> {
    const row = await this.storage.db
      .selectFrom('products')
      .select(['record', 'visible'])
      .where(key, '=', value)
      .executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('product', value);
    return this.answer(JSON.parse(row.record) as ProductRecord, viewer, fields);
  }

  async create(input: ProductInputV3, fields: FieldsInput | undefined): Promise<string> {
    return this.answer(await this.createRecord(input), ADMIN, fields);
  }

  /** Saves what `input` names, when `input.revision` is the product's revision. */
  async update(id: string, input: ProductInputV3, fields: FieldsInput | undefined): Promise<string> {
    return this.answer(await this.updateRecord(id, input), ADMIN, fields);
  }

  async delete(id: string): Promise<void> {
    await this.writes.deleteProduct(id);
  }

  async bulkCreate(
    inputs: ProductInputV3[],
    returnEntity: boolean | undefined,
    fields: FieldsInput | undefined,
  ) {
    return bulk(
      inputs,
      async (input) => {
        const record = await this.createRecord(input);
        return { id: record.id, item: returnEntity ? await this.render(record, ADMIN, fields) : undefined };
      },
      () => undefined,
    );
  }

  async bulkUpdate(
    inputs: Array<{ product: ProductInputV3 }>,
    returnEntity: boolean | undefined,
    fields: FieldsInput | undefined,
  ) {
    return bulk(
      inputs,
      async ({ product }) => {
        if (!product.id || typeof product.id !== 'string') {
          throw new DomainError('INVALID_ARGUMENT', 'product.id is required', [], {
            code: 'INVALID_ARGUMENT',
            description: 'product.id is required',
          });
        }
        const record = await this.updateRecord(product.id, product);
        return { id: record.id, item: returnEntity ? await this.render(record, ADMIN, fields) : undefined };
      },
      ({ product }) => (typeof product.id === 'string' ? product.id : undefined),
    );
  }

  async bulkDelete(ids: string[]) {
    return bulk(
      ids,
      async (id) => {
        await this.writes.deleteProduct(id);
        return { id };
      },
      (id) => id,
    );
  }

  /** `{"products": [...], "pagingMetadata"}`: the v3 filter and sort, a page by cursor. */
  async queryJson(request: QueryProductsV3Request, viewer: Viewer): Promise<string> {
    return this.pageJson(readCursorPage(request.query), viewer, request.fields, 'query');
  }

  /** The same, with a text search over names, descriptions and SKUs (names first). */
  async searchJson(request: SearchProductsV3Request, viewer: Viewer): Promise<string> {
    const search = request.search ?? undefined;
    return this.pageJson(
      readCursorPage(search, search?.search?.expression),
      viewer,
      request.fields,
      'search',
    );
  }

  /** `{"variants": [...], "pagingMetadata"}`: variants across the catalog, each with its product's data. */
  async queryVariantsJson(request: QueryVariantsV3Request, viewer: Viewer): Promise<string> {
    return this.variantsJson(readCursorPage(request.query), viewer, request.fields, 'query');
  }

  /** The same, with a text search of the variants' SKUs and their products' names. */
  async searchVariantsJson(request: SearchVariantsV3Request, viewer: Viewer): Promise<string> {
    const search = request.search ?? undefined;
    return this.variantsJson(
      readCursorPage(search, search?.search?.expression),
      viewer,
      request.fields,
      'search',
    );
  }

  private async variantsJson(
    page: CursorPage,
    viewer: Viewer,
    fields: FieldsInput | undefined,
    part: 'query' | 'search',
  ): Promise<string> {
    checkFilter(page.filter, VARIANT_V3_FIELDS, `${part}.filter`);
    const hasSort = (page.sort?.length ?? 0) > 0;
    const order = hasSort
      ? orderBy(parseSort(page.sort, VARIANT_V3_SORT, 'v.id', DEFAULT_V3_SORT, `${part}.sort`))
      : sql`v.product_id, v.position`;
    let where = compileFilter(page.filter, VARIANT_V3_FIELDS, {}, `${part}.filter`);
    if (!viewer.admin) where = sql<SqlBool>`(${where}) and v.product_visible = 1 and v.visible = 1`;
    if (page.expression) {
      const pattern = `%${escapeLike(page.expression.toLowerCase())}%`;
      where = sql<SqlBool>`(${where}) and (lower(v.sku) like ${pattern} escape '\\' or p.name_lower like ${pattern} escape '\\')`;
    }
    const rows = await this.storage.db
      .selectFrom('product_variants as v')
      .innerJoin('products as p', 'p.id', 'v.product_id')
      .select(['p.record as record', 'v.variant_id as variantId'])
      .where(where)
      .orderBy(order)
      .limit(page.limit + 1)
      .offset(page.offset)
      .execute();
    const view = viewOf(viewer, fields, true);
    const records = new Map<string, ProductRecord>();
    const variants = rows.slice(0, page.limit).flatMap((row) => {
      let record = records.get(row.record);
      if (!record) {
        record = JSON.parse(row.record) as ProductRecord;
        records.set(row.record, record);
      }
      const variant = record.variants.find((candidate) => candidate.id === row.variantId);
      return variant ? [readOnlyVariantV3(record, variant, this.storage.settings, view)] : [];
    });
    const metadata = cursorMetadata(page, variants.length, rows.length > page.limit);
    return JSON.stringify({ variants, pagingMetadata: metadata });
  }

  private async pageJson(
    page: CursorPage,
    viewer: Viewer,
    fields: FieldsInput | undefined,
    part: 'query' | 'search',
  ): Promise<string> {
    const fieldsOf = viewer.admin ? PRODUCT_V3_FIELDS : PRODUCT_V3_VISITOR_FIELDS;
    checkFilter(page.filter, fieldsOf, `${part}.filter`);
    const order = orderBy(parseSort(page.sort, PRODUCT_V3_SORT, 'p.id', DEFAULT_V3_SORT, `${part}.sort`));
    const hidden = await this.storage.hiddenFrom(viewer);
    const filter = compileFilter(
      page.filter,
      fieldsOf,
      { ...this.search, hiddenCollections: hidden },
      `${part}.filter`,
    );
    const search = textSearch({ expression: page.expression ?? null }, hidden);
    const ranked: RawBuilder<unknown> = search ? sql`${search.rank}, ${order}` : order;
    const rows = await this.storage.db
      .selectFrom('products as p')
      .select('p.record')
      .where(filter)
      .$if(!viewer.admin, (qb) => qb.where(sql<SqlBool>`p.visible = 1`))
      .$if(search !== undefined, (qb) => qb.where(search!.matches))
      .orderBy(ranked)
      .limit(page.limit + 1)
      .offset(page.offset)
      .execute();
    const view = viewOf(viewer, fields, false);
    const records = rows.slice(0, page.limit).map((row) => JSON.parse(row.record) as ProductRecord);
    const categories = await categoriesOf(
      this.storage,
      records.map((record) => record.id),
      viewer,
      fields,
    );
    const products = records.map((record) =>
      renderProductV3(record, this.storage.settings, view, categories.get(record.id)),
    );
    const metadata = cursorMetadata(page, products.length, rows.length > page.limit);
    return JSON.stringify({ products, pagingMetadata: metadata });
  }

  private async createRecord(input: ProductInputV3): Promise<ProductRecord> {
    const explicitSlug = typeof input.slug === 'string' && input.slug !== '';
    const assigned = await customizationsNamedBy(this.storage.db, input);
    return this.writes.createRecord((base) => applyProductV3(base, input, true, assigned), explicitSlug);
  }

  private async updateRecord(id: string, input: ProductInputV3): Promise<ProductRecord> {
    const assigned = await customizationsNamedBy(this.storage.db, input);
    return this.writes.changeRecord(id, (record) => {
      checkRevision(record, input.revision);
      return applyProductV3(record, input, false, assigned);
    });
  }

  private async answer(record: ProductRecord, viewer: Viewer, fields: FieldsInput | undefined) {
    return JSON.stringify({ product: await this.render(record, viewer, fields) });
  }

  private async render(record: ProductRecord, viewer: Viewer, fields: FieldsInput | undefined) {
    return renderProductV3WithCategories(this.storage, record, viewer, fields);
  }
}

export const ADMIN: Viewer = { admin: true };

/** One product as a get, create or update shows it: its variants, its categories when asked for. */
export async function renderProductV3WithCategories(
  storage: CatalogStorage,
  record: ProductRecord,
  viewer: Viewer,
  fields: FieldsInput | undefined,
) {
  const categories = await categoriesOf(storage, [record.id], viewer, fields);
  return renderProductV3(record, storage.settings, viewOf(viewer, fields, true), categories.get(record.id));
}

export function viewOf(viewer: Viewer, fields: FieldsInput | undefined, variants: boolean): ViewV3 {
  const requested = new Set<RequestedField>(
    fields === undefined ? [] : Array.isArray(fields) ? fields : [fields],
  );
  // merchant data (costs, profits) is for those who manage the catalog only
  return {
    fields: requested,
    merchant: viewer.admin && requested.has('MERCHANT_DATA'),
    admin: viewer.admin,
    variants,
  };
}

/**
 * Runs `one` for every item, each in its own transaction: an item refused (a field violation, a
 * stale revision, a product not found) is reported in its place and the others go on.
 */
export async function bulk<T>(
  items: T[],
  one: (item: T) => Promise<{ id: string; item?: unknown }>,
  idOf: (item: T) => string | undefined,
): Promise<{ results: BulkItemResult[]; bulkActionMetadata: Record<string, number> }> {
  const results: BulkItemResult[] = [];
  for (const [originalIndex, item] of items.entries()) {
    try {
      const done = await one(item);
      results.push({
        itemMetadata: { id: done.id, originalIndex, success: true },
        ...(done.item !== undefined ? { item: done.item } : {}),
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const id = idOf(item);
      results.push({
        itemMetadata: {
          ...(id ? { id } : {}),
          originalIndex,
          success: false,
          error: {
            code: error.application?.code ?? error.kind,
            description: error.message,
            ...(error.fieldViolations.length > 0 ? { data: { fieldViolations: error.fieldViolations } } : {}),
          },
        },
      });
    }
  }
  const totalSuccesses = results.filter((result) => result.itemMetadata.success).length;
  return {
    results,
    bulkActionMetadata: {
      totalSuccesses,
      totalFailures: results.length - totalSuccesses,
      undetailedFailures: 0,
    },
  };
}
