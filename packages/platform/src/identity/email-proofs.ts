import type { StateMachineResponse } from '@cartwheel/sdk';
import { invalidArgument, violation } from '../shared/errors.ts';
import type { IdentityContext } from './context.ts';
import { statusAfterEmailVerified } from './login-flow.ts';
import { identityEvent, requiredString, standingOf } from './records.ts';
import type { SignIn } from './sign-in.ts';
import type { IdentityRow } from './tables.ts';
import type { VerificationRef } from './verification.ts';

/**
 * Proving an email with an emailed code: during a sign-in that waits on it, or for a verification an
 * admin started. The codes themselves are verification.ts.
 */
export class EmailProofs {
  constructor(
    private readonly context: IdentityContext,
    private readonly signIn: SignIn,
  ) {}

  /** `POST /v1/auth/verify`: the emailed code, for the login that sent it. */
  async verifyDuringAuthentication(input: {
    code?: unknown;
    stateToken?: unknown;
  }): Promise<StateMachineResponse> {
    const code = requiredString(input.code, 'code');
    const stateToken = requiredString(input.stateToken, 'stateToken');
    const verification = await this.context.verifications.complete({ stateToken }, code);
    const identity = await this.markEmailVerified(verification.identity_id);
    return this.signIn.continue(identity, await this.signIn.policy(), {
      visitorId: verification.visitor_id,
      clientId: verification.client_id,
    });
  }

  /** `POST /v1/verify`: a code for a verification an admin started; proves the email, signs no one in. */
  async verifyById(input: { code?: unknown; verificationId?: unknown }): Promise<Record<string, never>> {
    const code = requiredString(input.code, 'code');
    const verificationId = requiredString(input.verificationId, 'verificationId');
    const verification = await this.context.verifications.complete({ verificationId }, code);
    await this.markEmailVerified(verification.identity_id);
    return {};
  }

  /** `POST /v1/auth/resend`: a new code for the login waiting on one. */
  async resendCode(input: { stateToken?: unknown }): Promise<Record<string, never>> {
    const ref: VerificationRef = { stateToken: requiredString(input.stateToken, 'stateToken') };
    const { identityId, code } = await this.context.verifications.resend(ref);
    const identity = await this.context.records.findById(identityId);
    if (identity) await this.context.emails.code(identity.email, code);
    return {};
  }

  /** `POST /v1/start` (admin): emails a code to the identity; the answer names the verification. */
  async start(input: { identityId?: unknown; target?: unknown }): Promise<{ verificationId: string }> {
    const identityId = requiredString(input.identityId, 'identityId');
    if ((input.target ?? 'EMAIL') !== 'EMAIL') {
      throw invalidArgument([violation('target', 'only EMAIL verification exists', 'INVALID_ENUM_VALUE')]);
    }
    const identity = await this.context.records.get(identityId);
    const started = await this.context.verifications.start(
      identity.id,
      { visitorId: null, clientId: null },
      false,
    );
    await this.context.emails.code(identity.email, started.code);
    return { verificationId: started.verificationId };
  }

  private async markEmailVerified(identityId: string): Promise<IdentityRow> {
    const { deps, records } = this.context;
    const identity = await records.get(identityId);
    if (identity.email_verified) return identity;
    const next = statusAfterEmailVerified(standingOf(identity), await this.signIn.policy());
    const verified = await records.update(
      identity.id,
      { email_verified: 1, status: next.status, pending_reason: next.pendingReason },
      [identityEvent('email_verified', identity, {})],
    );
    await deps.events.deliverNow('identity');
    return verified;
  }
}
