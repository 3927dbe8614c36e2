import { randomUUID } from 'node:crypto';
import { decodeStructuredParam, REQUEST_ID_HEADER, STRUCTURED_PARAM } from '@cartwheel/sdk/wire';
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteShorthandOptions } from 'fastify';
import { DomainError, invalidArgument, violation } from '../shared/errors.ts';
import { type Access, allows, type Principal } from '../shared/principal.ts';
import { handleError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may make the call; a route that says nothing is for admins only. */
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

export interface HttpOptions {
  logLevel: string;
  /** Behind a load balancer: which proxies' X-Forwarded-For to believe (Fastify's `trustProxy`). */
  trustProxy?: boolean | number | string;
  /** Resolves `Authorization` to a principal; throws UNAUTHENTICATED for a header that names no one. */
  resolvePrincipal(authorization: string | undefined): Promise<Principal>;
}

/**
 * The HTTP shell every domain's routes sit in: request ids, the wire's error form, the `.r` query
 * parameter, empty JSON bodies, and the access check. Domains register plain routes on it.
 */
export function createHttpApp(options: HttpOptions): FastifyInstance {
  const app = Fastify({
    logger: { level: options.logLevel },
    genReqId: () => randomUUID(),
    // Fastify takes a hop count too, though its types name only booleans and addresses
    trustProxy: (options.trustProxy ?? false) as boolean | string,
    requestIdHeader: false,
    bodyLimit: 10 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  app.decorateRequest('principal', null as any); // set by the preHandler below, before any route runs
  app.setErrorHandler(handleError);

  // The hosted client sends `Content-Type: application/json` with an empty body on some POSTs.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidArgument([violation('body', 'is not valid JSON', 'FORMAT')]), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    // the hosted platform's own client reads the request id from its header name
    reply.header('x-wix-request-id', request.id);
    const query = request.query as Record<string, unknown> | undefined;
    const encoded = query?.[STRUCTURED_PARAM];
    if (typeof encoded === 'string') {
      let decoded: unknown;
      try {
        decoded = decodeStructuredParam(encoded);
      } catch {
        throw invalidArgument([violation(STRUCTURED_PARAM, 'is not base64url-encoded JSON', 'FORMAT')]);
      }
      const { [STRUCTURED_PARAM]: _, ...rest } = query as Record<string, unknown>;
      request.query = { ...rest, ...(decoded as object) };
    }
  });

  app.addHook('preHandler', async (request) => {
    if (request.is404) return; // the not-found handler answers, and reveals nothing
    request.principal = await options.resolvePrincipal(request.headers.authorization);
    const access = request.routeOptions.config.access ?? 'admin';
    if (!allows(access, request.principal)) {
      throw request.principal.kind === 'anonymous'
        ? new DomainError('UNAUTHENTICATED', 'this call needs an access token')
        : new DomainError('PERMISSION_DENIED', `this call is allowed to ${describe(access)} only`);
    }
  });

  return app;
}

function describe(access: Access): string {
  return access === 'admin'
    ? 'an admin API key'
    : access === 'member'
      ? 'signed-in members'
      : 'token holders';
}

/**
 * A read that the hosted client sends as GET with its request in the query, and as POST with the
 * same request in the body when the query string grows past the threshold.
 */
export function getWithPostFallback<T>(
  app: FastifyInstance,
  path: string,
  options: RouteShorthandOptions,
  handler: (input: T, request: FastifyRequest) => Promise<unknown>,
): void {
  app.get(path, options, (request) => handler(request.query as T, request));
  app.post(path, options, (request) => handler((request.body ?? {}) as T, request));
}
