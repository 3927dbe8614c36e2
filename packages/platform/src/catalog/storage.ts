import type { Kysely, Transaction } from 'kysely';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { PublicLinks } from '../shared/public-links.ts';
import { movePricingVersion } from '../store-settings/pricing-versions.ts';
import { HiddenCollections } from './hidden-collections.ts';
import type { StoreSettings } from './model.ts';
import { CatalogReadCache } from './read-cache.ts';
import type { FlagInput } from './schemas.ts';

/** Who reads: admins see hidden products and collections, and merchant data when they ask for it. */
export interface Viewer {
  admin: boolean;
}

/** How the catalog is set up (CatalogService's constructor). */
export interface CatalogOptions {
  publicUrl: string;
  dialect: DialectName;
  currency?: string;
  /** How long a visitor's read may be served again (0: never); see CatalogReadCache. */
  readCacheMs?: number;
  /** Rows between two anchors of a deep page (page-anchors.ts); 0: none. Default: the database's. */
  pageAnchorSpacing?: number;
}

/** A flag as the wire sends it: `true` in a body, `"true"` in a query string. */
export const truthy = (value: FlagInput | undefined) => value === true || value === 'true';

const NOTHING_HIDDEN: ReadonlySet<string> = new Set();

/**
 * What every part of the catalog shares: its database, the store's settings its documents are
 * rendered with, and what visitors' reads keep, which every write drops.
 */
export class CatalogStorage {
  readonly dialect: DialectName;
  readonly settings: StoreSettings;
  /** This process's public address: for the visitors' reads it keeps, and images sent back by URL. */
  readonly links: PublicLinks;
  /** Visitors' answers, kept for a moment (read-cache.ts). */
  readonly visitorReads: CatalogReadCache;
  /** What visitors' reads leave out of documents and filters. */
  private readonly hiddenCollections: HiddenCollections;

  constructor(
    readonly db: Kysely<Tables>,
    options: CatalogOptions,
  ) {
    this.dialect = options.dialect;
    this.settings = { currency: options.currency ?? 'USD' };
    this.links = new PublicLinks(options.publicUrl);
    this.visitorReads = new CatalogReadCache(options.readCacheMs ?? 0);
    this.hiddenCollections = new HiddenCollections(db);
  }

  /**
   * Every catalog write: one transaction that also moves the catalog's pricing version (cached cart
   * prices compare it, store-settings/pricing-versions.ts), then visitors' cached reads are dropped.
   */
  async write<T>(change: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
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
  hiddenFrom(viewer: Viewer): Promise<ReadonlySet<string>> | ReadonlySet<string> {
    return viewer.admin ? NOTHING_HIDDEN : this.hiddenCollections.get();
  }
}
