import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { sha256 } from '../oauth/tokens.ts';
import { applicationError } from '../shared/errors.ts';
import { newId, newSecret } from '../shared/ids.ts';
import { verificationFailed } from './errors.ts';
import type { SessionHolder } from './sessions.ts';
import type { IdentityVerificationRow } from './tables.ts';

/** A code lives 15 minutes and takes 5 tries; its state token lives an hour and 5 sends. */
export const CODE_TTL_MS = 15 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
export const STATE_TTL_MS = 60 * 60 * 1000;
export const MAX_CODE_SENDS = 5;

export interface StartedVerification {
  verificationId: string;
  /** Only for verifications a login started: the client holds it between the two calls. */
  stateToken: string | undefined;
  code: string;
}

/** How the caller names the verification: the login's state token, or the id an admin's start gave. */
export type VerificationRef = { stateToken: string } | { verificationId: string };

/** Six-digit email codes: stored salted and hashed, each wrong try counted in the database. */
export class EmailVerifications {
  constructor(private readonly db: Kysely<Tables>) {}

  async start(
    identityId: string,
    holder: SessionHolder,
    withStateToken: boolean,
  ): Promise<StartedVerification> {
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
    return { verificationId: id, stateToken, code };
  }

  /** A fresh code for a verification in progress; the old code stops working and the tries start over. */
  async resend(ref: VerificationRef): Promise<{ identityId: string; code: string }> {
    const row = await this.open(ref);
    if (row.sends >= MAX_CODE_SENDS) {
      throw applicationError(
        'RESOURCE_EXHAUSTED',
        'TOO_MANY_ATTEMPTS',
        'too many codes sent: sign in again',
        {
          reason: 'SEND_LIMIT',
        },
      );
    }
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
    if (Number(updated.numUpdatedRows) === 0) throw verificationFailed('NOT_FOUND');
    return { identityId: row.identity_id, code };
  }

  /**
   * Checks a code, counting the try before comparing so that parallel guesses share the same five.
   * Completes the verification when right; the row says whose login it was.
   */
  async complete(ref: VerificationRef, code: string): Promise<IdentityVerificationRow> {
    const row = await this.open(ref);
    if (row.attempts >= MAX_CODE_ATTEMPTS) throw tooManyWrongCodes();
    if (row.code_expires_at <= new Date().toISOString()) throw verificationFailed('CODE_EXPIRED');
    const counted = await this.db
      .updateTable('identity_verifications')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('attempts', '<', MAX_CODE_ATTEMPTS)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) === 0) throw tooManyWrongCodes();
    const expected = Buffer.from(row.code_digest, 'hex');
    const actual = Buffer.from(digest(row.id, code), 'hex');
    if (!timingSafeEqual(expected, actual)) {
      const after = await this.db
        .selectFrom('identity_verifications')
        .select('attempts')
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      throw verificationFailed('BAD_CODE', { attemptsLeft: Math.max(0, MAX_CODE_ATTEMPTS - after.attempts) });
    }
    const now = new Date().toISOString();
    const done = await this.db
      .updateTable('identity_verifications')
      .set({ completed_at: now })
      .where('id', '=', row.id)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw verificationFailed('NOT_FOUND');
    return { ...row, completed_at: now };
  }

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
}

const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Salted with the verification's id, so one table of six-digit digests fits no other row. */
const digest = (id: string, code: string): string =>
  createHash('sha256')
    .update(`${id}:${String(code).trim()}`)
    .digest('hex');

const tooManyWrongCodes = () =>
  applicationError('RESOURCE_EXHAUSTED', 'TOO_MANY_ATTEMPTS', 'too many wrong codes: ask for a new one', {
    reason: 'CODE_ATTEMPTS',
  });
