import type { Generated } from 'kysely';

/** The OAuth domain's rows: clients, refresh tokens (made first, by migration 0001), codes, revocations. */
export interface OAuthTables {
  oauth_clients: {
    id: string;
    name: string;
    /** JSON array of exact redirect URIs. */
    redirect_uris: string;
    /** JSON array of origins (`http://localhost:4000`). */
    allowed_origins: string;
    created_at: string;
  };
  refresh_tokens: {
    /** SHA-256 of the token: the token itself is never stored. */
    token_hash: string;
    family_id: string;
    client_id: string;
    role: 'visitor' | 'member';
    visitor_id: string;
    member_id: string | null;
    created_at: string;
    expires_at: string;
    used_at: string | null;
    revoked_at: string | null;
    /** When the member proved who they are (a password, a reset link); kept across refreshes. Null before 0012. */
    signed_in_at: string | null;
  };
  /** Authorization codes (RFC 6749 §4.1.2): single use, sixty seconds, bound to client, redirect URI and PKCE. */
  oauth_codes: {
    /** SHA-256 of the code: the code itself is never stored. */
    code_hash: string;
    client_id: string;
    /** The redirect URI the authorization request named, which the exchange must repeat; null when none. */
    redirect_uri: string | null;
    /** RFC 7636 §4.2 S256 challenge. */
    code_challenge: string;
    /** The member tokens the code stands for, AES-256-GCM sealed under a key derived from the code. */
    sealed_tokens: string;
    /** The refresh-token family those tokens belong to: revoked when the code is misused. */
    token_family: string;
    created_at: string;
    expires_at: string;
    used_at: string | null;
  };
  /**
   * Who started each authorization request (`authorization-requests.ts`): the visitor whose token
   * created the login redirect session, by client and PKCE challenge; expires after an hour.
   */
  oauth_authorization_requests: {
    client_id: string;
    code_challenge: string;
    /** Null when two visitors named the same challenge: then neither is trusted with it. */
    visitor_id: string | null;
    created_at: string;
    expires_at: string;
  };
  /**
   * Ended token families, one row each, written in the transaction that revokes their refresh tokens.
   * Every process reads the new ones (`seq > last`) into memory and refuses those families' access
   * tokens; a row matters only while an access token issued before it may still live.
   */
  token_revocations: TokenRevocationRow;
}

export interface TokenRevocationRow {
  /** Increases with every row (never reused), so a process asks only for what it has not read. */
  seq: Generated<number>;
  family_id: string;
  /** The member whose sign-in ended; null for a visitor's family. */
  member_id: string | null;
  reason: string;
  revoked_at: string;
}
