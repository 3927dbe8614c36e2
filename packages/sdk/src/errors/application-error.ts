import { HttpError, type HttpErrorInit } from './http-error.ts';

/**
 * A business rule said no (point 8): the server's application error, or any other 4xx, whose
 * code is then the status and whose description is the status text.
 */
export class ApplicationError extends HttpError {
  override name = 'ApplicationError';
  readonly code: string;
  readonly description: string;
  readonly data: Record<string, unknown> | undefined;

  constructor(
    fields: { message: string; code: string; description: string; data?: Record<string, unknown> },
    init: HttpErrorInit,
  ) {
    super(fields.message, init);
    this.code = fields.code;
    this.description = fields.description;
    this.data = fields.data;
  }
}
