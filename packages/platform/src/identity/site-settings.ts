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
}

export async function readIdentitySettings(settings: Settings): Promise<IdentitySiteSettings> {
  const [verification, approval, captcha] = await Promise.all([
    settings.get(IDENTITY_SETTINGS.requireEmailVerification),
    settings.get(IDENTITY_SETTINGS.requireOwnerApproval),
    settings.get(IDENTITY_SETTINGS.captcha),
  ]);
  return {
    requireEmailVerification: verification === 'true',
    requireOwnerApproval: approval === 'true',
    captcha: captcha === 'required' ? 'required' : 'off',
  };
}

/** Changes the fields given (all checked first, so a bad one changes nothing) and answers the result. */
export async function updateIdentitySettings(
  settings: Settings,
  input: unknown,
): Promise<IdentitySiteSettings> {
  const changes = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const violations = [];
  for (const field of ['requireEmailVerification', 'requireOwnerApproval'] as const) {
    if (changes[field] !== undefined && typeof changes[field] !== 'boolean') {
      violations.push(violation(`settings.${field}`, 'must be true or false', 'FORMAT'));
    }
  }
  if (changes.captcha !== undefined && changes.captcha !== 'off' && changes.captcha !== 'required') {
    violations.push(violation('settings.captcha', "must be 'off' or 'required'", 'INVALID_ENUM_VALUE'));
  }
  const known = new Set(['requireEmailVerification', 'requireOwnerApproval', 'captcha']);
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
  return readIdentitySettings(settings);
}
