import { type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { SortItem } from './query.ts';
import type { ListingRow, ProductRow } from './tables.ts';

/**
 * Deep pages without walking every row before them. A page at offset 50,000 of a listing is, to a
 * database, 50,000 index entries read and dropped. Anchors are a sparse map of the listing: every
 * `spacing`-th row's leading sort key and how many rows come before that key. A page then starts at
 * the nearest anchor at or before its offset (`key >= anchor`, one range of the index) and walks at
 * most `spacing` rows from there.
 *
 * Anchors are only true for the listing as it was when they were read. Each collection (All
 * Products for the whole catalog) keeps a `listing_version`, moved in the same transaction by every
 * write that changes who is listed, who is visible, or an anchored sort key. An anchored query
 * carries the version its anchors were read at and answers nothing if the listing has moved since, in
 * the same statement, so a page is never read through another moment's anchors, whichever platform
 * process wrote in between. Anchors are read in the background after a deep page finds none (or stale
 * ones): that page, and any until they are ready, walk from the start as before.
 */

/**
 * The product columns a deep page may be anchored by: every write that changes one (or visibility)
 * moves `listing_version`. Not `last_updated`: every write moves it.
 */
export const ANCHORED_COLUMNS = [
  'name_lower',
  'price',
  'discounted_price',
  'created_date',
  'numeric_id',
] as const satisfies ReadonlyArray<keyof ProductRow & keyof ListingRow>;

/** The same as the page queries name them: on the catalog (`p`) or a collection's listing (`pc`), ids too. */
const ANCHORED_SORT_COLUMNS = new Set([
  ...ANCHORED_COLUMNS.flatMap((column) => [`p.${column}`, `pc.${column}`]),
  'p.id',
  'pc.product_id',
]);

/**
 * Anchors every 1000 rows on PostgreSQL, whose walk costs some 100 ns a row (5 ms at offset 50,000) and
 * which reads anchors in its own processes (30 to 50 ms for 100,000 products). None on SQLite: its walk
 * of 50,000 index entries takes under a millisecond, while reading anchors would hold its connection,
 * and the platform's thread with it, for some 100 ms.
 */
export function defaultAnchorSpacing(dialect: DialectName): number {
  return dialect === 'postgres' ? 1000 : 0;
}

/** A listing a query walks: one collection's (All Products: the whole catalog) rows, in one order. */
export interface AnchoredListing {
  /** Whose `listing_version` guards the anchors. */
  collectionId: string;
  /** The listing's rows, as the page query walks them (its select and order are replaced). */
  rows: SelectQueryBuilder<Tables, any, object>;
  /** The page query's order; the first item is the anchored key. */
  order: SortItem[];
  /** Identifies the listing and its order among every listing anchored (viewer included). */
  key: string;
}

export interface AnchoredStart {
  version: number;
  /** The leading sort key's value at the anchor. */
  value: string | number;
  /** How many rows of the listing come before the first row holding `value`. */
  position: number;
  /** `key >= value` (ascending) or `key <= value` (descending): the rows from the anchor on. */
  condition: RawBuilder<SqlBool>;
  /** The listing's version is still the anchors' (evaluated once per statement). */
  current: RawBuilder<SqlBool>;
}

interface AnchorSet {
  version: number;
  /** Ascending by position. */
  anchors: Array<{ value: string | number; position: number }>;
}

export class PageAnchors {
  private readonly sets = new Map<string, AnchorSet>();
  private readonly reading = new Map<string, Promise<void>>();
  /**
   * When each listing's anchors may next be read: a listing written to all the time is read again only
   * after 20 times as long as its last read took, so reading anchors keeps a connection busy 5% of the
   * time at most (a 100,000-product catalog's take some 50 ms: one read a second).
   */
  private readonly nextReadAt = new Map<string, number>();
  /** Pages started at an anchor, and anchored pages that found their listing moved. */
  readonly stats = { anchored: 0, stale: 0 };

  constructor(
    private readonly db: Kysely<Tables>,
    /** Rows between two anchors; 0: none, every page walks from the start. */
    readonly spacing: number,
    /** How many listings' anchors are kept (least recently used go first). */
    private readonly capacity = 200,
  ) {}

  /** Whether a page at `offset` of this listing is worth anchoring: deep enough, in an anchored order. */
  applies(listing: Pick<AnchoredListing, 'order'>, offset: number): boolean {
    const lead = listing.order[0];
    return (
      this.spacing > 0 &&
      offset >= this.spacing &&
      lead !== undefined &&
      ANCHORED_SORT_COLUMNS.has(lead.column)
    );
  }

  /**
   * Where a page at `offset` can start: the nearest anchor at or before it, when anchors are known.
   * When they are not, they are read in the background for the next page.
   */
  startFor(listing: AnchoredListing, offset: number): AnchoredStart | undefined {
    const set = this.sets.get(listing.key);
    if (!set) {
      this.read(listing);
      return undefined;
    }
    remember(this.sets, listing.key, set, this.capacity);
    let found: AnchorSet['anchors'][number] | undefined;
    for (const anchor of set.anchors) {
      if (anchor.position > offset) break;
      found = anchor;
    }
    if (!found) return undefined;
    this.stats.anchored++;
    const lead = listing.order[0] as SortItem;
    const column = sql.ref(lead.column);
    return {
      version: set.version,
      value: found.value,
      position: found.position,
      condition:
        lead.order === 'asc'
          ? sql<SqlBool>`${column} >= ${found.value}`
          : sql<SqlBool>`${column} <= ${found.value}`,
      current: sql<SqlBool>`(select c.listing_version from collections c where c.id = ${listing.collectionId}) = ${set.version}`,
    };
  }

  /**
   * An anchored page came back short: the end of the listing, or the listing moved since its
   * anchors were read (the query then answers nothing). Answers whether the anchors still hold;
   * if not, they are dropped and read again.
   */
  async stillCurrent(listing: AnchoredListing, start: AnchoredStart): Promise<boolean> {
    // versions only grow: the same version now means the same version when the page was read
    if ((await this.versionOf(listing.collectionId)) === start.version) return true;
    this.stats.stale++;
    if (this.sets.get(listing.key)?.version === start.version) this.sets.delete(listing.key);
    this.read(listing);
    return false;
  }

  /** Reads a listing's anchors, once however many pages ask at the same time. */
  private read(listing: AnchoredListing): void {
    if (this.reading.has(listing.key)) return;
    const started = performance.now();
    if (started < (this.nextReadAt.get(listing.key) ?? 0)) return;
    const reading = this.readAnchors(listing)
      .then((set) => {
        const finished = performance.now();
        remember(this.nextReadAt, listing.key, finished + 20 * (finished - started), this.capacity);
        if (set) remember(this.sets, listing.key, set, this.capacity);
        else this.sets.delete(listing.key);
      })
      .catch(() => {
        // the database went away (a platform closing) or is busy: the next deep page asks again
      })
      .finally(() => this.reading.delete(listing.key));
    this.reading.set(listing.key, reading);
  }

  /** Waits for every read under way (tests, and a platform closing). */
  async settled(): Promise<void> {
    await Promise.all(this.reading.values());
  }

  private async readAnchors(listing: AnchoredListing): Promise<AnchorSet | undefined> {
    const lead = listing.order[0] as SortItem;
    const column = sql.ref(lead.column);
    const direction = sql.raw(lead.order);
    // One statement, so the version and the anchors are of the same moment. rank() - 1 is how many
    // rows hold a key before this one's; every spacing-th row (by any order within equal keys: only
    // its key is kept) gives an anchor.
    const ranked = listing.rows
      .clearSelect()
      .clearOrderBy()
      .select([
        sql<string | number>`${column}`.as('value'),
        sql<number>`rank() over (order by ${column} ${direction}) - 1`.as('position'),
        sql<number>`row_number() over (order by ${column} ${direction}) - 1`.as('n'),
      ]);
    const { rows } = await sql<{
      version: number | string;
      value: string | number | null;
      position: string | number | null;
    }>`
      select v.version, a.value, a.position
      from (select c.listing_version as version from collections c where c.id = ${listing.collectionId}) v
      left join (
        select t.value, t.position from ${ranked} t
        where t.n > 0 and t.n % ${this.spacing} = 0
      ) a on 1 = 1
      order by a.position`.execute(this.db);
    const first = rows[0];
    if (!first) return undefined; // the collection is gone
    const anchors: AnchorSet['anchors'] = [];
    for (const row of rows) {
      if (row.value === null || row.position === null) continue;
      const position = Number(row.position);
      // several rows of one key: they all start where the key does
      if (anchors.at(-1)?.position !== position) anchors.push({ value: row.value, position });
    }
    return { version: Number(first.version), anchors };
  }

  private async versionOf(collectionId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('collections')
      .select('listing_version')
      .where('id', '=', collectionId)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.listing_version);
  }
}

/** Sets `key` as the most recently used entry; the least recently used go past `capacity`. */
function remember<T>(map: Map<string, T>, key: string, value: T, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > capacity) map.delete(map.keys().next().value as string);
}
