/**
 * An error raised by the client itself, never by the server: the messages of point 8
 * ('Invalid _state', 'Missing code or _state', 'something went wrong', ...).
 */
export class ClientError extends Error {
  override name = 'ClientError';
}

/** Client messages of point 8, one source for the SDK and its tests. */
export const ClientMessages = {
  invalidState: 'Invalid _state',
  missingCodeOrState: 'Missing code or _state',
  failedToGetMemberTokens: 'Failed to get member tokens',
  oauthFlowTimedOut: 'OAuth flow timed out',
  tokenEndpointFailed: 'something went wrong',
  unknownState: 'Unknown _state',
  secretLength: (n: number) => `Expected a length between 43 and 128. Received ${n}.`,
  /** A webhook body whose signature, form or time window does not hold (`@cartwheel/sdk/webhooks`). */
  jwtNotValid: 'JWT is not valid',
  unexpectedEventType: (type: string, expected: readonly string[]) =>
    `Unexpected event type: ${type}. Expected one of: ${expected.join(', ')}`,
  noImplementationFound: (type: string) => `No implementation found for event type ${type}`,
} as const;
