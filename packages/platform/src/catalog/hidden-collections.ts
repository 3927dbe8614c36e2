import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';

/**
 * How long a process keeps the set of hidden collections: a collection another process hides (or
 * shows) is left out of (or back in) this one's visitor reads within this time. Its own writes count
 * at once. Kept even when visitors' reads are not cached, so no read pays a query for it.
 */
export const HIDDEN_COLLECTIONS_TTL_MS = 1000;

/**
 * The collections visitors may not see. A product's documents are rendered once, for everyone, and
 * name all its collections; a visitor's read leaves the hidden ones out (`withoutCollections`), and a
 * visitor's filter reads a hidden collection as one no product is in. A write through this process
 * empties it (`clear`); another process's write shows after at most `ttlMs`.
 */
export class HiddenCollections {
  private ids: ReadonlySet<string> | undefined;
  private expires = 0;
  private generation = 0;
  /** The read under way, which every reader arriving meanwhile waits for. */
  private loading: Promise<ReadonlySet<string>> | undefined;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly ttlMs = HIDDEN_COLLECTIONS_TTL_MS,
  ) {}

  get(): Promise<ReadonlySet<string>> | ReadonlySet<string> {
    if (this.ids && Date.now() < this.expires) return this.ids;
    if (!this.loading) {
      const loading = this.load().finally(() => {
        if (this.loading === loading) this.loading = undefined;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  clear(): void {
    this.generation++;
    this.ids = undefined;
    this.loading = undefined;
  }

  private async load(): Promise<ReadonlySet<string>> {
    const generation = this.generation;
    const rows = await this.db.selectFrom('collections').select('id').where('visible', '=', 0).execute();
    const ids = new Set(rows.map((row) => row.id));
    // a write that landed while this read ran may have changed the answer: don't keep it
    if (generation === this.generation) {
      this.ids = ids;
      this.expires = Date.now() + this.ttlMs;
    }
    return ids;
  }
}

const COLLECTION_IDS = '"collectionIds":[';

/**
 * A product or store-variant document as JSON text, without the `hidden` collections in its
 * `collectionIds`. The first `"collectionIds":[` in a document is that field: `renderProduct` writes
 * it before any key a merchant chooses (seoData, option names), and inside a string the quotes would
 * be escaped. Collection ids are the platform's own (no quote, backslash or bracket in them), so the
 * list is read as text, without parsing the document or the list.
 */
export function withoutCollections(doc: string, hidden: ReadonlySet<string>): string {
  if (hidden.size === 0) return doc;
  const start = doc.indexOf(COLLECTION_IDS);
  if (start < 0) return doc;
  const open = start + COLLECTION_IDS.length;
  const close = doc.indexOf(']', open);
  if (close <= open + 1) return doc; // none
  const ids = doc.slice(open + 1, close - 1).split('","');
  const shown: string[] = [];
  for (const id of ids) if (!hidden.has(id)) shown.push(id);
  if (shown.length === ids.length) return doc;
  const list = shown.length === 0 ? '' : `"${shown.join('","')}"`;
  return `${doc.slice(0, open)}${list}${doc.slice(close)}`;
}
