import type { ErrorDetails } from '@cartwheel/sdk';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { databaseRefusal } from '../db/errors.ts';
import { DomainError, type DomainErrorKind } from '../shared/errors.ts';
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
};

/** The wire's error body: `{"message", "details"}` with field violations or an application error. */
export function wireError(error: DomainError): {
  status: number;
  body: { message: string; details: ErrorDetails };
} {
  const details: ErrorDetails = {};
  if (error.fieldViolations.length > 0) details.validationError = { fieldViolations: error.fieldViolations };
  if (error.application) details.applicationError = error.application;
  return { status: STATUS[error.kind], body: { message: error.message, details } };
}

/** Every error leaves in the wire's form; the unexpected ones are logged and say no more than that. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const domain = toDomainError(error);
  if (domain) {
    const { status, body } = wireError(domain);
    if (request.routeOptions.config?.oauthErrors && status === 400) {
      const violation = domain.fieldViolations[0];
      return reply.status(400).send({
        error: 'invalid_request',
        error_description: violation ? `${violation.field} ${violation.description}` : domain.message,
      });
    }
    return reply.status(status).send(body);
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ message: 'internal error', details: {} });
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
  const refusal = databaseRefusal(error);
  if (refusal) return refusal;
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new DomainError('INVALID_ARGUMENT', fastifyError.message, [], {
      code: fastifyError.code ?? 'BAD_REQUEST',
      description: fastifyError.message,
    });
  }
  return undefined;
}
