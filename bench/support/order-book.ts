import fs from 'node:fs';
import { openFreshStore } from './fresh-store.ts';
import { type SeededOrders, seedMillionOrders } from './million-orders.ts';
import { adminQuery, query } from './postgres.ts';

export type Dialect = 'sqlite' | 'postgres';

/** A seeded order book on one dialect: the data dir and database a bench starts its platform over. */
export interface OrderBook {
  dialect: Dialect;
  dataDir: string;
  /** PostgreSQL's database; SQLite's file lives in `dataDir`. */
  databaseUrl?: string | undefined;
  seeded: SeededOrders;
}

/** The order book: a million orders; `CARTWHEEL_BENCH_ORDERS` lowers it for a shorter run. */
export function orderBookSize(quick: boolean): number {
  return quick ? 2_000 : Number(process.env.CARTWHEEL_BENCH_ORDERS ?? 1_000_000);
}

/** The newest order's date: the book goes back a year from it. */
export const ORDER_BOOK_NEWEST = Date.UTC(2026, 10, 1);
const BENCH_DATABASE = 'cartwheel_bench_order_book';

/** This run's books, one per dialect: seeded by the first bench that asks, handed to the next. */
const books = new Map<Dialect, { orders: number; book: Promise<OrderBook> }>();

/**
 * The run's order book on `dialect`, `orders` long: seeded once (by bulk SQL into a database the
 * platform's migrations made, `seedMillionOrders`) and shared by every bench of the run that reads a
 * large order book (order search, the back office's orders table), each starting its own platform
 * over it. Released by `releaseOrderBook` when the run is done with the dialect.
 */
export function orderBook(dialect: Dialect, orders: number): Promise<OrderBook> {
  const held = books.get(dialect);
  if (held && held.orders === orders) return held.book;
  const book = (async () => {
    if (held) await releaseOrderBook(dialect);
    return seedOrderBook(dialect, orders);
  })();
  books.set(dialect, { orders, book });
  // a failed seeding is not kept: the next bench tries again
  book.catch(() => {
    if (books.get(dialect)?.book === book) books.delete(dialect);
  });
  return book;
}

/** Deletes the dialect's book (its data dir, its PostgreSQL database), if this run seeded one. */
export async function releaseOrderBook(dialect: Dialect): Promise<void> {
  const held = books.get(dialect);
  if (!held) return;
  books.delete(dialect);
  const book = await held.book.catch(() => undefined);
  if (!book) return;
  fs.rmSync(book.dataDir, { recursive: true, force: true });
  dataDirs.delete(book.dataDir);
  if (dialect === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
}

// a run stopped midway leaves no gigabytes of SQLite behind (PostgreSQL's is dropped by the next run)
const dataDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function seedOrderBook(dialect: Dialect, orders: number): Promise<OrderBook> {
  const { dataDir, databaseUrl, opened, remove } = await openFreshStore(dialect, {
    database: BENCH_DATABASE,
    prefix: 'cartwheel-bench-order-book-',
  });
  dataDirs.add(dataDir);
  try {
    process.stderr.write(`bench: seeding ${orders.toLocaleString('en')} orders on ${dialect}...\n`);
    let seeded: SeededOrders;
    try {
      seeded = await seedMillionOrders(opened.services.database, orders, { newest: ORDER_BOOK_NEWEST });
    } finally {
      await opened.close();
    }
    // the planner's statistics and the visibility map, as a live database has them
    if (databaseUrl) await query(databaseUrl, 'VACUUM ANALYZE');
    process.stderr.write(
      `bench: ${orders.toLocaleString('en')} orders on ${dialect} written in ${seeded.seconds.toFixed(1)} s` +
        ` (${Math.round(orders / seeded.seconds).toLocaleString('en')} orders/s), kept for this run\n`,
    );
    return { dialect, dataDir, databaseUrl, seeded };
  } catch (error) {
    await remove();
    dataDirs.delete(dataDir);
    throw error;
  }
}
