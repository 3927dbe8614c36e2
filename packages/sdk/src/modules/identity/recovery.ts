import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { SendRecoveryEmailRequest } from '../../types/identity.ts';
import type { StateMachineResponse } from '../../types/login.ts';
import { identityTrace, RECOVERY } from './domains.ts';

const trace = (method: string) => identityTrace(`recovery.v1.Recovery.${method}`);

export type SendRecoveryEmailOptions = Omit<SendRecoveryEmailRequest, 'email'>;

/** Language and landing page of an activation email. */
export interface ActivationEmailOptions {
  language?: string | null;
  redirect?: { url?: string; clientId?: string };
}

/**
 * Recovery (`/_api/iam/recovery`): password-reset and activation emails, and setting a new password
 * with the token from such an email.
 */
export const recovery = {
  /** `POST /v1/send-email` {email, language, redirect: {url, clientId}}: a password-reset link. */
  sendRecoveryEmail:
    (transport: Transport) =>
    async (email: string, options: SendRecoveryEmailOptions = {}): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: '/v1/send-email',
        mapping: RECOVERY,
        body: { email, language: options.language, redirect: options.redirect },
        trace: trace('SendRecoveryEmail'),
      });
    },

  /** `POST /v1/activation-email` {identityId, emailOptions} (elevated). */
  sendActivationEmail:
    (transport: Transport) =>
    async (identityId: string, options: { emailOptions?: ActivationEmailOptions } = {}): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: '/v1/activation-email',
        mapping: RECOVERY,
        body: { identityId, emailOptions: options.emailOptions },
        trace: trace('SendActivationEmail'),
      });
    },

  /** `POST /v1/recover` {recoveryToken, password}: sets the password the reset link was sent for. */
  recover:
    (transport: Transport) =>
    (recoveryToken: string, options: { password?: string | null } = {}): Promise<StateMachineResponse> =>
      transport.request<StateMachineResponse>({
        method: 'POST',
        path: '/v1/recover',
        mapping: RECOVERY,
        body: { recoveryToken, password: options.password },
        trace: trace('Recover'),
      }),
} satisfies ModuleDefinition;
