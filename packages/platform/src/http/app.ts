import { randomUUID } from 'node:crypto';
import { decodeStructuredParam, REQUEST_ID_HEADER, STRUCTURED_PARAM } from '@cartwheel/sdk/wire';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import type { TSchema } from 'typebox';
import { actingFor } from '../shared/actor.ts';
import { DomainError, invalidArgument, violation } from '../shared/errors.ts';
import { type Access, allows, type Caller, levelOf, type Principal } from '../shared/principal.ts';
import type { PublicLinks } from '../shared/public-links.ts';
import { bodyIsNotJson, handleError } from './errors.ts';
import { jsonDepthExceeds, MAX_BODY_DEPTH, refuseUnstorableText, validatorCompiler } from './input.ts';
import { redactUrl } from './redact.ts';
import { serializerCompiler } from './serializers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may make the call. A route's config is its operation's entry in its domain's operation table
     * (`config: ORDER_OPERATIONS.cancelOrder`, shared/access.ts), which sets this and `operation`. A
     * route that says nothing is for the admin API key only, and fails the test that walks every route
     * (test/access-declarations.test.ts).
     */
    access?: Access;
    /** The operation the route serves (`orders.cancelOrder`): what the audit log records. */
    operation?: string;
    /**
     * A browser-facing OAuth endpoint: its refusals of malformed input take RFC 6749's form
     * (`{error: 'invalid_request', error_description}`), not the wire's.
     */
    oauthErrors?: boolean;
  }
  interface FastifyRequest {
    principal: Principal;
    /**
     * Who `Authorization` names, before the route's access check: what a call that serves several
     * operations (GraphQL's, each field its own) checks each operation's access against.
     */
    caller: Caller;
  }
  interface FastifyInstance {
    /** Every route registered, with its declared input and answers: what the fuzz and answer tests walk. */
    declaredRoutes: DeclaredRoute[];
  }
}

export interface DeclaredRoute {
  method: string;
  url: string;
  schema:
    | { body?: unknown; querystring?: unknown; params?: unknown; response?: Record<string, unknown> }
    | undefined;
  access: Access;
  /** Whether the route said who may call it (`config.access`); an undeclared route is admin-key only. */
  declared: boolean;
  /** The operation it serves (`config.operation`), from its domain's operation table. */
  operation: string | undefined;
}

export interface HttpOptions {
  logLevel: string;
  /** Behind a load balancer: which proxies' X-Forwarded-For to believe (Fastify's `trustProxy`). */
  trustProxy?: boolean | number | string;
  /** Resolves `Authorization` to a caller; throws UNAUTHENTICATED for a header that names no one. */
  resolvePrincipal(authorization: string | undefined): Promise<Caller>;
  /**
   * The access check (staff/access.ts): the principal services see when `caller` may make a call of
   * `access`, or a refusal thrown. Without it, only the caller levels are checked (staff and API keys
   * are then refused everything).
   */
  authorize?(access: Access, caller: Caller): Promise<Principal>;
  /**
   * Hears every call with its status before the answer goes out (the audit log keeps the changes staff
   * and keys make, staff/audit.ts): a caller who has the answer finds the entry. A failure is logged.
   */
  answered?(request: FastifyRequest, statusCode: number): Promise<void>;
  /** This process's public address: the links stored without it are made absolute in its answers. */
  links: PublicLinks;
}

/** The app routes register on: its handlers' input types come from their routes' schemas. */
export type HttpApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * The HTTP shell every domain's routes sit in: request ids, the wire's error form, the `.r` query
 * parameter, empty JSON bodies, the access check, the input contract (`input.ts`): each route's
 * schemas check its body, query and path before the handler runs; and the answers' links to the
 * platform, made absolute. Domains register plain routes on it.
 */
export function createHttpApp(options: HttpOptions): HttpApp {
  const app = Fastify({
    logger: {
      level: options.logLevel,
      // session tokens, codes and states travel in URLs: the log keeps their names, not their values
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    genReqId: () => randomUUID(),
    // Fastify takes a hop count too, though its types name only booleans and addresses
    trustProxy: (options.trustProxy ?? false) as boolean | string,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // What the router refuses before any route is found (a path it cannot decode, a parameter over
    // `maxParamLength`) skips the hooks and the error handler: answered here, through the same handler,
    // in the wire's form and with the request id, not in Fastify's own body.
    frameworkErrors: (error, request, reply) => {
      stampRequestId(request, reply);
      return handleError(error, request, reply);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('principal', null as any); // set by the preValidation hook below, before any route runs
  app.decorateRequest('caller', null as any); // set beside it
  const declaredRoutes: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', declaredRoutes);
  app.addHook('onRoute', (route) => {
    // the handler runs on behalf of its caller: the events it writes name them (shared/actor.ts)
    const handler = route.handler;
    route.handler = function actingForCaller(request, reply) {
      return actingFor(request, () => handler.call(this, request, reply));
    };
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      declaredRoutes.push({
        method,
        url: route.url,
        schema: route.schema as DeclaredRoute['schema'],
        // read when asked: a scope's own onRoute hook (the apps' files) sets its routes' access after this one
        get access() {
          return route.config?.access ?? 'admin';
        },
        get declared() {
          return route.config?.access !== undefined;
        },
        get operation() {
          return route.config?.operation;
        },
      });
    }
  });
  app.setErrorHandler(handleError);
  app.setValidatorCompiler<TSchema>(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The hosted client sends `Content-Type: application/json` with an empty body on some POSTs.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    if (jsonDepthExceeds(text)) {
      return done(
        invalidArgument([violation('body', `must not nest deeper than ${MAX_BODY_DEPTH} levels`, 'MAX')]),
        undefined,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(bodyIsNotJson(), undefined);
    }
    // JSON holds a NUL or half a surrogate pair only as a \u escape: without one, nothing to look for
    try {
      if (text.includes('\\u') || text.includes('__proto__')) refuseUnstorableText(parsed);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, parsed);
  });

  app.addHook('onRequest', async (request, reply) => {
    stampRequestId(request, reply);
    await refuseOversizedBody(request);
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

  // Who is calling, before the input is checked: a caller who may not make the call learns nothing of
  // what it takes.
  app.addHook('preValidation', async (request) => {
    if (request.is404) return; // the not-found handler answers, and reveals nothing
    const caller = await options.resolvePrincipal(request.headers.authorization);
    request.caller = caller;
    const access = request.routeOptions.config.access ?? 'admin';
    if (options.authorize) {
      request.principal = await options.authorize(access, caller);
    } else if (caller.kind !== 'apiKey' && allows(access, caller)) {
      request.principal = caller;
    } else {
      throw refusal(access, caller);
    }
    refuseUnstorableText(request.params);
    refuseUnstorableText(request.query);
    // a call sent with no body at all (`curl -X POST`) means what an empty JSON body means
    if (request.body === undefined && request.method !== 'GET') request.body = {};
  });

  if (options.answered) {
    const answered = options.answered;
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.principal) {
        await answered(request, reply.statusCode).catch((error: unknown) =>
          request.log.error({ err: error }, 'recording the call in the audit log failed'),
        );
      }
      return payload;
    });
  }

  // Stored links to the platform's own images and pages name no address: each answer names this
  // process's (shared/public-links.ts). Every answer's text passes here, whichever route wrote it.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    done(null, typeof payload === 'string' ? options.links.fill(payload) : payload);
  });

  return app;
}

function stampRequestId(request: FastifyRequest, reply: FastifyReply) {
  reply.header(REQUEST_ID_HEADER, request.id);
  // the hosted platform's own client reads the request id from its header name
  reply.header('x-wix-request-id', request.id);
}

/** The refusal of a caller the route's caller level does not take. */
export function refusal(access: Access, caller: Caller): DomainError {
  return caller.kind === 'anonymous'
    ? new DomainError('UNAUTHENTICATED', 'this call needs an access token')
    : new DomainError('PERMISSION_DENIED', `this call is allowed to ${describe(access)} only`);
}

function describe(declared: Access): string {
  const access = levelOf(declared);
  if (typeof declared !== 'string') {
    return access === 'admin'
      ? `staff and API keys holding ${declared.requires}, and the admin API key,`
      : `token holders, and staff and API keys holding ${declared.requires},`;
  }
  return access === 'admin'
    ? 'an admin API key'
    : access === 'member'
      ? 'signed-in members'
      : 'token holders';
}

/** The largest request body the platform reads. */
const BODY_LIMIT = 10 * 1024 * 1024;
/** The largest body it reads to the end only to refuse it: past this, the connection is closed. */
const DRAIN_LIMIT = 8 * BODY_LIMIT;

/**
 * A body its `Content-Length` says is over the limit is read to the end and thrown away before the 413
 * is sent. Refusing at once (as Fastify does) closes the connection while the client is still sending,
 * and most clients then see only a broken pipe, never the answer. A body past `DRAIN_LIMIT` is left to
 * Fastify: refused and the connection closed, as reading it would cost more than its sender is owed.
 */
async function refuseOversizedBody(request: FastifyRequest): Promise<void> {
  const declared = Number(request.headers['content-length']);
  if (!(declared > BODY_LIMIT && declared <= DRAIN_LIMIT)) return;
  const body = request.raw;
  await new Promise<void>((resolve) => {
    body.on('end', resolve);
    body.on('error', () => resolve());
    body.on('close', resolve);
    body.resume();
  });
  throw Object.assign(new Error('the request body is larger than the platform accepts'), {
    code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    statusCode: 413,
  });
}
