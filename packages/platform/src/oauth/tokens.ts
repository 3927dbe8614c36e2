import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenResponse } from '@cartwheel/sdk';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Kysely, Transaction } from 'kysely';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { DomainError } from '../shared/errors.ts';
import { newId, newSecret } from '../shared/ids.ts';
import type { MemberPrincipal, Principal } from '../shared/principal.ts';
import type { RevocationReason, RevokedFamilies } from './revocations.ts';

/** Access tokens live four hours, as the hosted platform's do; refresh tokens ninety days. */
export const ACCESS_TOKEN_TTL_SECONDS = 4 * 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 90 * 24 * 60 * 60;
const ISSUER = 'cartwheel';
const VERIFIED_TOKENS_KEPT = 10_000;

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * A revocation matters while an access token issued before it may live; a refresh racing the
 * revocation may issue one a moment after it, hence the margin.
 */
export const REVOCATION_HORIZON_MS = (ACCESS_TOKEN_TTL_SECONDS + 5 * 60) * 1000;

interface Subject {
  clientId: string;
  visitorId: string;
  memberId: string | null;
  /** When the member proved who they are (ms); absent for a visitor. */
  signedInAt?: number;
}

interface Verified {
  principal: Principal;
  familyId: string;
  expiresAt: number;
}

/** What the token service asks of the other domains about a member it signs in or renews. */
export interface TokenDependencies {
  members: {
    /**
     * Whether a member may still be given tokens (not blocked, not deleted), asked inside the
     * transaction that stores the new refresh token, holding the member's row until it commits: a block
     * or delete made at the same moment either comes first and is seen, or waits and then finds the new
     * sign-in (members/sign-ins.ts).
     */
    maySignIn(memberId: string, executor: Kysely<Tables>): Promise<boolean>;
  };
  staff: {
    /**
     * The staff standing of a member signing in (staff/authorities.ts): its role (`OWNER` or the role's
     * name) is carried in the access token as `staff_role` for the apps to read. Informative only: what
     * a call may do is checked against the staff tables on each call, and suspension ends the sign-in.
     */
    authorityOf(memberId: string): Promise<{ role: string } | undefined>;
  };
}

/**
 * Issues and checks tokens. Access tokens are signed JWTs naming their refresh-token family (`fam`) and,
 * for a member, when they signed in (`auth_time`). They are checked without a database read, so any
 * platform process behind a load balancer can check them, against this process's memory of revoked
 * families (`RevokedFamilies`, fed by the database within a second). Refresh tokens are random, stored
 * only as hashes, rotated on each use, and a reused one revokes its whole family.
 */
export class TokenService {
  private readonly key: Uint8Array;
  /** Access tokens already checked, with who they name; bounded, oldest dropped first. */
  private readonly verified = new Map<string, Verified>();
  private readonly adminKeyHash: Buffer;

  constructor(
    private readonly db: Kysely<Tables>,
    signingSecret: string,
    /** SHA-256 (hex) of the admin API key: the key itself is never stored. */
    adminKeyHash: string,
    private readonly revoked: RevokedFamilies,
    private readonly deps: TokenDependencies,
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
    subject: { clientId: string; visitorId: string; memberId: string; signedInAt?: number },
    familyId: string = newId(),
  ): Promise<TokenResponse> {
    await this.requireClient(subject.clientId);
    return this.issue({ ...subject, signedInAt: subject.signedInAt ?? Date.now() }, familyId);
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

  /** Whether this family's tokens were revoked (as far as this process has heard). */
  isRevoked(familyId: string): boolean {
    return this.revoked.has(familyId);
  }

  /**
   * Logout: the caller's sign-in (its family: refresh and access tokens), with any other sign-in of
   * this member on this visitor and client.
   */
  async revokeMemberSignIn(principal: MemberPrincipal): Promise<void> {
    await this.endFamilies('LOGOUT', principal.memberId, async (trx) => [
      principal.familyId,
      ...(await trx
        .selectFrom('refresh_tokens')
        .select('family_id')
        .distinct()
        .where('member_id', '=', principal.memberId)
        .where('revoked_at', 'is', null)
        .where('client_id', '=', principal.clientId)
        .where('visitor_id', '=', principal.visitorId)
        .execute()
        .then((rows) => rows.map((row) => row.family_id))),
    ]);
  }

  /**
   * Ends every sign-in of a member (but `keep`, the caller's own, on a password change), in one
   * transaction with `along`, the change that ends them (the new password, the member's block).
   */
  async endSessionsOf(
    memberId: string,
    reason: RevocationReason,
    options: { keep?: string; along?: (trx: Transaction<Tables>) => Promise<void> } = {},
  ): Promise<void> {
    await this.endFamilies(
      reason,
      memberId,
      async (trx) => {
        let families = trx
          .selectFrom('refresh_tokens')
          .select('family_id')
          .distinct()
          .where('member_id', '=', memberId)
          .where('revoked_at', 'is', null);
        if (options.keep) families = families.where('family_id', '!=', options.keep);
        return (await families.execute()).map((row) => row.family_id);
      },
      options.along,
    );
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
    if (
      !row ||
      row.revoked_at ||
      row.expires_at <= now ||
      (clientId && row.client_id !== clientId) ||
      this.revoked.has(row.family_id)
    ) {
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
      await this.revokeFamily(row.family_id, 'REFRESH_TOKEN_REUSED');
      throw invalidGrant('refresh token was already used');
    }
    const subject: Subject = { clientId: row.client_id, visitorId: row.visitor_id, memberId: row.member_id };
    // the sign-in stays the one the member made; a row from before it was kept counts as long ago
    if (row.member_id) subject.signedInAt = row.signed_in_at ? Date.parse(row.signed_in_at) : 0;
    return this.issue(subject, row.family_id);
  }

  /** Ends a family: its refresh tokens stop renewing, its access tokens are refused everywhere. */
  async revokeFamily(familyId: string, reason: RevocationReason): Promise<void> {
    const owner = await this.db
      .selectFrom('refresh_tokens')
      .select('member_id')
      .where('family_id', '=', familyId)
      .executeTakeFirst();
    await this.endFamilies(reason, owner?.member_id ?? null, async () => [familyId]);
  }

  /**
   * Revokes the families `find` names, in one transaction with `along`: their refresh tokens and a
   * revocation row each, which every process reads; this one remembers them at once, after the commit.
   */
  private async endFamilies(
    reason: RevocationReason,
    memberId: string | null,
    find: (trx: Transaction<Tables>) => Promise<string[]>,
    along?: (trx: Transaction<Tables>) => Promise<void>,
  ): Promise<void> {
    const at = new Date();
    const families = await inTransaction(this.db, async (trx) => {
      await along?.(trx);
      const found = [...new Set(await find(trx))];
      for (let start = 0; start < found.length; start += 500) {
        await trx
          .updateTable('refresh_tokens')
          .set({ revoked_at: at.toISOString() })
          .where('family_id', 'in', found.slice(start, start + 500))
          .where('revoked_at', 'is', null)
          .execute();
      }
      if (found.length > 0) await this.revoked.record(trx, found, reason, memberId, at);
      return found;
    });
    this.revoked.remember(families, at.getTime());
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

  /**
   * Who a token already verified speaks for, while it has not expired; refused once its family is
   * revoked. Two lookups: this is the path of nearly every call.
   */
  private remembered(value: string): Principal | undefined {
    const known = this.verified.get(value);
    if (!known || known.expiresAt <= Date.now()) return undefined;
    if (this.revoked.has(known.familyId)) {
      this.verified.delete(value);
      throw tokenRevoked();
    }
    return known.principal;
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
    const familyId = payload.fam;
    // a token from before families were named could not be revoked: its holder renews it
    if (typeof familyId !== 'string') throw tokenRevoked();
    if (this.revoked.has(familyId)) throw tokenRevoked();
    let principal: Principal;
    if (typeof payload.mid === 'string') {
      if (typeof payload.auth_time !== 'number') throw tokenRevoked();
      principal = {
        kind: 'member',
        memberId: payload.mid,
        visitorId,
        clientId,
        familyId,
        signedInAt: payload.auth_time * 1000,
      };
    } else {
      principal = { kind: 'visitor', visitorId, clientId };
    }
    // a visitor makes many calls with one token: check its signature once, until it expires
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(value, { principal, familyId, expiresAt: (payload.exp ?? 0) * 1000 });
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
    const staffRole = subject.memberId
      ? (await this.deps.staff.authorityOf(subject.memberId))?.role
      : undefined;
    const accessToken = await new SignJWT({
      ...(staffRole ? { staff_role: staffRole } : {}),
      cid: subject.clientId,
      fam: familyId,
      ...(subject.memberId
        ? { mid: subject.memberId, auth_time: Math.floor((subject.signedInAt ?? Date.now()) / 1000) }
        : {}),
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
    const store = async (executor: Kysely<Tables>) => {
      const memberId = subject.memberId;
      if (memberId && !(await this.deps.members.maySignIn(memberId, executor))) {
        throw invalidGrant('the member may no longer sign in');
      }
      await executor
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
          signed_in_at:
            subject.memberId && subject.signedInAt !== undefined
              ? new Date(subject.signedInAt).toISOString()
              : null,
        })
        .execute();
    };
    if (subject.memberId) await inTransaction(this.db, store);
    else await store(this.db);
    return { access_token: accessToken, expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refreshToken };
  }
}

/** The token's sign-in ended (logout, a password change, a block) or it names none: sign in again. */
function tokenRevoked(): DomainError {
  return new DomainError('UNAUTHENTICATED', 'access token is no longer valid: its sign-in has ended');
}

function invalidGrant(description: string): DomainError {
  return new DomainError('UNAUTHENTICATED', description, [], { code: 'invalid_grant', description });
}
