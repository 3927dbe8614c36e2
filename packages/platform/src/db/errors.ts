import { applicationError, type DomainError } from '../shared/errors.ts';

/** How long a caller told the database is busy waits before trying again (`Retry-After`). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The database's refusals that a caller can act on, as the wire's errors: a statement that ran past
 * `statement_timeout`, a conflict with a concurrent transaction that outlived its retries, and a SQLite
 * file whose write lock another process held past `busy_timeout` (503, try again shortly: the write
 * was rolled back whole). Any other database error is a fault of the platform and stays a 500.
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
    case 'SQLITE_BUSY_SNAPSHOT': // a write after another connection's commit, past inTransaction's retries
      return applicationError(
        'ABORTED',
        'CONCURRENT_MODIFICATION',
        'another change to the same data was made at the same moment: try again',
      );
    case 'SQLITE_BUSY': // another connection held the write lock past busy_timeout
    case 'SQLITE_BUSY_TIMEOUT':
      return applicationError(
        'UNAVAILABLE',
        'DATABASE_BUSY',
        'the store is busy with another change: try again in a moment',
        { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS },
      );
    default:
      return undefined;
  }
}
