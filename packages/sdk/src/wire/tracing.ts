import { TRACING_HEADER } from './constants.ts';

/** Who sends a call (point 6): the package, the method's fully qualified name, the entity it acts on. */
export interface Trace {
  package: string;
  method: string;
  entity: string;
}

/**
 * The tracing header of one call, shaped like the hosted client's
 * (`environment=...,package-name=...,method-fqn=...,entity=...`): module calls and token requests alike.
 */
export function tracingHeaders(trace: Trace): Record<string, string> {
  return {
    [TRACING_HEADER]: `environment=cartwheel-sdk,package-name=${trace.package},method-fqn=${trace.method},entity=${trace.entity}`,
  };
}
