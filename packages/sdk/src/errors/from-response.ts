import { ApplicationError } from './application-error.ts';
import type { ErrorDetails, HttpErrorInit } from './http-error.ts';
import { SystemError } from './system-error.ts';
import { ValidationError } from './validation-error.ts';

/** Turns a non-2xx answer into the error point 8 says it is. `body` is the parsed JSON, if any. */
export function errorFromResponse(
  status: number,
  statusText: string,
  body: unknown,
  requestId: string | undefined,
) {
  const payload = (body && typeof body === 'object' ? body : {}) as {
    message?: unknown;
    details?: ErrorDetails;
  };
  const details = payload.details && typeof payload.details === 'object' ? payload.details : undefined;
  const serverMessage = typeof payload.message === 'string' ? payload.message : '';
  const init: HttpErrorInit = { status, statusText, serverMessage, details, requestId };

  const violations = details?.validationError?.fieldViolations;
  if (Array.isArray(violations) && violations.length > 0) return new ValidationError(violations, init);

  const app = details?.applicationError;
  if (app && typeof app === 'object') {
    const description = app.description ?? statusText;
    const said = serverMessage || statusText;
    return new ApplicationError(
      {
        // the server's message, and the description when it says more
        message: said === description ? said : `${said}: ${description}`,
        code: String(app.code ?? status),
        description,
        ...(app.data ? { data: app.data } : {}),
      },
      init,
    );
  }

  if (status >= 400 && status < 500) {
    return new ApplicationError(
      { message: serverMessage || statusText, code: String(status), description: statusText },
      init,
    );
  }
  return new SystemError(init);
}
