export { ApplicationError } from './application-error.ts';
export { ClientError, ClientMessages } from './client-error.ts';
export { errorFromResponse } from './from-response.ts';
export { type ErrorDetails, type FieldViolation, HttpError, type RuleName } from './http-error.ts';
export { SystemError } from './system-error.ts';
export { ValidationError } from './validation-error.ts';
