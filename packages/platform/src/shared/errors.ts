import type { FieldViolation, RuleName } from '@cartwheel/sdk';

/**
 * What a business rule says when it refuses: never an HTTP status. The HTTP layer maps each kind to
 * the wire's status and error body (`http/errors.ts`).
 */
export type DomainErrorKind =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'FAILED_PRECONDITION'
  | 'PERMISSION_DENIED'
  | 'UNAUTHENTICATED'
  | 'RESOURCE_EXHAUSTED'
  /** A concurrent change won; the same call may be made again. */
  | 'ABORTED'
  /** The work took longer than the platform allows one call. */
  | 'DEADLINE_EXCEEDED'
  /** The platform cannot do the work now (its database is held by another process): try again later. */
  | 'UNAVAILABLE';

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly fieldViolations: FieldViolation[] = [],
    readonly application?: { code: string; description: string; data?: Record<string, unknown> },
  ) {
    super(message);
  }
}

export function invalidArgument(violations: FieldViolation[]): DomainError {
  return new DomainError('INVALID_ARGUMENT', 'INVALID_ARGUMENT', violations);
}

export function violation(
  field: string,
  description: string,
  violatedRule: RuleName = 'VALIDATION',
): FieldViolation {
  return { field, description, violatedRule, ruleName: violatedRule };
}

export function notFound(entity: string, id: string): DomainError {
  return new DomainError('NOT_FOUND', `${entity} ${id} not found`, [], {
    code: `${entity.toUpperCase().replace(/\s+/g, '_')}_NOT_FOUND`,
    description: `${entity} ${id} not found`,
    data: { id },
  });
}

/** A business rule refused a well-formed request: an application error with its own code. */
export function applicationError(
  kind: DomainErrorKind,
  code: string,
  description: string,
  data?: Record<string, unknown>,
): DomainError {
  return new DomainError(kind, description, [], { code, description, ...(data ? { data } : {}) });
}
