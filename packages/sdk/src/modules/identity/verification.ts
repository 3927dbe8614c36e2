import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { StateMachineResponse } from '../../types/login.ts';
import { identityTrace, VERIFICATION } from './domains.ts';

const trace = (method: string) => identityTrace(`verification.v1.Verification.${method}`);

/** `POST /v1/start`: who to send a code to; only `EMAIL` is a target today (and the default). */
export interface StartVerificationOptions {
  identityId?: string | null;
  target?: 'EMAIL';
}

/**
 * Verification (`/_api/iam/verification`): email codes, alone or as the step of a login or
 * registration that answered `REQUIRE_EMAIL_VERIFICATION`.
 */
export const verification = {
  /**
   * `POST /v1/start` {identityId, target} (elevated); the platform reads a missing target as `EMAIL`. The
   * specification writes `/v1/Start`; the observed wire (and so the wire contract) has it in lower case.
   */
  start:
    (transport: Transport) =>
    (options: StartVerificationOptions = {}): Promise<{ verificationId?: string }> =>
      transport.request<{ verificationId?: string }>({
        method: 'POST',
        path: '/v1/start',
        mapping: VERIFICATION,
        body: { identityId: options.identityId, target: options.target },
        trace: trace('Start'),
      }),

  /** `POST /v1/auth/verify` {code, stateToken}: the code the member was emailed, during a login. */
  verifyDuringAuthentication:
    (transport: Transport) =>
    (code: string, options: { stateToken: string }): Promise<StateMachineResponse> =>
      transport.request<StateMachineResponse>({
        method: 'POST',
        path: '/v1/auth/verify',
        mapping: VERIFICATION,
        body: { code, stateToken: options.stateToken },
        trace: trace('VerifyDuringAuthentication'),
      }),

  /** `POST /v1/auth/resend` {stateToken}: emails a fresh code for the same login. */
  resendDuringAuthentication:
    (transport: Transport) =>
    (stateToken: string): Promise<StateMachineResponse> =>
      transport.request<StateMachineResponse>({
        method: 'POST',
        path: '/v1/auth/resend',
        mapping: VERIFICATION,
        body: { stateToken },
        trace: trace('ResendDuringAuthentication'),
      }),
} satisfies ModuleDefinition;
