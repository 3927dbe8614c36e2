import type { IdentityPendingReason, IdentityStatus } from '@cartwheel/sdk';

/**
 * Identities and the short-lived secrets of their flows. Every secret (session tokens, state tokens,
 * recovery tokens) is stored only as its SHA-256; verification codes as a salted digest.
 */
export interface IdentityTables {
  identities: IdentityRow;
  identity_sessions: IdentitySessionRow;
  identity_verifications: IdentityVerificationRow;
  identity_recovery_tokens: IdentityRecoveryTokenRow;
  identity_live_verifications: IdentityLiveVerificationRow;
  /**
   * The attempt log (throttle.ts): one row per recent attempt under a key, `email:<email>` and
   * `address:<ip>` for failed logins, `code-guess:<identity>` and `code-sent:<identity>` for codes.
   */
  identity_login_attempts: { id: string; throttle_key: string; attempted_at: string };
  identity_captcha_uses: { challenge: string; expires_at: string };
  identity_factors: IdentityFactorRow;
  /** One-time codes for a sign-in when the second factor is lost: only their SHA-256 is kept. */
  identity_recovery_codes: {
    code_hash: string;
    identity_id: string;
    created_at: string;
    used_at: string | null;
  };
  identity_mfa_challenges: IdentityMfaChallengeRow;
  /** A device that passed the second step with "remember this device": the cookie's SHA-256. */
  identity_remembered_devices: {
    token_hash: string;
    identity_id: string;
    created_at: string;
    expires_at: string;
  };
}

export type SecondFactorType = 'EMAIL' | 'TOTP';

/** A second factor of an identity (factors.ts): INACTIVE while enrolling, ACTIVE once proven. */
export interface IdentityFactorRow {
  identity_id: string;
  type: SecondFactorType;
  status: 'INACTIVE' | 'ACTIVE' | 'REQUIRE_REENROLL';
  /** TOTP: the shared secret (base32). */
  secret: string | null;
  /** EMAIL while enrolling: the verification whose code proves the inbox. */
  email_verification_id: string | null;
  /** TOTP: the last time step whose code was taken (a code is good once). */
  last_used_step: number | null;
  created_at: string;
  updated_at: string;
}

/** A sign-in whose password was right, waiting for its second step. */
export interface IdentityMfaChallengeRow {
  state_token_hash: string;
  identity_id: string;
  visitor_id: string | null;
  client_id: string | null;
  /** The emailed code's verification, when the email factor is offered. */
  email_verification_id: string | null;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
}

export interface IdentityRow {
  id: string;
  /** Lowercased and trimmed: the login id. */
  email: string;
  email_verified: number;
  status: IdentityStatus;
  pending_reason: IdentityPendingReason | null;
  /** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>`; null for an identity that never set a password. */
  password_hash: string | null;
  /** 1 when the member may not sign in with a password until they reset it. */
  must_reset_password: number;
  /** The identity profile as given (JSON), without slug and privacy, which the member owns. */
  profile: string;
  created_at: string;
  updated_at: string;
}

/** A session token: proof of a finished login, exchanged once for member tokens. */
export interface IdentitySessionRow {
  token_hash: string;
  identity_id: string;
  /** The visitor and OAuth client the login happened for; null when an admin signed the member on. */
  visitor_id: string | null;
  client_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** An email verification: a 6-digit code, reached through a state token (login) or its id (admin start). */
export interface IdentityVerificationRow {
  id: string;
  state_token_hash: string | null;
  identity_id: string;
  visitor_id: string | null;
  client_id: string | null;
  code_digest: string;
  code_expires_at: string;
  attempts: number;
  sends: number;
  created_at: string;
  /** When the state token stops being good for anything, resends included. */
  expires_at: string;
  completed_at: string | null;
}

/**
 * The one verification of an identity whose code works: the newest code sent (by a login, a resend or
 * an admin's start) replaces it, so older codes stop working.
 */
export interface IdentityLiveVerificationRow {
  identity_id: string;
  verification_id: string;
  updated_at: string;
}

export interface IdentityRecoveryTokenRow {
  token_hash: string;
  identity_id: string;
  purpose: 'RECOVERY' | 'ACTIVATION';
  client_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
