import type {
  CaptchaConfig,
  Identity,
  IdentityProfile,
  LoginRequest,
  RegisterRequest,
  StateMachineResponse,
  TokenResponse,
} from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { newSecret } from '../shared/ids.ts';
import type { MemberPrincipal } from '../shared/principal.ts';
import { Captcha, type CaptchaChallenge } from './captcha.ts';
import {
  type Caller,
  IDENTITY_SETTINGS,
  type IdentityContext,
  type IdentityDependencies,
  type IdentityOptions,
} from './context.ts';
import { EmailProofs } from './email-proofs.ts';
import { IdentityEmails } from './emails.ts';
import { SecondFactors } from './factors.ts';
import { PasswordChanges } from './password-changes.ts';
import { IdentityRecords } from './records.ts';
import { RecoveryTokens } from './recovery.ts';
import { Registration } from './registration.ts';
import { SecretBox, sealingKey } from './secret-box.ts';
import { SessionTokens } from './sessions.ts';
import { SignIn } from './sign-in.ts';
import type { SecondFactorType } from './tables.ts';
import { LoginThrottle } from './throttle.ts';
import { TwoStep } from './two-step.ts';
import { EmailVerifications } from './verification.ts';

export {
  type Caller,
  IDENTITY_SETTINGS,
  type IdentityDependencies,
  type IdentityOptions,
  RECENT_SIGN_IN_MS,
} from './context.ts';

/**
 * Identity: registration, login, email verification, password recovery, the second step, and the
 * session tokens a finished login yields. Business rules only: it never sees a request (routes.ts
 * translates). The one door other domains and the routes use; each flow is a file of its own, which
 * this class hands the call to, all sharing one `IdentityContext` (context.ts):
 *
 * - sign-in.ts: the password, the step a member is at, session tokens traded for member tokens;
 * - registration.ts: new identities and their members (register, an app's sign-on, approval);
 * - two-step.ts: the second step at sign-in and a member's own factors;
 * - password-changes.ts: a password changed, reset or first chosen through an emailed link;
 * - email-proofs.ts: an email proven with an emailed code;
 * - records.ts: the identity's rows and the wire identity; emails.ts: what identity mails.
 */
export class IdentityService {
  private readonly captcha: Captcha;
  private readonly factors: SecondFactors;
  private readonly signIn: SignIn;
  private readonly registration: Registration;
  private readonly twoStep: TwoStep;
  private readonly passwords: PasswordChanges;
  private readonly emailProofs: EmailProofs;

  constructor(db: Kysely<Tables>, deps: IdentityDependencies, options: IdentityOptions) {
    const verifications = new EmailVerifications(db);
    const factors = new SecondFactors(
      db,
      verifications,
      new SecretBox(async () => {
        const stored = sealingKey(
          (await deps.settings.getOrCreate(IDENTITY_SETTINGS.factorSecretKey, () => newSecret(32))).value,
        );
        const configured = options.secretKey ? sealingKey(options.secretKey) : undefined;
        return { current: configured ?? stored, known: configured ? [configured, stored] : [stored] };
      }),
    );
    this.factors = factors;
    this.captcha = new Captcha(db, async () => {
      const secret = await deps.settings.getOrCreate(IDENTITY_SETTINGS.captchaSecret, () => newSecret(32));
      return secret.value;
    });
    const context: IdentityContext = {
      db,
      deps,
      options,
      records: new IdentityRecords(db, deps.members, factors),
      emails: new IdentityEmails(db, deps.mailer, options),
      sessions: new SessionTokens(db),
      verifications,
      recovery: new RecoveryTokens(db),
      throttle: new LoginThrottle(db),
      captcha: this.captcha,
      factors,
    };
    this.signIn = new SignIn(context);
    this.registration = new Registration(context, this.signIn);
    this.twoStep = new TwoStep(context, this.signIn);
    this.passwords = new PasswordChanges(context, this.signIn);
    this.emailProofs = new EmailProofs(context, this.signIn);
  }

  // ---- sign-in (sign-in.ts) ----

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

  /** What the apps need to show the captcha (nothing secret), read per request. */
  captchaConfig(): Promise<CaptchaConfig> {
    return this.signIn.captchaConfig();
  }

  /** `POST /v2/login`: email and password, a captcha after a few failures. */
  login(input: LoginRequest, caller: Caller & { device?: string }): Promise<StateMachineResponse> {
    return this.signIn.login(input, caller);
  }

  /** A session token traded for member tokens of `clientId` (the authorization endpoint, prompt none). */
  issueMemberTokensForSession(
    sessionToken: string,
    clientId: string,
    visitorId?: string,
  ): Promise<TokenResponse> {
    return this.signIn.issueMemberTokensForSession(sessionToken, clientId, visitorId);
  }

  // ---- new identities (registration.ts) ----

  /** `POST /v2/register`: a new identity and its member, then whatever the site's policy asks next. */
  register(input: RegisterRequest, caller: Caller): Promise<StateMachineResponse> {
    return this.registration.register(input, caller);
  }

  /** `POST /v2/sign-on` (admin): the member with this email, made if new, signed in without a password. */
  signOn(input: {
    loginId?: { email?: string };
    profile?: IdentityProfile;
    verifyEmail?: boolean;
    mergeExistingContact?: boolean;
  }): Promise<{ sessionToken: string; identity: Identity }> {
    return this.registration.signOn(input);
  }

  /** The owner lets a waiting member in. */
  approve(identityId: string): Promise<Identity> {
    return this.registration.approve(identityId);
  }

  // ---- email proofs (email-proofs.ts) ----

  /** `POST /v1/auth/verify`: the emailed code, for the login that sent it. */
  verifyDuringAuthentication(input: { code?: unknown; stateToken?: unknown }): Promise<StateMachineResponse> {
    return this.emailProofs.verifyDuringAuthentication(input);
  }

  /** `POST /v1/verify`: a code for a verification an admin started. */
  verifyById(input: { code?: unknown; verificationId?: unknown }): Promise<Record<string, never>> {
    return this.emailProofs.verifyById(input);
  }

  /** `POST /v1/auth/resend`: a new code for the login waiting on one. */
  resendCode(input: { stateToken?: unknown }): Promise<Record<string, never>> {
    return this.emailProofs.resendCode(input);
  }

  /** `POST /v1/start` (admin): emails a code to the identity. */
  startVerification(input: { identityId?: unknown; target?: unknown }): Promise<{ verificationId: string }> {
    return this.emailProofs.start(input);
  }

  // ---- passwords (password-changes.ts) ----

  /** `POST /v2/change-password` by the signed-in member, recently signed in. */
  changePassword(caller: MemberPrincipal, newPassword: unknown): Promise<Record<string, never>> {
    return this.passwords.change(caller, newPassword);
  }

  /** `POST /v1/send-email`: a password reset link, if a member has this email. */
  sendRecoveryEmail(
    input: { email?: unknown; language?: unknown; redirect?: { url?: unknown; clientId?: unknown } },
    caller: Caller,
  ): Promise<Record<string, never>> {
    return this.passwords.sendRecoveryEmail(input, caller);
  }

  /** `POST /v1/activation-email` (admin): an invitation to set a first password. */
  sendActivationEmail(input: {
    identityId?: unknown;
    emailOptions?: { redirect?: { url?: unknown; clientId?: unknown } };
  }): Promise<Record<string, never>> {
    return this.passwords.sendActivationEmail(input);
  }

  /** `POST /v1/recover`: the link's token and a new password. */
  recover(
    input: { recoveryToken?: unknown; password?: unknown },
    caller: Caller,
  ): Promise<StateMachineResponse> {
    return this.passwords.recover(input, caller);
  }

  // ---- the second step (two-step.ts) ----

  /** `POST /v2/{factorType}/verify`: the second step of a sign-in. */
  verifySecondFactor(
    factorType: string,
    input: Parameters<TwoStep['verify']>[1],
  ): Promise<{ answer: StateMachineResponse; deviceToken?: string }> {
    return this.twoStep.verify(factorType, input);
  }

  /** A member's own second factors and how many recovery codes are left. */
  factorsOf(caller: MemberPrincipal): ReturnType<TwoStep['factorsOf']> {
    return this.twoStep.factorsOf(caller);
  }

  enrolFactor(
    caller: MemberPrincipal,
    type: SecondFactorType,
  ): Promise<{ secret: string; otpauthUrl: string } | Record<string, never>> {
    return this.twoStep.enrol(caller, type);
  }

  activateFactor(
    caller: MemberPrincipal,
    type: SecondFactorType,
    code: string,
  ): Promise<{ recoveryCodes: string[] }> {
    return this.twoStep.activate(caller, type, code);
  }

  removeFactor(caller: MemberPrincipal, type: SecondFactorType): Promise<Record<string, never>> {
    return this.twoStep.remove(caller, type);
  }

  newRecoveryCodes(caller: MemberPrincipal): Promise<{ recoveryCodes: string[] }> {
    return this.twoStep.newRecoveryCodes(caller);
  }
}
