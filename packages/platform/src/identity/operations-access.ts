import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * Identity's operations (the hosted SDK's `authentication`, `verification` and `recovery` methods,
 * and Cartwheel's identity settings and captcha). Logins need a visitor token: the session they open
 * belongs to that visitor's client. Signing a member on without a password stays with the
 * environment's key: it is a way into every member's account.
 */
export const IDENTITY_OPERATIONS = operationTable('identity', {
  registerV2: CALLERS.tokenHolders,
  loginV2: CALLERS.tokenHolders,
  changePassword: CALLERS.members,
  signOn: CALLERS.admins,
  verifyDuringAuthentication: CALLERS.tokenHolders,
  resendDuringAuthentication: CALLERS.tokenHolders,
  startVerification: CALLERS.staff('members.manage'),
  verifyById: CALLERS.tokenHolders,
  sendRecoveryEmail: CALLERS.tokenHolders,
  /** The link's token is the credential: the reset page may not hold a visitor token yet. */
  recover: CALLERS.anyone,
  sendActivationEmail: CALLERS.staff('members.manage'),
  getIdentitySettings: CALLERS.staff('settings.manage'),
  updateIdentitySettings: CALLERS.staff('settings.manage'),
  getCaptchaChallenge: CALLERS.anyone,
  /** The second step of a sign-in: the state token is the credential, held by the visitor who signed in. */
  verifySecondFactor: CALLERS.tokenHolders,
  listFactors: CALLERS.members,
  enrolFactor: CALLERS.members,
  activateFactor: CALLERS.members,
  removeFactor: CALLERS.members,
  newRecoveryCodes: CALLERS.members,
});
