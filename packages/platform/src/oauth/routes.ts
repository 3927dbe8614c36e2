import { Ajv } from 'ajv';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CheckoutService } from '../checkouts/service.ts';
import type { PlatformConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { recordEvents } from '../events/outbox.ts';
import type { HttpApp } from '../http/app.ts';
import { closed, IdParams } from '../http/input.ts';
import type { IdentityService } from '../identity/service.ts';
import type { MembersService } from '../members/service.ts';
import type { Operation } from '../shared/access.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { AuthorizationRequests } from './authorization-requests.ts';
import { AuthorizationEndpoint, type AuthorizeParams } from './authorize.ts';
import { OAuthClients, originAllowed, originOf, redirectUriAllowed } from './clients.ts';
import { AuthorizationCodes, invalidGrant } from './codes.ts';
import { OAUTH_OPERATIONS } from './operations-access.ts';
import { RedirectSessions } from './redirect-sessions.ts';
import {
  AuthorizeRefusal,
  OAuthClientListAnswer,
  OAuthErrorAnswer,
  OneOAuthClientAnswer,
  RedirectAnswer,
  RedirectSessionAnswer,
  TokenAnswer,
  WebMessagePage,
} from './responses.ts';
import {
  AuthorizeQuery,
  CallbackQuery,
  HostedLogoutQuery,
  LogoutQuery,
  OAuthClientBody,
  RedirectSessionBody,
  TokenRequestBody,
} from './schemas.ts';
import type { TokenService } from './tokens.ts';
import { webMessagePage } from './web-message.ts';

/**
 * The OAuth calls: the token endpoint (`POST /oauth2/token`, camelCase in, snake_case out), the
 * authorization and logout endpoints the redirect sessions lead to, redirect sessions themselves, and
 * the admin's client registry (`/api/cartwheel/oauth-clients`).
 */
export function oauthRoutes(
  app: HttpApp,
  services: {
    tokens: TokenService;
    identity: Pick<IdentityService, 'issueMemberTokensForSession'>;
    members: Pick<MembersService, 'document'>;
    config: Pick<PlatformConfig, 'publicUrl'>;
    database: Pick<Database, 'db'>;
    checkouts: Pick<CheckoutService, 'openSession'>;
  },
  options: { now?: () => Date } = {},
): void {
  const { tokens, identity, members } = services;
  const publicUrl = services.config.publicUrl;
  const clients = new OAuthClients(services.database.db);
  const codes = new AuthorizationCodes(services.database.db, tokens, options.now);
  const requests = new AuthorizationRequests(services.database.db, options.now);
  const endpoint = new AuthorizationEndpoint({
    clients,
    codes,
    publicUrl,
    memberTokensForSession: (sessionToken, clientId, visitorId) =>
      identity.issueMemberTokensForSession(sessionToken, clientId, visitorId),
    visitorOfRequest: (clientId, codeChallenge) => requests.visitorOf(clientId, codeChallenge),
  });
  const redirectSessions = new RedirectSessions({
    publicUrl,
    authorizationStarted: (clientId, codeChallenge, visitorId) =>
      requests.started(clientId, codeChallenge, visitorId),
    endSignIn: (principal) => tokens.revokeMemberSignIn(principal),
    openCheckoutSession: (checkoutId, principal, callbacks) =>
      services.checkouts.openSession(checkoutId, principal, callbacks),
    created: (session) =>
      recordEvents(services.database.db, [
        {
          entity: 'redirectSession',
          slug: 'created',
          entityId: session.id ?? '',
          payload: { entity: session },
        },
      ]),
  });

  app.post(
    '/oauth2/token',
    { schema: { body: TokenRequestBody, response: { 200: TokenAnswer } }, config: OAUTH_OPERATIONS.token },
    async (request) => {
      const body = request.body;
      const grantType = body.grantType ?? body.grant_type;
      const clientId = body.clientId ?? body.client_id;
      switch (grantType) {
        case 'anonymous':
          if (!clientId) throw invalidArgument([violation('clientId', 'is required', 'REQUIRED_FIELD')]);
          return tokens.issueVisitorTokens(clientId);
        case 'refresh_token': {
          const refreshToken = body.refreshToken ?? body.refresh_token;
          if (!refreshToken)
            throw invalidArgument([violation('refreshToken', 'is required', 'REQUIRED_FIELD')]);
          return tokens.refresh(refreshToken, clientId);
        }
        case 'authorization_code':
          return codes.redeem({
            clientId,
            code: body.code,
            codeVerifier: body.codeVerifier ?? body.code_verifier,
            redirectUri: body.redirectUri ?? body.redirect_uri,
          });
        case 'authorized_client': {
          // `Authorization: <access token>,<admin API key>`: a server signs a member in on that visitor
          const caller = await tokens.resolveElevated(request.headers.authorization);
          if (!caller) throw invalidGrant('Authorization must be <access token>,<admin API key>');
          const memberId = body.member_id ?? body.memberId;
          if (!memberId) throw invalidArgument([violation('member_id', 'is required', 'REQUIRED_FIELD')]);
          const member = await members.document(memberId);
          if (member?.status !== 'APPROVED') throw invalidGrant(`member ${memberId} may not sign in`);
          return tokens.issueMemberTokens({
            clientId: caller.clientId,
            visitorId: caller.visitorId,
            memberId,
          });
        }
        default:
          throw invalidArgument([
            violation('grantType', `unsupported grant type ${String(grantType)}`, 'INVALID_ENUM_VALUE'),
          ]);
      }
    },
  );

  // The browser-facing endpoints answer RFC 6749's error form, malformed input included.
  const browserFacing = (operation: Operation) => ({ ...operation, oauthErrors: true });
  app.get(
    '/oauth2/authorize',
    {
      schema: {
        querystring: AuthorizeQuery,
        response: { 200: WebMessagePage, 302: RedirectAnswer, 400: AuthorizeRefusal },
      },
      config: browserFacing(OAUTH_OPERATIONS.authorize),
    },
    (request, reply) => authorize(request.query, request, reply),
  );
  const authorize = async (params: AuthorizeParams, request: FastifyRequest, reply: FastifyReply) => {
    noStore(reply);
    const outcome = await endpoint.authorize(params, refererOrigin(request));
    switch (outcome.kind) {
      case 'login-page':
      case 'redirect':
        return reply.redirect(outcome.location, 302);
      case 'web-message':
        return reply.type('text/html').send(webMessagePage(outcome.message, outcome.targetOrigins));
      case 'refuse': {
        const answer = { error: outcome.error, error_description: outcome.description };
        if (outcome.responseMode !== 'web_message') return reply.status(400).send(answer);
        // no secret in an error: the embedding page hears it whatever its origin
        const message = { ...answer, ...(params.state !== undefined ? { state: params.state } : {}) };
        return reply
          .status(400)
          .type('text/html')
          .send(webMessagePage(message, ['*']));
      }
    }
  };

  // Where a hosted sign-in ends (point 7's `GET /v1/callback`): the login page brings the session
  // token and the request it worked for, and the authorization endpoint answers it at once. The
  // request's parameters pass the endpoint's own input check, as if they had come to it directly.
  app.get(
    '/_api/iam/authentication/v1/callback',
    {
      schema: {
        querystring: CallbackQuery,
        response: { 200: WebMessagePage, 302: RedirectAnswer, 400: AuthorizeRefusal },
      },
      config: browserFacing(OAUTH_OPERATIONS.callback),
    },
    async (request, reply) => {
      const { state, sessionToken } = request.query;
      if (!state || !sessionToken) {
        noStore(reply);
        return reply.status(400).send({
          error: 'invalid_request',
          error_description: 'state and sessionToken are required',
        });
      }
      const params = authorizationRequestIn(state);
      if (!params) {
        noStore(reply);
        return reply.status(400).send({
          error: 'invalid_request',
          error_description: 'state is not an authorization request this platform started',
        });
      }
      return authorize({ ...params, prompt: 'none', sessionToken }, request, reply);
    },
  );

  // The end of a logout redirect session: the sign-in ended when the session was made; the browser
  // goes back to the client's page only if the client registered it. Called directly with a member's
  // access token of that client, it ends that sign-in itself, as the redirect session would have.
  const logout = async (
    request: FastifyRequest,
    reply: FastifyReply,
    clientId: string | undefined,
    target: string | undefined,
  ) => {
    noStore(reply);
    const client = clientId ? await clients.find(clientId) : undefined;
    if (!client) {
      return reply.status(400).send({
        error: 'redirect_uri_not_allowed',
        error_description: clientId
          ? `client_id ${clientId} is not a registered OAuth client`
          : 'client_id is required',
      });
    }
    // a refused logout changes nothing; one that goes through ends the caller's own sign-in of this client
    const principal = request.principal;
    const endSignIn = async () => {
      if (principal.kind === 'member' && principal.clientId === client.id)
        await tokens.revokeMemberSignIn(principal);
    };
    if (!target) {
      await endSignIn();
      return reply.redirect(`${publicUrl}/`, 302);
    }
    // checked and sent as one parsed URL: what the browser is sent to is what was checked, whatever a
    // backslash or a stray character in the raw text would mean to another parser
    const location = absoluteHttpUrl(target);
    const origin = location && originOf(location);
    if (!location || !origin || (!redirectUriAllowed(client, location) && !originAllowed(client, origin))) {
      return reply.status(400).send({
        error: 'redirect_uri_not_allowed',
        error_description: `post_logout_redirect_uri ${location ?? JSON.stringify(target)} is not registered with the OAuth client ${client.id}`,
      });
    }
    await endSignIn();
    request.log.debug({ clientId }, 'logout');
    return reply.redirect(location, 302);
  };
  app.get(
    '/oauth2/logout',
    {
      schema: { querystring: LogoutQuery, response: { 302: RedirectAnswer, 400: OAuthErrorAnswer } },
      config: browserFacing(OAUTH_OPERATIONS.logout),
    },
    (request, reply) =>
      logout(request, reply, request.query.client_id, request.query.post_logout_redirect_uri),
  );
  app.get(
    '/_api/iam/authentication/v1/logout',
    {
      schema: { querystring: HostedLogoutQuery, response: { 302: RedirectAnswer, 400: OAuthErrorAnswer } },
      config: browserFacing(OAUTH_OPERATIONS.logout),
    },
    (request, reply) => logout(request, reply, request.query.clientId, request.query.postLogoutRedirectUri),
  );

  app.post(
    '/_api/redirects-api/v1/redirect-session',
    {
      schema: { body: RedirectSessionBody, response: { 200: RedirectSessionAnswer } },
      config: OAUTH_OPERATIONS.createRedirectSession,
    },
    (request) => redirectSessions.create(request.body, request.principal),
  );

  const registry = '/api/cartwheel/oauth-clients';
  app.get(
    registry,
    { schema: { response: { 200: OAuthClientListAnswer } }, config: OAUTH_OPERATIONS.listOAuthClients },
    async () => ({ clients: await clients.list() }),
  );
  app.get(
    `${registry}/:id`,
    {
      schema: { params: IdParams, response: { 200: OneOAuthClientAnswer } },
      config: OAUTH_OPERATIONS.getOAuthClient,
    },
    async (request) => ({
      client: await clients.get(request.params.id),
    }),
  );
  app.post(
    registry,
    {
      schema: { body: OAuthClientBody, response: { 200: OneOAuthClientAnswer } },
      config: OAUTH_OPERATIONS.createOAuthClient,
    },
    async (request) => ({
      client: await clients.register(request.body),
    }),
  );
  app.patch(
    `${registry}/:id`,
    {
      schema: { params: IdParams, body: OAuthClientBody, response: { 200: OneOAuthClientAnswer } },
      config: OAUTH_OPERATIONS.updateOAuthClient,
    },
    async (request) => ({ client: await clients.update(request.params.id, request.body) }),
  );
}

/** Codes and pages with codes in them are never cached (RFC 6749 §5.1's spirit, for the endpoint too). */
function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
  reply.header('pragma', 'no-cache');
}

/** `url` parsed as an absolute http(s) URL (WHATWG rules, as browsers read it), serialised; else undefined. */
function absoluteHttpUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Compiled at its first use, not as the module loads: a process's start compiles none it may not need. */
let authorizeQueryCheck: ReturnType<Ajv['compile']> | undefined;

/**
 * The authorization request a callback's `state` carries (its query text), checked as the endpoint's
 * own query is; undefined when it is not one (an unknown parameter, a value out of bounds). A
 * parameter given twice stays a list, which the endpoint refuses as it would on its own query.
 */
function authorizationRequestIn(state: string): AuthorizeParams | undefined {
  const query = new URLSearchParams(state);
  const params: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    params[name] = values.length === 1 ? (values[0] as string) : values;
  }
  if (!params.client_id) return undefined;
  const single = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
  );
  authorizeQueryCheck ??= new Ajv({ strict: false }).compile(closed(AuthorizeQuery));
  return authorizeQueryCheck(single) ? (params as AuthorizeParams) : undefined;
}

/** The origin of the page that loaded this one, from `Referer` (sent as at least the origin cross-site). */
function refererOrigin(request: FastifyRequest): string | undefined {
  const referer = request.headers.referer;
  return referer ? originOf(referer) : undefined;
}
