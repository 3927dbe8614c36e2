import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { sha256 } from '../oauth/tokens.ts';
import { newSecret } from '../shared/ids.ts';
import { invalidSessionToken } from './errors.ts';

/** A session token is worth member tokens once, for ten minutes. */
export const SESSION_TOKEN_TTL_MS = 10 * 60 * 1000;

export interface SessionHolder {
  visitorId: string | null;
  clientId: string | null;
}

/** Session tokens: the proof of a finished login that the authorization endpoint trades for tokens. */
export class SessionTokens {
  constructor(private readonly db: Kysely<Tables>) {}

  async issue(identityId: string, holder: SessionHolder): Promise<string> {
    const token = newSecret();
    const now = Date.now();
    await this.db
      .insertInto('identity_sessions')
      .values({
        token_hash: sha256(token),
        identity_id: identityId,
        visitor_id: holder.visitorId,
        client_id: holder.clientId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + SESSION_TOKEN_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
    return token;
  }

  /**
   * Uses up a session token for `clientId`: it must be unused, unexpired, and made for that client
   * (or by an admin's sign-on, which names no client). The first caller wins a race.
   */
  async consume(token: string, clientId: string): Promise<{ identityId: string; visitorId: string | null }> {
    const hash = sha256(token);
    const row = await this.db
      .selectFrom('identity_sessions')
      .selectAll()
      .where('token_hash', '=', hash)
      .executeTakeFirst();
    const now = new Date().toISOString();
    if (!row || row.used_at || row.expires_at <= now || (row.client_id && row.client_id !== clientId)) {
      throw invalidSessionToken();
    }
    const marked = await this.db
      .updateTable('identity_sessions')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) throw invalidSessionToken();
    return { identityId: row.identity_id, visitorId: row.visitor_id };
  }
}
