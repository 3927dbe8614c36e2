import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { TokenResponse } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { DomainError } from '../shared/errors.ts';
import { newSecret } from '../shared/ids.ts';
import { sha256, type TokenService } from './tokens.ts';

/** RFC 6749 §4.1.2 / §10.5: a code lives sixty seconds and is good once. */
export const AUTHORIZATION_CODE_TTL_MS = 60 * 1000;

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface CodeRequest {
  clientId: string;
  /** The redirect URI of the authorization request, or null (a `web_message` answer without one). */
  redirectUri: string | null;
  codeChallenge: string;
  /** The member tokens the code stands for, made when the member's session token was accepted. */
  tokens: TokenResponse;
}

export interface CodeExchange {
  clientId: string | undefined;
  code: string | undefined;
  codeVerifier: string | undefined;
  redirectUri: string | undefined;
}

/**
 * Authorization codes (RFC 6749 §4.1.2-4.1.3 with RFC 7636 PKCE). The member tokens are made when the
 * code is, then sealed under a key derived from the code, so the database alone never yields them. A
 * code is single use: the first exchange burns it whatever its outcome; any failed or repeated exchange
 * revokes the tokens it stood for (RFC 6749 §4.1.2, "SHOULD revoke"), the access tokens a first
 * exchange already handed out included.
 */
export class AuthorizationCodes {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly tokens: TokenService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async issue(request: CodeRequest): Promise<string> {
    const code = newSecret();
    const family = await this.tokens.familyOf(request.tokens.refresh_token ?? '');
    if (!family) throw new Error('member tokens without a stored refresh token');
    const now = this.now().getTime();
    await this.db
      .insertInto('oauth_codes')
      .values({
        code_hash: sha256(code),
        client_id: request.clientId,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        sealed_tokens: seal(code, JSON.stringify({ ...request.tokens, issued_at: now })),
        token_family: family,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + AUTHORIZATION_CODE_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
    return code;
  }

  /** RFC 6749 §4.1.3 and RFC 7636 §4.6: the code, for the client, redirect URI and verifier it was bound to. */
  async redeem(exchange: CodeExchange): Promise<TokenResponse> {
    const { clientId, code, codeVerifier } = exchange;
    if (!code || !clientId || !codeVerifier) {
      throw invalidGrant('code, clientId and codeVerifier are required');
    }
    const hash = sha256(code);
    const row = await this.db
      .selectFrom('oauth_codes')
      .selectAll()
      .where('code_hash', '=', hash)
      .executeTakeFirst();
    if (!row) throw invalidGrant('authorization code is not valid');
    const now = this.now();
    const burnt = await this.db
      .updateTable('oauth_codes')
      .set({ used_at: now.toISOString() })
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    const refuse = async (description: string) => {
      await this.tokens.revokeFamily(row.token_family, 'AUTHORIZATION_CODE_MISUSED');
      return invalidGrant(description);
    };
    if (Number(burnt.numUpdatedRows) === 0) throw await refuse('authorization code was already used');
    if (row.expires_at <= now.toISOString()) throw await refuse('authorization code has expired');
    if (row.client_id !== clientId) throw await refuse('authorization code was issued to another client');
    if (row.redirect_uri !== null && row.redirect_uri !== exchange.redirectUri) {
      throw await refuse('redirectUri is not the one the code was issued for');
    }
    if (!CODE_VERIFIER.test(codeVerifier) || !challengeMatches(codeVerifier, row.code_challenge)) {
      throw await refuse('codeVerifier does not match the code challenge');
    }
    // the sign-in ended before its code was exchanged (a block, a password reset)
    if (this.tokens.isRevoked(row.token_family)) throw invalidGrant('authorization code is no longer valid');
    const sealed = JSON.parse(open(code, row.sealed_tokens)) as TokenResponse & { issued_at: number };
    const { issued_at: issuedAt, ...answer } = sealed;
    const elapsed = Math.floor((now.getTime() - issuedAt) / 1000);
    return { ...answer, expires_in: Math.max(1, answer.expires_in - elapsed) };
  }
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
function challengeMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

function keyOf(code: string): Buffer {
  return Buffer.from(hkdfSync('sha256', code, '', 'cartwheel authorization code', 32));
}

function seal(code: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(code), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

function open(code: string, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', keyOf(code), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
}

export function invalidGrant(description: string): DomainError {
  return new DomainError('UNAUTHENTICATED', description, [], { code: 'invalid_grant', description });
}
