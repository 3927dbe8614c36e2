import type {
  CaptchaConfig,
  CaptchaToken,
  LoginRequest,
  StateMachineResponse,
  TokenResponse,
} from '@cartwheel/sdk';
import { CAPTCHA_CHALLENGE_PATH } from '@cartwheel/sdk/auth';
import { recordEvents } from '../events/outbox.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { newId, newSecret } from '../shared/ids.ts';
import { type Caller, IDENTITY_SETTINGS, type IdentityContext, storeRequiresSecondStep } from './context.ts';
import {
  identityCannotSignIn,
  invalidPassword,
  invalidSessionToken,
  loginEmail,
  resetPasswordRequired,
  unknownEmail,
} from './errors.ts';
import { AUTH_STATE_OF, nextStep, type SignUpPolicy } from './login-flow.ts';
import { verifyPassword } from './passwords.ts';
import { holderOf, identityEvent, standingOf } from './records.ts';
import type { SessionHolder } from './sessions.ts';
import type { IdentityRow, SecondFactorType } from './tables.ts';

/**
 * Signing in: the password (with the throttle and captcha), the step a correctly identified member is
 * at (verify the email, wait for approval, a second step, or a session token), and the trade of a
 * session token for member tokens. Registration, recovery and the second step end here too.
 */
export class SignIn {
  constructor(private readonly context: IdentityContext) {}

  /**
   * What the apps need to show the captcha (nothing secret): whether the site asks for one now, the two
   * public site keys (made on first use) and where a challenge is fetched. Read per request: an admin's
   * change applies to the next page.
   */
  async captchaConfig(): Promise<CaptchaConfig> {
    const settings = this.context.deps.settings;
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

  /**
   * `POST /v2/login`: email and password. After a few failures for the email (or many from the
   * address) a solved captcha must come with it; with one, the right password signs in.
   */
  async login(input: LoginRequest, caller: Caller & { device?: string }): Promise<StateMachineResponse> {
    const email = loginEmail(input.loginId?.email);
    if (typeof input.password !== 'string' || input.password === '') {
      throw invalidArgument([violation('password', 'is required', 'REQUIRED_FIELD')]);
    }
    const attempt = await this.context.throttle.begin(email, caller.address);
    try {
      await this.checkCaptcha(input.captchaTokens, attempt.needsCaptcha);
    } catch (refusal) {
      await attempt.withdraw(); // no password was checked: nothing to count
      throw refusal;
    }
    const identity = await this.context.records.findByEmail(email);
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
    return this.continue(identity, await this.policy(), holderOf(caller.principal), caller.device);
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
    const { db, deps, records, sessions } = this.context;
    const session = await sessions.consume(sessionToken, clientId);
    const identity = await records.findById(session.identityId);
    if (!identity || nextStep(standingOf(identity), await this.policy()).step !== 'SIGN_IN') {
      throw invalidSessionToken();
    }
    // the visitor becomes the member: what they bought as a guest with the member's email joins them
    const visitor = visitorId ?? session.visitorId;
    await recordEvents(db, [
      identityEvent('signed_in', identity, {
        emailVerified: Boolean(identity.email_verified),
        visitorId: visitor,
      }),
    ]);
    await deps.events.deliverNow('identity');
    return deps.tokens.issueMemberTokens({
      clientId,
      visitorId: visitor ?? newId(),
      memberId: identity.id,
    });
  }

  /** Answers a correctly identified member with the step the flow is at (point 4's server states). */
  async continue(
    identity: IdentityRow,
    policy: SignUpPolicy,
    holder: SessionHolder,
    device?: string,
  ): Promise<StateMachineResponse> {
    const { emails, factors, records, verifications } = this.context;
    const step = nextStep(standingOf(identity), policy);
    if (step.step === 'REFUSE') throw identityCannotSignIn(step.status);
    const answer: StateMachineResponse = {
      state: AUTH_STATE_OF[step.step],
      identity: await records.wire(identity),
      additionalData: {},
    };
    const second = step.step === 'SIGN_IN' ? await this.secondStepOf(identity.id, device) : undefined;
    if (second) {
      // the password was right; the session waits for the second step (point 4's REQUIRE_MFA)
      const emailCode = second.includes('EMAIL')
        ? await verifications.start(identity.id, holder, false)
        : undefined;
      if (emailCode) await emails.code(identity.email, emailCode.code);
      answer.state = 'REQUIRE_MFA';
      answer.stateToken = await factors.openChallenge(identity.id, holder, emailCode?.verificationId ?? null);
      answer.requireMfaData = {
        availableFactors: second.map((factorType) => ({ factorType, factorStatus: 'ACTIVE' as const })),
        reason: 'USER_SETTINGS',
      };
    } else if (step.step === 'SIGN_IN') {
      answer.sessionToken = await this.openSession(identity.id, holder);
    } else if (step.step === 'VERIFY_EMAIL') {
      const started = await verifications.start(identity.id, holder, true);
      await emails.code(identity.email, started.code);
      answer.stateToken = started.stateToken;
    }
    return answer;
  }

  /** A session token for the holder; the member's last login is recorded. */
  async openSession(identityId: string, holder: SessionHolder): Promise<string> {
    const token = await this.context.sessions.issue(identityId, holder);
    await this.context.deps.members.recordLogin(identityId);
    return token;
  }

  /** A solved captcha, when the site asks for one on every form or this call `needed` one. */
  async checkCaptcha(tokens: CaptchaToken[] | undefined, needed = false): Promise<void> {
    if (needed || (await this.context.deps.settings.get(IDENTITY_SETTINGS.captcha)) === 'required') {
      await this.context.captcha.verify(tokens);
    }
  }

  /** The site's sign-up policy, read per call so an admin's change applies to the next login. */
  async policy(): Promise<SignUpPolicy> {
    const settings = this.context.deps.settings;
    const [verification, approval] = await Promise.all([
      settings.get(IDENTITY_SETTINGS.requireEmailVerification),
      settings.get(IDENTITY_SETTINGS.requireOwnerApproval),
    ]);
    return { requireEmailVerification: verification === 'true', requireOwnerApproval: approval === 'true' };
  }

  /**
   * The factors a sign-in's second step may use, or undefined when it needs none: a member who turned
   * the second step on, or staff who move money when the store requires it of them, on a device not
   * remembered. Staff with no factor of their own get a code by email.
   */
  private async secondStepOf(
    identityId: string,
    device: string | undefined,
  ): Promise<SecondFactorType[] | undefined> {
    const { deps, factors } = this.context;
    const enrolled = await factors.enrolled(identityId);
    const required = enrolled || (await storeRequiresSecondStep(deps, identityId));
    if (!required || (await factors.remembered(identityId, device))) return undefined;
    const active = await factors.active(identityId);
    return active.length > 0 ? active : ['EMAIL'];
  }
}
