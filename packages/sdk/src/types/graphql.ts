/**
 * GraphQL's answer, as `POST /graphql/{apiVersion}` sends it and the hosted client's `client.graphql`
 * returns it: the data the query asked for, and the errors of the fields that failed.
 */
export interface GraphQLAnswer<Data = Record<string, unknown>> {
  /** What the query asked for; `{}` when nothing ran (a query refused as a whole). */
  data: Data;
  errors?: GraphQLErrorEntry[];
}

/**
 * One error of a GraphQL answer (GraphQL's own form): `extensions.code` is the specification's error
 * kind (`NOT_FOUND`, `PERMISSION_DENIED`, `INVALID_ARGUMENT`, ...) and `extensions.details` the REST
 * call's error details (`applicationError`, `validationError`).
 */
export interface GraphQLErrorEntry {
  message: string;
  locations?: Array<{ line: number; column: number }>;
  /** The field that failed, from the root: `['order']`, `['products', 'products', 0, 'variants']`. */
  path?: Array<string | number>;
  extensions?: {
    code: string;
    details?: {
      applicationError?: { code: string; description: string; data?: Record<string, unknown> };
      validationError?: { fieldViolations: Array<{ field: string; description: string }> };
    };
  };
}

export interface GraphQLOptions {
  /** The schema's version, a path segment: the hosted client's default is `alpha`. */
  apiVersion?: string;
}
