import type { PricingVersions } from '../pricing/versions.ts';
import type { CartRow } from './tables.ts';

/** What a remembered answer was priced from: the cart row as it was, and the versions of what prices it. */
export interface AnswerKey {
  cartId: string;
  revision: number;
  versions: PricingVersions;
}

interface RememberedAnswer<Read> extends AnswerKey {
  /** The first moment the clock alone may change the answer (a discount or coupon window). */
  until: number;
  json: string;
  /** The cart row the answer was priced from, when the caller had it: where a next change may start. */
  row: CartRow | undefined;
  /**
   * What the row was read or written as (never altered once kept), so that a change starting from
   * the row copies it instead of parsing the row again: kept here, with its row, rather than in a
   * WeakMap keyed by row, whose one entry per cart change cost the garbage collector dearly.
   */
  read: Read | undefined;
  /** What the answer and row take up, in UTF-16 code units. */
  size: number;
}

/** The JSON text one process remembers in all (UTF-16 code units: about twice as many bytes). */
const MAX_ANSWER_TEXT = 16 * 1024 * 1024;

/**
 * Each owner's last priced cart answer, as JSON text: pricing a cart reads the catalog and the settings
 * and works through every line, and a shop reads its carts far more often than it changes them. An
 * answer is exact, never merely recent: it is served only while the cart row's revision, the catalog's
 * and the settings' pricing versions (read with the row, in one statement) are those it was priced at,
 * and no discount rule or coupon window has opened or closed since. Every change that can alter a price
 * moves one of them in its own transaction (pricing/versions.ts), whichever process makes it.
 */
export class PricedAnswers<Read> {
  private readonly answerByOwner = new Map<string, RememberedAnswer<Read>>();
  private answerText = 0;

  /** The answer kept for `ownerKey` if it was priced from exactly `key`, and its time is not up. */
  get(ownerKey: string, key: AnswerKey): string | undefined {
    const remembered = this.answerByOwner.get(ownerKey);
    if (
      remembered &&
      remembered.cartId === key.cartId &&
      remembered.revision === key.revision &&
      remembered.versions.catalog === key.versions.catalog &&
      remembered.versions.settings === key.versions.settings &&
      Date.now() < remembered.until
    ) {
      return remembered.json;
    }
    return undefined;
  }

  /**
   * The cart row last kept for `ownerKey` and the versions it was priced at, however long ago: not
   * proof of anything, only where an optimistic change may start (it writes only if the row and the
   * versions are still these, see CartFastPath's `change`).
   */
  lastRow(ownerKey: string): { row: CartRow; versions: PricingVersions; read: Read | undefined } | undefined {
    const remembered = this.answerByOwner.get(ownerKey);
    return remembered?.row
      ? { row: remembered.row, versions: remembered.versions, read: remembered.read }
      : undefined;
  }

  /**
   * Keeps an answer priced from `key`: from the cart at that revision (`row`, when the caller has it),
   * and from catalog and settings read no earlier than `key.versions` were (a newer read only makes
   * the key miss sooner). An answer from an older revision of the same cart than the one kept is not
   * kept: calls on one cart may finish in another order than they wrote. `read`: what `row` was read
   * or written as.
   */
  keep(ownerKey: string, key: AnswerKey, until: number, json: string, row?: CartRow, read?: Read): void {
    const remembered = this.answerByOwner.get(ownerKey);
    if (remembered && remembered.cartId === key.cartId && remembered.revision > key.revision) return;
    this.forget(ownerKey);
    const size = json.length + (row ? row.lines.length : 0);
    if (until <= Date.now() || size > MAX_ANSWER_TEXT / 16) return;
    // the owner kept longest goes first (a Map iterates in insertion order)
    for (const oldest of this.answerByOwner.keys()) {
      if (this.answerText + size <= MAX_ANSWER_TEXT) break;
      this.forget(oldest);
    }
    // every field named: V8 (Node 20) adds properties after a leading spread slowly, ~0.4 µs each
    const { cartId, revision, versions } = key;
    this.answerByOwner.set(ownerKey, { cartId, revision, versions, until, json, row, read, size });
    this.answerText += size;
  }

  /** Drops the answer kept for `ownerKey`, if any. */
  forget(ownerKey: string): void {
    const remembered = this.answerByOwner.get(ownerKey);
    if (!remembered) return;
    this.answerByOwner.delete(ownerKey);
    this.answerText -= remembered.size;
  }
}
