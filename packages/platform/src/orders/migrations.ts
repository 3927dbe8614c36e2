import { type Kysely, type Migration, sql } from 'kysely';
import { isPostgres } from '../db/dialect.ts';
import { buyerEmail } from './model.ts';
import { orderSearchText, searchColumns, tagsOf } from './search.ts';

/** Orders and the counter their numbers come from. */
export const orderMigrations: Record<string, Migration> = {
  '0018_orders': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('orders')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('number', 'bigint', (col) => col.unique())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('payment_status', 'text', (col) => col.notNull())
        .addColumn('fulfillment_status', 'text', (col) => col.notNull())
        .addColumn('checkout_id', 'text')
        .addColumn('visitor_id', 'text')
        .addColumn('member_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('doc', 'text', (col) => col.notNull())
        .execute();
      // the default search (newest first) and a buyer's own orders walk these
      await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'id']).execute();
      await db.schema
        .createIndex('orders_member')
        .on('orders')
        .columns(['member_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('orders_visitor')
        .on('orders')
        .columns(['visitor_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('orders_checkout').on('orders').column('checkout_id').execute();
      await db.schema
        .createTable('order_counters')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('value', 'bigint', (col) => col.notNull())
        .execute();
    },
  },
  '0021_unpaid_orders_holding_stock': {
    // create-order took an unpaid order's stock at once until this version; now paying takes it. The
    // unpaid orders made before keep what they took, marked, so paying them takes none again and
    // canceling them gives it back.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('orders')
        .addColumn('holds_stock', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db
        .updateTable('orders')
        .set({ holds_stock: 1 })
        .where('status', '=', 'INITIALIZED')
        .where('number', 'is not', null)
        .execute();
    },
  },
  '0025_orders_buyer_email': {
    // A guest's orders join the account that proves their email (OrderService.adoptGuestOrders): the
    // buyer's email, in lower case, is a column of its own, indexed with whose orders they are.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('orders').addColumn('buyer_email', 'text').execute();
      let after = '';
      for (;;) {
        const rows: Array<{ id: string; doc: string }> = await db
          .selectFrom('orders')
          .select(['id', 'doc'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(500)
          .execute();
        for (const row of rows) {
          const email = (JSON.parse(row.doc) as { buyerInfo?: { email?: unknown } }).buyerInfo?.email;
          if (typeof email !== 'string' || email.trim() === '') continue;
          await db
            .updateTable('orders')
            .set({ buyer_email: buyerEmail(email) })
            .where('id', '=', row.id)
            .execute();
        }
        if (rows.length < 500) break;
        after = rows[rows.length - 1]!.id;
      }
      await db.schema
        .createIndex('orders_buyer_email')
        .on('orders')
        .columns(['buyer_email', 'member_id'])
        .execute();
    },
  },
  '0026_orders_search': {
    // The merchant's search over the hosted platform's search fields: each documented filter has a
    // column (derived from the document, search.ts `searchColumns`) or a side table, and an index that
    // leads with it and then walks newest first, so a filtered page of 50 stays an index walk at a
    // million orders.
    async up(db: Kysely<any>) {
      for (const [name, type] of [
        ['contact_id', 'text'],
        ['billing_first_name', 'text'],
        ['billing_last_name', 'text'],
        ['channel_type', 'text'],
      ] as const)
        await db.schema.alterTable('orders').addColumn(name, type).execute();
      await db.schema
        .alterTable('orders')
        .addColumn('total_amount', 'double precision', (col) => col.notNull().defaultTo(0))
        .execute();
      for (const name of ['archived', 'seen_by_a_human'])
        await db.schema
          .alterTable('orders')
          .addColumn(name, 'integer', (col) => col.notNull().defaultTo(0))
          .execute();
      await db.schema
        .createTable('order_tags')
        .addColumn('order_id', 'text', (col) => col.notNull())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('tag_id', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('order_tags_pk', ['kind', 'tag_id', 'order_id'])
        .execute();
      await db.schema.createIndex('order_tags_order').on('order_tags').column('order_id').execute();
      await db.schema
        .createTable('order_line_items')
        .addColumn('order_id', 'text', (col) => col.notNull())
        .addColumn('product_id', 'text', (col) => col.notNull())
        .addColumn('product_name', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('order_line_items_product')
        .on('order_line_items')
        .columns(['product_id', 'order_id'])
        .execute();
      await db.schema
        .createIndex('order_line_items_name')
        .on('order_line_items')
        .columns(['product_name', 'order_id'])
        .execute();
      await db.schema
        .createIndex('order_line_items_order')
        .on('order_line_items')
        .column('order_id')
        .execute();

      let after = '';
      for (;;) {
        const rows: Array<{ id: string; doc: string }> = await db
          .selectFrom('orders')
          .select(['id', 'doc'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(500)
          .execute();
        for (const row of rows) {
          const doc = JSON.parse(row.doc);
          // the columns this migration adds: later ones (search_text, 0043) are filled by their own
          const { buyer_email: _, search_text: __, ...columns } = searchColumns(doc);
          await db.updateTable('orders').set(columns).where('id', '=', row.id).execute();
          const lines = new Map<string, { order_id: string; product_id: string; product_name: string }>();
          for (const line of doc.lineItems ?? []) {
            const product_id = String(line.catalogReference?.catalogItemId ?? '');
            const product_name = String(line.productName?.original ?? '');
            lines.set(`${product_id}\u0000${product_name}`, { order_id: row.id, product_id, product_name });
          }
          if (lines.size > 0)
            await db
              .insertInto('order_line_items')
              .values([...lines.values()])
              .execute();
          const tags = tagsOf(doc);
          const tagRows = [
            ...[...new Set(tags.public)].map((tag_id) => ({ order_id: row.id, kind: 'public', tag_id })),
            ...[...new Set(tags.private)].map((tag_id) => ({ order_id: row.id, kind: 'private', tag_id })),
          ];
          if (tagRows.length > 0) await db.insertInto('order_tags').values(tagRows).execute();
        }
        if (rows.length < 500) break;
        after = rows[rows.length - 1]!.id;
      }

      // each filter leads an index that then runs newest first (the default sort)
      for (const column of [
        'status',
        'payment_status',
        'fulfillment_status',
        'archived',
        'channel_type',
        'buyer_email',
        'contact_id',
        'billing_last_name',
        'billing_first_name',
      ])
        await db.schema
          .createIndex(`orders_search_${column}`)
          .on('orders')
          .columns([column, 'created_at', 'id'])
          .execute();
      await db.schema
        .createIndex('orders_search_updated')
        .on('orders')
        .columns(['updated_at', 'id'])
        .execute();
      await db.schema
        .createIndex('orders_search_total')
        .on('orders')
        .columns(['total_amount', 'id'])
        .execute();
    },
  },
  '0035_order_tags_newest_first': {
    // a search by tag walks the tag's rows newest first: the order's created date is kept on each row
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('order_tags')
        .addColumn('order_created_at', 'text', (col) => col.notNull().defaultTo(''))
        .execute();
      await sql`update order_tags set order_created_at = (select orders.created_at from orders where orders.id = order_tags.order_id)`.execute(
        db,
      );
      await db.schema
        .createIndex('order_tags_newest')
        .on('order_tags')
        .columns(['kind', 'tag_id', 'order_created_at', 'order_id'])
        .execute();
    },
  },
  '0043_orders_text_search': {
    // The back office's "Order number, buyer email or name" finds part of an email or a name (issue
    // 36): each order's email and billing name in one lower-case text, trigram-indexed on each database
    // (search.ts `textSearch`); and a prefix of an email or a name is a range of that column's index,
    // which on PostgreSQL needs the column in byte order, as SQLite's already is.
    async up(db: Kysely<any>) {
      const postgres = await isPostgres(db);
      await db.schema.alterTable('orders').addColumn('search_text', 'text').execute();
      let after = '';
      for (;;) {
        const rows: Array<{
          id: string;
          buyer_email: string | null;
          billing_first_name: string | null;
          billing_last_name: string | null;
        }> = await db
          .selectFrom('orders')
          .select(['id', 'buyer_email', 'billing_first_name', 'billing_last_name'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(1000)
          .execute();
        const texts = rows
          .map((row) => ({
            id: row.id,
            text: orderSearchText(row.buyer_email, row.billing_first_name, row.billing_last_name),
          }))
          .filter((row) => row.text !== null);
        if (texts.length > 0) {
          // one statement a thousand orders: a large store's upgrade is not a million round trips
          const values = sql.join(texts.map((row) => sql`(${row.id}, ${row.text})`));
          await sql`with found (id, text) as (values ${values})
            update orders set search_text = found.text from found where orders.id = found.id`.execute(db);
        }
        if (rows.length < 1000) break;
        after = rows[rows.length - 1]!.id;
      }
      if (postgres) {
        for (const column of ['buyer_email', 'billing_first_name', 'billing_last_name'])
          await sql`alter table orders alter column ${sql.id(column)} type text collate "C"`.execute(db);
        // a finer sample, so the planner tells a rare needle (the trigram index) from a common one
        // (walk newest first until the page is full), as for product names (0009)
        await sql`alter table orders alter column search_text set statistics 1000`.execute(db);
        await sql`create extension if not exists pg_trgm`.execute(db);
        // entered at each write, not parked in GIN's pending list: a search never reads through a list
        // of recent orders unindexed (nor does the planner, costing it, walk every order instead)
        await sql`create index orders_search_text on orders using gin (search_text gin_trgm_ops)
          with (fastupdate = off)`.execute(db);
        return;
      }
      await sql`create virtual table order_search using fts5(search_text, tokenize = 'trigram')`.execute(db);
      await sql`insert into order_search (rowid, search_text)
        select number, search_text from orders where number is not null and search_text is not null`.execute(
        db,
      );
      // an order is searchable once it has a number (never listed before), under that number
      await sql`create trigger order_search_added after insert on orders
        when new.number is not null and new.search_text is not null
        begin
          insert into order_search (rowid, search_text) values (new.number, new.search_text);
        end`.execute(db);
      await sql`create trigger order_search_changed after update of number, search_text on orders
        when old.number is not new.number or old.search_text is not new.search_text
        begin
          delete from order_search where rowid = old.number;
          insert into order_search (rowid, search_text)
            select new.number, new.search_text where new.number is not null and new.search_text is not null;
        end`.execute(db);
      await sql`create trigger order_search_removed after delete on orders
        begin
          delete from order_search where rowid = old.number;
        end`.execute(db);
    },
  },
};
