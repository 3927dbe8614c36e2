import type { Clock } from '../shared/clock.ts';

/** A number skipped by the sequence is waited for this long (a transaction still open), then given up. */
export const GAP_WAIT_MS = 60_000;
/** At most this many skipped numbers are waited for at once (a rolled-back mass insert, say). */
const GAPS_TRACKED = 10_000;

/**
 * The numbers a reader of a table keyed by a sequence has seen skipped. A PostgreSQL sequence hands
 * out numbers before their transactions commit, so a row may appear after a higher one: a reader that
 * meets a jump notes the numbers it skipped and waits for them until they appear or `waitMs` has
 * passed (their transaction rolled back). SQLite writes one transaction at a time: it never skips.
 * The token revocation follower and the event bus's readers both read through this.
 */
export class SequenceGaps {
  /** Skipped number → when it was first missed (the clock's ms). */
  private readonly missing = new Map<number, number>();

  constructor(
    private readonly clock: Clock,
    private readonly waitMs = GAP_WAIT_MS,
  ) {}

  /** Notes the numbers strictly between `after` and `seq` as missing (those known already keep their time). */
  skipped(after: number, seq: number): void {
    const now = this.clock.now();
    if (seq - after - 1 > GAPS_TRACKED - this.missing.size) return; // too many to wait for: given up at once
    for (let number = after + 1; number < seq; number++) {
      if (!this.missing.has(number)) this.missing.set(number, now);
    }
  }

  /** A missing number's row appeared. */
  found(seq: number): void {
    this.missing.delete(seq);
  }

  /** The numbers still worth waiting for, lowest first; those missing longer than `waitMs` are given up. */
  awaited(): number[] {
    const now = this.clock.now();
    for (const [number, since] of this.missing) if (now - since > this.waitMs) this.missing.delete(number);
    return [...this.missing.keys()].sort((a, b) => a - b);
  }

  /** Whether a number below `seq` is still awaited: a reader in sequence order stops before `seq`. */
  holdsBack(seq: number): boolean {
    return this.awaited().some((number) => number < seq);
  }

  get size(): number {
    return this.missing.size;
  }
}
