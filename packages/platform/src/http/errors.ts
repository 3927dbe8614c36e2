import { STATUS_CODES } from 'node:http';
import type { ErrorDetails } from '@cartwheel/sdk';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { databaseRefusal } from '../db/errors.ts';
import { DomainError, type DomainErrorKind, invalidArgument, violation } from '../shared/errors.ts';
import { violationsOf } from './input.ts';

const STATUS: Record<DomainErrorKind, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  FAILED_PRECONDITION: 428,
  RESOURCE_EXHAUSTED: 429,
  ABORTED: 409,
  DEADLINE_EXCEEDED: 504,
  UNAVAILABLE: 503,
};

/**
 * The wire's error body: `{"message", "details"}` with field violations or an application error. Its
 * status is the error kind's, unless the caller knows better (a framework refusal: see `FRAMEWORK_REFUSALS`).
 */
export function wireError(
  error: DomainError,
  status: number = STATUS[error.kind],
): {
  status: number;
  body: { message: string; details: ErrorDetails };
} {
  const details: ErrorDetails = {};
  if (error.fieldViolations.length > 0) details.validationError = { fieldViolations: error.fieldViolations };
  if (error.application) details.applicationError = error.application;
  return { status, body: { message: error.message, details } };
}

/** A body sent as JSON that does not parse: our JSON parser's answer, and Fastify's own parser's. */
export function bodyIsNotJson(): DomainError {
  return invalidArgument([violation('body', 'is not valid JSON', 'FORMAT')]);
}

/** A refusal with the status it answers with: a domain error's kind's, or a framework refusal's own. */
interface Refusal {
  error: DomainError;
  status: number;
}

const refusal = (status: number, code: string, description: string): Refusal => ({
  error: new DomainError('INVALID_ARGUMENT', description, [], { code, description }),
  status,
});

/**
 * Fastify's refusals of a request it could not read, in our words: no library code (`FST_...`) and no
 * library body reaches the wire. They carry their status here, not as a `DomainErrorKind`: 413 and 415
 * are HTTP's answers about the request's framing, which no business rule ever gives.
 */
const FRAMEWORK_REFUSALS: Record<string, () => Refusal> = {
  // The router could not decode the path (`%ff`, a lone `%`). Fastify's message echoes the raw path:
  // ours does not repeat what was sent.
  FST_ERR_BAD_URL: () =>
    refusal(400, 'MALFORMED_URL', 'the request path is not a valid URL: it holds a malformed %-escape'),
  // A path parameter longer than the router's `maxParamLength`. 400, not Fastify's 414: a path id over
  // `ID_MAX_LENGTH` (but within the router's limit) is already refused 400 by the route's schema, and
  // the same mistake a few hundred characters longer answers the same status. It is not the whole URL
  // that is too long (414), only one parameter; the router cannot say which, so no field violation.
  FST_ERR_MAX_PARAM_LENGTH: () =>
    refusal(400, 'PATH_PARAMETER_TOO_LONG', 'a path parameter is longer than the platform accepts'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    refusal(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'the request body must be JSON, sent with Content-Type: application/json',
    ),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    refusal(413, 'BODY_TOO_LARGE', 'the request body is larger than the platform accepts'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    refusal(400, 'BAD_CONTENT_LENGTH', 'the request body does not match its Content-Length'),
  // Our own JSON parser (`app.ts`) answers these itself; Fastify's default one, where a route uses it,
  // answers the same.
  FST_ERR_CTP_INVALID_JSON_BODY: () => ({ error: bodyIsNotJson(), status: 400 }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ({ error: bodyIsNotJson(), status: 400 }),
};

/** Every error leaves in the wire's form; the unexpected ones are logged and say no more than that. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const refused = toRefusal(error);
  if (refused) {
    const domain = refused.error;
    const { status, body } = wireError(domain, refused.status);
    if (request.routeOptions.config?.oauthErrors && status === 400) {
      const violation = domain.fieldViolations[0];
      return reply.status(400).send({
        error: 'invalid_request',
        error_description: violation ? `${violation.field} ${violation.description}` : domain.message,
      });
    }
    const retryAfter = domain.application?.data?.retryAfterSeconds;
    // HTTP's own word for when to come back, beside the same number in the application error's data
    if (typeof retryAfter === 'number')
      reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
    return reply.status(status).send(body);
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ message: 'internal error', details: {} });
}

function toRefusal(error: FastifyError | Error): Refusal | undefined {
  const domain = toDomainError(error);
  if (domain) return { error: domain, status: STATUS[domain.kind] };
  const fastifyError = error as FastifyError;
  const framework = fastifyError.code ? FRAMEWORK_REFUSALS[fastifyError.code] : undefined;
  if (framework) return framework();
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    // any other 4xx a library raises keeps its status and says it in HTTP's words, never the library's
    // code or message (which may echo the request back)
    const text = STATUS_CODES[status] ?? 'Bad Request';
    return refusal(status, text.toUpperCase().replace(/[^A-Z0-9]+/g, '_'), text);
  }
  return undefined;
}

function toDomainError(error: FastifyError | Error): DomainError | undefined {
  if (error instanceof DomainError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new DomainError(
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      violationsOf(fastifyError.validation, fastifyError.validationContext),
    );
  }
  return databaseRefusal(error);
}
