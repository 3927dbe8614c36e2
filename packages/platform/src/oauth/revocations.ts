import { type Kysely, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Workers } from '../workers/runtime.ts';
import { SequenceGaps } from '../workers/sequence-gaps.ts';
import type { Worker } from '../workers/worker.ts';

/** Why a family of tokens ended, as its row says. */
export type RevocationReason =
  | 'LOGOUT'
  | 'REFRESH_TOKEN_REUSED'
  | 'AUTHORIZATION_CODE_MISUSED'
  | 'PASSWORD_CHANGED'
  | 'PASSWORD_RESET'
  | 'MEMBER_BLOCKED'
  | 'MEMBER_DISCONNECTED'
  | 'MEMBER_DELETED'
  /** Staff suspended by the owner (staff/service.ts). */
  | 'STAFF_SUSPENDED';

/** The PostgreSQL channel a revoking transaction notifies on commit. */
export const REVOCATIONS_CHANNEL = 'cartwheel_token_revocations';
/** The listening connection's `application_name`, as `pg_stat_activity` shows it. */
export const REVOCATIONS_LISTENER = 'cartwheel revocations';
/** How often a process asks for rows it has not read: SQLite's only way, PostgreSQL's safety net. */
export const REVOCATION_POLL_MS = 250;
const READ_PAGE = 1000;
/** At start, the numbers just below the highest that may belong to transactions still open. */
const STARTUP_LOOKBACK = 100;
const IN_CHUNK = 500;
const PRUNE_EVERY_MS = 60_000;
const LISTEN_RETRY_MS = { first: 250, last: 5000 };

export interface RevocationFollowerOptions {
  dialect: DialectName;
  /** The PostgreSQL server to LISTEN on (a connection of its own); SQLite only polls. */
  databaseUrl?: string | undefined;
  /** How long a revocation matters: the longest an access token issued before it may still live. */
  horizonMs: number;
  pollMs?: number;
  /** A poll or the listening connection failed; the follower carries on (polling, reconnecting). */
  onError?: (error: Error, what: string) => void;
  /** The process's background jobs: the poll is one of them (`token-revocations`). */
  workers: Workers;
}

/**
 * The token families this process refuses, fed by the `token_revocations` table: the families revoked
 * in the last `horizonMs` are read at start, then every new row (`seq > highest`) on each poll and as
 * soon as PostgreSQL notifies a revoking transaction's commit. The process that revokes remembers at
 * once. Checking a token is one `Map` lookup; nothing on a request's path reads the database.
 *
 * A PostgreSQL sequence hands out numbers before their transactions commit, so a row may appear after
 * a higher one: numbers skipped are asked for again until they appear or are given up (SequenceGaps).
 */
export class RevokedFamilies {
  /** Family id → when it was revoked (ms). */
  private readonly families = new Map<string, number>();
  private highest = 0;
  /** Numbers below `highest` not read yet. */
  private readonly missing: SequenceGaps;
  private readonly poller: Worker;
  private prunedAt = 0;
  private deleting: Promise<void> | undefined;
  private listener: pg.Client | undefined;
  private listenRetryMs = LISTEN_RETRY_MS.first;
  private listenRetry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly options: RevocationFollowerOptions,
  ) {
    this.missing = new SequenceGaps(options.workers.clock);
    // every process reads every revocation: no lease
    this.poller = options.workers.add({
      name: 'token-revocations',
      everyMs: options.pollMs ?? REVOCATION_POLL_MS,
      runAtStart: true,
      run: () =>
        this.poll().catch((error: Error) => {
          if (!this.closed) this.options.onError?.(error, 'reading token revocations');
        }),
    });
  }

  /** Whether this family's access tokens are refused: the hot path's one lookup. */
  has(familyId: string): boolean {
    return this.families.has(familyId);
  }

  /**
   * Writes the revocations in the transaction that revokes the families' refresh tokens, and (on
   * PostgreSQL) notifies every listening process when it commits. Call `remember` after the commit.
   */
  async record(
    trx: Transaction<Tables>,
    familyIds: readonly string[],
    reason: RevocationReason,
    memberId: string | null,
    at: Date,
  ): Promise<void> {
    const revokedAt = at.toISOString();
    for (let start = 0; start < familyIds.length; start += IN_CHUNK) {
      const chunk = familyIds.slice(start, start + IN_CHUNK);
      await trx
        .insertInto('token_revocations')
        .values(
          chunk.map((familyId) => ({
            family_id: familyId,
            member_id: memberId,
            reason,
            revoked_at: revokedAt,
          })),
        )
        .execute();
    }
    if (this.options.dialect === 'postgres') {
      await sql`select pg_notify(${REVOCATIONS_CHANNEL}, '')`.execute(trx);
    }
  }

  /** This process's own revocations, refused at once (the others hear of them from the table). */
  remember(familyIds: readonly string[], at: number): void {
    for (const familyId of familyIds) this.families.set(familyId, at);
  }

  /** Reads the revocations that still matter, then follows new ones until `close`. */
  async start(): Promise<void> {
    const since = new Date(Date.now() - this.options.horizonMs).toISOString();
    const live = await this.db
      .selectFrom('token_revocations')
      .select(['seq', 'family_id', 'revoked_at'])
      .where('revoked_at', '>=', since)
      .orderBy('seq')
      .execute();
    const last = await this.db
      .selectFrom('token_revocations')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    this.highest = Number(last?.seq ?? 0);
    const read = new Set<number>();
    for (const row of live) {
      this.apply(row.family_id, row.revoked_at);
      read.add(Number(row.seq));
    }
    // transactions that took their numbers before the highest but have not committed yet
    const from = Math.max(0, this.highest - STARTUP_LOOKBACK);
    let after = from;
    for (const seq of [...read].filter((seq) => seq > from).sort((a, b) => a - b)) {
      this.missing.skipped(after, seq);
      after = seq;
    }
    this.missing.skipped(after, this.highest + 1);

    if (this.options.dialect === 'postgres' && this.options.databaseUrl) this.listen();
    // the poll runs with the process's other jobs; this process refuses revoked tokens from now on
    this.poller.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.listenRetry);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => {});
    await this.poller.stop();
    await this.deleting;
  }

  /** Polls now, or right after the poll under way (a notification may name rows it already missed). */
  private pollSoon(): void {
    if (!this.closed) void this.poller.runNow();
  }

  private async poll(): Promise<void> {
    for (;;) {
      const rows = await this.db
        .selectFrom('token_revocations')
        .select(['seq', 'family_id', 'revoked_at'])
        .where('seq', '>', this.highest)
        .orderBy('seq')
        .limit(READ_PAGE)
        .execute();
      for (const row of rows) {
        const seq = Number(row.seq);
        this.missing.skipped(this.highest, seq);
        this.highest = Math.max(this.highest, seq);
        this.apply(row.family_id, row.revoked_at);
      }
      if (rows.length < READ_PAGE || this.closed) break;
    }
    await this.readMissing();
    this.prune();
  }

  /** Asks again for numbers skipped: rows whose transactions committed after a higher one's. */
  private async readMissing(): Promise<void> {
    if (this.missing.size === 0) return;
    const wanted = this.missing.awaited();
    for (let start = 0; start < wanted.length && !this.closed; start += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('token_revocations')
        .select(['seq', 'family_id', 'revoked_at'])
        .where('seq', 'in', wanted.slice(start, start + IN_CHUNK))
        .execute();
      for (const row of rows) {
        this.missing.found(Number(row.seq));
        this.apply(row.family_id, row.revoked_at);
      }
    }
  }

  private apply(familyId: string, revokedAt: string): void {
    const at = Date.parse(revokedAt);
    if (at > Date.now() - this.options.horizonMs) this.families.set(familyId, at);
  }

  /** Forgets revocations no token can outlive any more; now and then deletes their rows too. */
  private prune(): void {
    const now = Date.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    const oldest = now - this.options.horizonMs;
    for (const [familyId, at] of this.families) if (at <= oldest) this.families.delete(familyId);
    // an hour's slack: a process whose clock runs behind still reads what matters to it
    const before = new Date(oldest - 60 * 60 * 1000).toISOString();
    this.deleting = this.db
      .deleteFrom('token_revocations')
      .where('revoked_at', '<', before)
      .execute()
      .then(
        () => undefined,
        (error: Error) => {
          if (!this.closed) this.options.onError?.(error, 'deleting old token revocations');
        },
      );
  }

  /** A connection of its own that hears each revoking commit; it reconnects if it drops. */
  private listen(): void {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      keepAlive: true,
      application_name: REVOCATIONS_LISTENER,
    });
    this.listener = client;
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      if (error) this.options.onError?.(error, 'listening for token revocations');
      client.end().catch(() => {});
      if (this.closed) return;
      this.listenRetry = setTimeout(() => this.listen(), this.listenRetryMs);
      this.listenRetry.unref();
      this.listenRetryMs = Math.min(this.listenRetryMs * 2, LISTEN_RETRY_MS.last);
    };
    client.on('notification', () => this.pollSoon());
    client.on('error', (error) => lost(error));
    client.on('end', () => lost(new Error('the listening connection ended')));
    client
      .connect()
      .then(() => client.query(`LISTEN ${REVOCATIONS_CHANNEL}`))
      .then(() => {
        this.listenRetryMs = LISTEN_RETRY_MS.first;
        this.pollSoon(); // whatever committed while it was not listening
      })
      .catch((error: Error) => lost(error));
  }
}
