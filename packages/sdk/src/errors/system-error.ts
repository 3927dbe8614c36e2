import { HttpError, type HttpErrorInit } from './http-error.ts';

/** Anything the client cannot explain (5xx, a body that is not the wire's): 'System error occurred'. */
export class SystemError extends HttpError {
  override name = 'SystemError';

  constructor(init: HttpErrorInit) {
    super(
      init.requestId ? `System error occurred, request-id: ${init.requestId}` : 'System error occurred',
      init,
    );
  }
}
