import { CompiledQuery, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { CompiledStatement } from '../db/compiled.ts';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Priced } from '../pricing/contract.ts';
import { nowIso } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import {
  catalogVersionNow,
  type PricingVersions,
  pricingVersionColumns,
  settingsVersionNow,
} from '../store-settings/pricing-versions.ts';
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

/** The JSON text one process remembers in all (UTF-16 code units: about twice as many bytes). */
const MAX_ANSWER_TEXT = 16 * 1024 * 1024;

/**
 * An owner's last priced answer: what it was priced from (the cart at a revision, the catalog and the
 * settings at their pricing versions), until when the clock alone cannot change it (a discount or
 * coupon window), and, when the caller had it, the row it was priced from and the cart that row was
 * read or written as: where a next change may start, copying the cart instead of parsing the row
 * (kept here rather than in a WeakMap keyed by row, whose one entry per change cost the GC dearly).
 */
interface RememberedAnswer {
  cartId: string;
  revision: number;
  versions: PricingVersions;
  until: number;
  json: string;
  row: CartRow | undefined;
  /** Never altered once remembered: a change works on a copy (`copyOf`). */
  cart: StoredCart | undefined;
  /** What the answer and row take up, in UTF-16 code units. */
  size: number;
}

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
 * - `answerByOwner`: each owner's last priced answer as JSON text, with the row it was priced from,
 *   served by `rememberedAnswer` while provably unchanged. Pricing a cart reads the catalog and the
 *   settings and works through every line, and a shop reads its carts far more often than it
 *   changes them. An answer is exact, never merely recent: it is served only while the cart row's
 *   revision and the catalog's and the settings' pricing versions (read with the row, in one
 *   statement) are those it was priced at, and no discount rule or coupon window has opened or
 *   closed since; every change that can alter a price moves one of them in its own transaction
 *   (store-settings/pricing-versions.ts), whichever process makes it;
 * - `versionedReadSql`: the SQL text of `readVersioned`, by columns and number of owner keys;
 * - `sharedReads` / `sharedCommits`: SQLite's reads and short writes that arrive together, batched.
 *
 * Its changes (`change`) start from the remembered row and write only if the row and the pricing
 * versions are still those, so the answer is exactly what a read would have given. Anything else,
 * including an error of the fast path itself (logged and counted in `failures`), leaves the change to
 * CartService's normal path, which reads the cart and decides afresh.
 */
export class CartFastPath {
  private readonly answerByOwner = new Map<string, RememberedAnswer>();
  private answerText = 0;
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
    const remembered = this.answerByOwner.get(ownerKeyOf(owner));
    return remembered &&
      remembered.cartId === row.id &&
      remembered.revision === Number(row.revision) &&
      remembered.versions.catalog === versions.catalog &&
      remembered.versions.settings === versions.settings &&
      Date.now() < remembered.until
      ? remembered.json
      : undefined;
  }

  /**
   * Remembers `json`, the answer for `cart` (at its revision; `row`: as stored, when the caller has it)
   * priced from catalog and settings read no earlier than `versions` were (a newer read only makes it
   * miss sooner), good until `until`. An answer from an older revision of the cart than the one
   * remembered is not: calls on one cart may finish in another order than they wrote.
   */
  remember(cart: StoredCart, versions: PricingVersions, until: number, json: string, row?: CartRow): void {
    const ownerKey = cart.ownerKey;
    const last = this.answerByOwner.get(ownerKey);
    if (last && last.cartId === cart.id && last.revision > cart.revision) return;
    this.forget(ownerKey);
    const size = json.length + (row ? row.lines.length : 0);
    if (until <= Date.now() || size > MAX_ANSWER_TEXT / 16) return;
    // the owner remembered longest goes first (a Map iterates in insertion order)
    for (const oldest of this.answerByOwner.keys()) {
      if (this.answerText + size <= MAX_ANSWER_TEXT) break;
      this.forget(oldest);
    }
    const { id: cartId, revision } = cart;
    // every field named: V8 (Node 20) adds properties after a leading spread slowly, ~0.4 µs each
    const remembered = { cartId, revision, versions, until, json, row, cart: row ? cart : undefined, size };
    this.answerByOwner.set(ownerKey, remembered);
    this.answerText += size;
  }

  private forget(ownerKey: string): void {
    const remembered = this.answerByOwner.get(ownerKey);
    if (!remembered) return;
    this.answerByOwner.delete(ownerKey);
    this.answerText -= remembered.size;
  }

  /**
   * The change made without reading the cart first: from the row this process last remembered for
   * the owner, priced at the versions remembered with it, written only if, at the moment of writing,
   * the row is still at that revision, the pricing versions are still those, and no visitor cart
   * waits to merge into the member's. Undefined when there is no such row, any of that fails, the
   * change is refused or changes nothing, or the fast path fails before writing (logged and counted):
   * the caller then goes the normal way.
   */
  async change(owner: CartOwner, change: CartChange): Promise<string | undefined> {
    // not proof of anything: only where the change starts (it writes only if these are still so)
    const start = this.answerByOwner.get(ownerKeyOf(owner));
    if (!start?.row) return undefined;
    const startRow = start.row;
    let cart: StoredCart;
    let known: KnownPrice | undefined;
    let written: CartRow | undefined;
    try {
      cart = start.cart ? copyOf(start.cart) : fromRow(startRow);
      change.apply(cart);
      const after = toRow(cart);
      if (sameContent(startRow, after)) return undefined;
      known = await change.price(cart, start.versions);
      written = await this.writeIfUnchanged(startRow, cart, after, {
        versions: start.versions,
        // a member's visitor cart may wait to merge; a visitor's own cart is the only one of its key
        waitingKey: owner.kind === 'member' ? visitorKey(owner.visitorId) : undefined,
      });
    } catch (error) {
      // a refusal is the cart's rules speaking: the normal path, from the cart as it is now, decides
      if (error instanceof DomainError) return undefined;
      this.failures += 1;
      this.log.warn(
        { cartId: startRow.id, err: error },
        'cart fast path failed; the change goes the normal way',
      );
      return undefined;
    }
    // once written, the change is made: an error answering it is the call's, never made again
    return written && change.answer(cart, start.versions, known, written);
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
