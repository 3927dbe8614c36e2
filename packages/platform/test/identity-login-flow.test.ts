import { describe, expect, it } from 'vitest';
import {
  nextStep,
  statusAfterEmailVerified,
  statusAfterOwnerApproval,
  statusOnRegistration,
} from '../src/identity/login-flow.ts';

const open = { requireEmailVerification: false, requireOwnerApproval: false };
const verifyFirst = { requireEmailVerification: true, requireOwnerApproval: false };
const both = { requireEmailVerification: true, requireOwnerApproval: true };

describe('the login state machine, step by step', () => {
  it('starts a new identity active on an open site', () => {
    expect(statusOnRegistration(open)).toEqual({ status: 'ACTIVE', pendingReason: null });
  });

  it('makes a new identity wait for its email before the owner', () => {
    expect(statusOnRegistration(both)).toEqual({
      status: 'PENDING',
      pendingReason: 'PENDING_EMAIL_VERIFICATION_REQUIRED',
    });
    expect(statusOnRegistration({ ...open, requireOwnerApproval: true })).toEqual({
      status: 'PENDING',
      pendingReason: 'PENDING_ADMIN_APPROVAL_REQUIRED',
    });
  });

  it('hands a verified email on to the owner when approval is required, else activates', () => {
    const waiting = {
      status: 'PENDING',
      pendingReason: 'PENDING_EMAIL_VERIFICATION_REQUIRED',
      emailVerified: false,
    } as const;
    expect(statusAfterEmailVerified(waiting, both)).toEqual({
      status: 'PENDING',
      pendingReason: 'PENDING_ADMIN_APPROVAL_REQUIRED',
    });
    expect(statusAfterEmailVerified(waiting, verifyFirst)).toEqual({ status: 'ACTIVE', pendingReason: null });
  });

  it('does not let approval or verification revive a blocked identity', () => {
    const blocked = { status: 'BLOCKED', pendingReason: null, emailVerified: false } as const;
    expect(statusAfterEmailVerified(blocked, both).status).toBe('BLOCKED');
    expect(statusAfterOwnerApproval(blocked).status).toBe('BLOCKED');
    expect(nextStep(blocked, open)).toEqual({ step: 'REFUSE', status: 'BLOCKED' });
  });

  it('asks an unverified member for the email when the site requires it now or did at registration', () => {
    const active = { status: 'ACTIVE', pendingReason: null, emailVerified: false } as const;
    expect(nextStep(active, open)).toEqual({ step: 'SIGN_IN' });
    expect(nextStep(active, verifyFirst)).toEqual({ step: 'VERIFY_EMAIL' });
    const registeredUnderRule = {
      status: 'PENDING',
      pendingReason: 'PENDING_EMAIL_VERIFICATION_REQUIRED',
      emailVerified: false,
    } as const;
    expect(nextStep(registeredUnderRule, open)).toEqual({ step: 'VERIFY_EMAIL' });
  });

  it('keeps a member waiting for approval out until approved', () => {
    const waiting = {
      status: 'PENDING',
      pendingReason: 'PENDING_ADMIN_APPROVAL_REQUIRED',
      emailVerified: true,
    } as const;
    expect(nextStep(waiting, both)).toEqual({ step: 'AWAIT_OWNER_APPROVAL' });
    expect(nextStep({ ...waiting, ...statusAfterOwnerApproval(waiting) }, both)).toEqual({ step: 'SIGN_IN' });
  });
});
