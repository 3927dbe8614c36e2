/** The identity modules: `createClient({ auth, modules: { authentication, recovery, verification } })`. */
export {
  authentication,
  type LoginOptions,
  type RegisterOptions,
  type SignOnOptions,
  type SignOnResponse,
} from './authentication.ts';
export { AUTHENTICATION, RECOVERY, VERIFICATION } from './domains.ts';
export { type ActivationEmailOptions, recovery, type SendRecoveryEmailOptions } from './recovery.ts';
export { type StartVerificationOptions, verification } from './verification.ts';
