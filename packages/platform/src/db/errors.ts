import { applicationError, type DomainError } from '../shared/errors.ts';

/**
 * The database's refusals that a caller can act on, as the wire's errors: a statement that ran past
 * `statement_timeout`, and a conflict with a concurrent transaction that outlived its retries. Any
 * other database error is a fault of the platform and stays a 500.
 */
export function databaseRefusal(error: unknown): DomainError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case '57014': // query_canceled: statement_timeout
      return applicationError(
        'DEADLINE_EXCEEDED',
        'DEADLINE_EXCEEDED',
        'the database took too long to answer this call: narrow the query, or try again',
      );
    case '40P01': // deadlock_detected
    case '40001': // serialization_failure
      return applicationError(
        'ABORTED',
        'CONCURRENT_MODIFICATION',
        'another change to the same data was made at the same moment: try again',
      );
    default:
      return undefined;
  }
}
