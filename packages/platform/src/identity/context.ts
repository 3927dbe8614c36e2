import type { IdentityProfile } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import type { EventBus } from '../events/bus.ts';
import type { TokenService } from '../oauth/tokens.ts';
import type { Settings } from '../settings/settings.ts';
import { applicationError } from '../shared/errors.ts';
import type { MemberPrincipal, Principal } from '../shared/principal.ts';
import type { Captcha } from './captcha.ts';
import type { IdentityEmails } from './emails.ts';
import type { SecondFactors } from './factors.ts';
import type { IdentityRecords } from './records.ts';
import type { RecoveryTokens } from './recovery.ts';
import type { SessionTokens } from './sessions.ts';
import type { LoginThrottle } from './throttle.ts';
import type { EmailVerifications } from './verification.ts';

/**
 * What every identity flow shares (registration, sign-in, two-step, passwords, email proofs): the
 * domain's dependencies, its options and its stores. `IdentityService` (service.ts) makes it once.
 */

/** Site settings read on every flow, so an admin's change applies to the next login. */
export const IDENTITY_SETTINGS = {
  requireEmailVerification: 'identity.requireEmailVerification',
  requireOwnerApproval: 'identity.requireOwnerApproval',
  /** `off` (default) or `required`: a solved captcha on every registration and login. */
  captcha: 'identity.captcha',
  /** `true`: the owner and staff who move money pass a second step at every sign-in (factors.ts). */
  requireStaffSecondStep: 'identity.requireStaffSecondStep',
  captchaSecret: 'identity.captcha_secret',
  /** The key that seals authenticators' secrets when CARTWHEEL_SECRET_KEY is not set (secret-box.ts). */
  factorSecretKey: 'identity.factor_secret_key',
  /** The visible captcha's public site key (point 9), made on first use. */
  captchaSiteKey: 'identity.captcha.site_key',
  /** The invisible captcha's public site key (point 9), made on first use. */
  captchaInvisibleSiteKey: 'identity.captcha.invisible_site_key',
} as const;

/** A password change needs a sign-in (not a refresh) at most this old. */
export const RECENT_SIGN_IN_MS = 15 * 60 * 1000;

const recentSignInRequired = () =>
  applicationError('PERMISSION_DENIED', 'RECENT_SIGN_IN_REQUIRED', 'sign in again to change your password');

/** A password or second-step change needs a sign-in (not a refresh) of the last `RECENT_SIGN_IN_MS`. */
export function requireRecentSignIn(caller: MemberPrincipal): void {
  const signedInAt = caller.signedInAt;
  if (!Number.isFinite(signedInAt) || Date.now() - signedInAt > RECENT_SIGN_IN_MS)
    throw recentSignInRequired();
}

/** Who is asking: the principal of the call and the client's network address (for the throttle). */
export interface Caller {
  principal: Principal;
  address: string;
}

export interface IdentityDependencies {
  settings: Settings;
  tokens: TokenService;
  /**
   * The member each identity is (members sits above identity and writes identities through
   * accounts.ts, so identity names what it needs by shape instead of importing it).
   */
  members: {
    createForIdentity(
      executor: Kysely<Tables>,
      identity: {
        id: string;
        email: string;
        profile: Pick<IdentityProfile, 'slug' | 'nickname' | 'privacyStatus'>;
      },
      now: string,
    ): Promise<unknown>;
    recordLogin(memberId: string): Promise<void>;
    row(memberId: string): Promise<{ slug: string; privacy_status: 'PUBLIC' | 'PRIVATE' } | undefined>;
  };
  mailer: Mailer;
  /**
   * The staff domain's word (staff sits above identity): whether the identity is the owner, or active
   * staff whose role moves money (capture, void, refund): those a store may require a second step of.
   */
  staff: { handlesMoney(identityId: string): Promise<boolean> };
  /**
   * The event bus, run at once after a sign-in or a verified email: what its subscribers do (a guest's
   * orders joining the member, orders/subscribers.ts) shows on the member's first call.
   */
  events: Pick<EventBus, 'deliverNow'>;
}

export interface IdentityOptions {
  /** Base of the links in emails (`<publicUrl>/auth/reset-password?token=...`, a hosted page). */
  publicUrl: string;
  storeName: string;
  /**
   * CARTWHEEL_SECRET_KEY: seals the authenticators' secrets at rest; without it, a key the database
   * keeps does (secret-box.ts).
   */
  secretKey?: string | undefined;
}

/** Whether the store requires a second step of the identity: it asks it of staff who move money. */
export async function storeRequiresSecondStep(
  deps: IdentityDependencies,
  identityId: string,
): Promise<boolean> {
  return (
    (await deps.settings.get(IDENTITY_SETTINGS.requireStaffSecondStep)) === 'true' &&
    (await deps.staff.handlesMoney(identityId))
  );
}

/** The identity domain's shared parts, handed to each flow. */
export interface IdentityContext {
  db: Kysely<Tables>;
  deps: IdentityDependencies;
  options: IdentityOptions;
  records: IdentityRecords;
  emails: IdentityEmails;
  sessions: SessionTokens;
  verifications: EmailVerifications;
  recovery: RecoveryTokens;
  throttle: LoginThrottle;
  captcha: Captcha;
  factors: SecondFactors;
}
