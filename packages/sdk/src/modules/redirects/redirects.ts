import type { ModuleDefinition } from '../../client.ts';
import { everyHost } from '../../transport/domains.ts';
import type { Transport } from '../../transport/http.ts';
import type { CreateRedirectSessionRequest, RedirectSession } from '../../types/redirects.ts';

/** Redirects (`/_api/redirects-api`): the service prefix is empty on every host. */
export const REDIRECTS = everyHost(['', '/_api/redirects-api']);

/**
 * Redirect sessions: one flow per request (auth, logout, a checkout, a product page...), answered with
 * the address to send the browser to.
 */
export const redirects = {
  /** `POST /v1/redirect-session` {auth | logout | ecomCheckout | ..., callbacks?, preferences?}. */
  createRedirectSession:
    (transport: Transport) =>
    (request: CreateRedirectSessionRequest): Promise<{ redirectSession: RedirectSession }> =>
      transport.request<{ redirectSession: RedirectSession }>({
        method: 'POST',
        path: '/v1/redirect-session',
        mapping: REDIRECTS,
        body: request,
        trace: {
          package: '@cartwheel/sdk',
          method: 'cartwheel.redirects.v1.Redirects.CreateRedirectSession',
          entity: 'redirectSession',
        },
      }),
} satisfies ModuleDefinition;
