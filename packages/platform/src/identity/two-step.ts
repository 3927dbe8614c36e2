import type { StateMachineResponse } from '@cartwheel/sdk';
import { applicationError, invalidArgument, violation } from '../shared/errors.ts';
import type { MemberPrincipal } from '../shared/principal.ts';
import { type IdentityContext, requireRecentSignIn, storeRequiresSecondStep } from './context.ts';
import { identityCannotSignIn } from './errors.ts';
import { nextStep } from './login-flow.ts';
import { requiredString, standingOf, stringOr } from './records.ts';
import type { SignIn } from './sign-in.ts';
import type { SecondFactorType } from './tables.ts';
import { otpauthUrl } from './totp.ts';

/**
 * The second step: passing it at sign-in, and a member's own factors (an authenticator or codes by
 * email), turned on, proven, removed, and their recovery codes. The codes themselves are factors.ts.
 */
export class TwoStep {
  constructor(
    private readonly context: IdentityContext,
    private readonly signIn: SignIn,
  ) {}

  /**
   * `POST /v2/{factorType}/verify` {stateToken, rememberThisDevice, emailData | totpData |
   * recoveryCodeData}: the second step of a sign-in. Right, it answers SUCCESS with a session token
   * for the holder the password was right for, and (remember this device) a token for the device's
   * cookie. Wrong, reused or late codes are refused, and count against the identity's wrong codes.
   */
  async verify(
    factorType: string,
    input: {
      stateToken?: string | undefined;
      rememberThisDevice?: boolean | null | undefined;
      emailData?: { code?: string | null | undefined } | null | undefined;
      totpData?: { code?: string | null | undefined } | null | undefined;
      recoveryCodeData?: { code?: string | null | undefined } | null | undefined;
    },
  ): Promise<{ answer: StateMachineResponse; deviceToken?: string }> {
    const { factors, records } = this.context;
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
    const challenge = await factors.challenge(stateToken);
    await factors.pass(challenge, factorType, recoveryCode ? { recoveryCode } : { code: code as string });
    const identity = await records.get(challenge.identity_id);
    const step = nextStep(standingOf(identity), await this.signIn.policy());
    if (step.step === 'REFUSE') throw identityCannotSignIn(step.status);
    const sessionToken = await this.signIn.openSession(identity.id, {
      visitorId: challenge.visitor_id,
      clientId: challenge.client_id,
    });
    const deviceToken = input.rememberThisDevice ? await factors.rememberDevice(identity.id) : undefined;
    return {
      answer: {
        state: 'SUCCESS',
        sessionToken,
        identity: await records.wire(identity),
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
    const rows = await this.context.factors.list(caller.memberId);
    const left = await this.context.db
      .selectFrom('identity_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('identity_id', '=', caller.memberId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return {
      factors: rows.map((row) => ({ factorType: row.type, status: row.status })),
      recoveryCodesLeft: Number(left.count),
      requiredByStore: await storeRequiresSecondStep(this.context.deps, caller.memberId),
    };
  }

  /**
   * Starts a factor for the signed-in member (a recent sign-in: a stolen session must not change the
   * second step): an authenticator's secret, or a code to the login email. INACTIVE until activated.
   */
  async enrol(
    caller: MemberPrincipal,
    type: SecondFactorType,
  ): Promise<{ secret: string; otpauthUrl: string } | Record<string, never>> {
    requireRecentSignIn(caller);
    const { emails, factors, options, records } = this.context;
    const identity = await records.get(caller.memberId);
    if (type === 'EMAIL') {
      await emails.code(identity.email, await factors.startEmail(identity.id));
      return {};
    }
    const secret = await factors.startTotp(identity.id);
    return { secret, otpauthUrl: otpauthUrl(secret, options.storeName, identity.email) };
  }

  /** Proves an enrolling factor with a code from it; answers the new recovery codes, shown once. */
  async activate(
    caller: MemberPrincipal,
    type: SecondFactorType,
    code: string,
  ): Promise<{ recoveryCodes: string[] }> {
    requireRecentSignIn(caller);
    const recoveryCodes = await this.context.factors.activate(caller.memberId, type, code);
    await this.context.factors.forgetDevices(caller.memberId);
    return { recoveryCodes };
  }

  async remove(caller: MemberPrincipal, type: SecondFactorType): Promise<Record<string, never>> {
    requireRecentSignIn(caller);
    await this.context.factors.remove(caller.memberId, type);
    await this.context.factors.forgetDevices(caller.memberId);
    return {};
  }

  async newRecoveryCodes(caller: MemberPrincipal): Promise<{ recoveryCodes: string[] }> {
    requireRecentSignIn(caller);
    if (!(await this.context.factors.enrolled(caller.memberId))) {
      throw applicationError('FAILED_PRECONDITION', 'FACTOR_NOT_ACTIVE', 'turn a second factor on first');
    }
    return { recoveryCodes: await this.context.factors.newRecoveryCodes(caller.memberId) };
  }
}
