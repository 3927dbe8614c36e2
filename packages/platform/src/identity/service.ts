import type {
  CaptchaConfig,
  CaptchaToken,
  Identity,
  IdentityProfile,
  LoginRequest,
  RegisterRequest,
  StateMachineResponse,
  TokenResponse,
} from '@cartwheel/sdk';
import { CAPTCHA_CHALLENGE_PATH } from '@cartwheel/sdk/auth';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import type { EventBus } from '../events/bus.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { OAuthClients, originAllowed, originOf, redirectUriAllowed } from '../oauth/clients.ts';
import type { TokenService } from '../oauth/tokens.ts';
import type { Settings } from '../settings/settings.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId, newSecret } from '../shared/ids.ts';
import type { MemberPrincipal, Principal } from '../shared/principal.ts';
import { Captcha, type CaptchaChallenge } from './captcha.ts';
import {
  emailAlreadyExists,
  identityCannotSignIn,
  invalidPassword,
  invalidSessionToken,
  loginEmail,
  resetPasswordRequired,
  unknownEmail,
} from './errors.ts';
import { SecondFactors } from './factors.ts';
import {
  AUTH_STATE_OF,
  type IdentityStanding,
  nextStep,
  type SignUpPolicy,
  statusAfterEmailVerified,
  statusAfterOwnerApproval,
  statusOnRegistration,
} from './login-flow.ts';
import { hashPassword, passwordViolation, verifyPassword } from './passwords.ts';
import { identityProfileAnswer, type KeptProfile, keptProfileOf } from './profile.ts';
import { RecoveryTokens } from './recovery.ts';
import { SecretBox, sealingKey } from './secret-box.ts';
import { type SessionHolder, SessionTokens } from './sessions.ts';
import type { IdentityRow, SecondFactorType } from './tables.ts';
import { LoginThrottle } from './throttle.ts';
import { otpauthUrl } from './totp.ts';
import { EmailVerifications, type VerificationRef } from './verification.ts';

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
function requireRecentSignIn(caller: MemberPrincipal): void {
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

/**
 * Identity: registration, login, email verification, password recovery, and the session tokens a
 * finished login yields. Business rules only: it never sees a request (routes.ts translates).
 */
export class IdentityService {
  private readonly sessions: SessionTokens;
  private readonly verifications: EmailVerifications;
  private readonly recovery: RecoveryTokens;
  private readonly throttle: LoginThrottle;
  private readonly captcha: Captcha;
  private readonly factors: SecondFactors;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: IdentityDependencies,
    private readonly options: IdentityOptions,
  ) {
    this.sessions = new SessionTokens(db);
    this.verifications = new EmailVerifications(db);
    this.recovery = new RecoveryTokens(db);
    this.throttle = new LoginThrottle(db);
    this.factors = new SecondFactors(
      db,
      this.verifications,
      new SecretBox(async () => {
        const stored = sealingKey(
          (await deps.settings.getOrCreate(IDENTITY_SETTINGS.factorSecretKey, () => newSecret(32))).value,
        );
        const configured = options.secretKey ? sealingKey(options.secretKey) : undefined;
        return { current: configured ?? stored, known: configured ? [configured, stored] : [stored] };
      }),
    );
    this.captcha = new Captcha(db, async () => {
      const secret = await deps.settings.getOrCreate(IDENTITY_SETTINGS.captchaSecret, () => newSecret(32));
      return secret.value;
    });
  }

  /**
   * Seals the authenticators' secrets that are not sealed under the current key (each process at its
   * start): those kept in the clear before sealing existed, or under the database's key before
   * CARTWHEEL_SECRET_KEY was set. Until then they still work, and one is sealed the first time it is used.
   */
  sealFactorSecrets(): Promise<number> {
    return this.factors.sealStoredSecrets();
  }

  captchaChallenge(): Promise<CaptchaChallenge> {
    return this.captcha.challenge();
  }

  /**
   * What the apps need to show the captcha (nothing secret): whether the site asks for one now, the two
   * public site keys (made on first use) and where a challenge is fetched. Read per request: an admin's
   * change applies to the next page.
   */
  async captchaConfig(): Promise<CaptchaConfig> {
    const settings = this.deps.settings;
    const [setting, siteKey, invisibleSiteKey] = await Promise.all([
      settings.get(IDENTITY_SETTINGS.captcha),
      settings.getOrCreate(IDENTITY_SETTINGS.captchaSiteKey, () => `cwk_${newSecret(18)}`),
      settings.getOrCreate(IDENTITY_SETTINGS.captchaInvisibleSiteKey, () => `cwk_${newSecret(18)}`),
    ]);
    return {
      required: setting === 'required',
      siteKey: siteKey.value,
      invisibleSiteKey: invisibleSiteKey.value,
      challengeUrl: CAPTCHA_CHALLENGE_PATH,
    };
  }

  /** `POST /v2/register`: a new identity and its member, then whatever the site's policy asks next. */
  async register(input: RegisterRequest, caller: Caller): Promise<StateMachineResponse> {
    const email = loginEmail(input.loginId?.email);
    const weak = passwordViolation(input.password, 'password');
    if (weak) throw weak;
    await this.checkCaptcha(input.captchaTokens);
    if (await this.findByEmail(email)) throw emailAlreadyExists();

    const policy = await this.policy();
    const passwordHash = await hashPassword(input.password as string);
    const profile = cleanProfile(input.profile, email);
    const { status, pendingReason } = statusOnRegistration(policy);
    const now = new Date().toISOString();
    const row: IdentityRow = {
      id: newId(),
      email,
      email_verified: 0,
      status,
      pending_reason: pendingReason,
      password_hash: passwordHash,
      must_reset_password: 0,
      profile: JSON.stringify(withoutMemberFields(profile)),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('identities').values(row).execute();
        await this.deps.members.createForIdentity(trx, { id: row.id, email, profile }, now);
      });
    } catch (error) {
      // two registrations of one email at once: the unique index let one through
      if (await this.findByEmail(email)) throw emailAlreadyExists();
      throw error;
    }
    return this.continueSignIn(row, policy, holderOf(caller.principal));
  }

  /**
   * `POST /v2/login`: email and password. After a few failures for the email (or many from the
   * address) a solved captcha must come with it; with one, the right password signs in.
   */
  async login(input: LoginRequest, caller: Caller & { device?: string }): Promise<StateMachineResponse> {
    const email = loginEmail(input.loginId?.email);
    if (typeof input.password !== 'string' || input.password === '') {
      throw invalidArgument([violation('password', 'is required', 'REQUIRED_FIELD')]);
    }
    const attempt = await this.throttle.begin(email, caller.address);
    try {
      await this.checkCaptcha(input.captchaTokens, attempt.needsCaptcha);
    } catch (refusal) {
      await attempt.withdraw(); // no password was checked: nothing to count
      throw refusal;
    }
    const identity = await this.findByEmail(email);
    if (!identity) {
      await attempt.failed();
      throw unknownEmail();
    }
    if (!identity.password_hash) {
      // never set one (an admin's sign-on or invitation): the way in is the reset link
      await attempt.failed();
      throw resetPasswordRequired();
    }
    if (!(await verifyPassword(input.password, identity.password_hash))) {
      await attempt.failed();
      throw invalidPassword();
    }
    await attempt.succeeded();
    if (identity.must_reset_password) throw resetPasswordRequired();
    return this.continueSignIn(identity, await this.policy(), holderOf(caller.principal), caller.device);
  }

  /**
   * `POST /v2/change-password` by the signed-in member, whose sign-in is recent (`RECENT_SIGN_IN_MS`).
   * Every other session of the member ends; the caller's stays. The member is told by email.
   */
  async changePassword(caller: MemberPrincipal, newPassword: unknown): Promise<Record<string, never>> {
    // a stolen session must not lock the owner out: the password itself is asked again, at sign-in
    requireRecentSignIn(caller);
    const weak = passwordViolation(newPassword, 'newPassword');
    if (weak) throw weak;
    const identity = await this.findById(caller.memberId);
    if (!identity) throw notFound('identity', caller.memberId);
    const passwordHash = await hashPassword(newPassword as string);
    await this.deps.tokens.endSessionsOf(identity.id, 'PASSWORD_CHANGED', {
      keep: caller.familyId,
      along: async (trx) => {
        await trx
          .updateTable('identities')
          .set({ password_hash: passwordHash, must_reset_password: 0, updated_at: new Date().toISOString() })
          .where('id', '=', identity.id)
          .execute();
      },
    });
    await this.mailPasswordChanged(identity.email);
    return {};
  }

  /**
   * `POST /v2/sign-on` (admin): the member with this email, made if new, signed in without a
   * password; the app vouches for who they are. `verifyEmail` marks the email verified.
   * `mergeExistingContact` merges the store's contact with this email into the member: what was
   * bought with it as a guest joins them now (the app vouches for the email, as for the person).
   */
  async signOn(input: {
    loginId?: { email?: string };
    profile?: IdentityProfile;
    verifyEmail?: boolean;
    mergeExistingContact?: boolean;
  }): Promise<{ sessionToken: string; identity: Identity }> {
    const email = loginEmail(input.loginId?.email);
    const policy = await this.policy();
    let identity = await this.findByEmail(email);
    if (!identity) {
      const profile = cleanProfile(input.profile, email);
      const now = new Date().toISOString();
      const row: IdentityRow = {
        id: newId(),
        email,
        email_verified: input.verifyEmail ? 1 : 0,
        status: 'ACTIVE',
        pending_reason: null,
        password_hash: null,
        must_reset_password: 0,
        profile: JSON.stringify(withoutMemberFields(profile)),
        created_at: now,
        updated_at: now,
      };
      try {
        await this.db.transaction().execute(async (trx) => {
          await trx.insertInto('identities').values(row).execute();
          await this.deps.members.createForIdentity(trx, { id: row.id, email, profile }, now);
        });
        identity = row;
      } catch (error) {
        identity = await this.findByEmail(email);
        if (!identity) throw error;
      }
    } else {
      const given = keptProfileOf(input.profile);
      const changes: Partial<IdentityRow> = {};
      if (Object.keys(given).length > 0) {
        changes.profile = JSON.stringify({ ...JSON.parse(identity.profile), ...given });
      }
      if (input.verifyEmail && !identity.email_verified) {
        changes.email_verified = 1;
        const next = statusAfterEmailVerified(standingOf(identity), policy);
        changes.status = next.status;
        changes.pending_reason = next.pendingReason;
      }
      if (Object.keys(changes).length > 0) identity = await this.update(identity.id, changes);
    }
    const step = nextStep(standingOf(identity), { ...policy, requireEmailVerification: false });
    if (step.step !== 'SIGN_IN') throw identityCannotSignIn(step.step === 'REFUSE' ? step.status : 'PENDING');
    const sessionToken = await this.openSession(identity.id, { visitorId: null, clientId: null });
    if (input.mergeExistingContact) {
      await recordEvents(this.db, [identityEvent('contact_merged', identity, {})]);
      await this.deps.events.deliverNow('identity');
    }
    return { sessionToken, identity: await this.wireIdentity(identity) };
  }

  /** `POST /v1/auth/verify`: the emailed code, for the login that sent it. */
  async verifyDuringAuthentication(input: {
    code?: unknown;
    stateToken?: unknown;
  }): Promise<StateMachineResponse> {
    const code = requiredString(input.code, 'code');
    const stateToken = requiredString(input.stateToken, 'stateToken');
    const verification = await this.verifications.complete({ stateToken }, code);
    const identity = await this.markEmailVerified(verification.identity_id);
    return this.continueSignIn(identity, await this.policy(), {
      visitorId: verification.visitor_id,
      clientId: verification.client_id,
    });
  }

  /** `POST /v1/verify`: a code for a verification an admin started; proves the email, signs no one in. */
  async verifyById(input: { code?: unknown; verificationId?: unknown }): Promise<Record<string, never>> {
    const code = requiredString(input.code, 'code');
    const verificationId = requiredString(input.verificationId, 'verificationId');
    const verification = await this.verifications.complete({ verificationId }, code);
    await this.markEmailVerified(verification.identity_id);
    return {};
  }

  /** `POST /v1/auth/resend`: a new code for the login waiting on one. */
  async resendCode(input: { stateToken?: unknown }): Promise<Record<string, never>> {
    const ref: VerificationRef = { stateToken: requiredString(input.stateToken, 'stateToken') };
    const { identityId, code } = await this.verifications.resend(ref);
    const identity = await this.findById(identityId);
    if (identity) await this.mailCode(identity.email, code);
    return {};
  }

  /** `POST /v1/start` (admin): emails a code to the identity; the answer names the verification. */
  async startVerification(input: {
    identityId?: unknown;
    target?: unknown;
  }): Promise<{ verificationId: string }> {
    const identityId = requiredString(input.identityId, 'identityId');
    if ((input.target ?? 'EMAIL') !== 'EMAIL') {
      throw invalidArgument([violation('target', 'only EMAIL verification exists', 'INVALID_ENUM_VALUE')]);
    }
    const identity = await this.findById(identityId);
    if (!identity) throw notFound('identity', identityId);
    const started = await this.verifications.start(identity.id, { visitorId: null, clientId: null }, false);
    await this.mailCode(identity.email, started.code);
    return { verificationId: started.verificationId };
  }

  /**
   * `POST /v1/send-email`: a password reset link, if a member has this email. The answer is the same
   * either way, so it tells nobody whether the email belongs to a member.
   */
  async sendRecoveryEmail(
    input: { email?: unknown; language?: unknown; redirect?: { url?: unknown; clientId?: unknown } },
    caller: Caller,
  ): Promise<Record<string, never>> {
    const email = loginEmail(input.email, 'email');
    const identity = await this.findByEmail(email);
    if (!identity || !['ACTIVE', 'PENDING'].includes(identity.status)) return {};
    const clientId = stringOr(input.redirect?.clientId) ?? holderOf(caller.principal).clientId;
    const token = await this.recovery.issue(identity.id, 'RECOVERY', clientId);
    if (!token) return {};
    const link = await this.resetLink(token, stringOr(input.redirect?.url), clientId);
    await this.deps.mailer.send({
      kind: 'PASSWORD_RESET',
      to: identity.email,
      subject: `Reset your password for ${this.options.storeName}`,
      text: [
        `Someone asked to reset the password of your account at ${this.options.storeName}.`,
        `To choose a new password, open this link within an hour:`,
        link,
        `If it wasn't you, ignore this email: your password stays as it is.`,
      ].join('\n\n'),
    });
    return {};
  }

  /** `POST /v1/activation-email` (admin): an invitation to set a first password. */
  async sendActivationEmail(input: {
    identityId?: unknown;
    emailOptions?: { redirect?: { url?: unknown; clientId?: unknown } };
  }): Promise<Record<string, never>> {
    const identityId = requiredString(input.identityId, 'identityId');
    const identity = await this.findById(identityId);
    if (!identity) throw notFound('identity', identityId);
    const clientId = stringOr(input.emailOptions?.redirect?.clientId) ?? null;
    const token = await this.recovery.issue(identity.id, 'ACTIVATION', clientId);
    if (!token) {
      throw applicationError(
        'RESOURCE_EXHAUSTED',
        'TOO_MANY_ATTEMPTS',
        'too many emails sent lately: try later',
      );
    }
    const link = await this.resetLink(token, stringOr(input.emailOptions?.redirect?.url), clientId);
    await this.deps.mailer.send({
      kind: 'ACCOUNT_ACTIVATION',
      to: identity.email,
      subject: `Your account at ${this.options.storeName}`,
      text: [
        `An account at ${this.options.storeName} was made for you.`,
        `To choose your password and sign in, open this link within three days:`,
        link,
      ].join('\n\n'),
    });
    return {};
  }

  /**
   * `POST /v1/recover`: the link's token and a new password. Reading the link proves the email, so a
   * wait for email verification ends here; the member is then signed in as policy allows.
   */
  async recover(
    input: { recoveryToken?: unknown; password?: unknown },
    caller: Caller,
  ): Promise<StateMachineResponse> {
    const recoveryToken = requiredString(input.recoveryToken, 'recoveryToken');
    const weak = passwordViolation(input.password, 'password');
    if (weak) throw weak;
    const passwordHash = await hashPassword(input.password as string);
    const used = await this.recovery.consume(recoveryToken);
    const identity = await this.findById(used.identity_id);
    if (!identity) throw notFound('identity', used.identity_id);
    const policy = await this.policy();
    const next = identity.email_verified
      ? { status: identity.status, pendingReason: identity.pending_reason }
      : statusAfterEmailVerified(standingOf(identity), policy);
    // whoever held a session may have known the old password: every session ends with it
    await this.deps.tokens.endSessionsOf(identity.id, 'PASSWORD_RESET', {
      along: async (trx) => {
        await trx
          .updateTable('identities')
          .set({
            password_hash: passwordHash,
            must_reset_password: 0,
            email_verified: 1,
            status: next.status,
            pending_reason: next.pendingReason,
            updated_at: new Date().toISOString(),
          })
          .where('id', '=', identity.id)
          .execute();
      },
    });
    const updated = await this.findById(identity.id);
    if (!updated) throw notFound('identity', identity.id);
    await this.mailPasswordChanged(updated.email);
    await this.throttle.clear(updated.email);
    const holder = holderOf(caller.principal);
    return this.continueSignIn(updated, policy, {
      visitorId: holder.visitorId,
      clientId: holder.clientId ?? used.client_id,
    });
  }

  /**
   * Trades a session token for member tokens of `clientId`: once, within ten minutes, and only while
   * the member may still sign in. The authorization endpoint (prompt none) calls this, with the
   * visitor whose client started the authorization request when it knows one: the tokens keep that
   * visitor (and so its cart), wherever the login itself ran; else the visitor who logged in.
   */
  async issueMemberTokensForSession(
    sessionToken: string,
    clientId: string,
    visitorId?: string,
  ): Promise<TokenResponse> {
    const session = await this.sessions.consume(sessionToken, clientId);
    const identity = await this.findById(session.identityId);
    if (!identity || nextStep(standingOf(identity), await this.policy()).step !== 'SIGN_IN') {
      throw invalidSessionToken();
    }
    // the visitor becomes the member: what they bought as a guest with the member's email joins them
    const visitor = visitorId ?? session.visitorId;
    await recordEvents(this.db, [
      identityEvent('signed_in', identity, {
        emailVerified: Boolean(identity.email_verified),
        visitorId: visitor,
      }),
    ]);
    await this.deps.events.deliverNow('identity');
    return this.deps.tokens.issueMemberTokens({
      clientId,
      visitorId: visitor ?? newId(),
      memberId: identity.id,
    });
  }

  /** The owner lets a waiting member in (the member administration calls will expose it). */
  async approve(identityId: string): Promise<Identity> {
    const identity = await this.findById(identityId);
    if (!identity) throw notFound('identity', identityId);
    const next = statusAfterOwnerApproval(standingOf(identity));
    const updated = await this.update(identity.id, {
      status: next.status,
      pending_reason: next.pendingReason,
    });
    return this.wireIdentity(updated);
  }

  /** Answers a correctly identified member with the step the flow is at (point 4's server states). */
  /**
   * The factors a sign-in's second step may use, or undefined when it needs none: a member who turned
   * the second step on, or staff who move money when the store requires it of them, on a device not
   * remembered. Staff with no factor of their own get a code by email.
   */
  private async secondStepOf(
    identityId: string,
    device: string | undefined,
  ): Promise<SecondFactorType[] | undefined> {
    const enrolled = await this.factors.enrolled(identityId);
    const required = enrolled || (await this.storeRequiresSecondStep(identityId));
    if (!required || (await this.factors.remembered(identityId, device))) return undefined;
    const active = await this.factors.active(identityId);
    return active.length > 0 ? active : ['EMAIL'];
  }

  /** Whether the store requires a second step of the identity: it asks it of staff who move money. */
  private async storeRequiresSecondStep(identityId: string): Promise<boolean> {
    return (
      (await this.deps.settings.get(IDENTITY_SETTINGS.requireStaffSecondStep)) === 'true' &&
      (await this.deps.staff.handlesMoney(identityId))
    );
  }

  /**
   * `POST /v2/{factorType}/verify` {stateToken, rememberThisDevice, emailData | totpData |
   * recoveryCodeData}: the second step of a sign-in. Right, it answers SUCCESS with a session token
   * for the holder the password was right for, and (remember this device) a token for the device's
   * cookie. Wrong, reused or late codes are refused, and count against the identity's wrong codes.
   */
  async verifySecondFactor(
    factorType: string,
    input: {
      stateToken?: string | undefined;
      rememberThisDevice?: boolean | null | undefined;
      emailData?: { code?: string | null | undefined } | null | undefined;
      totpData?: { code?: string | null | undefined } | null | undefined;
      recoveryCodeData?: { code?: string | null | undefined } | null | undefined;
    },
  ): Promise<{ answer: StateMachineResponse; deviceToken?: string }> {
    if (factorType !== 'EMAIL' && factorType !== 'TOTP') {
      throw applicationError(
        'INVALID_ARGUMENT',
        'FACTOR_NOT_OFFERED',
        `the ${factorType} factor is not offered: use EMAIL or TOTP`,
        {
          factorType,
        },
      );
    }
    const stateToken = requiredString(input.stateToken, 'stateToken');
    const recoveryCode = stringOr(input.recoveryCodeData?.code);
    const code = stringOr((factorType === 'TOTP' ? input.totpData : input.emailData)?.code);
    if (!recoveryCode && !code) {
      const field = factorType === 'TOTP' ? 'totpData.code' : 'emailData.code';
      throw invalidArgument([violation(field, 'is required', 'REQUIRED_FIELD')]);
    }
    const challenge = await this.factors.challenge(stateToken);
    await this.factors.pass(
      challenge,
      factorType,
      recoveryCode ? { recoveryCode } : { code: code as string },
    );
    const identity = await this.findById(challenge.identity_id);
    if (!identity) throw notFound('identity', challenge.identity_id);
    const step = nextStep(standingOf(identity), await this.policy());
    if (step.step === 'REFUSE') throw identityCannotSignIn(step.status);
    const sessionToken = await this.openSession(identity.id, {
      visitorId: challenge.visitor_id,
      clientId: challenge.client_id,
    });
    const deviceToken = input.rememberThisDevice ? await this.factors.rememberDevice(identity.id) : undefined;
    return {
      answer: {
        state: 'SUCCESS',
        sessionToken,
        identity: await this.wireIdentity(identity),
        additionalData: {},
      },
      ...(deviceToken ? { deviceToken } : {}),
    };
  }

  /**
   * A member's own second factors, how many recovery codes are left, and whether the store requires a
   * second step of them (staff who move money, when it is switched on): the back office then asks them
   * to enrol one before anything else.
   */
  async factorsOf(caller: MemberPrincipal) {
    const rows = await this.factors.list(caller.memberId);
    const left = await this.db
      .selectFrom('identity_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('identity_id', '=', caller.memberId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return {
      factors: rows.map((row) => ({ factorType: row.type, status: row.status })),
      recoveryCodesLeft: Number(left.count),
      requiredByStore: await this.storeRequiresSecondStep(caller.memberId),
    };
  }

  /**
   * Starts a factor for the signed-in member (a recent sign-in: a stolen session must not change the
   * second step): an authenticator's secret, or a code to the login email. INACTIVE until activated.
   */
  async enrolFactor(
    caller: MemberPrincipal,
    type: SecondFactorType,
  ): Promise<{ secret: string; otpauthUrl: string } | Record<string, never>> {
    requireRecentSignIn(caller);
    const identity = await this.findById(caller.memberId);
    if (!identity) throw notFound('identity', caller.memberId);
    if (type === 'EMAIL') {
      await this.mailCode(identity.email, await this.factors.startEmail(identity.id));
      return {};
    }
    const secret = await this.factors.startTotp(identity.id);
    return { secret, otpauthUrl: otpauthUrl(secret, this.options.storeName, identity.email) };
  }

  /** Proves an enrolling factor with a code from it; answers the new recovery codes, shown once. */
  async activateFactor(
    caller: MemberPrincipal,
    type: SecondFactorType,
    code: string,
  ): Promise<{ recoveryCodes: string[] }> {
    requireRecentSignIn(caller);
    const recoveryCodes = await this.factors.activate(caller.memberId, type, code);
    await this.factors.forgetDevices(caller.memberId);
    return { recoveryCodes };
  }

  async removeFactor(caller: MemberPrincipal, type: SecondFactorType): Promise<Record<string, never>> {
    requireRecentSignIn(caller);
    await this.factors.remove(caller.memberId, type);
    await this.factors.forgetDevices(caller.memberId);
    return {};
  }

  async newRecoveryCodes(caller: MemberPrincipal): Promise<{ recoveryCodes: string[] }> {
    requireRecentSignIn(caller);
    if (!(await this.factors.enrolled(caller.memberId))) {
      throw applicationError('FAILED_PRECONDITION', 'FACTOR_NOT_ACTIVE', 'turn a second factor on first');
    }
    return { recoveryCodes: await this.factors.newRecoveryCodes(caller.memberId) };
  }

  private async continueSignIn(
    identity: IdentityRow,
    policy: SignUpPolicy,
    holder: SessionHolder,
    device?: string,
  ): Promise<StateMachineResponse> {
    const step = nextStep(standingOf(identity), policy);
    if (step.step === 'REFUSE') throw identityCannotSignIn(step.status);
    const answer: StateMachineResponse = {
      state: AUTH_STATE_OF[step.step],
      identity: await this.wireIdentity(identity),
      additionalData: {},
    };
    const second = step.step === 'SIGN_IN' ? await this.secondStepOf(identity.id, device) : undefined;
    if (second) {
      // the password was right; the session waits for the second step (point 4's REQUIRE_MFA)
      const emailCode = second.includes('EMAIL')
        ? await this.verifications.start(identity.id, holder, false)
        : undefined;
      if (emailCode) await this.mailCode(identity.email, emailCode.code);
      answer.state = 'REQUIRE_MFA';
      answer.stateToken = await this.factors.openChallenge(
        identity.id,
        holder,
        emailCode?.verificationId ?? null,
      );
      answer.requireMfaData = {
        availableFactors: second.map((factorType) => ({ factorType, factorStatus: 'ACTIVE' as const })),
        reason: 'USER_SETTINGS',
      };
    } else if (step.step === 'SIGN_IN') {
      answer.sessionToken = await this.openSession(identity.id, holder);
    } else if (step.step === 'VERIFY_EMAIL') {
      const started = await this.verifications.start(identity.id, holder, true);
      await this.mailCode(identity.email, started.code);
      answer.stateToken = started.stateToken;
    }
    return answer;
  }

  private async openSession(identityId: string, holder: SessionHolder): Promise<string> {
    const token = await this.sessions.issue(identityId, holder);
    await this.deps.members.recordLogin(identityId);
    return token;
  }

  private async markEmailVerified(identityId: string): Promise<IdentityRow> {
    const identity = await this.findById(identityId);
    if (!identity) throw notFound('identity', identityId);
    if (identity.email_verified) return identity;
    const next = statusAfterEmailVerified(standingOf(identity), await this.policy());
    const verified = await this.update(
      identity.id,
      { email_verified: 1, status: next.status, pending_reason: next.pendingReason },
      [identityEvent('email_verified', identity, {})],
    );
    await this.deps.events.deliverNow('identity');
    return verified;
  }

  /** The notice after a password change or reset: the owner learns of one they did not make. */
  private async mailPasswordChanged(to: string): Promise<void> {
    await this.deps.mailer.send({
      kind: 'PASSWORD_CHANGED',
      to,
      subject: `Your ${this.options.storeName} password was changed`,
      text: [
        `The password of your account at ${this.options.storeName} was just changed, and every other place you were signed in was signed out.`,
        `If it wasn't you, choose a new password now: ${this.options.publicUrl}/auth/forgot-password`,
      ].join('\n\n'),
    });
  }

  private async mailCode(to: string, code: string): Promise<void> {
    await this.deps.mailer.send({
      kind: 'EMAIL_VERIFICATION_CODE',
      to,
      subject: `${code} is your ${this.options.storeName} verification code`,
      text: [
        `Your verification code is ${code}.`,
        `It works for 15 minutes. If you didn't try to sign in to ${this.options.storeName}, ignore this email.`,
      ].join('\n\n'),
    });
  }

  /**
   * The reset page's address. A redirect is kept only when the client registered its origin, so a
   * reset link never sends anyone to a stranger's site.
   */
  private async resetLink(
    token: string,
    redirectUrl: string | undefined,
    clientId: string | null,
  ): Promise<string> {
    const link = new URL(`${this.options.publicUrl}/auth/reset-password`);
    link.searchParams.set('token', token);
    if (redirectUrl && clientId && (await this.clientAllows(clientId, redirectUrl))) {
      link.searchParams.set('redirect', redirectUrl);
    }
    return link.toString();
  }

  /** The reset page may send the member back to `url` only where the client's codes may go. */
  private async clientAllows(clientId: string, url: string): Promise<boolean> {
    const origin = originOf(url);
    const client = origin ? await new OAuthClients(this.db).find(clientId) : undefined;
    return !!client && !!origin && (originAllowed(client, origin) || redirectUriAllowed(client, url));
  }

  /** A solved captcha, when the site asks for one on every form or this call `needed` one. */
  private async checkCaptcha(tokens: CaptchaToken[] | undefined, needed = false): Promise<void> {
    if (needed || (await this.deps.settings.get(IDENTITY_SETTINGS.captcha)) === 'required') {
      await this.captcha.verify(tokens);
    }
  }

  private async policy(): Promise<SignUpPolicy> {
    const [verification, approval] = await Promise.all([
      this.deps.settings.get(IDENTITY_SETTINGS.requireEmailVerification),
      this.deps.settings.get(IDENTITY_SETTINGS.requireOwnerApproval),
    ]);
    return { requireEmailVerification: verification === 'true', requireOwnerApproval: approval === 'true' };
  }

  private findByEmail(email: string): Promise<IdentityRow | undefined> {
    return this.db.selectFrom('identities').selectAll().where('email', '=', email).executeTakeFirst();
  }

  private findById(id: string): Promise<IdentityRow | undefined> {
    return this.db.selectFrom('identities').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Changes an identity's row, and writes `events` in the same transaction when there are any. */
  private async update(
    id: string,
    changes: Partial<IdentityRow>,
    events: DomainEvent[] = [],
  ): Promise<IdentityRow> {
    const write = async (executor: Kysely<Tables>) => {
      await executor
        .updateTable('identities')
        .set({ ...changes, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      await recordEvents(executor, events);
    };
    if (events.length === 0) await write(this.db);
    else await this.db.transaction().execute(write);
    const row = await this.findById(id);
    if (!row) throw notFound('identity', id);
    return row;
  }

  /** The wire identity; slug and privacy are the member's. */
  private async wireIdentity(row: IdentityRow): Promise<Identity> {
    const member = await this.deps.members.row(row.id);
    return {
      id: row.id,
      createdDate: new Date(row.created_at),
      updatedDate: new Date(row.updated_at),
      identityProfile: {
        ...identityProfileAnswer(JSON.parse(row.profile) as KeptProfile),
        ...(member ? { slug: member.slug, privacyStatus: member.privacy_status } : {}),
      },
      email: { address: row.email, isVerified: Boolean(row.email_verified) },
      status: { name: row.status, reasons: row.pending_reason ? [row.pending_reason] : [] },
      factors: [
        ...(row.password_hash
          ? [{ factorId: `${row.id}-password`, type: 'PASSWORD' as const, status: 'ACTIVE' as const }]
          : []),
        ...(await this.factors.list(row.id)).map((factor) => ({
          factorId: `${row.id}-${factor.type.toLowerCase()}`,
          type: factor.type,
          status: factor.status,
        })),
      ],
    };
  }
}

function standingOf(row: IdentityRow): IdentityStanding {
  return {
    status: row.status,
    pendingReason: row.pending_reason,
    emailVerified: Boolean(row.email_verified),
  };
}

/** Whose session a login opens: the calling visitor's, for their OAuth client; no one's for an admin. */
function holderOf(principal: Principal): SessionHolder {
  return principal.kind === 'visitor' || principal.kind === 'member'
    ? { visitorId: principal.visitorId, clientId: principal.clientId }
    : { visitorId: null, clientId: null };
}

/**
 * The profile a new identity keeps (identity/profile.ts), with a nickname from the name or the email
 * when absent, and the slug and privacy its member is made with.
 */
function cleanProfile(
  profile: IdentityProfile | undefined,
  email: string,
): KeptProfile & Pick<IdentityProfile, 'slug' | 'privacyStatus'> {
  const given = keptProfileOf(profile);
  const fullName = [given.firstName, given.lastName].filter(Boolean).join(' ');
  return {
    ...given,
    nickname: given.nickname || fullName || email.split('@')[0] || email,
    ...(typeof profile?.slug === 'string' ? { slug: profile.slug } : {}),
    ...(profile?.privacyStatus === 'PRIVATE' || profile?.privacyStatus === 'PUBLIC'
      ? { privacyStatus: profile.privacyStatus }
      : {}),
  };
}

/** Slug and privacy belong to the member row; the identity keeps the rest. */
function withoutMemberFields(
  profile: KeptProfile & Pick<IdentityProfile, 'slug' | 'privacyStatus'>,
): KeptProfile {
  const { slug: _slug, privacyStatus: _privacy, ...rest } = profile;
  return rest;
}

function requiredString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidArgument([violation(field, 'is required', 'REQUIRED_FIELD')]);
  }
  return value.trim();
}

const stringOr = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * An identity's event (`wix.iam.identity.v1.identity`): its email verified, a sign-in (which visitor
 * became the member, and whether the email was verified then), or the store's contact with its email
 * merged into it (a sign-on's `mergeExistingContact`). The orders domain adopts guest orders on them.
 */
function identityEvent(
  slug: 'email_verified' | 'signed_in' | 'contact_merged',
  identity: IdentityRow,
  details: { emailVerified?: boolean; visitorId?: string | null },
): DomainEvent {
  return { entity: 'identity', slug, entityId: identity.id, payload: { email: identity.email, ...details } };
}
