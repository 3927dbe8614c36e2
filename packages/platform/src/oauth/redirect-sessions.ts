import {
  type CreateRedirectSessionRequest,
  type FieldViolation,
  MEMBERS_ACCOUNT_SECTIONS,
  PROMPTS,
  RESPONSE_MODES,
  type RedirectSession,
} from '@cartwheel/sdk';
import { invalidArgument, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Principal } from '../shared/principal.ts';

/** Flows this platform has no pages for yet: the hosted pages answer "not available here" plainly. */
export const UNAVAILABLE_FLOWS = [
  'login',
  'bookingsCheckout',
  'eventsCheckout',
  'paidPlansCheckout',
  'bookingsBook',
  'ecomOrderPaymentRequest',
] as const;

/** The one-of flows of a request (wire contract, Redirect sessions); `callbacks`/`preferences` ride along. */
const FLOWS = [
  'auth',
  'logout',
  'storesProduct',
  'membersAccount',
  'ecomCheckout',
  ...UNAVAILABLE_FLOWS,
] as const;

/** Account sections the storefront has a page for; the others are not available on this platform. */
const STOREFRONT_ACCOUNT_SECTIONS = new Set(['ACCOUNT_INFO', 'ORDERS']);

type Request = CreateRedirectSessionRequest & {
  membersAccount?: { section?: string };
  ecomOrderPaymentRequest?: Record<string, unknown>;
};

export interface RedirectSessionDeps {
  publicUrl: string;
  /**
   * Login: the calling visitor started this authorization request of their own client (its PKCE
   * challenge), so the code it ends with signs the member in as that visitor.
   */
  authorizationStarted(clientId: string, codeChallenge: string, visitorId: string): Promise<void>;
  /** Logout: ends the calling member's sign-in (its refresh and access tokens) on every process. */
  endSignIn(principal: Extract<Principal, { kind: 'member' }>): Promise<void>;
  /** Checkout: a hosted checkout page session for the caller's checkout (its owner's, or an admin's). */
  openCheckoutSession(
    checkoutId: string,
    principal: Principal,
    callbacks: { postFlowUrl?: string; thankYouPageUrl?: string; cartPageUrl?: string },
  ): Promise<{ token: string; url: string }>;
  /** A session was made: its `redirect_session_created` event (point 4). */
  created(session: RedirectSession): Promise<void>;
}

/**
 * `POST /v1/redirect-session`: one flow in, the address to send the browser to out. Auth leads to the
 * authorization endpoint with the request in its query; logout to the logout endpoint; a product to its
 * storefront page; the flows this platform has no pages for to a page that says so.
 */
export class RedirectSessions {
  constructor(private readonly deps: RedirectSessionDeps) {}

  async create(body: unknown, principal: Principal): Promise<{ redirectSession: RedirectSession }> {
    const made = await this.make(body, principal);
    await this.deps.created(made.redirectSession);
    return made;
  }

  private async make(body: unknown, principal: Principal): Promise<{ redirectSession: RedirectSession }> {
    const request = (body && typeof body === 'object' ? body : {}) as Request;
    const present = FLOWS.filter((flow) => request[flow] !== undefined && request[flow] !== null);
    if (present.length > 1) {
      throw invalidArgument(
        present.map((flow) =>
          violation(flow, `only one flow per request, got ${present.join(', ')}`, 'ONE_OF_ALIGNMENT'),
        ),
      );
    }
    const flow = present[0];
    switch (flow) {
      case 'auth':
        return this.auth(request, principal);
      case 'logout':
        return this.logout(request, principal);
      case 'storesProduct':
        return this.storesProduct(request);
      case 'membersAccount':
        return this.membersAccount(request);
      case 'ecomCheckout':
        return this.ecomCheckout(request, principal);
      case undefined:
        if (request.callbacks) return this.unavailable('callbacks');
        if (request.preferences) return this.unavailable('preferences');
        throw invalidArgument([
          violation(
            'auth',
            `one of ${FLOWS.join(', ')}, callbacks or preferences is required`,
            'REQUIRED_FIELD',
          ),
        ]);
      default:
        return this.unavailable(flow);
    }
  }

  private async auth(request: Request, principal: Principal) {
    const auth = request.auth!;
    const authRequest = (auth.authRequest ?? {}) as unknown as Record<string, unknown>;
    const problems: FieldViolation[] = [];
    const text = (field: string, required: boolean): string | undefined => {
      const value = authRequest[field];
      if (value === undefined || value === null || value === '') {
        if (required) problems.push(violation(`auth.authRequest.${field}`, 'is required', 'REQUIRED_FIELD'));
        return undefined;
      }
      if (typeof value !== 'string') {
        problems.push(violation(`auth.authRequest.${field}`, 'must be a string', 'FORMAT'));
        return undefined;
      }
      return value;
    };
    const clientId = text('clientId', true);
    const redirectUri = text('redirectUri', false);
    const state = text('state', true);
    const codeChallenge = text('codeChallenge', true);
    const responseType = text('responseType', false) ?? 'code';
    const method = text('codeChallengeMethod', false) ?? 'S256';
    const responseMode = text('responseMode', false) ?? 'fragment';
    const scope = text('scope', false) ?? 'offline_access';
    const sessionToken = text('sessionToken', false);
    const prompt = auth.prompt ?? 'login';
    if (responseType !== 'code')
      problems.push(violation('auth.authRequest.responseType', 'must be code', 'INVALID_ENUM_VALUE'));
    if (method !== 'S256')
      problems.push(violation('auth.authRequest.codeChallengeMethod', 'must be S256', 'INVALID_ENUM_VALUE'));
    if (!(RESPONSE_MODES as readonly string[]).includes(responseMode))
      problems.push(
        violation(
          'auth.authRequest.responseMode',
          `must be one of ${RESPONSE_MODES.join(', ')}`,
          'INVALID_ENUM_VALUE',
        ),
      );
    if (scope !== 'offline_access')
      problems.push(violation('auth.authRequest.scope', 'must be offline_access', 'INVALID_ENUM_VALUE'));
    if (!(PROMPTS as readonly string[]).includes(prompt))
      problems.push(violation('auth.prompt', `must be one of ${PROMPTS.join(', ')}`, 'INVALID_ENUM_VALUE'));
    if (redirectUri !== undefined && !isAbsoluteUrl(redirectUri))
      problems.push(violation('auth.authRequest.redirectUri', 'must be an absolute URL', 'FORMAT'));
    if (problems.length > 0) throw invalidArgument(problems);

    // the visitor's own client asks (its token on the call): the member this request signs in keeps
    // that visitor, whichever page the login happens on
    if ((principal.kind === 'visitor' || principal.kind === 'member') && principal.clientId === clientId) {
      await this.deps.authorizationStarted(clientId, codeChallenge!, principal.visitorId);
    }
    return this.session('/oauth2/authorize', {
      client_id: clientId!,
      ...(redirectUri ? { redirect_uri: redirectUri } : {}),
      response_type: responseType,
      response_mode: responseMode,
      scope,
      state: state!,
      code_challenge: codeChallenge!,
      code_challenge_method: method,
      prompt,
      ...(sessionToken ? { sessionToken } : {}),
    });
  }

  private async logout(request: Request, principal: Principal) {
    const problems: FieldViolation[] = [];
    const clientId = request.logout?.clientId;
    const postFlowUrl = request.callbacks?.postFlowUrl;
    if (!clientId) problems.push(violation('logout.clientId', 'is required', 'REQUIRED_FIELD'));
    if (postFlowUrl && !isAbsoluteUrl(postFlowUrl))
      problems.push(violation('callbacks.postFlowUrl', 'must be an absolute URL', 'FORMAT'));
    if (problems.length > 0) throw invalidArgument(problems);
    // the call carries the member's own access token: its sign-in ends here, whatever the browser does next
    if (principal.kind === 'member' && principal.clientId === clientId) await this.deps.endSignIn(principal);
    return this.session('/oauth2/logout', {
      client_id: clientId!,
      ...(postFlowUrl ? { post_logout_redirect_uri: postFlowUrl } : {}),
    });
  }

  private storesProduct(request: Request) {
    const slug = request.storesProduct?.productSlug;
    if (!slug || typeof slug !== 'string')
      throw invalidArgument([violation('storesProduct.productSlug', 'is required', 'REQUIRED_FIELD')]);
    if (slug.length > 150)
      throw invalidArgument([
        violation('storesProduct.productSlug', 'must be at most 150 characters', 'MAX_LENGTH'),
      ]);
    return this.session(`/product-page/${encodeURIComponent(slug)}`, {});
  }

  private membersAccount(request: Request) {
    const section = request.membersAccount?.section ?? 'ACCOUNT_INFO';
    if (!(MEMBERS_ACCOUNT_SECTIONS as readonly string[]).includes(section)) {
      throw invalidArgument([
        violation(
          'membersAccount.section',
          `must be one of ${MEMBERS_ACCOUNT_SECTIONS.join(', ')}`,
          'INVALID_ENUM_VALUE',
        ),
      ]);
    }
    return STOREFRONT_ACCOUNT_SECTIONS.has(section)
      ? this.session('/account', section === 'ORDERS' ? { section: 'orders' } : {})
      : this.unavailable(`membersAccount.${section}`);
  }

  private async ecomCheckout(request: Request, principal: Principal) {
    const checkoutId = request.ecomCheckout?.checkoutId;
    const problems: FieldViolation[] = [];
    if (!checkoutId || typeof checkoutId !== 'string') {
      problems.push(violation('ecomCheckout.checkoutId', 'is required', 'REQUIRED_FIELD'));
    }
    const callbacks: { postFlowUrl?: string; thankYouPageUrl?: string; cartPageUrl?: string } = {};
    for (const name of ['postFlowUrl', 'thankYouPageUrl', 'cartPageUrl'] as const) {
      const url = (request.callbacks as Record<string, unknown> | undefined)?.[name];
      if (url === undefined || url === null || url === '') continue;
      if (typeof url !== 'string' || !isAbsoluteUrl(url)) {
        problems.push(violation(`callbacks.${name}`, 'must be an absolute URL', 'FORMAT'));
      } else callbacks[name] = url;
    }
    if (problems.length > 0) throw invalidArgument(problems);
    const session = await this.deps.openCheckoutSession(checkoutId!, principal, callbacks);
    const endpoint = session.url.split('?')[0]!;
    return {
      redirectSession: {
        id: newId(),
        fullUrl: session.url,
        urlDetails: { endpoint, searchParams: { session: session.token } },
        sessionToken: null,
      },
    };
  }

  private unavailable(flow: string) {
    return this.session('/auth/unavailable', { flow });
  }

  private session(path: string, searchParams: Record<string, string>): { redirectSession: RedirectSession } {
    const endpoint = `${this.deps.publicUrl}${path}`;
    const query = new URLSearchParams(searchParams).toString();
    return {
      redirectSession: {
        id: newId(),
        fullUrl: query ? `${endpoint}?${query}` : endpoint,
        urlDetails: { endpoint, searchParams },
        sessionToken: null,
      },
    };
  }
}

function isAbsoluteUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
