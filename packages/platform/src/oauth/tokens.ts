import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenResponse } from '@cartwheel/sdk';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { DomainError } from '../shared/errors.ts';
import { newId, newSecret } from '../shared/ids.ts';
import type { Principal } from '../shared/principal.ts';

/** Access tokens live four hours, as the hosted platform's do; refresh tokens ninety days. */
export const ACCESS_TOKEN_TTL_SECONDS = 4 * 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 90 * 24 * 60 * 60;
const ISSUER = 'cartwheel';
const VERIFIED_TOKENS_KEPT = 10_000;

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

interface Subject {
  clientId: string;
  visitorId: string;
  memberId: string | null;
}

/**
 * Issues and checks tokens. Access tokens are signed JWTs (checked without a database read, so any
 * platform process behind a load balancer can check them); refresh tokens are random, stored only as
 * hashes, rotated on each use, and a reused one revokes its whole family.
 */
export class TokenService {
  private readonly key: Uint8Array;
  /** Access tokens already checked, with who they name; bounded, oldest dropped first. */
  private readonly verified = new Map<string, { principal: Principal; expiresAt: number }>();
  private readonly adminKeyHash: Buffer;

  constructor(
    private readonly db: Kysely<Tables>,
    signingSecret: string,
    /** SHA-256 (hex) of the admin API key: the key itself is never stored. */
    adminKeyHash: string,
  ) {
    this.key = new TextEncoder().encode(signingSecret);
    this.adminKeyHash = Buffer.from(adminKeyHash, 'hex');
  }

  /** Anonymous visitor tokens for a registered client (`grantType: anonymous`). */
  async issueVisitorTokens(clientId: string): Promise<TokenResponse> {
    await this.requireClient(clientId);
    return this.issue({ clientId, visitorId: newId(), memberId: null }, newId());
  }

  /**
   * Member tokens for a visitor who signed in (refresh role member): what the authorization endpoint
   * hands out for a session token. Keeps the visitor id, so the visitor's cart stays theirs.
   */
  async issueMemberTokens(
    subject: { clientId: string; visitorId: string; memberId: string },
    familyId: string = newId(),
  ): Promise<TokenResponse> {
    await this.requireClient(subject.clientId);
    return this.issue(subject, familyId);
  }

  /** The family a refresh token belongs to, so whoever handed it out can revoke it later. */
  async familyOf(refreshToken: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('token_hash', '=', sha256(refreshToken))
      .executeTakeFirst();
    return row?.family_id;
  }

  /** Logout: every live refresh token of this member's sign-in on this visitor and client. */
  async revokeMemberSignIn(principal: { clientId: string; visitorId: string; memberId: string }) {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('client_id', '=', principal.clientId)
      .where('visitor_id', '=', principal.visitorId)
      .where('member_id', '=', principal.memberId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Rotates a refresh token (`grantType: refresh_token`). */
  async refresh(refreshToken: string, clientId: string | undefined): Promise<TokenResponse> {
    const hash = sha256(refreshToken);
    const row = await this.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', hash)
      .executeTakeFirst();
    const now = new Date().toISOString();
    if (!row || row.revoked_at || row.expires_at <= now || (clientId && row.client_id !== clientId)) {
      throw invalidGrant('refresh token is not valid');
    }
    // single use: whoever marks it used first wins; a second use means it leaked
    const marked = await this.db
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) {
      await this.revokeFamily(row.family_id);
      throw invalidGrant('refresh token was already used');
    }
    return this.issue(
      { clientId: row.client_id, visitorId: row.visitor_id, memberId: row.member_id },
      row.family_id,
    );
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Who the `Authorization` header names; a header that names no one is refused, never ignored. */
  async resolve(authorization: string | undefined): Promise<Principal> {
    if (!authorization) return { kind: 'anonymous' };
    const value = authorization.startsWith('Bearer ') ? authorization.slice(7) : authorization;
    // a visitor's token seen before needs no hashing against the admin key: most calls are these
    const known = this.remembered(value);
    if (known) return known;
    if (this.isAdminKey(value)) return { kind: 'admin' };
    const elevated = await this.resolveElevated(value);
    if (elevated) return { kind: 'admin' };
    return this.resolveAccessToken(value);
  }

  /**
   * `<access token>,<admin API key>` (the external-login grant's header): the caller acting with the
   * admin key on behalf of that token's visitor. Undefined when the header is not of that form; refused
   * when it is but either half is not valid.
   */
  async resolveElevated(
    authorization: string | undefined,
  ): Promise<{ visitorId: string; clientId: string } | undefined> {
    const value = authorization?.startsWith('Bearer ') ? authorization.slice(7) : authorization;
    const comma = value?.indexOf(',') ?? -1;
    if (!value || comma < 0) return undefined;
    const token = value.slice(0, comma).trim();
    const apiKey = value.slice(comma + 1).trim();
    if (!this.isAdminKey(apiKey)) {
      throw new DomainError('UNAUTHENTICATED', 'the API key after the access token is not valid');
    }
    const principal = await this.resolveAccessToken(token);
    if (principal.kind !== 'visitor' && principal.kind !== 'member') {
      throw new DomainError('UNAUTHENTICATED', 'access token is not valid or has expired');
    }
    return { visitorId: principal.visitorId, clientId: principal.clientId };
  }

  /** Who a token already verified speaks for, while it has not expired. */
  private remembered(value: string): Principal | undefined {
    const known = this.verified.get(value);
    return known && known.expiresAt > Date.now() ? known.principal : undefined;
  }

  private async resolveAccessToken(value: string): Promise<Principal> {
    const known = this.remembered(value);
    if (known) return known;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(value, this.key, { issuer: ISSUER, algorithms: ['HS256'] }));
    } catch {
      throw new DomainError('UNAUTHENTICATED', 'access token is not valid or has expired');
    }
    const clientId = String(payload.cid);
    const visitorId = String(payload.sub);
    const principal: Principal =
      typeof payload.mid === 'string'
        ? { kind: 'member', memberId: payload.mid, visitorId, clientId }
        : { kind: 'visitor', visitorId, clientId };
    // a visitor makes many calls with one token: check its signature once, until it expires
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(value, { principal, expiresAt: (payload.exp ?? 0) * 1000 });
    return principal;
  }

  isAdminKey(value: string): boolean {
    const candidate = Buffer.from(sha256(value), 'hex');
    return timingSafeEqual(candidate, this.adminKeyHash);
  }

  async requireClient(clientId: string): Promise<void> {
    const client = await this.db
      .selectFrom('oauth_clients')
      .select('id')
      .where('id', '=', clientId)
      .executeTakeFirst();
    if (!client) throw invalidGrant(`unknown client ${clientId}`);
  }

  private async issue(subject: Subject, familyId: string): Promise<TokenResponse> {
    const accessToken = await new SignJWT({
      cid: subject.clientId,
      ...(subject.memberId ? { mid: subject.memberId } : {}),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setSubject(subject.visitorId)
      .setIssuedAt()
      .setJti(newId())
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.key);
    const refreshToken = newSecret();
    const now = Date.now();
    await this.db
      .insertInto('refresh_tokens')
      .values({
        token_hash: sha256(refreshToken),
        family_id: familyId,
        client_id: subject.clientId,
        role: subject.memberId ? 'member' : 'visitor',
        visitor_id: subject.visitorId,
        member_id: subject.memberId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
        used_at: null,
        revoked_at: null,
      })
      .execute();
    return { access_token: accessToken, expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refreshToken };
  }
}

function invalidGrant(description: string): DomainError {
  return new DomainError('UNAUTHENTICATED', description, [], { code: 'invalid_grant', description });
}
