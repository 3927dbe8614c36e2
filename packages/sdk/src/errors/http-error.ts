/** The wire's error body: `{"message", "details"}` (wire contract, Responses). */
export interface ErrorDetails {
  validationError?: { fieldViolations: FieldViolation[] };
  applicationError?: { code: string; description: string; data?: Record<string, unknown> };
  [key: string]: unknown;
}

/** Validation kinds of point 5. */
export type RuleName =
  | 'VALIDATION'
  | 'OTHER'
  | 'MAX'
  | 'MIN'
  | 'MAX_LENGTH'
  | 'MIN_LENGTH'
  | 'MAX_SIZE'
  | 'MIN_SIZE'
  | 'FORMAT'
  | 'DECIMAL_LTE'
  | 'DECIMAL_GTE'
  | 'DECIMAL_LT'
  | 'DECIMAL_GT'
  | 'DECIMAL_MAX_SCALE'
  | 'INVALID_ENUM_VALUE'
  | 'REQUIRED_FIELD'
  | 'FIELD_NOT_ALLOWED'
  | 'ONE_OF_ALIGNMENT'
  | 'EXACT_LENGTH'
  | 'EXACT_SIZE';

export interface FieldViolation {
  field: string;
  description: string;
  violatedRule?: RuleName;
  ruleName?: string;
  data?: Record<string, unknown>;
}

export interface HttpErrorInit {
  status: number;
  statusText: string;
  serverMessage: string;
  details: ErrorDetails | undefined;
  requestId: string | undefined;
}

/** Any non-2xx answer from the platform (point 8). Subclasses say which kind. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly statusText: string;
  /** The `message` the server sent, before the client built its own. */
  readonly serverMessage: string;
  readonly details: ErrorDetails | undefined;
  readonly requestId: string | undefined;

  constructor(message: string, init: HttpErrorInit) {
    super(message);
    this.status = init.status;
    this.statusText = init.statusText;
    this.serverMessage = init.serverMessage;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}
