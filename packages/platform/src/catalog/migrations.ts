import { createHash } from 'node:crypto';
import { type Kysely, type Migration, sql } from 'kysely';
import { isPostgres } from '../db/dialect.ts';
import { PUBLIC_URL_MARK_IN_JSON } from '../shared/public-links.ts';
import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';
import type { ProductRecord } from './model.ts';
import { productSearchText } from './search.ts';

/** Products, variants, collections and who belongs where; one schema for SQLite and PostgreSQL. */
export const catalogMigrations: Record<string, Migration> = {
  '0002_catalog': {
    async up(db: Kysely<any>) {
      const postgres = await isPostgres(db);
      // Byte order on both databases, so prefix ranges and name sorting agree everywhere.
      const binary = postgres ? sql`collate "C"` : sql`collate binary`;

      await db.schema
        .createTable('products')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('numeric_id', 'bigint', (col) => col.notNull().unique())
        .addColumn('slug', 'text', (col) => col.notNull().unique())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('name_lower', 'text', (col) => col.notNull().modifyFront(binary))
        .addColumn('price', 'double precision', (col) => col.notNull())
        .addColumn('discounted_price', 'double precision', (col) => col.notNull())
        .addColumn('visible', 'integer', (col) => col.notNull())
        .addColumn('inventory_status', 'text', (col) => col.notNull())
        .addColumn('in_stock', 'integer', (col) => col.notNull())
        .addColumn('product_type', 'text', (col) => col.notNull())
        .addColumn('sku', 'text', (col) => col.notNull())
        .addColumn('brand', 'text', (col) => col.notNull())
        .addColumn('ribbon', 'text', (col) => col.notNull())
        .addColumn('created_date', 'text', (col) => col.notNull().modifyFront(binary))
        .addColumn('last_updated', 'text', (col) => col.notNull().modifyFront(binary))
        .addColumn('record', 'text', (col) => col.notNull())
        .addColumn('doc', 'text', (col) => col.notNull())
        .addColumn('doc_merchant', 'text', (col) => col.notNull())
        .addColumn('variants_doc', 'text', (col) => col.notNull())
        .addColumn('variants_doc_merchant', 'text', (col) => col.notNull())
        .execute();
      // Sort columns carry the id as tie-break so a page is one index walk.
      for (const column of ['name_lower', 'price', 'discounted_price', 'created_date', 'last_updated']) {
        await db.schema.createIndex(`products_${column}`).on('products').columns([column, 'id']).execute();
      }
      for (const column of ['visible', 'inventory_status', 'product_type', 'sku', 'brand']) {
        await db.schema.createIndex(`products_${column}`).on('products').column(column).execute();
      }

      await db.schema
        .createTable('product_variants')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('product_id', 'text', (col) => col.notNull().references('products.id').onDelete('cascade'))
        .addColumn('variant_id', 'text', (col) => col.notNull())
        .addColumn('position', 'integer', (col) => col.notNull())
        .addColumn('sku', 'text', (col) => col.notNull())
        .addColumn('price', 'double precision', (col) => col.notNull())
        .addColumn('visible', 'integer', (col) => col.notNull())
        .addColumn('in_stock', 'integer', (col) => col.notNull())
        .addColumn('product_visible', 'integer', (col) => col.notNull())
        .addColumn('managed', 'integer', (col) => col.notNull())
        .addColumn('doc', 'text', (col) => col.notNull())
        .addColumn('doc_merchant', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('product_variants_product')
        .on('product_variants')
        .columns(['product_id', 'position'])
        .execute();
      await db.schema
        .createIndex('product_variants_variant')
        .on('product_variants')
        .column('variant_id')
        .execute();
      await db.schema.createIndex('product_variants_sku').on('product_variants').column('sku').execute();

      await db.schema
        .createTable('collections')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('slug', 'text', (col) => col.notNull().unique())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('description', 'text')
        .addColumn('visible', 'integer', (col) => col.notNull())
        .addColumn('media', 'text', (col) => col.notNull())
        .addColumn('created_date', 'text', (col) => col.notNull())
        .addColumn('updated_date', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('product_collections')
        .addColumn('product_id', 'text', (col) => col.notNull().references('products.id').onDelete('cascade'))
        .addColumn('collection_id', 'text', (col) =>
          col.notNull().references('collections.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('product_collections_pk', ['collection_id', 'product_id'])
        .execute();
      await db.schema
        .createIndex('product_collections_product')
        .on('product_collections')
        .columns(['product_id', 'collection_id'])
        .execute();

      const now = new Date().toISOString();
      await db
        .insertInto('collections')
        .values({
          id: ALL_PRODUCTS_COLLECTION_ID,
          slug: 'all-products',
          name: 'All Products',
          description: null,
          visible: 1,
          media: '{}',
          created_date: now,
          updated_date: now,
        })
        .execute();
    },
  },
  '0007_catalog_covering_indexes': {
    // A page of a large catalog is found from indexes alone: each sort index carries the id (the
    // tie-break) and `visible` (every visitor's filter), so paging and counting never read the wide
    // product rows, which hold the rendered documents; only the page's own rows are read.
    async up(db: Kysely<any>) {
      // two values: as an index of its own it only misleads the planner into reading every row
      await db.schema.dropIndex('products_visible').ifExists().execute();
      for (const column of SORT_COLUMNS) {
        await db.schema.dropIndex(`products_${column}`).ifExists().execute();
        await db.schema
          .createIndex(`products_${column}_page`)
          .on('products')
          .columns([column, 'id', 'visible'])
          .execute();
      }
      await db.schema
        .createIndex('products_numeric_id_page')
        .on('products')
        .columns(['numeric_id', 'id', 'visible'])
        .execute();
      // Looking products up by id (a collection's members) reads the narrow columns from here, not the row.
      await db.schema
        .createIndex('products_narrow')
        .on('products')
        .columns([
          'id',
          'visible',
          'price',
          'discounted_price',
          'name_lower',
          'numeric_id',
          'created_date',
          'last_updated',
          'inventory_status',
          'in_stock',
          'product_type',
        ])
        .execute();
    },
  },
  '0008_catalog_listings': {
    // A storefront's busiest questions, answered from one index range each. A collection's page:
    // its memberships carry the products' sort keys and visibility, so the page is a walk of
    // (collection, sort key) and its count a range, never a probe of every member. How many products
    // a collection (All Products included) holds: counters kept in the collection's row by every write
    // that changes them, so a total is never a count over the whole catalog.
    async up(db: Kysely<any>) {
      const postgres = await isPostgres(db);
      const binary = postgres ? sql`collate "C"` : sql`collate binary`;
      const keys: Array<[string, 'integer' | 'bigint' | 'double precision' | 'text']> = [
        ['visible', 'integer'],
        ['price', 'double precision'],
        ['discounted_price', 'double precision'],
        ['name_lower', 'text'],
        ['numeric_id', 'bigint'],
        ['created_date', 'text'],
        ['last_updated', 'text'],
      ];
      for (const [column, type] of keys) {
        await db.schema
          .alterTable('product_collections')
          .addColumn(column, type, (col) => {
            const typed = type === 'text' ? col.modifyFront(binary) : col;
            return typed.notNull().defaultTo(type === 'text' ? '' : 0);
          })
          .execute();
      }
      const copies = keys.map(
        ([column]) =>
          sql`${sql.ref(column)} = (select p.${sql.ref(column)} from products p where p.id = product_collections.product_id)`,
      );
      await sql`update product_collections set ${sql.join(copies)}`.execute(db);
      for (const column of [...SORT_COLUMNS, 'numeric_id']) {
        await db.schema
          .createIndex(`product_collections_${column}_page`)
          .on('product_collections')
          .columns(['collection_id', column, 'product_id', 'visible'])
          .execute();
      }

      for (const column of ['product_count', 'visible_product_count']) {
        await db.schema
          .alterTable('collections')
          .addColumn(column, 'integer', (col) => col.notNull().defaultTo(0))
          .execute();
      }
      await sql`update collections set
        product_count = (select count(*) from product_collections pc where pc.collection_id = collections.id),
        visible_product_count = (select count(*) from product_collections pc where pc.collection_id = collections.id and pc.visible = 1)`.execute(
        db,
      );
      await sql`update collections set
        product_count = (select count(*) from products),
        visible_product_count = (select count(*) from products p where p.visible = 1)
        where id = ${ALL_PRODUCTS_COLLECTION_ID}`.execute(db);
    },
  },
  '0009_catalog_name_search': {
    // The storefront's search box asks for names containing a word: at 100,000 products a scan of
    // every name is too slow, so each database gets a trigram index (see search.ts).
    async up(db: Kysely<any>) {
      if (await isPostgres(db)) {
        // A finer sample of names, so the planner tells a rare phrase (use the trigram index) from a
        // common one (walk the sort order until the page is full): at the default it takes every
        // phrase for 1% of the catalog and walks 100,000 rows for a phrase that matches 20.
        await sql`alter table products alter column name_lower set statistics 1000`.execute(db);
        // pg_trgm ships with PostgreSQL; where this role may not create it, names are searched by scanning
        await sql`savepoint cartwheel_trigram`.execute(db);
        try {
          await sql`create extension if not exists pg_trgm`.execute(db);
          await sql`create index products_name_trigram on products using gin (name_lower gin_trgm_ops)`.execute(
            db,
          );
          await sql`release savepoint cartwheel_trigram`.execute(db);
        } catch {
          await sql`rollback to savepoint cartwheel_trigram`.execute(db);
        }
        return;
      }
      await sql`create virtual table product_search using fts5(name_lower, tokenize = 'trigram')`.execute(db);
      await sql`insert into product_search (rowid, name_lower) select numeric_id, name_lower from products`.execute(
        db,
      );
    },
  },
  '0010_catalog_visible_indexes': {
    // Visitors only ever see visible products: an index of just those, per sort order, is walked
    // without testing each entry (PostgreSQL's deep page at offset 50,000 halves). The name index
    // carries the numeric id too, the order a name search answers in by default.
    async up(db: Kysely<any>) {
      for (const column of [...SORT_COLUMNS, 'numeric_id']) {
        await db.schema
          .createIndex(`products_${column}_visible`)
          .on('products')
          .columns(column === 'name_lower' ? [column, 'id', 'numeric_id'] : [column, 'id'])
          .where(sql.ref('visible'), '=', 1)
          .execute();
      }
    },
  },
  '0011_catalog_listing_versions': {
    // Where deep pages start (page-anchors.ts): each collection's listing (All Products: the whole
    // catalog) has a version that every write changing it moves, so a process knows its anchors are
    // of the listing as it is.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('collections')
        .addColumn('listing_version', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    },
  },
  '0023_links_without_address': {
    // Links to the platform's own images and product pages were stored with the public address of
    // the process that wrote them (and a process started under another address moved every one to
    // its own). They are stored without it now, and each answer names its process's address
    // (shared/public-links.ts). Each address the products' documents name becomes the mark, in the
    // catalog and in the checkouts and orders that copied its links; once, here, never at start.
    async up(db: Kysely<any>) {
      const seen = new Set<string>();
      for (;;) {
        // `escape '!'`: the mark's backslash is a plain character on both databases
        const { rows } = await sql<{ doc: string }>`select doc from products
          where doc like ${'%"productPageUrl":{"base":"%'}
          and doc not like ${`%"productPageUrl":{"base":"${PUBLIC_URL_MARK_IN_JSON}"%`} escape '!'
          limit 1`.execute(db);
        const address = rows[0] && /"productPageUrl":\{"base":"((?:[^"\\]|\\.)*)"/.exec(rows[0].doc)?.[1];
        if (address === undefined || seen.has(address)) return;
        seen.add(address);
        for (const [table, columns] of Object.entries(COLUMNS_WITH_LINKS)) {
          const set = Object.fromEntries(columns.map((column) => [column, withoutAddress(column, address)]));
          await db.updateTable(table).set(set).execute();
        }
      }
    },
  },
  '0032_catalog_text_search': {
    // The storefront's search reads descriptions and SKUs too (search.ts): each product's, as text,
    // in a column of its own, filled here from the record every product is rendered from.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('products')
        .addColumn('search_text', 'text', (col) => col.notNull().defaultTo(''))
        .execute();
      for (let after = -1; ; ) {
        const rows = await db
          .selectFrom('products')
          .select(['numeric_id', 'record'])
          .where('numeric_id', '>', after)
          .orderBy('numeric_id')
          .limit(1000)
          .execute();
        if (rows.length === 0) break;
        for (const row of rows) {
          await db
            .updateTable('products')
            .set({ search_text: productSearchText(storedRecord(row.record)) })
            .where('numeric_id', '=', row.numeric_id)
            .execute();
        }
        after = rows.at(-1)!.numeric_id;
      }
    },
  },
  '0034_catalog_media_uploads': {
    // Images a merchant uploads (uploads.ts), kept as base64 text so one column type fits both databases.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('media_uploads')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('content_type', 'text', (col) => col.notNull())
        .addColumn('size', 'integer', (col) => col.notNull())
        .addColumn('data', 'text', (col) => col.notNull())
        .addColumn('created_date', 'text', (col) => col.notNull())
        .execute();
    },
  },
  '0078_catalog_v3_entities': {
    // Brands, ribbons, info sections and customizations (v3-entities.ts), and which products refer to
    // which. Products' brand and ribbon names become entities with the ids v3 showed for them.
    async up(db: Kysely<any>) {
      const postgres = await isPostgres(db);
      const binary = postgres ? sql`collate "C"` : sql`collate binary`;
      await db.schema
        .createTable('catalog_entities')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('name_lower', 'text', (col) => col.notNull().modifyFront(binary))
        .addColumn('unique_key', 'text')
        .addColumn('unique_name', 'text', (col) => col.modifyFront(binary))
        .addColumn('type', 'text')
        .addColumn('render_type', 'text')
        .addColumn('revision', 'integer', (col) => col.notNull())
        .addColumn('created_date', 'text', (col) => col.notNull().modifyFront(binary))
        .addColumn('updated_date', 'text', (col) => col.notNull().modifyFront(binary))
        .addColumn('doc', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('catalog_entities_unique_key')
        .on('catalog_entities')
        .columns(['kind', 'unique_key'])
        .unique()
        .execute();
      for (const column of ['name_lower', 'created_date', 'updated_date']) {
        await db.schema
          .createIndex(`catalog_entities_${column}`)
          .on('catalog_entities')
          .columns(['kind', column, 'id'])
          .execute();
      }
      await db.schema
        .createTable('product_entity_links')
        .addColumn('product_id', 'text', (col) => col.notNull().references('products.id').onDelete('cascade'))
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('entity_id', 'text', (col) => col.notNull())
        .addColumn('position', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('product_entity_links_pk', ['product_id', 'kind', 'position'])
        .execute();
      await db.schema
        .createIndex('product_entity_links_entity')
        .on('product_entity_links')
        .columns(['kind', 'entity_id', 'product_id'])
        .execute();

      // every brand and ribbon name products have, as an entity with the id v3 derived from the name
      const now = new Date().toISOString();
      for (const kind of ['brand', 'ribbon'] as const) {
        const names = await db.selectFrom('products').select(kind).distinct().where(kind, '<>', '').execute();
        for (const { [kind]: name } of names as Array<Record<string, string>>) {
          const id = nameDerivedId(kind, name as string);
          await db
            .insertInto('catalog_entities')
            .values({
              id,
              kind,
              name,
              name_lower: (name as string).toLowerCase(),
              unique_key: name,
              revision: 1,
              created_date: now,
              updated_date: now,
              doc: '{}',
            })
            .execute();
          await db
            .insertInto('product_entity_links')
            .columns(['product_id', 'kind', 'entity_id', 'position'])
            .expression(
              db
                .selectFrom('products')
                .select([
                  'id',
                  sql.lit(kind).as('kind'),
                  sql.lit(id).as('entity_id'),
                  sql.lit(0).as('position'),
                ])
                .where(kind, '=', name),
            )
            .execute();
        }
      }
    },
  },
  '0081_catalog_inventory_item_presence': {
    // a variant may keep no v3 inventory item (deleted): the item reads and queries skip it in SQL
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('product_variants')
        .addColumn('has_item', 'integer', (col) => col.notNull().defaultTo(1))
        .execute();
    },
  },
};

/**
 * The id v3 showed for a brand or ribbon name before they were entities (v3-model.ts `derivedId` as
 * it was then, copied: a migration does not call live code).
 */
function nameDerivedId(kind: string, name: string): string {
  const hex = createHash('sha1')
    .update(JSON.stringify([kind, name]))
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A product's stored record, or nothing of it when it is not JSON of an object (an older store's). */
function storedRecord(text: unknown): Partial<ProductRecord> {
  try {
    const parsed = typeof text === 'string' ? JSON.parse(text) : undefined;
    return parsed && typeof parsed === 'object' ? (parsed as Partial<ProductRecord>) : {};
  } catch {
    return {};
  }
}

/** Where links to the platform were stored (0023): JSON text columns, by table. */
const COLUMNS_WITH_LINKS = {
  products: ['record', 'doc', 'doc_merchant', 'variants_doc', 'variants_doc_merchant'],
  product_variants: ['doc', 'doc_merchant'],
  collections: ['media'],
  checkouts: ['priced'],
  orders: ['doc'],
};

/** `column`'s JSON text with the links to the platform at `address` (as JSON writes it) made marks. */
function withoutAddress(column: string, address: string) {
  const mark = PUBLIC_URL_MARK_IN_JSON;
  const replaced = [
    [`"${address}/media/`, `"${mark}/media/`],
    [`"${address}/product-page/`, `"${mark}/product-page/`],
    [`"base":"${address}"`, `"base":"${mark}"`],
  ];
  return replaced.reduce(
    (text, [from, to]) => sql`replace(${text}, ${from}, ${to})`,
    sql`${sql.ref(column)}`,
  );
}

const SORT_COLUMNS = ['name_lower', 'price', 'discounted_price', 'created_date', 'last_updated'];
