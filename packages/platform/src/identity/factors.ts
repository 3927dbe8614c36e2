import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { sha256 } from '../oauth/tokens.ts';
import { applicationError, type DomainError } from '../shared/errors.ts';
import { newSecret } from '../shared/ids.ts';
import { tooManyWrongCodesForIdentity, verificationFailed } from './errors.ts';
import type { SecretBox } from './secret-box.ts';
import type { SessionHolder } from './sessions.ts';
import type { IdentityFactorRow, IdentityMfaChallengeRow, SecondFactorType } from './tables.ts';
import { AttemptLog, secondsUntil } from './throttle.ts';
import { matchingStep, newTotpSecret } from './totp.ts';
import {
  type EmailVerifications,
  IDENTITY_CODE_WINDOW_MS,
  MAX_WRONG_CODES_PER_IDENTITY,
  wrongCodeKey,
} from './verification.ts';

/** A sign-in's second step is open 15 minutes after its password was right. */
export const MFA_CHALLENGE_TTL_MS = 15 * 60 * 1000;
/** "Remember this device" spares the second step on it for 30 days. */
export const REMEMBER_DEVICE_MS = 30 * 24 * 60 * 60 * 1000;
/** Recovery codes made at once; each signs in once when the second factor is lost. */
export const RECOVERY_CODE_COUNT = 10;

export const noSuchChallenge = (): DomainError =>
  applicationError(
    'INVALID_ARGUMENT',
    'INVALID_STATE_TOKEN',
    'there is no sign-in waiting for a second step with this state token: sign in again',
  );
const factorNotActive = (type: string): DomainError =>
  applicationError(
    'FAILED_PRECONDITION',
    'FACTOR_NOT_ACTIVE',
    `the ${type} factor is not active for this account`,
    {
      factorType: type,
    },
  );

/**
 * Second factors (point 4's factor types EMAIL and TOTP, statuses INACTIVE, ACTIVE, REQUIRE_REENROLL),
 * recovery codes, the sign-ins waiting for their second step, and remembered devices. Every code tried
 * counts against the identity's wrong codes (verification.ts: 10 an hour, shared with the email
 * codes), counted before it is compared, so parallel guesses share the limit. A TOTP code is taken
 * once: the step it was made for is remembered, and an older or equal step is refused.
 */
export class SecondFactors {
  private readonly attempts: AttemptLog;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly verifications: EmailVerifications,
    /** Seals the authenticators' secrets at rest (secret-box.ts). */
    private readonly box: SecretBox,
    private readonly now: () => number = Date.now,
  ) {
    this.attempts = new AttemptLog(db);
  }

  async list(identityId: string): Promise<IdentityFactorRow[]> {
    return this.db
      .selectFrom('identity_factors')
      .selectAll()
      .where('identity_id', '=', identityId)
      .orderBy('type')
      .execute();
  }

  /** The factors that can take a second step now. */
  async active(identityId: string): Promise<SecondFactorType[]> {
    return (await this.list(identityId)).filter((row) => row.status === 'ACTIVE').map((row) => row.type);
  }

  /** Has the identity any factor at all (a REQUIRE_REENROLL one still means it turned the second step on)? */
  async enrolled(identityId: string): Promise<boolean> {
    return (await this.list(identityId)).some((row) => row.status !== 'INACTIVE');
  }

  /** Starts (or restarts) an authenticator: a new secret, INACTIVE until a code from it is given. */
  async startTotp(identityId: string): Promise<string> {
    const secret = newTotpSecret();
    await this.upsert(identityId, 'TOTP', {
      status: 'INACTIVE',
      secret: await this.box.seal(secret),
      last_used_step: null,
    });
    return secret;
  }

  /** Starts the email factor: a code to the login email, INACTIVE until it comes back. */
  async startEmail(identityId: string): Promise<string> {
    const started = await this.verifications.start(identityId, { visitorId: null, clientId: null }, false);
    await this.upsert(identityId, 'EMAIL', {
      status: 'INACTIVE',
      email_verification_id: started.verificationId,
    });
    return started.code;
  }

  /** Proves an enrolling factor with a code from it: ACTIVE, and a fresh set of recovery codes. */
  async activate(identityId: string, type: SecondFactorType, code: string): Promise<string[]> {
    const row = await this.row(identityId, type);
    if (!row || row.status === 'ACTIVE') throw factorNotActive(type);
    if (type === 'TOTP') await this.takeTotp(row, code);
    else {
      if (!row.email_verification_id) throw factorNotActive(type);
      await this.verifications.complete({ verificationId: row.email_verification_id }, code);
    }
    await this.set(identityId, type, { status: 'ACTIVE', email_verification_id: null });
    return this.newRecoveryCodes(identityId);
  }

  async remove(identityId: string, type: SecondFactorType): Promise<void> {
    await this.db
      .deleteFrom('identity_factors')
      .where('identity_id', '=', identityId)
      .where('type', '=', type)
      .execute();
    if (!(await this.enrolled(identityId))) {
      await this.db.deleteFrom('identity_recovery_codes').where('identity_id', '=', identityId).execute();
    }
  }

  /** A new set of recovery codes, replacing the old: shown once, kept only as their SHA-256. */
  async newRecoveryCodes(identityId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
      const text = randomBytes(5).toString('hex');
      return `${text.slice(0, 5)}-${text.slice(5)}`;
    });
    const at = new Date(this.now()).toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('identity_recovery_codes').where('identity_id', '=', identityId).execute();
      await trx
        .insertInto('identity_recovery_codes')
        .values(
          codes.map((code) => ({
            code_hash: sha256(code),
            identity_id: identityId,
            created_at: at,
            used_at: null,
          })),
        )
        .execute();
    });
    return codes;
  }

  /** Opens a sign-in's second step for the holder the password was right for; answers its state token. */
  async openChallenge(
    identityId: string,
    holder: SessionHolder,
    emailVerificationId: string | null,
  ): Promise<string> {
    const token = newSecret();
    const at = this.now();
    await this.db
      .insertInto('identity_mfa_challenges')
      .values({
        state_token_hash: sha256(token),
        identity_id: identityId,
        visitor_id: holder.visitorId,
        client_id: holder.clientId,
        email_verification_id: emailVerificationId,
        created_at: new Date(at).toISOString(),
        expires_at: new Date(at + MFA_CHALLENGE_TTL_MS).toISOString(),
        completed_at: null,
      })
      .execute();
    return token;
  }

  /** The sign-in waiting for its second step under `stateToken` (open, not expired). */
  async challenge(stateToken: string): Promise<IdentityMfaChallengeRow> {
    const row = await this.db
      .selectFrom('identity_mfa_challenges')
      .selectAll()
      .where('state_token_hash', '=', sha256(stateToken))
      .executeTakeFirst();
    if (!row || row.completed_at || row.expires_at <= new Date(this.now()).toISOString())
      throw noSuchChallenge();
    return row;
  }

  /**
   * The second step of `challenge` with `type`'s code (or a recovery code): the first right answer
   * completes it, once. A TOTP code, or a recovery code, leaves a factor in REQUIRE_REENROLL when it
   * was a recovery code (the authenticator is presumed lost).
   */
  async pass(
    challenge: IdentityMfaChallengeRow,
    type: SecondFactorType,
    answer: { code?: string; recoveryCode?: string },
  ): Promise<void> {
    if (answer.recoveryCode !== undefined) {
      await this.takeRecoveryCode(challenge.identity_id, answer.recoveryCode);
      await this.db
        .updateTable('identity_factors')
        .set({ status: 'REQUIRE_REENROLL', updated_at: new Date(this.now()).toISOString() })
        .where('identity_id', '=', challenge.identity_id)
        .where('type', '=', 'TOTP')
        .where('status', '=', 'ACTIVE')
        .execute();
    } else if (type === 'TOTP') {
      const row = await this.row(challenge.identity_id, 'TOTP');
      if (row?.status !== 'ACTIVE') throw factorNotActive('TOTP');
      await this.takeTotp(row, answer.code ?? '');
    } else {
      if (!challenge.email_verification_id) throw factorNotActive('EMAIL');
      await this.verifications.complete(
        { verificationId: challenge.email_verification_id },
        answer.code ?? '',
      );
    }
    const done = await this.db
      .updateTable('identity_mfa_challenges')
      .set({ completed_at: new Date(this.now()).toISOString() })
      .where('state_token_hash', '=', challenge.state_token_hash)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw noSuchChallenge();
  }

  /** Remembers this device for the identity: answers the cookie's value. */
  async rememberDevice(identityId: string): Promise<string> {
    const token = newSecret();
    const at = this.now();
    await this.db
      .insertInto('identity_remembered_devices')
      .values({
        token_hash: sha256(token),
        identity_id: identityId,
        created_at: new Date(at).toISOString(),
        expires_at: new Date(at + REMEMBER_DEVICE_MS).toISOString(),
      })
      .execute();
    return token;
  }

  async remembered(identityId: string, token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const row = await this.db
      .selectFrom('identity_remembered_devices')
      .select('expires_at')
      .where('token_hash', '=', sha256(token))
      .where('identity_id', '=', identityId)
      .executeTakeFirst();
    return row !== undefined && row.expires_at > new Date(this.now()).toISOString();
  }

  /** Forgets every remembered device of the identity (its second step changed). */
  async forgetDevices(identityId: string): Promise<void> {
    await this.db.deleteFrom('identity_remembered_devices').where('identity_id', '=', identityId).execute();
  }

  /** Counts a guess against the identity's wrong codes before it is compared; answers how to take it back. */
  private async countGuess(identityId: string) {
    const guess = await this.attempts.record(wrongCodeKey(identityId), IDENTITY_CODE_WINDOW_MS);
    if (guess.before >= MAX_WRONG_CODES_PER_IDENTITY) {
      await guess.withdraw();
      throw tooManyWrongCodesForIdentity(secondsUntil(guess.freesAt));
    }
    return guess;
  }

  /** A code from the authenticator, taken once: the step it matched is remembered atomically. */
  private async takeTotp(row: IdentityFactorRow, code: string): Promise<void> {
    const guess = await this.countGuess(row.identity_id);
    const secret = row.secret ? await this.box.open(row.secret) : undefined;
    const step = secret ? matchingStep(secret, code.trim(), this.now(), row.last_used_step) : undefined;
    if (step === undefined) throw verificationFailed('BAD_CODE');
    const taken = await this.db
      .updateTable('identity_factors')
      .set({ last_used_step: step, updated_at: new Date(this.now()).toISOString() })
      .where('identity_id', '=', row.identity_id)
      .where('type', '=', 'TOTP')
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    // a parallel call took this step (or a later one) first
    if (Number(taken.numUpdatedRows) === 0) throw verificationFailed('BAD_CODE');
    await guess.withdraw();
    // a secret stored before sealing, or under an older key, is sealed under the current key once used
    if (row.secret && secret) await this.reseal(row, row.secret, secret);
  }

  /**
   * Seals every stored authenticator secret not sealed under the current key (stored in the clear
   * before sealing existed, or under the database's key before CARTWHEEL_SECRET_KEY was set).
   * Answers how many it sealed; one that cannot be opened (an unknown key) is left as it is.
   */
  async sealStoredSecrets(): Promise<number> {
    const rows = await this.db
      .selectFrom('identity_factors')
      .selectAll()
      .where('secret', 'is not', null)
      .execute();
    let sealed = 0;
    for (const row of rows) {
      const stored = row.secret as string;
      if (await this.box.isCurrent(stored)) continue;
      const secret = await this.box.open(stored);
      if (secret && (await this.reseal(row, stored, secret))) sealed += 1;
    }
    return sealed;
  }

  /** Writes `secret` sealed under the current key where `stored` still is (another process may have). */
  private async reseal(row: IdentityFactorRow, stored: string, secret: string): Promise<boolean> {
    if (await this.box.isCurrent(stored)) return false;
    const done = await this.db
      .updateTable('identity_factors')
      .set({ secret: await this.box.seal(secret) })
      .where('identity_id', '=', row.identity_id)
      .where('type', '=', row.type)
      .where('secret', '=', stored)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  private async takeRecoveryCode(identityId: string, code: string): Promise<void> {
    const guess = await this.countGuess(identityId);
    const used = await this.db
      .updateTable('identity_recovery_codes')
      .set({ used_at: new Date(this.now()).toISOString() })
      .where('code_hash', '=', sha256(code.trim().toLowerCase()))
      .where('identity_id', '=', identityId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) throw verificationFailed('BAD_CODE');
    await guess.withdraw();
  }

  private async row(identityId: string, type: SecondFactorType): Promise<IdentityFactorRow | undefined> {
    return this.db
      .selectFrom('identity_factors')
      .selectAll()
      .where('identity_id', '=', identityId)
      .where('type', '=', type)
      .executeTakeFirst();
  }

  private async set(
    identityId: string,
    type: SecondFactorType,
    changes: Partial<Pick<IdentityFactorRow, 'status' | 'email_verification_id'>>,
  ): Promise<void> {
    await this.db
      .updateTable('identity_factors')
      .set({ ...changes, updated_at: new Date(this.now()).toISOString() })
      .where('identity_id', '=', identityId)
      .where('type', '=', type)
      .execute();
  }

  private async upsert(
    identityId: string,
    type: SecondFactorType,
    values: Partial<
      Pick<IdentityFactorRow, 'status' | 'secret' | 'email_verification_id' | 'last_used_step'>
    >,
  ): Promise<void> {
    const at = new Date(this.now()).toISOString();
    await this.db
      .insertInto('identity_factors')
      .values({
        identity_id: identityId,
        type,
        status: 'INACTIVE',
        secret: null,
        email_verification_id: null,
        last_used_step: null,
        ...values,
        created_at: at,
        updated_at: at,
      })
      .onConflict((conflict) =>
        conflict.columns(['identity_id', 'type']).doUpdateSet({ ...values, updated_at: at }),
      )
      .execute();
  }
}
