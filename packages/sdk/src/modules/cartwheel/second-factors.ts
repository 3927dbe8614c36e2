import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { FactorStatus } from '../../types/identity.ts';
import { CARTWHEEL_API } from './domains.ts';

/** The factors Cartwheel offers for a sign-in's second step. */
export type SecondFactorType = 'EMAIL' | 'TOTP';

export interface SecondFactors {
  factors: Array<{ factorType: SecondFactorType; status: FactorStatus }>;
  recoveryCodesLeft: number;
  /** The store requires a second step of this member (staff who move money): one should be enrolled. */
  requiredByStore: boolean;
}

const trace = (method: string) => ({
  package: '@cartwheel/sdk',
  method: `cartwheel.identity.v1.SecondFactors.${method}`,
  entity: 'factor',
});

/**
 * The signed-in member's own second step (Cartwheel's calls, `/api/cartwheel/identity/...`): turn an
 * authenticator or codes by email on (`enrol`, then `activate` with a code from it, which answers the
 * recovery codes, shown once), off (`remove`), or make new recovery codes. Changes need a sign-in of
 * the last 15 minutes.
 */
export const secondFactors = {
  list: (transport: Transport) => (): Promise<SecondFactors> =>
    transport.request({
      method: 'GET',
      path: '/identity/factors',
      mapping: CARTWHEEL_API,
      trace: trace('List'),
    }),

  /** TOTP answers the authenticator's secret and its `otpauth://` link; EMAIL mails a code. */
  enrol:
    (transport: Transport) =>
    (type: SecondFactorType): Promise<{ secret?: string; otpauthUrl?: string }> =>
      transport.request({
        method: 'POST',
        path: `/identity/factors/${type}/enrol`,
        mapping: CARTWHEEL_API,
        body: {},
        trace: trace('Enrol'),
      }),

  activate:
    (transport: Transport) =>
    (type: SecondFactorType, code: string): Promise<{ recoveryCodes: string[] }> =>
      transport.request({
        method: 'POST',
        path: `/identity/factors/${type}/activate`,
        mapping: CARTWHEEL_API,
        body: { code },
        trace: trace('Activate'),
      }),

  remove:
    (transport: Transport) =>
    async (type: SecondFactorType): Promise<void> => {
      await transport.request({
        method: 'DELETE',
        path: `/identity/factors/${type}`,
        mapping: CARTWHEEL_API,
        trace: trace('Remove'),
      });
    },

  newRecoveryCodes: (transport: Transport) => (): Promise<{ recoveryCodes: string[] }> =>
    transport.request({
      method: 'POST',
      path: '/identity/recovery-codes',
      mapping: CARTWHEEL_API,
      body: {},
      trace: trace('NewRecoveryCodes'),
    }),
} satisfies ModuleDefinition;
