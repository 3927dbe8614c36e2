import { type FieldViolation, HttpError, type HttpErrorInit } from './http-error.ts';

/** The server rejected fields of the request: message `INVALID_ARGUMENT: ...`, violations sorted. */
export class ValidationError extends HttpError {
  override name = 'ValidationError';
  readonly code = 'INVALID_ARGUMENT';
  readonly fieldViolations: FieldViolation[];

  constructor(fieldViolations: FieldViolation[], init: HttpErrorInit) {
    const sorted = [...fieldViolations].sort(
      (a, b) => compare(a.field, b.field) || compare(a.description, b.description),
    );
    super(`INVALID_ARGUMENT: ${sorted.map((v) => `"${v.field}" ${v.description}`).join(', ')}`, init);
    this.fieldViolations = sorted;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
