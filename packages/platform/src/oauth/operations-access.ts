import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * OAuth's operations: the token endpoint and the browser-facing pages for anyone (a hosted login's
 * redirect session for token holders), and the OAuth client registry for the environment's admin key
 * alone: a client is a way into every member's account.
 */
export const OAUTH_OPERATIONS = operationTable('oauth', {
  token: CALLERS.anyone,
  authorize: CALLERS.anyone,
  /** `GET /_api/iam/authentication/v1/callback`: the session token is the credential, as at authorize. */
  callback: CALLERS.anyone,
  /** RFC-style `/oauth2/logout` and the hosted client's `/_api/iam/authentication/v1/logout`. */
  logout: CALLERS.anyone,
  createRedirectSession: CALLERS.tokenHolders,
  listOAuthClients: CALLERS.admins,
  getOAuthClient: CALLERS.admins,
  createOAuthClient: CALLERS.admins,
  updateOAuthClient: CALLERS.admins,
});
