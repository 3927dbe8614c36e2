import type { Settings } from '../settings/settings.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { IDENTITY_SETTINGS } from './service.ts';

/** How new members join: what a merchant decides, read by every registration and login. */
export interface IdentitySiteSettings {
  /** New members confirm their email with a code before they can sign in. */
  requireEmailVerification: boolean;
  /** New members wait for the owner's approval before they can sign in. */
  requireOwnerApproval: boolean;
  /** A solved captcha on every registration and login. */
  captcha: 'off' | 'required';
  /**
   * The owner and staff whose role moves money (capture, void, refund) pass a second step at every
   * sign-in: their factor, or a code by email when they have none (factors.ts).
   */
  requireStaffSecondStep: boolean;
}

export async function readIdentitySettings(settings: Settings): Promise<IdentitySiteSettings> {
  const [verification, approval, captcha, staffSecondStep] = await Promise.all([
    settings.get(IDENTITY_SETTINGS.requireEmailVerification),
    settings.get(IDENTITY_SETTINGS.requireOwnerApproval),
    settings.get(IDENTITY_SETTINGS.captcha),
    settings.get(IDENTITY_SETTINGS.requireStaffSecondStep),
  ]);
  return {
    requireEmailVerification: verification === 'true',
    requireOwnerApproval: approval === 'true',
    captcha: captcha === 'required' ? 'required' : 'off',
    requireStaffSecondStep: staffSecondStep === 'true',
  };
}

/** Changes the fields given (all checked first, so a bad one changes nothing) and answers the result. */
export async function updateIdentitySettings(
  settings: Settings,
  input: unknown,
): Promise<IdentitySiteSettings> {
  const changes = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const violations = [];
  for (const field of [
    'requireEmailVerification',
    'requireOwnerApproval',
    'requireStaffSecondStep',
  ] as const) {
    if (changes[field] !== undefined && typeof changes[field] !== 'boolean') {
      violations.push(violation(`settings.${field}`, 'must be true or false', 'FORMAT'));
    }
  }
  if (changes.captcha !== undefined && changes.captcha !== 'off' && changes.captcha !== 'required') {
    violations.push(violation('settings.captcha', "must be 'off' or 'required'", 'INVALID_ENUM_VALUE'));
  }
  const known = new Set([
    'requireEmailVerification',
    'requireOwnerApproval',
    'captcha',
    'requireStaffSecondStep',
  ]);
  for (const field of Object.keys(changes).filter((key) => !known.has(key))) {
    violations.push(violation(`settings.${field}`, 'is not a setting', 'FIELD_NOT_ALLOWED'));
  }
  if (violations.length > 0) throw invalidArgument(violations);
  if (typeof changes.requireEmailVerification === 'boolean') {
    await settings.set(IDENTITY_SETTINGS.requireEmailVerification, String(changes.requireEmailVerification));
  }
  if (typeof changes.requireOwnerApproval === 'boolean') {
    await settings.set(IDENTITY_SETTINGS.requireOwnerApproval, String(changes.requireOwnerApproval));
  }
  if (typeof changes.captcha === 'string') await settings.set(IDENTITY_SETTINGS.captcha, changes.captcha);
  if (typeof changes.requireStaffSecondStep === 'boolean') {
    await settings.set(IDENTITY_SETTINGS.requireStaffSecondStep, String(changes.requireStaffSecondStep));
  }
  return readIdentitySettings(settings);
}
