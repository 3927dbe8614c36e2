import type { Media, MediaItem, Product, ProductOptionsAvailability, ProductVariant } from '@cartwheel/sdk';
import { type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { invalidArgument, notFound, violation } from '../shared/errors.ts';
import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';
import { LISTING_SORT, PRODUCT_FIELDS, PRODUCT_SORT, VARIANT_FIELDS, VARIANT_SORT } from './fields.ts';
import { withoutCollections } from './hidden-collections.ts';
import { countOf, countOrKnown, productCount } from './listings.ts';
import type { ProductFacts } from './model.ts';
import { type ProductRecord, renderProduct, variantInStock } from './model.ts';
import {
  type AnchoredListing,
  type AnchoredStart,
  defaultAnchorSpacing,
  PageAnchors,
} from './page-anchors.ts';
import {
  type CompileOptions,
  checkFilterBudget,
  compileFilter,
  compileSort,
  orderBy,
  pagingMetadata,
  parsePaging,
  parseSort,
} from './query.ts';
import type { CatalogQueryRequest, FlagInput, ProductVariantsQuery, Selection } from './schemas.ts';
import { productScope } from './scope.ts';
import { nameSubstringIndex, textSearch } from './search.ts';
import { type CatalogStorage, truthy, type Viewer } from './storage.ts';
import { canonicalChoice, unknownChoices } from './validation.ts';

/**
 * Reads of products and their variants: one product, the wire's queries translated to indexed SQL,
 * a shopper's selection, and what pricing needs of a cart's products. Documents are rendered at write
 * time (product-rows.ts), so these answer JSON text without parsing or stringifying a product.
 */
export class ProductReads {
  /** Products as pricing last read them, under the catalog's pricing version (see pricingFacts). */
  private readonly keptFacts = new Map<string, { version: number; fact: ProductFacts | null }>();
  /** Where deep pages of whole listings start. */
  readonly anchors: PageAnchors;
  /** How `$contains` on names reaches this database's trigram index. */
  private readonly search: CompileOptions;

  constructor(
    private readonly storage: CatalogStorage,
    options: { dialect: DialectName; pageAnchorSpacing?: number | undefined },
  ) {
    this.anchors = new PageAnchors(
      storage.db,
      options.pageAnchorSpacing ?? defaultAnchorSpacing(options.dialect),
    );
    this.search = { substringIndex: nameSubstringIndex(options.dialect) };
  }

  /** `{"product": ...}` with its variants; a hidden product is not found unless an admin asks. */
  async productJson(
    id: string,
    viewer: Viewer,
    includeMerchantSpecificData: FlagInput | undefined,
  ): Promise<string> {
    if (!viewer.admin)
      return this.visitorRead(`product:${id}`, () => this.readProductJson(id, viewer, false));
    return this.readProductJson(id, viewer, includeMerchantSpecificData);
  }

  private async readProductJson(
    id: string,
    viewer: Viewer,
    includeMerchantSpecificData: FlagInput | undefined,
  ) {
    const merchant = viewer.admin && truthy(includeMerchantSpecificData);
    const row = await this.storage.db
      .selectFrom('products')
      .select(
        merchant
          ? ['doc_merchant as doc', 'variants_doc_merchant as variants', 'visible']
          : ['doc', 'variants_doc as variants', 'visible'],
      )
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('product', id);
    const doc = withoutCollections(row.doc, await this.storage.hiddenFrom(viewer));
    return `{"product":${withVariants(doc, row.variants)}}`;
  }

  /** `{"products": [...], "metadata": {...}}`: the wire query translated to one indexed SQL query. */
  async queryProductsJson(request: CatalogQueryRequest, viewer: Viewer): Promise<string> {
    if (viewer.admin) return this.readProductsJson(request, viewer);
    const key = `query:${JSON.stringify([request.query, truthy(request.includeVariants)])}`;
    return this.visitorRead(key, () => this.readProductsJson(request, viewer));
  }

  /**
   * The variants of many products at once, `{"<product id>": [...variants]}`, as their reads with
   * `includeVariants` answer them (the same stored text): one query for a whole page of products,
   * whichever API asks (GraphQL's data loader). A hidden product has none unless an admin asks. A
   * visitor's is kept for a moment, as their pages are.
   */
  variantsJson(productIds: readonly string[], viewer: Viewer): Promise<string> {
    const ids = [...new Set(productIds)];
    if (viewer.admin) return this.readVariantsJson(ids, viewer);
    return this.visitorRead(`variants:${ids.join(',')}`, () => this.readVariantsJson(ids, viewer));
  }

  private async readVariantsJson(ids: readonly string[], viewer: Viewer): Promise<string> {
    if (ids.length === 0) return '{}';
    const rows = await this.storage.db
      .selectFrom('products')
      .select(['id', 'variants_doc as variants'])
      .where('id', 'in', ids)
      .$if(!viewer.admin, (qb) => qb.where(sql<SqlBool>`visible = 1`))
      .execute();
    return `{${rows.map((row) => `${JSON.stringify(row.id)}:${row.variants}`).join(',')}}`;
  }

  /**
   * A visitor's read, kept for a moment with its links made absolute: every answer's links are filled
   * in as it is sent (PublicLinks), and a kept one has none left, so serving it again costs only the
   * search for one.
   */
  private visitorRead(key: string, read: () => Promise<string>): Promise<string> {
    return this.storage.visitorReads.get(key, async () => this.storage.links.fill(await read()));
  }

  private async readProductsJson(
    request: CatalogQueryRequest,
    viewer: Viewer,
    options: { anchored: boolean } = { anchored: true },
  ): Promise<string> {
    const query = request.query ?? {};
    const page = parsePaging(query);
    checkFilterBudget(query.filter);
    compileFilter(query.filter, PRODUCT_FIELDS); // the whole filter is checked before any part is used
    const fallback = { fieldName: 'numericId', order: 'ASC' } as const;
    const productOrder = parseSort(query.sort, PRODUCT_SORT, 'p.id', fallback);
    const hidden = await this.storage.hiddenFrom(viewer);
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
      ? this.storage.db
          .selectFrom('products as p')
          .select('p.id as id')
          .$if(!viewer.admin, (qb) => qb.where(sql<SqlBool>`p.visible = 1`))
          .$if(rest !== undefined, (qb) => qb.where(rest as RawBuilder<SqlBool>))
      : this.storage.db
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
    const rows = await this.storage.db
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
    const total = await countOrKnown(page, rows.length, () =>
      rest === undefined ? productCount(this.storage.db, scope.collectionId, viewer) : countOf(listing),
    );
    const docs = rows.map((row) => {
      const doc = withoutCollections(row.doc, hidden);
      return includeVariants ? withVariants(doc, (row as { variants?: string }).variants ?? '[]') : doc;
    });
    return `{"products":[${docs.join(',')}],"metadata":${JSON.stringify(pagingMetadata(page, rows.length, total))}}`;
  }

  /** The product as an object, for other domains (cart, checkout); merchant data included. */
  async findProduct(id: string): Promise<Product | undefined> {
    const row = await this.storage.db
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
   * (store-settings/pricing-versions.ts) passes it: products read after that version was are kept under it and
   * served again while it is the version, which moves with every catalog write.
   */
  async pricingFacts(
    productIds: readonly string[],
    executor: Kysely<Tables> = this.storage.db,
    catalogVersion?: number,
  ): Promise<Map<string, ProductFacts>> {
    const facts = new Map<string, ProductFacts>();
    const kept = catalogVersion !== undefined && executor === this.storage.db;
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
    selection: Selection | null | undefined,
    viewer: Viewer,
  ): Promise<ProductOptionsAvailability> {
    const record = await this.readRecord(id, viewer);
    const chosen = selection ?? {};
    const problems = unknownChoices(record.options, chosen);
    if (problems.length > 0) {
      throw invalidArgument(
        problems.map((problem) => violation(`options.${problem.option}`, problem.description)),
      );
    }
    const picked: Record<string, string> = {};
    for (const [name, choice] of Object.entries(chosen)) {
      picked[name] = canonicalChoice(record.options, name, choice) as string;
    }
    const rendered = renderProduct(record, [], this.storage.settings);
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
    request: ProductVariantsQuery,
    viewer: Viewer,
  ): Promise<{ variants: ProductVariant[]; metadata: Record<string, unknown>; totalResults: number }> {
    const record = await this.readRecord(id, viewer);
    const page = parsePaging({ paging: request.paging }, '');
    const merchant = viewer.admin && truthy(request.includeMerchantSpecificData);
    const rendered = renderProduct(record, [], this.storage.settings);
    let indexes = record.variants.map((_, index) => index);
    const choices = request.choices;
    if (choices) {
      const problems = unknownChoices(record.options, choices);
      if (problems.length > 0) {
        throw invalidArgument(
          problems.map((problem) => violation(`choices.${problem.option}`, problem.description)),
        );
      }
      indexes = indexes.filter((index) =>
        Object.entries(choices).every(
          ([name, choice]) =>
            record.variants[index]?.choices[name] === canonicalChoice(record.options, name, choice),
        ),
      );
    }
    if (request.variantIds && request.variantIds.length > 0) {
      const wanted = new Set(request.variantIds);
      indexes = indexes.filter((index) => wanted.has(record.variants[index]?.id as string));
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
  async queryStoreVariantsJson(request: CatalogQueryRequest, viewer: Viewer): Promise<string> {
    const query = request.query ?? {};
    const page = parsePaging(query);
    checkFilterBudget(query.filter);
    const hidden = await this.storage.hiddenFrom(viewer);
    let where = compileFilter(query.filter, VARIANT_FIELDS, { hiddenCollections: hidden });
    if (!viewer.admin) where = sql<SqlBool>`(${where}) and v.product_visible = 1`;
    const order = compileSort(query.sort, VARIANT_SORT, 'v.id', { fieldName: 'productId', order: 'ASC' });
    const merchant = viewer.admin && truthy(request.includeMerchantSpecificData);
    const rows = await this.storage.db
      .selectFrom('product_variants as v')
      .select(merchant ? 'v.doc_merchant as doc' : 'v.doc')
      .where(where)
      .orderBy(order)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = await countOrKnown(page, rows.length, () =>
      countOf(this.storage.db.selectFrom('product_variants as v').where(where)),
    );
    const docs = rows.map((row) => withoutCollections(row.doc, hidden));
    return `{"variants":[${docs.join(',')}],"metadata":${JSON.stringify(pagingMetadata(page, rows.length, total))}}`;
  }

  /** `{"variant": ...}` by its store id `{productId}-{variantId}`. */
  async storeVariantJson(id: string, viewer: Viewer): Promise<string> {
    const row = await this.storage.db
      .selectFrom('product_variants')
      .select(['doc', 'product_visible'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.product_visible !== 1 && !viewer.admin)) throw notFound('variant', id);
    return `{"variant":${withoutCollections(row.doc, await this.storage.hiddenFrom(viewer))}}`;
  }

  /** A product's record as the viewer may see it: a hidden product is not found unless an admin asks. */
  private async readRecord(id: string, viewer: Viewer): Promise<ProductRecord> {
    const row = await this.storage.db
      .selectFrom('products')
      .select(['record', 'visible'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('product', id);
    return JSON.parse(row.record) as ProductRecord;
  }
}

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

/** A product document with its variants spliced in, without parsing either. */
function withVariants(doc: string, variants: string): string {
  return `${doc.slice(0, -1)},"variants":${variants}}`;
}
