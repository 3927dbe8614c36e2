import { CompiledQuery, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { CompiledStatement } from '../db/compiled.ts';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Priced } from '../pricing/contract.ts';
import {
  catalogVersionNow,
  type PricingVersions,
  pricingVersionColumns,
  settingsVersionNow,
} from '../pricing/versions.ts';
import { nowIso } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import { PricedAnswers } from './priced-answers.ts';
import { SharedCommits } from './shared-commits.ts';
import { SharedReads } from './shared-reads.ts';
import {
  type CartContent,
  type CartOwner,
  CONTENT_COLUMNS,
  cartEvent,
  contentColumns,
  copyOf,
  fromRow,
  ownerKeyOf,
  ownerKeys,
  type StoredCart,
  sameContent,
  toRow,
  visitorKey,
} from './stored.ts';
import type { CartRow } from './tables.ts';

/** What names a cart row's revision: enough to know a remembered answer is still the cart's. */
const REVISION_COLUMNS = ['id', 'member_id', 'revision'] as const;
type RevisionColumn = (typeof REVISION_COLUMNS)[number];

/** A cart row as `readVersioned` reads it, with the pricing versions beside it. */
type VersionedRow = CartRow & { catalog_version: number | null; settings_version: number | null };

/** A price made for a change, before it was written: `cart` is the change as priced. */
export interface KnownPrice {
  cart: StoredCart;
  priced: Priced;
  until: number;
}

/** A cart change as the cart's rules (CartService) make it: the fast path only decides where it runs. */
export interface CartChange {
  /** Changes the cart (its own copy) as the call asks. */
  apply(cart: StoredCart): void;
  /** Prices the changed cart, refusing (a DomainError) what it may not hold; undefined: no price needed yet. */
  price(cart: StoredCart, versions: PricingVersions): Promise<KnownPrice | undefined>;
  /** The answer to the call, for the cart as written (`row`), priced at `versions`. */
  answer(
    cart: StoredCart,
    versions: PricingVersions,
    known: KnownPrice | undefined,
    row: CartRow,
  ): Promise<string>;
}

/**
 * The cart's fast path, the one place that answers cart calls from what this process remembers and
 * writes without holding the row's lock (docs/architecture.md, "The cart's fast path"):
 *
 * - `answers`: each owner's last priced answer as JSON text, with the row it was priced from
 *   (priced-answers.ts), served by `rememberedAnswer` while provably unchanged;
 * - `versionedReadSql`: the SQL text of `readVersioned`, by columns and number of owner keys;
 * - `sharedReads` / `sharedCommits`: SQLite's reads and short writes that arrive together, batched.
 *
 * Its changes (`change`) start from the remembered row and write only if the row and the pricing
 * versions are still those, so the answer is exactly what a read would have given. Anything else,
 * including an error of the fast path itself (logged and counted in `failures`), leaves the change to
 * CartService's normal path, which reads the cart and decides afresh.
 */
export class CartFastPath {
  private readonly answers = new PricedAnswers<StoredCart>();
  private readonly versionedReadSql = new Map<string, string>();
  private readonly sharedReads: SharedReads;
  private readonly sharedCommits: SharedCommits;
  private readonly db: Kysely<Tables>;
  /** Errors of the fast path since the process started (each also logged); the call then went the normal way. */
  failures = 0;

  constructor(
    database: Database,
    readonly log: Pick<Logger, 'warn'>,
  ) {
    this.db = database.db;
    this.sharedReads = new SharedReads(database.db, database.dialect);
    this.sharedCommits = new SharedCommits(database);
  }

  /**
   * `{"cart": ...}` as remembered for the owner, when one statement (the revision and the pricing
   * versions) shows it is still exactly the cart's answer; undefined otherwise.
   */
  async rememberedAnswer(owner: CartOwner): Promise<string | undefined> {
    const { row, versions, mergePending } = await this.readVersioned(owner, 'revision');
    if (!row || !versions || mergePending) return undefined;
    const key = { cartId: row.id, revision: Number(row.revision), versions };
    return this.answers.get(ownerKeyOf(owner), key);
  }

  /** Remembers `json`, the answer for `cart` priced at `versions` and good until `until`; `row`: as stored. */
  remember(cart: StoredCart, versions: PricingVersions, until: number, json: string, row?: CartRow): void {
    const key = { cartId: cart.id, revision: cart.revision, versions };
    this.answers.keep(cart.ownerKey, key, until, json, row, row ? cart : undefined);
  }

  /**
   * The change made without reading the cart first: from the row this process last remembered for
   * the owner, priced at the versions remembered with it, written only if, at the moment of writing,
   * the row is still at that revision, the pricing versions are still those, and no visitor cart
   * waits to merge into the member's. Undefined when there is no such row, any of that fails, the
   * change is refused or changes nothing, or the fast path fails: the caller then goes the normal way.
   */
  async change(owner: CartOwner, change: CartChange): Promise<string | undefined> {
    const start = this.answers.lastRow(ownerKeyOf(owner));
    if (!start) return undefined;
    try {
      const cart = start.read ? copyOf(start.read) : fromRow(start.row);
      change.apply(cart);
      const after = toRow(cart);
      if (sameContent(start.row, after)) return undefined;
      const known = await change.price(cart, start.versions);
      const written = await this.writeIfUnchanged(start.row, cart, after, {
        versions: start.versions,
        // a member's visitor cart may wait to merge; a visitor's own cart is the only one of its key
        waitingKey: owner.kind === 'member' ? visitorKey(owner.visitorId) : undefined,
      });
      return written && (await change.answer(cart, start.versions, known, written));
    } catch (error) {
      // a refusal is the cart's rules speaking: the normal path, from the cart as it is now, decides
      if (error instanceof DomainError) return undefined;
      this.failures += 1;
      this.log.warn(
        { cartId: start.row.id, err: error },
        'cart fast path failed; the change goes the normal way',
      );
      return undefined;
    }
  }

  /**
   * The owner's cart row (`revision`: only what names its revision) and, in the same statement, the
   * versions it is priced at (null when the owner has no cart). `mergePending`: a member whose visitor
   * cart still exists, to be merged first.
   */
  async readVersioned<Columns extends 'revision' | 'row'>(
    owner: CartOwner,
    columns: Columns,
  ): Promise<{
    row: (Columns extends 'row' ? CartRow : Pick<CartRow, RevisionColumn>) | undefined;
    mergePending: boolean;
    versions: PricingVersions | null;
  }> {
    const keys = ownerKeys(owner);
    const query = CompiledQuery.raw(this.versionedRead(keys.length, columns), keys);
    const { rows } = await this.sharedReads.run((db) => db.executeQuery<VersionedRow>(query));
    const first = rows[0];
    const versions =
      first && first.catalog_version !== null && first.settings_version !== null
        ? { catalog: Number(first.catalog_version), settings: Number(first.settings_version) }
        : null;
    const mergePending = owner.kind === 'member' && rows.some((row) => row.member_id === null);
    return { row: first, mergePending, versions };
  }

  /**
   * The SQL of `readVersioned`, built once for each number of owner keys: every GET makes this read,
   * and Kysely would build and compile the same text again each time (a third of the read's cost).
   */
  private versionedRead(keyCount: number, columns: 'revision' | 'row'): string {
    const name = `${columns}:${keyCount}`;
    let text = this.versionedReadSql.get(name);
    if (text === undefined) {
      const query = this.db.selectFrom('carts');
      text = (columns === 'row' ? query.selectAll() : query.select(REVISION_COLUMNS))
        .select(pricingVersionColumns)
        .where(
          'owner_key',
          'in',
          Array.from({ length: keyCount }, () => ''),
        )
        .compile().sql;
      this.versionedReadSql.set(name, text);
    }
    return text;
  }

  /**
   * Writes `cart`, the owner's row `read` and then changed (`content`: `toRow` of the change, taken
   * over as the row written), if the row still holds the revision read: one short transaction (or a
   * part of a shared one) of an update and its event, nothing read again. With `still`, also only if
   * the pricing versions are still those and no visitor cart waits to merge (`waitingKey`, for a
   * member). Answers the row as written; undefined when it was not, as another call changed or
   * deleted the cart meanwhile: the caller then applies its change under the row's lock.
   */
  async writeIfUnchanged(
    read: CartRow,
    cart: StoredCart,
    content: CartRow,
    still?: { versions: PricingVersions; waitingKey: string | undefined },
  ): Promise<CartRow | undefined> {
    const revision = Number(read.revision);
    cart.revision = revision + 1;
    cart.updatedAt = nowIso();
    // `content` is the caller's to give: it becomes the row as written, not copied (every copy of a
    // row's fourteen columns is a cost on every cart change's path)
    const row = content;
    row.revision = cart.revision;
    row.updated_at = cart.updatedAt;
    // Object.assign, not `{ ...row, readRevision }`: Node 20's V8 adds properties after a leading
    // spread slowly (~0.4 µs each)
    const values = Object.assign({}, row, { readRevision: revision });
    let statement: CompiledQuery;
    if (!still) statement = writeAtRevision.query(this.db, values);
    else {
      const versioned = Object.assign(values, {
        catalogVersion: still.versions.catalog,
        settingsVersion: still.versions.settings,
      });
      statement = still.waitingKey
        ? writeStill.query(this.db, Object.assign(versioned, { waitingKey: still.waitingKey }))
        : writeAtVersions.query(this.db, versioned);
    }
    return this.sharedCommits.run({
      statement,
      outcome: (changed) =>
        changed === 0
          ? { value: undefined, events: [] }
          : { value: row, events: [cartEvent('updated', cart)] },
    });
  }
}

type RevisionWrite = CartContent & { id: string; readRevision: number };

/** The write of `writeIfUnchanged`: the content, if the row is still at the revision read. */
const writeAtRevision = new CompiledStatement<RevisionWrite>(
  [...CONTENT_COLUMNS, 'id', 'readRevision'],
  (db, values) =>
    db
      .updateTable('carts')
      .set(contentColumns(values))
      .where('id', '=', values.id)
      .where('revision', '=', values.readRevision),
);

type VersionedWrite = RevisionWrite & { catalogVersion: number; settingsVersion: number };

/** As `writeAtRevision`, and only while the pricing versions are those the change was priced at. */
const atVersions = (db: Parameters<typeof writeAtRevision.query>[0], values: VersionedWrite) =>
  db
    .updateTable('carts')
    .set(contentColumns(values))
    .where('id', '=', values.id)
    .where('revision', '=', values.readRevision)
    .where(catalogVersionNow(), '=', values.catalogVersion)
    .where(settingsVersionNow(), '=', values.settingsVersion);

const VERSIONED_NAMES = [
  ...CONTENT_COLUMNS,
  'id',
  'readRevision',
  'catalogVersion',
  'settingsVersion',
] as const;

/** A visitor's change: nothing can wait to merge into a visitor's cart. */
const writeAtVersions = new CompiledStatement<VersionedWrite>(VERSIONED_NAMES, atVersions);

/**
 * A member's change: as `writeAtVersions`, and only while no visitor cart other than this one is
 * `waitingKey`'s (the member's visitor cart, still to merge).
 */
const writeStill = new CompiledStatement<VersionedWrite & { waitingKey: string }>(
  [...VERSIONED_NAMES, 'waitingKey'],
  (db, values) =>
    atVersions(db, values).where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('carts as waiting')
            .select('waiting.id')
            .where('waiting.owner_key', '=', values.waitingKey)
            .where('waiting.member_id', 'is', null)
            .where('waiting.id', '<>', values.id),
        ),
      ),
    ),
);
