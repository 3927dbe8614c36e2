import type { StateMachineResponse } from '@cartwheel/sdk';
import { applicationError } from '../shared/errors.ts';
import type { MemberPrincipal } from '../shared/principal.ts';
import { type Caller, type IdentityContext, requireRecentSignIn } from './context.ts';
import { loginEmail } from './errors.ts';
import { statusAfterEmailVerified } from './login-flow.ts';
import { hashPassword, passwordViolation } from './passwords.ts';
import { holderOf, requiredString, standingOf, stringOr } from './records.ts';
import type { SignIn } from './sign-in.ts';

/**
 * A member's password: changed while signed in, or chosen through an emailed link (a reset the member
 * asked for, or an activation an admin sent). Every change ends the other sessions and is emailed.
 */
export class PasswordChanges {
  constructor(
    private readonly context: IdentityContext,
    private readonly signIn: SignIn,
  ) {}

  /**
   * `POST /v2/change-password` by the signed-in member, whose sign-in is recent (`RECENT_SIGN_IN_MS`).
   * Every other session of the member ends; the caller's stays. The member is told by email.
   */
  async change(caller: MemberPrincipal, newPassword: unknown): Promise<Record<string, never>> {
    // a stolen session must not lock the owner out: the password itself is asked again, at sign-in
    requireRecentSignIn(caller);
    const weak = passwordViolation(newPassword, 'newPassword');
    if (weak) throw weak;
    const identity = await this.context.records.get(caller.memberId);
    const passwordHash = await hashPassword(newPassword as string);
    await this.context.deps.tokens.endSessionsOf(identity.id, 'PASSWORD_CHANGED', {
      keep: caller.familyId,
      along: async (trx) => {
        await trx
          .updateTable('identities')
          .set({ password_hash: passwordHash, must_reset_password: 0, updated_at: new Date().toISOString() })
          .where('id', '=', identity.id)
          .execute();
      },
    });
    await this.context.emails.passwordChanged(identity.email);
    return {};
  }

  /**
   * `POST /v1/send-email`: a password reset link, if a member has this email. The answer is the same
   * either way, so it tells nobody whether the email belongs to a member.
   */
  async sendRecoveryEmail(
    input: { email?: unknown; language?: unknown; redirect?: { url?: unknown; clientId?: unknown } },
    caller: Caller,
  ): Promise<Record<string, never>> {
    const { emails, records, recovery } = this.context;
    const email = loginEmail(input.email, 'email');
    const identity = await records.findByEmail(email);
    if (!identity || !['ACTIVE', 'PENDING'].includes(identity.status)) return {};
    const clientId = stringOr(input.redirect?.clientId) ?? holderOf(caller.principal).clientId;
    const token = await recovery.issue(identity.id, 'RECOVERY', clientId);
    if (!token) return {};
    const link = await emails.resetLink(token, stringOr(input.redirect?.url), clientId);
    await emails.passwordReset(identity.email, link);
    return {};
  }

  /** `POST /v1/activation-email` (admin): an invitation to set a first password. */
  async sendActivationEmail(input: {
    identityId?: unknown;
    emailOptions?: { redirect?: { url?: unknown; clientId?: unknown } };
  }): Promise<Record<string, never>> {
    const { emails, records, recovery } = this.context;
    const identity = await records.get(requiredString(input.identityId, 'identityId'));
    const clientId = stringOr(input.emailOptions?.redirect?.clientId) ?? null;
    const token = await recovery.issue(identity.id, 'ACTIVATION', clientId);
    if (!token) {
      throw applicationError(
        'RESOURCE_EXHAUSTED',
        'TOO_MANY_ATTEMPTS',
        'too many emails sent lately: try later',
      );
    }
    const link = await emails.resetLink(token, stringOr(input.emailOptions?.redirect?.url), clientId);
    await emails.activation(identity.email, link);
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
    const { deps, emails, records, recovery, throttle } = this.context;
    const recoveryToken = requiredString(input.recoveryToken, 'recoveryToken');
    const weak = passwordViolation(input.password, 'password');
    if (weak) throw weak;
    const passwordHash = await hashPassword(input.password as string);
    const used = await recovery.consume(recoveryToken);
    const identity = await records.get(used.identity_id);
    const policy = await this.signIn.policy();
    const next = identity.email_verified
      ? { status: identity.status, pendingReason: identity.pending_reason }
      : statusAfterEmailVerified(standingOf(identity), policy);
    // whoever held a session may have known the old password: every session ends with it
    await deps.tokens.endSessionsOf(identity.id, 'PASSWORD_RESET', {
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
    const updated = await records.get(identity.id);
    await emails.passwordChanged(updated.email);
    await throttle.clear(updated.email);
    const holder = holderOf(caller.principal);
    return this.signIn.continue(updated, policy, {
      visitorId: holder.visitorId,
      clientId: holder.clientId ?? used.client_id,
    });
  }
}
