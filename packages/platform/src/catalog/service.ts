import type {
  BulkAdjust,
  BulkSet,
  BulkUpdateProductsResult,
  Collection,
  CollectionV2,
  Media,
  MediaItem,
  Product,
  ProductOptionsAvailability,
  ProductVariant,
} from '@cartwheel/sdk';
import {
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
  type Transaction,
} from 'kysely';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { ProductFacts } from '../pricing/lines.ts';
import { movePricingVersion } from '../pricing/versions.ts';
import { applicationError, DomainError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { PublicLinks } from '../shared/public-links.ts';
import { ALL_PRODUCTS_COLLECTION_ID, renderCollection } from './collections.ts';
import {
  COLLECTION_FIELDS,
  COLLECTION_SORT,
  LISTING_SORT,
  PRODUCT_FIELDS,
  PRODUCT_SORT,
  VARIANT_FIELDS,
  VARIANT_SORT,
} from './fields.ts';
import { HiddenCollections, withoutCollections } from './hidden-collections.ts';
import { generatedMediaItem, isGeneratedImageStem, urlMediaItem } from './media.ts';
import {
  defaultVariant,
  type ProductRecord,
  renderProduct,
  type StoreSettings,
  variantInStock,
  variantNamedBy,
} from './model.ts';
import {
  ANCHORED_COLUMNS,
  type AnchoredListing,
  type AnchoredStart,
  defaultAnchorSpacing,
  PageAnchors,
} from './page-anchors.ts';
import { roundMoney } from './pricing.ts';
import {
  type CompileOptions,
  checkFilterBudget,
  compileFilter,
  compileSort,
  orderBy,
  type Page,
  pagingMetadata,
  parsePaging,
  parseSort,
} from './query.ts';
import { CatalogReadCache } from './read-cache.ts';
import { productScope } from './scope.ts';
import {
  indexProductName,
  nameSubstringIndex,
  productSearchText,
  textSearch,
  unindexProducts,
} from './search.ts';
import { type CollectionRow, LISTING_KEYS, listingKeys, type ProductRow, type VariantRow } from './tables.ts';
import {
  applyProductInput,
  applyVariantOverrides,
  COLLECTION_TEXT,
  canonicalChoice,
  generateVariants,
  slugify,
  unknownChoices,
  Violations,
} from './validation.ts';

/** Who reads: admins see hidden products and collections, and merchant data when they ask for it. */
export interface Viewer {
  admin: boolean;
}

/** The wire's query (`query.ts` reads each part). */
export interface CatalogQuery {
  filter?: unknown;
  /** Products only: text search (`search.ts`). */
  search?: { expression?: string | null } | null;
  sort?: unknown;
  paging?: unknown;
  cursorPaging?: unknown;
}

export interface ProductQueryRequest {
  query?: CatalogQuery | null;
  includeVariants?: boolean | string;
  includeHiddenProducts?: boolean | string;
  includeMerchantSpecificData?: boolean | string;
}

const truthy = (value: unknown) => value === true || value === 'true';
const NOTHING_HIDDEN: ReadonlySet<string> = new Set();
/** A line of an order as stock sees it: a product's variant (by id, or by its choices) and how many. */
export interface StockItem {
  productId: string;
  /** The variant's id; absent: the variant `choices` name, else the variant of a product without options. */
  variantId?: string | undefined;
  choices?: Record<string, string> | undefined;
  quantity: number;
}

/** A line `takeStock` could not take: its index in the items, and what the variant still holds. */
export interface StockShortfall {
  index: number;
  available: number;
}

/** Products a bulk update or adjustment changes in one call. */
export const MAX_BULK_PRODUCTS = 100;
/** Products one call adds to or removes from a collection. */
export const MAX_MEMBERSHIP_CHANGE = 1000;

/**
 * The stores catalog: products, their options and variants, media, collections. Business rules
 * only; routes translate HTTP to these calls. Reads answer the wire's JSON text, rendered at write
 * time, so the hot paths never parse or stringify a product.
 */
export class CatalogService {
  private readonly settings: StoreSettings;
  private lastNumericId = 0;

  private readonly visitorReads: CatalogReadCache;
  /** What visitors' reads leave out of documents and filters. */
  private readonly hiddenCollections: HiddenCollections;
  /** Products as pricing last read them, under the catalog's pricing version (see pricingFacts). */
  private readonly keptFacts = new Map<string, { version: number; fact: ProductFacts | null }>();
  /** Where deep pages of whole listings start. */
  readonly anchors: PageAnchors;
  /** How `$contains` on names reaches this database's trigram index. */
  private readonly search: CompileOptions;
  /** This process's public address: for the visitors' reads it keeps, and images sent back by URL. */
  private readonly links: PublicLinks;

  constructor(
    readonly db: Kysely<Tables>,
    readonly options: {
      publicUrl: string;
      dialect: DialectName;
      currency?: string;
      /** How long a visitor's read may be served again (0: never); see CatalogReadCache. */
      readCacheMs?: number;
      /** Rows between two anchors of a deep page (page-anchors.ts); 0: none. Default: the database's. */
      pageAnchorSpacing?: number;
    },
  ) {
    this.settings = { currency: options.currency ?? 'USD' };
    this.visitorReads = new CatalogReadCache(options.readCacheMs ?? 0);
    this.hiddenCollections = new HiddenCollections(db);
    this.anchors = new PageAnchors(db, options.pageAnchorSpacing ?? defaultAnchorSpacing(options.dialect));
    this.search = { substringIndex: nameSubstringIndex(options.dialect) };
    this.links = new PublicLinks(options.publicUrl);
  }

  /**
   * Every catalog write: one transaction that also moves the catalog's pricing version (cached cart
   * prices compare it, pricing/versions.ts), then visitors' cached reads are dropped.
   */
  private async write<T>(change: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.db, async (trx) => {
        const result = await change(trx);
        await movePricingVersion(trx, 'catalog');
        return result;
      });
    } finally {
      this.visitorReads.clear();
      this.hiddenCollections.clear();
    }
  }

  /** The collections this viewer may not see: none for admins. */
  private hiddenFrom(viewer: Viewer): Promise<ReadonlySet<string>> | ReadonlySet<string> {
    return viewer.admin ? NOTHING_HIDDEN : this.hiddenCollections.get();
  }

  // ---- product reads ----

  /** `{"product": ...}` with its variants; a hidden product is not found unless an admin asks. */
  async productJson(id: string, viewer: Viewer, includeMerchantSpecificData: unknown): Promise<string> {
    if (!viewer.admin)
      return this.visitorRead(`product:${id}`, () => this.readProductJson(id, viewer, false));
    return this.readProductJson(id, viewer, includeMerchantSpecificData);
  }

  private async readProductJson(id: string, viewer: Viewer, includeMerchantSpecificData: unknown) {
    const merchant = viewer.admin && truthy(includeMerchantSpecificData);
    const row = await this.db
      .selectFrom('products')
      .select(
        merchant
          ? ['doc_merchant as doc', 'variants_doc_merchant as variants', 'visible']
          : ['doc', 'variants_doc as variants', 'visible'],
      )
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('product', id);
    const doc = withoutCollections(row.doc, await this.hiddenFrom(viewer));
    return `{"product":${withVariants(doc, row.variants)}}`;
  }

  /** `{"products": [...], "metadata": {...}}`: the wire query translated to one indexed SQL query. */
  async queryProductsJson(request: ProductQueryRequest, viewer: Viewer): Promise<string> {
    if (viewer.admin) return this.readProductsJson(request, viewer);
    const key = `query:${JSON.stringify([request.query, truthy(request.includeVariants)])}`;
    return this.visitorRead(key, () => this.readProductsJson(request, viewer));
  }

  /**
   * A visitor's read, kept for a moment with its links made absolute: every answer's links are filled
   * in as it is sent (PublicLinks), and a kept one has none left, so serving it again costs only the
   * search for one.
   */
  private visitorRead(key: string, read: () => Promise<string>): Promise<string> {
    return this.visitorReads.get(key, async () => this.links.fill(await read()));
  }

  private async readProductsJson(
    request: ProductQueryRequest,
    viewer: Viewer,
    options: { anchored: boolean } = { anchored: true },
  ): Promise<string> {
    const query = request.query ?? {};
    const page = parsePaging(query);
    checkFilterBudget(query.filter);
    compileFilter(query.filter, PRODUCT_FIELDS); // the whole filter is checked before any part is used
    const fallback = { fieldName: 'numericId', order: 'ASC' } as const;
    const productOrder = parseSort(query.sort, PRODUCT_SORT, 'p.id', fallback);
    const hidden = await this.hiddenFrom(viewer);
    const scope = productScope(query.filter, PRODUCT_FIELDS);
    if (hidden.has(scope.collectionId)) {
      // a collection the viewer may not see lists nothing for them
      return `{"products":[],"metadata":${JSON.stringify(pagingMetadata(page, 0, 0))}}`;
    }
    const filtered =
      scope.rest === undefined
        ? undefined
        : compileFilter(scope.rest, PRODUCT_FIELDS, { ...this.search, hiddenCollections: hidden });
    // a text search narrows like a filter and ranks the products whose names match first
    const search = textSearch(query.search, hidden);
    const rest =
      search && filtered ? sql<SqlBool>`(${filtered} and ${search.matches})` : (search?.matches ?? filtered);
    const ranked = (order: RawBuilder<unknown>) => (search ? sql`${search.rank}, ${order}` : order);
    const merchant = viewer.admin && truthy(request.includeMerchantSpecificData);
    const includeVariants = truthy(request.includeVariants);
    const docColumn = merchant ? 'p.doc_merchant' : 'p.doc';
    const variantsColumn = merchant ? 'p.variants_doc_merchant' : 'p.variants_doc';

    // The page's ids come from one index walk (the catalog's, or the collection's listing); only the
    // page's own (wide) rows are read for their documents. `visible = 1` is written as a literal: SQLite
    // takes a partial index (`WHERE visible = 1`) only for a query that says the very same term.
    const wholeCatalog = scope.collectionId === ALL_PRODUCTS_COLLECTION_ID;
    const listing: SelectQueryBuilder<Tables, any, { id: string }> = wholeCatalog
      ? this.db
          .selectFrom('products as p')
          .select('p.id as id')
          .$if(!viewer.admin, (qb) => qb.where(sql<SqlBool>`p.visible = 1`))
          .$if(rest !== undefined, (qb) => qb.where(rest as RawBuilder<SqlBool>))
      : this.db
          .selectFrom('product_collections as pc')
          .$if(rest !== undefined, (qb) =>
            qb.innerJoin('products as p', 'p.id', 'pc.product_id').where(rest as RawBuilder<SqlBool>),
          )
          .select('pc.product_id as id')
          .where('pc.collection_id', '=', scope.collectionId)
          .$if(!viewer.admin, (qb) => qb.where(sql<SqlBool>`pc.visible = 1`));
    const listingOrder = wholeCatalog
      ? productOrder
      : parseSort(query.sort, LISTING_SORT, 'pc.product_id', fallback);
    // A deep page of a whole listing starts at its nearest anchor (see page-anchors.ts).
    const anchored: AnchoredListing | undefined =
      options.anchored && rest === undefined && this.anchors.applies({ order: listingOrder }, page.offset)
        ? {
            collectionId: scope.collectionId,
            rows: listing,
            order: listingOrder,
            key: JSON.stringify([scope.collectionId, viewer.admin, listingOrder]),
          }
        : undefined;
    const start = anchored && this.anchors.startFor(anchored, page.offset);
    const pageIds = listing
      .$if(start !== undefined, (qb) =>
        qb.where((start as AnchoredStart).condition).where((start as AnchoredStart).current),
      )
      .orderBy(ranked(orderBy(listingOrder)))
      .limit(page.limit)
      .offset(page.offset - (start?.position ?? 0));
    const rows = await this.db
      .selectFrom('products as p')
      .select(sql<string>`${sql.ref(docColumn)}`.as('doc'))
      .$if(includeVariants, (qb) => qb.select(sql<string>`${sql.ref(variantsColumn)}`.as('variants')))
      .where('p.id', 'in', pageIds)
      .orderBy(ranked(orderBy(productOrder)))
      .execute();
    if (
      anchored &&
      start &&
      rows.length < page.limit &&
      !(await this.anchors.stillCurrent(anchored, start))
    ) {
      // the listing moved since its anchors were read: this page walks from the start
      return this.readProductsJson(request, viewer, { anchored: false });
    }
    // with nothing but the scope to filter on, the collection's counter is the total
    const total = await this.countOrKnown(page, rows.length, () =>
      rest === undefined ? this.productCount(scope.collectionId, viewer) : countOf(listing),
    );
    const docs = rows.map((row) => {
      const doc = withoutCollections(row.doc, hidden);
      return includeVariants ? withVariants(doc, (row as { variants?: string }).variants ?? '[]') : doc;
    });
    return `{"products":[${docs.join(',')}],"metadata":${JSON.stringify(pagingMetadata(page, rows.length, total))}}`;
  }

  /** The product as an object, for other domains (cart, checkout); merchant data included. */
  async findProduct(id: string): Promise<Product | undefined> {
    const row = await this.db
      .selectFrom('products')
      .select(['doc_merchant', 'variants_doc_merchant'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row
      ? (JSON.parse(withVariants(row.doc_merchant, row.variants_doc_merchant)) as Product)
      : undefined;
  }

  /**
   * What pricing needs of the products a cart names, in one query: the merchant's record (prices,
   * discount, variants, stock, media), visibility, and the collections each is in (for discount
   * rules that target collections). A caller that read the catalog's pricing version
   * (pricing/versions.ts) passes it: products read after that version was are kept under it and
   * served again while it is the version, which moves with every catalog write.
   */
  async pricingFacts(
    productIds: readonly string[],
    executor: Kysely<Tables> = this.db,
    catalogVersion?: number,
  ): Promise<Map<string, ProductFacts>> {
    const facts = new Map<string, ProductFacts>();
    const kept = catalogVersion !== undefined && executor === this.db;
    const missing: string[] = [];
    for (const id of new Set(productIds)) {
      const known = kept ? this.keptFacts.get(id) : undefined;
      if (!known || known.version !== catalogVersion) missing.push(id);
      else if (known.fact) facts.set(id, known.fact);
    }
    if (missing.length === 0) return facts;
    const rows = await executor
      .selectFrom('products')
      .leftJoin('product_collections', 'product_collections.product_id', 'products.id')
      .select(['products.id', 'products.record', 'products.visible', 'product_collections.collection_id'])
      .where('products.id', 'in', missing)
      .execute();
    for (const row of rows) {
      let fact = facts.get(row.id);
      if (!fact) {
        fact = { record: parsedRecord(row.id, row.record), visible: row.visible === 1, collectionIds: [] };
        facts.set(row.id, fact);
      }
      if (row.collection_id) fact.collectionIds.push(row.collection_id);
    }
    if (kept) for (const id of missing) this.keepFacts(id, catalogVersion, facts.get(id) ?? null);
    return facts;
  }

  /** Keeps what was read of a product (null: no such product) under the catalog version read before it. */
  private keepFacts(id: string, version: number, fact: ProductFacts | null): void {
    this.keptFacts.delete(id);
    if (this.keptFacts.size >= MAX_KEPT_FACTS) this.keptFacts.delete(this.keptFacts.keys().next().value!);
    this.keptFacts.set(id, { version, fact });
  }

  /**
   * What a shopper's selection resolves to: each choice's stock and visibility given the other
   * options chosen, and the variant once every option has a choice.
   */
  async productOptionsAvailability(
    id: string,
    selection: unknown,
    viewer: Viewer,
  ): Promise<ProductOptionsAvailability> {
    const record = await this.readRecord(id, viewer);
    const chosen = (selection ?? {}) as Record<string, unknown>;
    if (typeof chosen !== 'object' || Array.isArray(chosen)) {
      throw invalidArgument([violation('options', 'must map option names to choices', 'FORMAT')]);
    }
    const problems = unknownChoices(record.options, chosen);
    if (problems.length > 0) {
      throw invalidArgument(
        problems.map((problem) => violation(`options.${problem.option}`, problem.description)),
      );
    }
    const picked: Record<string, string> = {};
    for (const [name, choice] of Object.entries(chosen)) {
      picked[name] = canonicalChoice(record.options, name, choice as string) as string;
    }
    const rendered = renderProduct(record, [], this.settings);
    const matches = (choices: Record<string, string>, except?: string) =>
      Object.entries(picked).every(([name, choice]) => name === except || choices[name] === choice);

    const productOptions = (rendered.product.productOptions ?? []).map((option) => ({
      ...option,
      choices: (option.choices ?? []).map((choice) => {
        if (!record.manageVariants) return choice;
        const candidates = record.variants.filter(
          (variant) =>
            matches(variant.choices, option.name) &&
            variant.choices[option.name ?? ''] === choice.description,
        );
        return {
          ...choice,
          inStock: candidates.some((variant) => variant.visible && variantInStock(record, variant)),
          visible: candidates.some((variant) => variant.visible),
        };
      }),
    }));

    const complete = record.options.every((option) => picked[option.name] !== undefined);
    const variantIndex = !complete
      ? -1
      : record.manageVariants
        ? record.variants.findIndex((variant) => matches(variant.choices))
        : 0;
    const variant = variantIndex >= 0 ? record.variants[variantIndex] : undefined;
    const wire = variantIndex >= 0 ? rendered.variants[variantIndex] : undefined;

    const choiceMedia = record.options.flatMap(
      (option) => option.choices.find((choice) => choice.description === picked[option.name])?.mediaIds ?? [],
    );
    const items = choiceMedia
      .map((mediaId) => record.media.find((item) => item.id === mediaId))
      .filter((item): item is MediaItem => !!item);
    const media: Media = items.length > 0 ? { mainMedia: items[0], items } : (rendered.product.media ?? {});

    const selectedVariant =
      variant && wire
        ? {
            id: variant.id,
            price: wire.variant?.priceData,
            convertedPriceData: wire.variant?.convertedPriceData,
            convertedPrice: wire.variant?.convertedPriceData,
            weight: wire.variant?.weight,
            sku: wire.variant?.sku,
            quantity: wire.stock?.quantity ?? null,
            inStock: wire.stock?.inStock ?? false,
            visible: variant.visible,
            media,
          }
        : null;
    return {
      selectedVariant,
      availableForPurchase: !!selectedVariant && selectedVariant.visible && selectedVariant.inStock,
      productOptions,
      media,
      ...(media.mainMedia ? { mainMedia: media.mainMedia } : {}),
    };
  }

  /** A product's variants, picked by choices (partial) or ids, with offset paging. */
  async queryProductVariants(
    id: string,
    request: {
      choices?: unknown;
      variantIds?: unknown;
      paging?: unknown;
      includeMerchantSpecificData?: unknown;
    },
    viewer: Viewer,
  ): Promise<{ variants: ProductVariant[]; metadata: Record<string, unknown>; totalResults: number }> {
    const record = await this.readRecord(id, viewer);
    const page = parsePaging({ paging: request.paging }, '');
    const merchant = viewer.admin && truthy(request.includeMerchantSpecificData);
    const rendered = renderProduct(record, [], this.settings);
    let indexes = record.variants.map((_, index) => index);
    if (request.choices && typeof request.choices === 'object') {
      const choices = request.choices as Record<string, unknown>;
      const problems = unknownChoices(record.options, choices);
      if (problems.length > 0) {
        throw invalidArgument(
          problems.map((problem) => violation(`choices.${problem.option}`, problem.description)),
        );
      }
      indexes = indexes.filter((index) =>
        Object.entries(choices).every(
          ([name, choice]) =>
            record.variants[index]?.choices[name] === canonicalChoice(record.options, name, choice as string),
        ),
      );
    }
    if (Array.isArray(request.variantIds) && request.variantIds.length > 0) {
      const wanted = new Set(request.variantIds);
      indexes = indexes.filter((index) => wanted.has(record.variants[index]?.id));
    }
    const all = indexes.map(
      (index) => (merchant ? rendered.variantsMerchant : rendered.variants)[index] as ProductVariant,
    );
    const variants = all.slice(page.offset, page.offset + page.limit);
    return {
      variants,
      metadata: pagingMetadata(page, variants.length, all.length),
      totalResults: all.length,
    };
  }

  /** `{"variants": [...], "metadata"}` across the store (`/v1/variants/query`), in SQL. */
  async queryStoreVariantsJson(request: ProductQueryRequest, viewer: Viewer): Promise<string> {
    const query = request.query ?? {};
    const page = parsePaging(query);
    checkFilterBudget(query.filter);
    const hidden = await this.hiddenFrom(viewer);
    let where = compileFilter(query.filter, VARIANT_FIELDS, { hiddenCollections: hidden });
    if (!viewer.admin) where = sql<SqlBool>`(${where}) and v.product_visible = 1`;
    const order = compileSort(query.sort, VARIANT_SORT, 'v.id', { fieldName: 'productId', order: 'ASC' });
    const merchant = viewer.admin && truthy(request.includeMerchantSpecificData);
    const rows = await this.db
      .selectFrom('product_variants as v')
      .select(merchant ? 'v.doc_merchant as doc' : 'v.doc')
      .where(where)
      .orderBy(order)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = await this.countOrKnown(page, rows.length, () =>
      countOf(this.db.selectFrom('product_variants as v').where(where)),
    );
    const docs = rows.map((row) => withoutCollections(row.doc, hidden));
    return `{"variants":[${docs.join(',')}],"metadata":${JSON.stringify(pagingMetadata(page, rows.length, total))}}`;
  }

  /** `{"variant": ...}` by its store id `{productId}-{variantId}`. */
  async storeVariantJson(id: string, viewer: Viewer): Promise<string> {
    const row = await this.db
      .selectFrom('product_variants')
      .select(['doc', 'product_visible'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.product_visible !== 1 && !viewer.admin)) throw notFound('variant', id);
    return `{"variant":${withoutCollections(row.doc, await this.hiddenFrom(viewer))}}`;
  }

  // ---- collection reads ----

  async collection(id: string, viewer: Viewer): Promise<Collection & CollectionV2> {
    const row = await this.db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('collection', id);
    return renderCollection(row, viewer);
  }

  async collectionBySlug(slug: string, viewer: Viewer): Promise<Collection & CollectionV2> {
    const row = await this.db
      .selectFrom('collections')
      .selectAll()
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('collection', slug);
    return renderCollection(row, viewer);
  }

  async queryCollections(
    request: { query?: CatalogQuery | null },
    viewer: Viewer,
  ): Promise<{ collections: Array<Collection & CollectionV2>; metadata: Record<string, unknown> }> {
    const query = request.query ?? {};
    const page = parsePaging(query);
    checkFilterBudget(query.filter);
    let where = compileFilter(query.filter, COLLECTION_FIELDS);
    if (!viewer.admin) where = sql<SqlBool>`(${where}) and c.visible = 1`;
    const order = compileSort(query.sort, COLLECTION_SORT, 'c.id', { fieldName: 'name', order: 'ASC' });
    const rows = await this.db
      .selectFrom('collections as c')
      .selectAll('c')
      .where(where)
      .orderBy(order)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = await this.countOrKnown(page, rows.length, () =>
      countOf(this.db.selectFrom('collections as c').where(where)),
    );
    const collections = rows.map((row) => renderCollection(row, viewer));
    return { collections, metadata: pagingMetadata(page, rows.length, total) };
  }

  // ---- product writes ----

  /** Creates a product; `fixed` lets the demo seed keep ids and dates stable. */
  async createProduct(input: unknown, fixed: { id?: string } = {}): Promise<Product> {
    return this.write(async (trx) => {
      const now = new Date().toISOString();
      const base: ProductRecord = {
        id: fixed.id ?? newId(),
        numericId: await this.nextNumericId(trx),
        name: '',
        slug: '',
        description: '',
        visible: true,
        productType: 'physical',
        sku: '',
        weight: null,
        price: 0,
        cost: null,
        discount: { type: 'NONE', value: 0 },
        pricePerUnitData: null,
        ribbon: '',
        brand: '',
        manageVariants: false,
        trackInventory: false,
        options: [],
        variants: [defaultVariant()],
        media: [],
        additionalInfoSections: [],
        customTextFields: [],
        seoData: null,
        createdDate: now,
        lastUpdated: now,
      };
      const explicitSlug = typeof (input as any)?.slug === 'string' && (input as any).slug !== '';
      const record = applyProductInput(base, input, true);
      if (!explicitSlug) record.slug = await this.freeSlug(trx, record.slug, record.id);
      return this.saveProduct(trx, record);
    });
  }

  async updateProduct(id: string, input: unknown): Promise<Product> {
    return this.mutate(id, (record) => applyProductInput(record, stripReadOnly(input), false));
  }

  async deleteProduct(id: string): Promise<void> {
    await this.write(async (trx) => {
      if (!(await this.lockRecord(trx, id))) throw notFound('product', id);
      await trx.deleteFrom('product_variants').where('product_id', '=', id).execute();
      const listings = await trx
        .deleteFrom('product_collections')
        .where('product_id', '=', id)
        .returning('collection_id')
        .execute();
      const deleted = await trx
        .deleteFrom('products')
        .where('id', '=', id)
        .returning(['visible', 'numeric_id'])
        .executeTakeFirst();
      if (!deleted) throw notFound('product', id);
      await unindexProducts(trx, this.options.dialect, [deleted.numeric_id]);
      await this.listingsChanged(
        trx,
        [ALL_PRODUCTS_COLLECTION_ID, ...listings.map((listing) => listing.collection_id)],
        { products: -1, visible: -deleted.visible },
      );
    });
  }

  async updateVariants(id: string, overrides: unknown): Promise<ProductVariant[]> {
    const product = await this.mutate(id, (record) => ({
      ...record,
      variants: applyVariantOverrides(record, overrides),
    }));
    return product.variants ?? [];
  }

  /** Every variant back to the product's price, cost, weight and sku, and visible; stock stays. */
  async resetVariants(id: string): Promise<void> {
    await this.mutate(id, (record) => ({
      ...record,
      variants: record.variants.map((variant) => ({
        ...variant,
        price: null,
        cost: null,
        weight: null,
        sku: '',
        visible: true,
      })),
    }));
  }

  /** Drops the options: the product goes back to its one default variant. */
  async deleteOptions(id: string): Promise<void> {
    await this.mutate(id, (record) => {
      const next = { ...record, options: [], manageVariants: false };
      return { ...next, variants: generateVariants(next, record.variants) };
    });
  }

  async removeBrand(id: string): Promise<void> {
    await this.mutate(id, (record) => ({ ...record, brand: '' }));
  }

  async removeRibbon(id: string): Promise<void> {
    await this.mutate(id, (record) => ({ ...record, ribbon: '' }));
  }

  /** Adds images by URL or by the id of an image the platform draws; optionally to a choice too. */
  async addMedia(id: string, media: unknown): Promise<void> {
    const v = new Violations();
    if (!Array.isArray(media) || media.length === 0)
      v.add('media', 'must list at least one media item', 'MIN_SIZE');
    v.throwIfAny();
    await this.mutate(id, (record) => {
      const next = structuredClone(record);
      (media as any[]).forEach((item, i) => {
        let mediaItem: MediaItem | undefined;
        if (typeof item?.url === 'string' && /^https?:\/\//.test(item.url)) {
          mediaItem = urlMediaItem(
            newId(),
            this.links.stored(item.url),
            typeof item.title === 'string' ? item.title : undefined,
          );
        } else if (typeof item?.mediaId === 'string' && isGeneratedImageStem(item.mediaId)) {
          mediaItem = generatedMediaItem(item.mediaId, next.name);
        } else {
          v.add(`media[${i}]`, 'needs an http(s) url or the mediaId of a platform image', 'VALIDATION');
          return;
        }
        if (!next.media.some((existing) => existing.id === mediaItem.id)) next.media.push(mediaItem);
        if (item.choice) {
          const option = next.options.find((candidate) => candidate.name === item.choice.option);
          const choiceName = option
            ? canonicalChoice(next.options, option.name, String(item.choice.choice))
            : undefined;
          const choice = option?.choices.find((candidate) => candidate.description === choiceName);
          if (!choice)
            v.add(
              `media[${i}].choice`,
              `the product has no choice ${item.choice.option}: ${item.choice.choice}`,
            );
          else if (!choice.mediaIds.includes(mediaItem.id as string))
            choice.mediaIds.push(mediaItem.id as string);
        }
      });
      v.throwIfAny();
      return next;
    });
  }

  /** Removes media items (all of them when `mediaIds` is empty), from choices too. */
  async removeMedia(id: string, mediaIds: unknown): Promise<void> {
    const ids = Array.isArray(mediaIds) ? mediaIds.map(String) : [];
    await this.mutate(id, (record) => {
      const drop = (mediaId: string | undefined) => ids.length === 0 || ids.includes(mediaId as string);
      return {
        ...record,
        media: record.media.filter((item) => !drop(item.id)),
        options: record.options.map((option) => ({
          ...option,
          choices: option.choices.map((choice) => ({
            ...choice,
            mediaIds: choice.mediaIds.filter((mediaId) => !drop(mediaId)),
          })),
        })),
      };
    });
  }

  /**
   * Puts the product's images in the order `mediaIds` names; the first is the main image. Each image
   * is named exactly once, so an image added meanwhile refuses the order rather than landing anywhere.
   */
  async reorderMedia(id: string, mediaIds: readonly string[]): Promise<void> {
    await this.mutate(id, (record) => {
      const v = new Violations();
      const byId = new Map(record.media.map((item) => [item.id as string, item]));
      mediaIds.forEach((mediaId, i) => {
        if (!byId.has(mediaId)) v.add(`mediaIds[${i}]`, `the product has no image ${mediaId}`);
        else if (mediaIds.indexOf(mediaId) !== i) v.add(`mediaIds[${i}]`, `names ${mediaId} a second time`);
      });
      if (mediaIds.length !== record.media.length)
        v.add('mediaIds', `must name each of the product's ${record.media.length} images once`, 'EXACT_SIZE');
      v.throwIfAny();
      return { ...record, media: mediaIds.map((mediaId) => byId.get(mediaId) as MediaItem) };
    });
  }

  /** Links (or with `remove`, unlinks) product media to option choices. */
  async assignChoiceMedia(id: string, assignments: unknown, remove = false): Promise<void> {
    await this.mutate(id, (record) => {
      const v = new Violations();
      const next = structuredClone(record);
      if (!Array.isArray(assignments)) v.add('media', 'must be an array', 'FORMAT');
      (Array.isArray(assignments) ? assignments : []).forEach((item: any, i) => {
        const option = next.options.find((candidate) => candidate.name === item?.option);
        const choiceName = option
          ? canonicalChoice(next.options, option.name, String(item?.choice))
          : undefined;
        const choice = option?.choices.find((candidate) => candidate.description === choiceName);
        if (!choice) {
          v.add(`media[${i}]`, `the product has no choice ${item?.option}: ${item?.choice}`);
          return;
        }
        const mediaIds: string[] = Array.isArray(item.mediaIds) ? item.mediaIds.map(String) : [];
        if (remove) {
          choice.mediaIds =
            mediaIds.length === 0 ? [] : choice.mediaIds.filter((mediaId) => !mediaIds.includes(mediaId));
          return;
        }
        for (const [j, mediaId] of mediaIds.entries()) {
          if (!next.media.some((media) => media.id === mediaId))
            v.add(`media[${i}].mediaIds[${j}]`, `the product has no media ${mediaId}`);
          else if (!choice.mediaIds.includes(mediaId)) choice.mediaIds.push(mediaId);
        }
      });
      v.throwIfAny();
      return next;
    });
  }

  /** Sets price, cost or weight on many products: each succeeds or fails on its own. */
  async bulkSet(ids: unknown, set: unknown): Promise<BulkUpdateProductsResult> {
    const v = new Violations();
    const values = (set ?? {}) as BulkSet;
    if (!set || typeof set !== 'object') v.add('set', 'is required', 'REQUIRED_FIELD');
    if (values.price !== undefined) v.money(values.price, 'set.price');
    if (values.cost !== undefined) v.money(values.cost, 'set.cost');
    if (values.weight !== undefined) v.amount(values.weight, 'set.weight');
    if (values.price === undefined && values.cost === undefined && values.weight === undefined) {
      v.add('set', 'sets price, cost or weight', 'REQUIRED_FIELD');
    }
    v.throwIfAny();
    return this.bulk(ids, (record) => ({
      ...record,
      ...(values.price !== undefined ? { price: values.price } : {}),
      ...(values.cost !== undefined ? { cost: values.cost } : {}),
      ...(values.weight !== undefined ? { weight: values.weight } : {}),
      variants: record.variants.map((variant) => ({
        ...variant,
        ...(values.price !== undefined ? { price: null } : {}),
        ...(values.cost !== undefined ? { cost: null } : {}),
        ...(values.weight !== undefined ? { weight: null } : {}),
      })),
    }));
  }

  /** Adjusts price, cost or weight by an amount or a percentage, variants' own values too. */
  async bulkAdjust(ids: unknown, adjust: unknown): Promise<BulkUpdateProductsResult> {
    const v = new Violations();
    const changes = (adjust ?? {}) as BulkAdjust;
    const fields = (['price', 'cost', 'weight'] as const).filter((field) => changes[field] !== undefined);
    if (fields.length === 0) v.add('adjust', 'adjusts price, cost or weight', 'REQUIRED_FIELD');
    // The hosted client sends `percentage: {rate, roundToInt}`; a bare number is read as the rate.
    const rates: Partial<Record<'price' | 'cost' | 'weight', { rate: number; roundToInt: boolean }>> = {};
    for (const field of fields) {
      const change = (changes[field] ?? {}) as { amount?: unknown; percentage?: unknown };
      const { amount, percentage } = change;
      if ((amount === undefined) === (percentage === undefined)) {
        v.add(`adjust.${field}`, 'takes either an amount or a percentage', 'ONE_OF_ALIGNMENT');
      } else if (amount !== undefined) {
        if (typeof amount !== 'number' || !Number.isFinite(amount)) {
          v.add(`adjust.${field}.amount`, 'must be a number', 'FORMAT');
        }
      } else {
        const given =
          typeof percentage === 'number' ? { rate: percentage } : (percentage as Record<string, unknown>);
        const rate = given?.rate;
        if (typeof rate !== 'number' || !Number.isFinite(rate)) {
          v.add(`adjust.${field}.percentage.rate`, 'must be a number', 'FORMAT');
        } else {
          rates[field] = { rate, roundToInt: given.roundToInt === true };
        }
      }
    }
    v.throwIfAny();
    const apply = (field: 'price' | 'cost' | 'weight', value: number) => {
      const amount = changes[field]?.amount;
      const percent = rates[field];
      let next = amount !== undefined ? value + amount : value * (1 + (percent?.rate ?? 0) / 100);
      if (percent?.roundToInt) next = Math.round(next);
      return field === 'weight' ? Math.round(next * 1000) / 1000 : roundMoney(next);
    };
    return this.bulk(ids, (record) => {
      const next = structuredClone(record);
      for (const field of fields) {
        if (field === 'price') next.price = apply('price', next.price);
        if (field === 'cost' && next.cost !== null) next.cost = apply('cost', next.cost);
        if (field === 'weight' && next.weight !== null) next.weight = apply('weight', next.weight);
        for (const variant of next.variants) {
          if (variant[field] !== null) variant[field] = apply(field, variant[field] as number);
        }
      }
      const negative =
        next.price < 0 ||
        (next.cost ?? 0) < 0 ||
        (next.weight ?? 0) < 0 ||
        next.variants.some(
          (variant) => (variant.price ?? 0) < 0 || (variant.cost ?? 0) < 0 || (variant.weight ?? 0) < 0,
        );
      if (negative)
        throw applicationError(
          'INVALID_ARGUMENT',
          'NEGATIVE_VALUE',
          'the adjustment would make a value negative',
        );
      return next;
    });
  }

  // ---- collection writes ----

  async createCollection(input: unknown, fixed: { id?: string } = {}): Promise<Collection> {
    const c = (input ?? {}) as Record<string, any>;
    const v = new Violations();
    const name = v.text(c.name, 'collection.name', COLLECTION_TEXT.name, true);
    const description =
      c.description === undefined || c.description === null
        ? null
        : v.text(c.description, 'collection.description', COLLECTION_TEXT.description);
    const visible = c.visible === undefined ? true : v.flag(c.visible, 'collection.visible');
    const slugInput =
      c.slug === undefined || c.slug === ''
        ? undefined
        : v.text(c.slug, 'collection.slug', COLLECTION_TEXT.slug, true);
    if (slugInput !== undefined && !/^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u.test(slugInput)) {
      v.add('collection.slug', 'may hold letters, digits, - and _ only', 'FORMAT');
    }
    const media = this.collectionMedia(v, c.media);
    v.throwIfAny();
    return this.write(async (trx) => {
      const id = fixed.id ?? newId();
      const slug = slugInput ?? (await this.freeCollectionSlug(trx, slugify(name as string)));
      await this.ensureCollectionSlugFree(trx, slug, id);
      const now = new Date().toISOString();
      const row: CollectionRow = {
        id,
        slug,
        name: (name as string).trim(),
        description: description ?? null,
        visible: visible === false ? 0 : 1,
        media: JSON.stringify(media ?? {}),
        created_date: now,
        updated_date: now,
        product_count: 0,
        visible_product_count: 0,
        listing_version: 0,
      };
      await trx.insertInto('collections').values(row).execute();
      return renderCollection(row, { admin: true });
    });
  }

  async updateCollection(id: string, input: unknown): Promise<Collection> {
    const c = (input ?? {}) as Record<string, any>;
    const v = new Violations();
    const changes: Partial<CollectionRow> = {};
    if (c.name !== undefined)
      changes.name = v.text(c.name, 'collection.name', COLLECTION_TEXT.name, true)?.trim();
    if (c.description !== undefined) {
      changes.description =
        c.description === null
          ? null
          : v.text(c.description, 'collection.description', COLLECTION_TEXT.description);
    }
    if (c.visible !== undefined) changes.visible = v.flag(c.visible, 'collection.visible') === false ? 0 : 1;
    if (c.slug !== undefined && c.slug !== '') {
      const slug = v.text(c.slug, 'collection.slug', COLLECTION_TEXT.slug, true);
      if (slug !== undefined && !/^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u.test(slug)) {
        v.add('collection.slug', 'may hold letters, digits, - and _ only', 'FORMAT');
      } else changes.slug = slug;
    }
    if (c.media !== undefined) changes.media = JSON.stringify(this.collectionMedia(v, c.media) ?? {});
    v.throwIfAny();
    return this.write(async (trx) => {
      const row = await trx.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('collection', id);
      if (id === ALL_PRODUCTS_COLLECTION_ID) throw allProductsFixed();
      if (changes.slug !== undefined) await this.ensureCollectionSlugFree(trx, changes.slug, id);
      // only what changed: the counters and listing version are other writes' to move
      const next = await trx
        .updateTable('collections')
        .set({ ...changes, updated_date: new Date().toISOString() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return renderCollection(next, { admin: true });
    });
  }

  async deleteCollection(id: string): Promise<void> {
    await this.write(async (trx) => {
      const row = await trx.selectFrom('collections').select('id').where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('collection', id);
      if (id === ALL_PRODUCTS_COLLECTION_ID) throw allProductsFixed();
      if (this.options.dialect === 'postgres') {
        // products first, in order (see lockProducts), then the collection: a product listed in it
        // meanwhile is listed by then, and unlisted below with the rest
        await trx
          .selectFrom('products')
          .select('id')
          .where('id', 'in', (eb) =>
            eb.selectFrom('product_collections').select('product_id').where('collection_id', '=', id),
          )
          .orderBy('id')
          .forUpdate()
          .execute();
        await trx.selectFrom('collections').select('id').where('id', '=', id).forUpdate().execute();
      }
      const unlisted = await trx
        .deleteFrom('product_collections')
        .where('collection_id', '=', id)
        .returning('product_id')
        .execute();
      await trx.deleteFrom('collections').where('id', '=', id).execute();
      await this.relist(
        trx,
        unlisted.map((listing) => listing.product_id),
      );
    });
  }

  async addProductsToCollection(collectionId: string, productIds: unknown): Promise<void> {
    const ids = requireIds(productIds, 'productIds', MAX_MEMBERSHIP_CHANGE);
    await this.write(async (trx) => {
      await this.requireCollection(trx, collectionId);
      await this.requireProducts(trx, ids);
      if (collectionId === ALL_PRODUCTS_COLLECTION_ID) return; // every product is in it already
      await this.holdCollection(trx, collectionId);
      // already listed (or listed at this moment by another call): nothing to add, nothing to count
      const listed = await trx
        .insertInto('product_collections')
        .columns(['product_id', 'collection_id', ...LISTING_KEYS])
        .expression((eb) =>
          eb
            .selectFrom('products')
            .select(['id', sql<string>`cast(${collectionId} as text)`.as('collection_id'), ...LISTING_KEYS])
            .where('id', 'in', ids),
        )
        .onConflict((conflict) => conflict.doNothing())
        .returning(['product_id', 'visible'])
        .execute();
      if (listed.length === 0) return;
      await this.listingsChanged(trx, [collectionId], countOfListings(listed, 1), { touch: true });
      await this.relist(
        trx,
        listed.map((listing) => listing.product_id),
      );
    });
  }

  async removeProductsFromCollection(collectionId: string, productIds: unknown): Promise<void> {
    const ids = requireIds(productIds, 'productIds', MAX_MEMBERSHIP_CHANGE);
    await this.write(async (trx) => {
      await this.requireCollection(trx, collectionId);
      if (collectionId === ALL_PRODUCTS_COLLECTION_ID) throw allProductsFixed();
      await this.lockProducts(trx, ids);
      await this.holdCollection(trx, collectionId);
      const unlisted = await trx
        .deleteFrom('product_collections')
        .where('collection_id', '=', collectionId)
        .where('product_id', 'in', ids)
        .returning(['product_id', 'visible'])
        .execute();
      await this.listingsChanged(trx, [collectionId], countOfListings(unlisted, -1), { touch: true });
      await this.relist(
        trx,
        unlisted.map((listing) => listing.product_id),
      );
    });
  }

  // ---- the whole catalog ----

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('products').select('id').limit(1).executeTakeFirst();
    return !row;
  }

  /** Deletes every product and collection but All Products (`npm run reset-demo`). */
  async clear(): Promise<void> {
    await this.write(async (trx) => {
      await trx.deleteFrom('product_collections').execute();
      await trx.deleteFrom('product_variants').execute();
      await trx.deleteFrom('products').execute();
      await unindexProducts(trx, this.options.dialect);
      await trx.deleteFrom('collections').where('id', '<>', ALL_PRODUCTS_COLLECTION_ID).execute();
      await trx
        .updateTable('collections')
        .set({ product_count: 0, visible_product_count: 0, listing_version: sql`listing_version + 1` })
        .where('id', '=', ALL_PRODUCTS_COLLECTION_ID)
        .execute();
    });
    this.lastNumericId = 0;
  }

  // ---- stock an order takes and gives back (checkouts/) ----

  /**
   * Takes what an order sells out of counted stock, inside the order's transaction `trx`: the products
   * are locked in id order, and nothing is taken when any line falls short (`short` names those lines by
   * their index in `items`). Products that do not track inventory are not counted.
   */
  async takeStock(trx: Transaction<Tables>, items: StockItem[]): Promise<{ short: StockShortfall[] }> {
    return this.moveStock(trx, items, -1);
  }

  /** Gives back what `takeStock` took (a declined payment, an abandoned attempt), inside `trx`. */
  async returnStock(trx: Transaction<Tables>, items: StockItem[]): Promise<void> {
    await this.moveStock(trx, items, 1);
  }

  private async moveStock(
    trx: Transaction<Tables>,
    items: StockItem[],
    direction: 1 | -1,
  ): Promise<{ short: StockShortfall[] }> {
    const ids = [...new Set(items.map((item) => item.productId))].sort();
    if (ids.length === 0) return { short: [] };
    const rows = await trx
      .selectFrom('products')
      .select(['id', 'record'])
      .where('id', 'in', ids)
      .orderBy('id')
      .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate())
      .execute();
    const records = new Map(rows.map((row) => [row.id, JSON.parse(row.record) as ProductRecord]));
    const next = new Map<string, ProductRecord>();
    const short: StockShortfall[] = [];
    // what each variant is asked for in all, so two lines of one variant are counted together
    const wanted = new Map<string, number>();
    // the variant pricing sold the line as (its choices compared as pricing compares them)
    const variantOf = (record: ProductRecord, item: StockItem) =>
      variantNamedBy(record, { variantId: item.variantId, options: item.choices });
    for (const item of items) {
      const record = records.get(item.productId);
      const variant = record && variantOf(record, item);
      if (!record || !variant) {
        if (direction < 0) short.push({ index: items.indexOf(item), available: 0 });
        continue;
      }
      if (!record.trackInventory) continue;
      const key = `${record.id}/${variant.id}`;
      wanted.set(key, (wanted.get(key) ?? 0) + item.quantity);
    }
    for (const [index, item] of items.entries()) {
      const record = records.get(item.productId);
      const variant = record && variantOf(record, item);
      if (!record || !variant || !record.trackInventory) continue;
      const available = variant.quantity ?? 0;
      if (direction < 0 && (wanted.get(`${record.id}/${variant.id}`) ?? 0) > available) {
        short.push({ index, available });
      }
    }
    if (short.length > 0) return { short };
    const now = new Date().toISOString();
    for (const [productId, total] of wanted) {
      const [id, variantId] = productId.split('/') as [string, string];
      const record = next.get(id) ?? structuredClone(records.get(id)!);
      const variant = record.variants.find((candidate) => candidate.id === variantId)!;
      variant.quantity = Math.max(0, (variant.quantity ?? 0) + direction * total);
      record.lastUpdated = now;
      next.set(id, record);
    }
    for (const [id, record] of [...next].sort(([a], [b]) => a.localeCompare(b))) {
      await this.saveProduct(trx, record, records.get(id));
    }
    // stock is part of a cart's answer: cached cart prices must see it move
    if (next.size > 0) await movePricingVersion(trx, 'catalog');
    // visitors' reads show the new stock; another process's within its cache's lifetime, as for any write
    this.visitorReads.clear();
    return { short: [] };
  }

  // ---- internals ----

  private async readRecord(id: string, viewer: Viewer): Promise<ProductRecord> {
    const row = await this.db
      .selectFrom('products')
      .select(['record', 'visible'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('product', id);
    return JSON.parse(row.record) as ProductRecord;
  }

  /** Loads a product for update, applies `change`, and saves it: one transaction. */
  private async mutate(id: string, change: (record: ProductRecord) => ProductRecord): Promise<Product> {
    return this.write(async (trx) => {
      const record = await this.lockRecord(trx, id);
      if (!record) throw notFound('product', id);
      const next = change(record);
      next.lastUpdated = new Date().toISOString();
      return this.saveProduct(trx, next, record);
    });
  }

  private async lockRecord(trx: Transaction<Tables>, id: string): Promise<ProductRecord | undefined> {
    const row = await trx
      .selectFrom('products')
      .select('record')
      .where('id', '=', id)
      .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    return row ? (JSON.parse(row.record) as ProductRecord) : undefined;
  }

  private async bulk(
    ids: unknown,
    change: (record: ProductRecord) => ProductRecord,
  ): Promise<BulkUpdateProductsResult> {
    const list = requireIds(ids, 'ids', MAX_BULK_PRODUCTS);
    return this.write(async (trx) => {
      await this.lockProducts(trx, list); // all of them first, in order, not one by one as listed
      const results: BulkUpdateProductsResult['results'] = [];
      for (const [originalIndex, id] of list.entries()) {
        const record = await this.lockRecord(trx, id);
        if (!record) {
          results.push({
            itemMetadata: {
              id,
              originalIndex,
              success: false,
              error: { code: 'NOT_FOUND', description: `product ${id} not found` },
            },
          });
          continue;
        }
        try {
          const next = change(record);
          next.lastUpdated = new Date().toISOString();
          await this.saveProduct(trx, next, record);
          results.push({ itemMetadata: { id, originalIndex, success: true } });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const code = error.application?.code ?? error.kind;
          results.push({
            itemMetadata: { id, originalIndex, success: false, error: { code, description: error.message } },
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
    });
  }

  /**
   * Renders the record and writes the product row, its variants, the sort keys its collection
   * listings copy, and the counters a change of visibility moves. `previous` is the record as it was
   * (absent: a new product).
   */
  private async saveProduct(
    trx: Transaction<Tables>,
    record: ProductRecord,
    previous?: ProductRecord,
  ): Promise<Product> {
    const clash = await trx
      .selectFrom('products')
      .select('id')
      .where('slug', '=', record.slug)
      .where('id', '<>', record.id)
      .executeTakeFirst();
    if (clash) {
      throw applicationError(
        'ALREADY_EXISTS',
        'ALREADY_EXISTS',
        `a product with slug ${record.slug} already exists`,
        {
          slug: record.slug,
        },
      );
    }
    const memberships = await trx
      .selectFrom('product_collections')
      .select('collection_id')
      .where('product_id', '=', record.id)
      .execute();
    const collectionIds = [ALL_PRODUCTS_COLLECTION_ID, ...memberships.map((row) => row.collection_id).sort()];
    const rendered = renderProduct(record, collectionIds, this.settings);
    const row: ProductRow = {
      id: record.id,
      numeric_id: record.numericId,
      slug: record.slug,
      name: record.name,
      name_lower: record.name.toLowerCase(),
      search_text: productSearchText(record),
      price: record.price,
      discounted_price: rendered.discountedPrice,
      visible: record.visible ? 1 : 0,
      inventory_status: rendered.inventoryStatus,
      in_stock: rendered.inStock ? 1 : 0,
      product_type: record.productType,
      sku: record.sku,
      brand: record.brand,
      ribbon: record.ribbon,
      created_date: record.createdDate,
      last_updated: record.lastUpdated,
      record: JSON.stringify(record),
      doc: JSON.stringify(rendered.product),
      doc_merchant: JSON.stringify(rendered.productMerchant),
      variants_doc: JSON.stringify(rendered.variants),
      variants_doc_merchant: JSON.stringify(rendered.variantsMerchant),
    };
    const dialect = this.options.dialect;
    if (!previous) {
      await trx.insertInto('products').values(row).execute();
      await indexProductName(trx, dialect, row.numeric_id, row.name_lower, false);
      await this.listingsChanged(trx, [ALL_PRODUCTS_COLLECTION_ID], { products: 1, visible: row.visible });
    } else {
      if (previous.name !== record.name) {
        await indexProductName(trx, dialect, row.numeric_id, row.name_lower, true);
      }
      // what the product's listings were ordered and filtered by (page-anchors.ts)
      const listed = ['visible', ...ANCHORED_COLUMNS] as const;
      const before = await trx
        .selectFrom('products')
        .select(listed)
        .where('id', '=', record.id)
        .executeTakeFirstOrThrow();
      const { id: _, ...changes } = row;
      await trx.updateTable('products').set(changes).where('id', '=', record.id).execute();
      await trx.deleteFrom('product_variants').where('product_id', '=', record.id).execute();
      if (memberships.length > 0) {
        await trx
          .updateTable('product_collections')
          .set(listingKeys(row))
          .where('product_id', '=', record.id)
          .execute();
      }
      await this.listingsChanged(
        trx,
        collectionIds,
        { products: 0, visible: row.visible - before.visible },
        // as text: PostgreSQL answers a bigint (numeric_id) as a string
        { reordered: listed.some((key) => String(before[key]) !== String(row[key])) },
      );
    }
    const variantRows = variantRowsOf(record, rendered);
    for (let i = 0; i < variantRows.length; i += 200) {
      await trx
        .insertInto('product_variants')
        .values(variantRows.slice(i, i + 200))
        .execute();
    }
    return { ...rendered.productMerchant, variants: rendered.variantsMerchant };
  }

  /**
   * Renders the documents of products whose collections changed (they list their `collectionIds`,
   * and so do their store variants). Nothing else about them changed: their sort keys, counters,
   * variants and search entries stay, and only the documents are written, a hundred rows a statement.
   */
  private async relist(trx: Transaction<Tables>, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += 500) {
      const chunk = unique.slice(start, start + 500);
      const records = await trx
        .selectFrom('products')
        .select('record')
        .where('id', 'in', chunk)
        .orderBy('id')
        .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate())
        .execute();
      const memberships = await trx
        .selectFrom('product_collections')
        .select(['product_id', 'collection_id'])
        .where('product_id', 'in', chunk)
        .execute();
      const collectionsOf = new Map<string, string[]>();
      for (const { product_id, collection_id } of memberships) {
        const ids = collectionsOf.get(product_id);
        if (ids) ids.push(collection_id);
        else collectionsOf.set(product_id, [collection_id]);
      }
      const docs: RawBuilder<unknown>[] = [];
      const variantRows: VariantRow[] = [];
      for (const row of records) {
        const record = JSON.parse(row.record) as ProductRecord;
        const collectionIds = [ALL_PRODUCTS_COLLECTION_ID, ...(collectionsOf.get(record.id) ?? []).sort()];
        const rendered = renderProduct(record, collectionIds, this.settings);
        docs.push(
          sql`(${record.id}, ${JSON.stringify(rendered.product)}, ${JSON.stringify(rendered.productMerchant)})`,
        );
        variantRows.push(...variantRowsOf(record, rendered));
      }
      for (let i = 0; i < docs.length; i += 100) {
        // a hundred rows a statement (VALUES columns are column1, column2... in both databases)
        await sql`update products set doc = v.doc, doc_merchant = v.doc_merchant
          from (select column1 as id, column2 as doc, column3 as doc_merchant
                from (values ${sql.join(docs.slice(i, i + 100))}) as t) as v
          where products.id = v.id`.execute(trx);
      }
      for (let i = 0; i < variantRows.length; i += 200) {
        await trx
          .insertInto('product_variants')
          .values(variantRows.slice(i, i + 200))
          .onConflict((conflict) =>
            conflict.column('id').doUpdateSet((eb) => ({
              doc: eb.ref('excluded.doc'),
              doc_merchant: eb.ref('excluded.doc_merchant'),
            })),
          )
          .execute();
      }
    }
  }

  /** Numeric ids grow with time (as the hosted platform's do) and never repeat within a store. */
  private async nextNumericId(trx: Transaction<Tables>): Promise<number> {
    if (this.lastNumericId === 0) {
      const row = await trx
        .selectFrom('products')
        .select(sql<number>`max(numeric_id)`.as('max'))
        .executeTakeFirst();
      this.lastNumericId = Number(row?.max ?? 0);
    }
    this.lastNumericId = Math.max(this.lastNumericId + 1, Date.now() * 1000);
    return this.lastNumericId;
  }

  private async freeSlug(trx: Transaction<Tables>, slug: string, id: string): Promise<string> {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? slug : `${slug}-${n}`;
      const clash = await trx
        .selectFrom('products')
        .select('id')
        .where('slug', '=', candidate)
        .where('id', '<>', id)
        .executeTakeFirst();
      if (!clash) return candidate;
    }
  }

  private async freeCollectionSlug(trx: Transaction<Tables>, slug: string): Promise<string> {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? slug : `${slug}-${n}`;
      const clash = await trx
        .selectFrom('collections')
        .select('id')
        .where('slug', '=', candidate)
        .executeTakeFirst();
      if (!clash) return candidate;
    }
  }

  private async ensureCollectionSlugFree(trx: Transaction<Tables>, slug: string, id: string): Promise<void> {
    const clash = await trx
      .selectFrom('collections')
      .select('id')
      .where('slug', '=', slug)
      .where('id', '<>', id)
      .executeTakeFirst();
    if (clash) {
      throw applicationError(
        'ALREADY_EXISTS',
        'ALREADY_EXISTS',
        `a collection with slug ${slug} already exists`,
        { slug },
      );
    }
  }

  private collectionMedia(v: Violations, media: any): Media | undefined {
    if (media === undefined || media === null) return undefined;
    const url = media?.mainMedia?.image?.url ?? media?.url;
    const mediaId = media?.mainMedia?.id ?? media?.mediaId;
    if (typeof url === 'string' && /^https?:\/\//.test(url)) {
      const item = urlMediaItem(newId(), this.links.stored(url));
      return { mainMedia: item, items: [item] };
    }
    if (typeof mediaId === 'string' && isGeneratedImageStem(mediaId)) {
      const item = generatedMediaItem(mediaId, '');
      return { mainMedia: item, items: [item] };
    }
    v.add('collection.media', 'needs mainMedia.image.url or the mediaId of a platform image', 'VALIDATION');
    return undefined;
  }

  private async requireCollection(trx: Transaction<Tables>, id: string): Promise<void> {
    const row = await trx.selectFrom('collections').select('id').where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('collection', id);
  }

  /**
   * Keeps the collection (on PostgreSQL) from being deleted until the transaction ends, once its
   * products are locked: the lock a membership's foreign key takes, which leaves the counters free to
   * move. A collection deleted meanwhile is not found.
   */
  private async holdCollection(trx: Transaction<Tables>, id: string): Promise<void> {
    if (this.options.dialect !== 'postgres') return;
    const row = await trx
      .selectFrom('collections')
      .select('id')
      .where('id', '=', id)
      .forKeyShare()
      .executeTakeFirst();
    if (!row) throw notFound('collection', id);
  }

  private async requireProducts(trx: Transaction<Tables>, ids: string[]): Promise<void> {
    const found = await this.lockProducts(trx, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw notFound('product', missing);
  }

  /**
   * Locks the products' rows (on PostgreSQL) until the transaction ends, in the order of their ids,
   * before any collection row: every catalog write takes products first, each set in the same order,
   * then collections (`listingsChanged`), so two writes never wait on each other in a circle. The lock
   * is the one a write takes (the documents are rendered again after), not a shared one a second
   * write would have to upgrade. Answers the ids that exist.
   */
  private async lockProducts(trx: Transaction<Tables>, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await trx
      .selectFrom('products')
      .select('id')
      .where('id', 'in', ids)
      .orderBy('id')
      .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate())
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** How many products a collection (All Products included) holds, as the viewer sees it. */
  private async productCount(collectionId: string, viewer: Viewer): Promise<number> {
    const row = await this.db
      .selectFrom('collections')
      .select(viewer.admin ? 'product_count as count' : 'visible_product_count as count')
      .where('id', '=', collectionId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /**
   * A change to the listings of these collections (All Products is one of them): moves their
   * counters and their listing version (page-anchors.ts). With `touch`, their memberships changed,
   * so their updated date becomes now; `reordered`: an anchored sort key changed. All in one write.
   */
  private async listingsChanged(
    trx: Transaction<Tables>,
    collectionIds: string[],
    change: { products: number; visible: number },
    options: { touch?: boolean; reordered?: boolean } = {},
  ): Promise<void> {
    const moved = change.products !== 0 || change.visible !== 0;
    if (collectionIds.length === 0 || (!moved && !options.touch && !options.reordered)) return;
    if (this.options.dialect === 'postgres' && collectionIds.length > 1) {
      // the rows in the order of their ids (see lockProducts); the lock an update takes, which
      // leaves a concurrent listing's foreign-key check (KEY SHARE) free to go on
      await trx
        .selectFrom('collections')
        .select('id')
        .where('id', 'in', collectionIds)
        .orderBy('id')
        .forNoKeyUpdate()
        .execute();
    }
    await trx
      .updateTable('collections')
      .set({
        product_count: sql`product_count + ${change.products}`,
        visible_product_count: sql`visible_product_count + ${change.visible}`,
        listing_version: sql`listing_version + 1`,
        ...(options.touch ? { updated_date: new Date().toISOString() } : {}),
      })
      .where('id', 'in', collectionIds)
      .execute();
  }

  /** A first page shorter than its limit is the whole answer: no count needed. */
  private async countOrKnown(page: Page, count: number, counter: () => Promise<number>): Promise<number> {
    if (page.limit > 0 && count < page.limit && (count > 0 || page.offset === 0)) return page.offset + count;
    return counter();
  }
}

/** What listings added (`sign` 1) or removed (-1) do to a collection's counters. */
function countOfListings(listings: Array<{ visible: number }>, sign: 1 | -1) {
  const visible = listings.filter((listing) => listing.visible === 1).length;
  return { products: sign * listings.length, visible: sign * visible };
}

/** How many rows a query's conditions match. */
/**
 * Records pricing parsed lately, by product id: a cart read parses a record again only when its text
 * changed. Shared and never mutated; the oldest go once there are too many.
 */
const parsedRecords = new Map<string, { text: string; record: ProductRecord }>();
const MAX_PARSED_RECORDS = 2000;
/** Products whose pricing facts one process keeps. */
const MAX_KEPT_FACTS = 2000;

function parsedRecord(id: string, text: string): ProductRecord {
  const known = parsedRecords.get(id);
  if (known && known.text === text) return known.record;
  const record = JSON.parse(text) as ProductRecord;
  if (parsedRecords.size >= MAX_PARSED_RECORDS) {
    parsedRecords.delete(parsedRecords.keys().next().value as string);
  }
  parsedRecords.set(id, { text, record });
  return record;
}

async function countOf(query: SelectQueryBuilder<Tables, any, object>): Promise<number> {
  const row = await query.clearSelect().select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}

/** A product's store variant rows (`/v1/variants/...`), as rendered. */
function variantRowsOf(record: ProductRecord, rendered: ReturnType<typeof renderProduct>): VariantRow[] {
  return rendered.storeVariants.map(({ variantId, position, variant, merchant }) => ({
    id: variant.id as string,
    product_id: record.id,
    variant_id: variantId,
    position,
    sku: variant.sku ?? '',
    price: variant.variant?.priceData?.price ?? record.price,
    visible: variant.variant?.visible === false ? 0 : 1,
    in_stock: variant.stock?.inStock ? 1 : 0,
    product_visible: record.visible ? 1 : 0,
    managed: record.manageVariants ? 1 : 0,
    doc: JSON.stringify(variant),
    doc_merchant: JSON.stringify(merchant),
  }));
}

/** A product document with its variants spliced in, without parsing either. */
function withVariants(doc: string, variants: string): string {
  return `${doc.slice(0, -1)},"variants":${variants}}`;
}

function stripReadOnly(input: unknown): unknown {
  if (!input || typeof input !== 'object') return input;
  const {
    id: _id,
    numericId: _n,
    createdDate: _c,
    lastUpdated: _l,
    variants: _v,
    ...rest
  } = input as Record<string, unknown>;
  return rest;
}

function requireIds(ids: unknown, field: string, max: number): string[] {
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== 'string' || id === '')) {
    throw invalidArgument([violation(field, 'must list at least one id', 'MIN_SIZE')]);
  }
  if (ids.length > max) {
    throw invalidArgument([violation(field, `must list at most ${max} products at a time`, 'MAX_SIZE')]);
  }
  return [...new Set(ids as string[])];
}

function allProductsFixed(): DomainError {
  return applicationError(
    'FAILED_PRECONDITION',
    'ALL_PRODUCTS_COLLECTION_IS_FIXED',
    'the All Products collection holds every product and cannot be changed',
  );
}
