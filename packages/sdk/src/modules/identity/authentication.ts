import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type {
  FactorType,
  Identity,
  LoginId,
  LoginRequest,
  RegisterRequest,
  SignOnRequest,
  VerifyFactorRequest,
} from '../../types/identity.ts';
import type { StateMachineResponse } from '../../types/login.ts';
import { AUTHENTICATION, identityTrace } from './domains.ts';
import { profileOnWire } from './profile.ts';

const trace = (method: string) => identityTrace(`authentication.v2.Authentication.${method}`);

export type RegisterOptions = Omit<RegisterRequest, 'loginId'>;
export type LoginOptions = Omit<LoginRequest, 'loginId'>;
export type SignOnOptions = Omit<SignOnRequest, 'loginId'>;

/** The answer of `POST /v2/sign-on`. */
export interface SignOnResponse {
  sessionToken?: string;
  identity?: Identity;
}

/**
 * Authentication (`/_api/iam/authentication`): the server half of the login state machine of point 4.
 * Answers are the server's; `OAuthStrategy.login` and `register` turn them into login states. Each body
 * holds the named fields only, in the hosted client's order, never whatever else an options object carries.
 */
export const authentication = {
  /**
   * `POST /v2/register` {loginId, password, profile, captchaTokens, clientMetaData}; the profile's
   * addresses and custom values as the hosted client sends them (`profileOnWire`).
   */
  register:
    (transport: Transport) =>
    (loginId: LoginId, options: RegisterOptions = {}): Promise<StateMachineResponse> =>
      transport.request<StateMachineResponse>({
        method: 'POST',
        path: '/v2/register',
        mapping: AUTHENTICATION,
        body: {
          loginId,
          password: options.password,
          profile: profileOnWire(options.profile),
          captchaTokens: options.captchaTokens,
          clientMetaData: options.clientMetaData,
        },
        trace: trace('RegisterV2'),
      }),

  /**
   * `POST /v2/login` {loginId, password, captchaTokens, clientMetaData, stateToken}; a state token
   * continues a login flow started beforehand instead of starting a new one.
   */
  login:
    (transport: Transport) =>
    (loginId: LoginId, options: LoginOptions = {}): Promise<StateMachineResponse> =>
      transport.request<StateMachineResponse>({
        method: 'POST',
        path: '/v2/login',
        mapping: AUTHENTICATION,
        body: {
          loginId,
          password: options.password,
          captchaTokens: options.captchaTokens,
          clientMetaData: options.clientMetaData,
          stateToken: options.stateToken,
        },
        trace: trace('LoginV2'),
      }),

  /** `POST /v2/change-password` {newPassword}: the signed-in member's own password. */
  changePassword:
    (transport: Transport) =>
    async (newPassword: string): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: '/v2/change-password',
        mapping: AUTHENTICATION,
        body: { newPassword },
        trace: trace('ChangePassword'),
      });
    },

  /**
   * `POST /v2/sign-on` {loginId, profile, verifyEmail, mergeExistingContact} (elevated): signs a known
   * person on without a password. The profile goes as register's does.
   */
  signOn:
    (transport: Transport) =>
    (loginId: LoginId, options: SignOnOptions = {}): Promise<SignOnResponse> =>
      transport.request<SignOnResponse>({
        method: 'POST',
        path: '/v2/sign-on',
        mapping: AUTHENTICATION,
        body: {
          loginId,
          profile: profileOnWire(options.profile),
          verifyEmail: options.verifyEmail,
          mergeExistingContact: options.mergeExistingContact,
        },
        trace: trace('SignOn'),
      }),

  /**
   * `POST /v2/{factorType}/verify` {stateToken, rememberThisDevice, emailData | totpData |
   * recoveryCodeData}: the second step of a sign-in that answered `REQUIRE_MFA`. Answers `SUCCESS`
   * with a session token, as a login would.
   */
  verify:
    (transport: Transport) =>
    (factorType: FactorType, request: VerifyFactorRequest): Promise<StateMachineResponse> =>
      transport.request<StateMachineResponse>({
        method: 'POST',
        path: `/v2/${encodeURIComponent(factorType)}/verify`,
        mapping: AUTHENTICATION,
        body: {
          stateToken: request.stateToken,
          rememberThisDevice: request.rememberThisDevice,
          emailData: request.emailData,
          totpData: request.totpData,
          recoveryCodeData: request.recoveryCodeData,
        },
        trace: trace('Verify'),
      }),
} satisfies ModuleDefinition;
