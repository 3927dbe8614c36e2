import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { sha256 } from '../oauth/tokens.ts';
import { newId, newSecret } from '../shared/ids.ts';
import {
  tooManyCodesForIdentity,
  tooManyResends,
  tooManyWrongCodes,
  tooManyWrongCodesForIdentity,
  verificationFailed,
} from './errors.ts';
import type { SessionHolder } from './sessions.ts';
import type { IdentityVerificationRow } from './tables.ts';
import { AttemptLog, secondsUntil } from './throttle.ts';

/** A code lives 15 minutes and takes 5 tries; its state token lives an hour and 5 sends. */
export const CODE_TTL_MS = 15 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
export const STATE_TTL_MS = 60 * 60 * 1000;
export const MAX_CODE_SENDS = 5;
/**
 * Per identity, whatever the logins and codes: 10 wrong codes an hour, and 10 codes sent. A new login
 * brings a new code but no new tries, so a code cannot be guessed by signing in again and again.
 */
export const IDENTITY_CODE_WINDOW_MS = 60 * 60 * 1000;
export const MAX_WRONG_CODES_PER_IDENTITY = 10;
export const MAX_CODES_SENT_PER_IDENTITY = 10;

/** The attempt log's keys of an identity's codes. */
export const wrongCodeKey = (identityId: string) => `code-guess:${identityId}`;
export const codeSentKey = (identityId: string) => `code-sent:${identityId}`;

export interface StartedVerification {
  verificationId: string;
  /** Only for verifications a login started: the client holds it between the two calls. */
  stateToken: string | undefined;
  code: string;
}

/** How the caller names the verification: the login's state token, or the id an admin's start gave. */
export type VerificationRef = { stateToken: string } | { verificationId: string };

/**
 * Six-digit email codes: stored salted and hashed, each try counted in the database. Only the code
 * sent last to an identity works (`identity_live_verifications`); wrong codes and codes sent are
 * also counted per identity, across its logins.
 */
export class EmailVerifications {
  private readonly attempts: AttemptLog;

  constructor(private readonly db: Kysely<Tables>) {
    this.attempts = new AttemptLog(db);
  }

  /** A new verification, whose code is now the identity's only working one. */
  async start(
    identityId: string,
    holder: SessionHolder,
    withStateToken: boolean,
  ): Promise<StartedVerification> {
    await this.countSend(identityId);
    const id = newId();
    const stateToken = withStateToken ? newSecret() : undefined;
    const code = newCode();
    const now = Date.now();
    await this.db
      .insertInto('identity_verifications')
      .values({
        id,
        state_token_hash: stateToken ? sha256(stateToken) : null,
        identity_id: identityId,
        visitor_id: holder.visitorId,
        client_id: holder.clientId,
        code_digest: digest(id, code),
        code_expires_at: new Date(now + CODE_TTL_MS).toISOString(),
        attempts: 0,
        sends: 1,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + STATE_TTL_MS).toISOString(),
        completed_at: null,
      })
      .execute();
    await this.makeLive(identityId, id);
    return { verificationId: id, stateToken, code };
  }

  /**
   * A fresh code for a verification in progress; the tries start over. It becomes the identity's only
   * working code: the verification's old code and every other login's stop working.
   */
  async resend(ref: VerificationRef): Promise<{ identityId: string; code: string }> {
    const row = await this.open(ref);
    if (row.sends >= MAX_CODE_SENDS) throw tooManyResends();
    const sent = await this.countSend(row.identity_id);
    const code = newCode();
    const updated = await this.db
      .updateTable('identity_verifications')
      .set({
        code_digest: digest(row.id, code),
        code_expires_at: new Date(Date.now() + CODE_TTL_MS).toISOString(),
        attempts: 0,
        sends: row.sends + 1,
      })
      .where('id', '=', row.id)
      .where('sends', '=', row.sends) // two resends at once: one wins
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await sent.withdraw();
      throw verificationFailed('NOT_FOUND');
    }
    await this.makeLive(row.identity_id, row.id);
    return { identityId: row.identity_id, code };
  }

  /**
   * Checks a code, counting the try before comparing, against the code's five and the identity's ten
   * an hour, so that parallel guesses share them. Completes the verification when right; the row says
   * whose login it was.
   */
  async complete(ref: VerificationRef, code: string): Promise<IdentityVerificationRow> {
    const row = await this.open(ref);
    if (!(await this.isLive(row))) throw verificationFailed('NOT_FOUND');
    if (row.attempts >= MAX_CODE_ATTEMPTS) throw tooManyWrongCodes();
    if (row.code_expires_at <= new Date().toISOString()) throw verificationFailed('CODE_EXPIRED');

    const guess = await this.attempts.record(wrongCodeKey(row.identity_id), IDENTITY_CODE_WINDOW_MS);
    if (guess.before >= MAX_WRONG_CODES_PER_IDENTITY) {
      await guess.withdraw();
      throw tooManyWrongCodesForIdentity(secondsUntil(guess.freesAt));
    }
    const counted = await this.db
      .updateTable('identity_verifications')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('attempts', '<', MAX_CODE_ATTEMPTS)
      .where('completed_at', 'is', null)
      .where((eb) => eb.exists(this.liveQuery(row)))
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) === 0) {
      await guess.withdraw();
      // another call completed it, a newer code replaced it, or parallel guesses used its tries
      const now = await this.open(ref);
      if (!(await this.isLive(now))) throw verificationFailed('NOT_FOUND');
      throw tooManyWrongCodes();
    }

    const expected = Buffer.from(row.code_digest, 'hex');
    const actual = Buffer.from(digest(row.id, code), 'hex');
    if (!timingSafeEqual(expected, actual)) {
      const after = await this.db
        .selectFrom('identity_verifications')
        .select('attempts')
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      const attemptsLeft = Math.min(
        MAX_CODE_ATTEMPTS - after.attempts,
        MAX_WRONG_CODES_PER_IDENTITY - guess.before - 1,
      );
      throw verificationFailed('BAD_CODE', { attemptsLeft: Math.max(0, attemptsLeft) });
    }
    const now = new Date().toISOString();
    const done = await this.db
      .updateTable('identity_verifications')
      .set({ completed_at: now })
      .where('id', '=', row.id)
      .where('completed_at', 'is', null)
      .where((eb) => eb.exists(this.liveQuery(row)))
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw verificationFailed('NOT_FOUND');
    // the email is proven: whatever was guessed at it before no longer matters
    await this.attempts.clear(wrongCodeKey(row.identity_id));
    return { ...row, completed_at: now };
  }

  /** A verification in progress (not completed, its state not expired), live or not. */
  private async open(ref: VerificationRef): Promise<IdentityVerificationRow> {
    let query = this.db.selectFrom('identity_verifications').selectAll();
    query =
      'stateToken' in ref
        ? query.where('state_token_hash', '=', sha256(ref.stateToken))
        : query.where('id', '=', ref.verificationId);
    const row = await query.executeTakeFirst();
    if (!row || row.completed_at || row.expires_at <= new Date().toISOString())
      throw verificationFailed('NOT_FOUND');
    return row;
  }

  /** Counts a code sent to the identity, refusing it past the identity's limit. */
  private async countSend(identityId: string) {
    const sent = await this.attempts.record(codeSentKey(identityId), IDENTITY_CODE_WINDOW_MS);
    if (sent.before >= MAX_CODES_SENT_PER_IDENTITY) {
      await sent.withdraw();
      throw tooManyCodesForIdentity(secondsUntil(sent.freesAt));
    }
    return sent;
  }

  /** The identity's code is now this verification's: the last writer wins, so one is live at a time. */
  private async makeLive(identityId: string, verificationId: string): Promise<void> {
    const updatedAt = new Date().toISOString();
    await this.db
      .insertInto('identity_live_verifications')
      .values({ identity_id: identityId, verification_id: verificationId, updated_at: updatedAt })
      .onConflict((oc) =>
        oc.column('identity_id').doUpdateSet({ verification_id: verificationId, updated_at: updatedAt }),
      )
      .execute();
  }

  private liveQuery(row: IdentityVerificationRow) {
    return this.db
      .selectFrom('identity_live_verifications')
      .select('identity_id')
      .where('identity_id', '=', row.identity_id)
      .where('verification_id', '=', row.id);
  }

  private async isLive(row: IdentityVerificationRow): Promise<boolean> {
    return (await this.liveQuery(row).executeTakeFirst()) !== undefined;
  }
}

const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Salted with the verification's id, so one table of six-digit digests fits no other row. */
const digest = (id: string, code: string): string =>
  createHash('sha256')
    .update(`${id}:${String(code).trim()}`)
    .digest('hex');
