import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';

/**
 * How long an authorization request remembers whose it is: the shopper may take a while on the
 * hosted login page (a forgotten password, an emailed code). Past it, the code still signs the member
 * in, only as the visitor who logged in.
 */
export const AUTHORIZATION_REQUEST_TTL_MS = 60 * 60 * 1000;

/**
 * Which visitor started an authorization request. A login redirect session is created by the
 * visitor's own client, with its visitor token; the hosted login page the browser is then sent to runs
 * as a visitor of its own. The code the request ends with stands for member tokens of the visitor who
 * started it, so the visitor's cart is the member's afterwards, as with a direct login.
 *
 * A request is known by its client and its PKCE challenge: the challenge is first sent by the client
 * that holds its verifier, in this very call, and only that client can exchange the code. So a visitor
 * is named only by a holder of that visitor's token, and the tokens go only to the holder of the
 * verifier. A challenge claimed by two visitors names neither. A request is kept until it expires,
 * so a claim made later (by someone who saw the address) cannot take its place.
 */
export class AuthorizationRequests {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `visitorId` started the request of `clientId` with `codeChallenge`. */
  async started(clientId: string, codeChallenge: string, visitorId: string): Promise<void> {
    const now = this.now().getTime();
    await this.db
      .deleteFrom('oauth_authorization_requests')
      .where('expires_at', '<=', new Date(now).toISOString())
      .execute();
    await this.db
      .insertInto('oauth_authorization_requests')
      .values({
        client_id: clientId,
        code_challenge: codeChallenge,
        visitor_id: visitorId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + AUTHORIZATION_REQUEST_TTL_MS).toISOString(),
      })
      .onConflict((conflict) => conflict.columns(['client_id', 'code_challenge']).doNothing())
      .execute();
    // another visitor named the same challenge first: neither is trusted with it
    await this.db
      .updateTable('oauth_authorization_requests')
      .set({ visitor_id: null })
      .where('client_id', '=', clientId)
      .where('code_challenge', '=', codeChallenge)
      .where('visitor_id', '!=', visitorId)
      .execute();
  }

  /** The visitor who started the request, while it is remembered; undefined for none (or two). */
  async visitorOf(clientId: string, codeChallenge: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('oauth_authorization_requests')
      .select('visitor_id')
      .where('client_id', '=', clientId)
      .where('code_challenge', '=', codeChallenge)
      .where('expires_at', '>', this.now().toISOString())
      .executeTakeFirst();
    return row?.visitor_id ?? undefined;
  }
}
