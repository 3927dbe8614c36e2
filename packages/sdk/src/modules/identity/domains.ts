import { everyHost } from '../../transport/domains.ts';
import type { RequestSpec } from '../../transport/http.ts';

/**
 * Domain mappings of the identity modules (wire contract, Hosts): the service prefix is empty, so
 * `/v2/login` becomes `/_api/iam/authentication/v2/login` on every host.
 */
export const AUTHENTICATION = everyHost(['', '/_api/iam/authentication']);
export const RECOVERY = everyHost(['', '/_api/iam/recovery']);
export const VERIFICATION = everyHost(['', '/_api/iam/verification']);

/** Tracing of one identity call, named like the hosted services (`cartwheel.iam.authentication.v2...`). */
export function identityTrace(method: string): RequestSpec['trace'] {
  return { package: '@cartwheel/sdk', method: `cartwheel.iam.${method}`, entity: 'identity' };
}
