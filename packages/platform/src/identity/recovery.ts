import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { sha256 } from '../oauth/tokens.ts';
import { newSecret } from '../shared/ids.ts';
import { invalidRecoveryToken } from './errors.ts';
import type { IdentityRecoveryTokenRow } from './tables.ts';

/** A reset link works for an hour, an activation link (an admin's invitation) for three days. */
export const RECOVERY_TOKEN_TTL_MS = 60 * 60 * 1000;
export const ACTIVATION_TOKEN_TTL_MS = 3 * 24 * 60 * 60 * 1000;
/** At most this many links per identity in `LINK_BURST_WINDOW_MS`: nobody's mailbox gets flooded. */
export const MAX_LINKS_PER_WINDOW = 3;
export const LINK_BURST_WINDOW_MS = 15 * 60 * 1000;

/** Single-use links that let whoever reads the identity's mailbox set its password. */
export class RecoveryTokens {
  constructor(private readonly db: Kysely<Tables>) {}

  /** A new link's token, or undefined when the identity was sent too many lately. */
  async issue(
    identityId: string,
    purpose: IdentityRecoveryTokenRow['purpose'],
    clientId: string | null,
  ): Promise<string | undefined> {
    const now = Date.now();
    const recent = await this.db
      .selectFrom('identity_recovery_tokens')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('identity_id', '=', identityId)
      .where('created_at', '>', new Date(now - LINK_BURST_WINDOW_MS).toISOString())
      .executeTakeFirstOrThrow();
    if (Number(recent.count) >= MAX_LINKS_PER_WINDOW) return undefined;
    const token = newSecret();
    await this.db
      .insertInto('identity_recovery_tokens')
      .values({
        token_hash: sha256(token),
        identity_id: identityId,
        purpose,
        client_id: clientId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(
          now + (purpose === 'ACTIVATION' ? ACTIVATION_TOKEN_TTL_MS : RECOVERY_TOKEN_TTL_MS),
        ).toISOString(),
        used_at: null,
      })
      .execute();
    return token;
  }

  /** Uses up a link's token (the first caller wins) and retires every other link of the identity. */
  async consume(token: string): Promise<IdentityRecoveryTokenRow> {
    const hash = sha256(token);
    const row = await this.db
      .selectFrom('identity_recovery_tokens')
      .selectAll()
      .where('token_hash', '=', hash)
      .executeTakeFirst();
    const now = new Date().toISOString();
    if (!row || row.used_at || row.expires_at <= now) throw invalidRecoveryToken();
    const marked = await this.db
      .updateTable('identity_recovery_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) throw invalidRecoveryToken();
    await this.db
      .updateTable('identity_recovery_tokens')
      .set({ used_at: now })
      .where('identity_id', '=', row.identity_id)
      .where('used_at', 'is', null)
      .execute();
    return { ...row, used_at: now };
  }
}
