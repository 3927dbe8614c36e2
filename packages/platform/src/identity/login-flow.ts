import type { IdentityPendingReason, IdentityStatus, ServerAuthState } from '@cartwheel/sdk';

/**
 * The login and registration state machine, as pure steps: what status a new identity starts in,
 * what proving the email changes, and what a signing-in identity must do next. The service runs
 * them; nothing here reads a database or a request.
 */

/** The site settings that shape the flow (`identity.requireEmailVerification`, `identity.requireOwnerApproval`). */
export interface SignUpPolicy {
  requireEmailVerification: boolean;
  requireOwnerApproval: boolean;
}

export interface IdentityStanding {
  status: IdentityStatus;
  pendingReason: IdentityPendingReason | null;
  emailVerified: boolean;
}

export type StatusChange = Pick<IdentityStanding, 'status' | 'pendingReason'>;

/** What a signing-in identity must do next; `REFUSE` for statuses that can never sign in. */
export type NextStep =
  | { step: 'SIGN_IN' }
  | { step: 'VERIFY_EMAIL' }
  | { step: 'AWAIT_OWNER_APPROVAL' }
  | { step: 'REFUSE'; status: IdentityStatus };

/** A new identity waits for its email first, then for the owner; otherwise it is active at once. */
export function statusOnRegistration(policy: SignUpPolicy, emailVerified = false): StatusChange {
  if (policy.requireEmailVerification && !emailVerified)
    return { status: 'PENDING', pendingReason: 'PENDING_EMAIL_VERIFICATION_REQUIRED' };
  if (policy.requireOwnerApproval)
    return { status: 'PENDING', pendingReason: 'PENDING_ADMIN_APPROVAL_REQUIRED' };
  return { status: 'ACTIVE', pendingReason: null };
}

/** Proving the email ends a wait for it; the owner's approval, if the site asks for it, comes next. */
export function statusAfterEmailVerified(identity: IdentityStanding, policy: SignUpPolicy): StatusChange {
  if (identity.status === 'PENDING' && identity.pendingReason === 'PENDING_EMAIL_VERIFICATION_REQUIRED') {
    return policy.requireOwnerApproval
      ? { status: 'PENDING', pendingReason: 'PENDING_ADMIN_APPROVAL_REQUIRED' }
      : { status: 'ACTIVE', pendingReason: null };
  }
  return { status: identity.status, pendingReason: identity.pendingReason };
}

/** The owner's approval activates an identity that waits for it, and nothing else. */
export function statusAfterOwnerApproval(identity: IdentityStanding): StatusChange {
  if (identity.status === 'PENDING' && identity.pendingReason === 'PENDING_ADMIN_APPROVAL_REQUIRED')
    return { status: 'ACTIVE', pendingReason: null };
  return { status: identity.status, pendingReason: identity.pendingReason };
}

/**
 * What stands between a correctly identified member and a session. An unverified email is asked for
 * when the site requires it now, or required it when the member registered.
 */
export function nextStep(identity: IdentityStanding, policy: SignUpPolicy): NextStep {
  if (identity.status === 'BLOCKED' || identity.status === 'DELETED' || identity.status === 'OFFLINE')
    return { step: 'REFUSE', status: identity.status };
  const waitsForEmail =
    policy.requireEmailVerification || identity.pendingReason === 'PENDING_EMAIL_VERIFICATION_REQUIRED';
  if (!identity.emailVerified && waitsForEmail) return { step: 'VERIFY_EMAIL' };
  if (identity.status === 'PENDING' && identity.pendingReason === 'PENDING_ADMIN_APPROVAL_REQUIRED')
    return { step: 'AWAIT_OWNER_APPROVAL' };
  return { step: 'SIGN_IN' };
}

/** The wire state a step answers with. */
export const AUTH_STATE_OF: Record<Exclude<NextStep['step'], 'REFUSE'>, ServerAuthState> = {
  SIGN_IN: 'SUCCESS',
  VERIFY_EMAIL: 'REQUIRE_EMAIL_VERIFICATION',
  AWAIT_OWNER_APPROVAL: 'REQUIRE_OWNER_APPROVAL',
};
