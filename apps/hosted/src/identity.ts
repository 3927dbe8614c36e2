import {
  authentication,
  createClient,
  OAuthStrategy,
  recovery,
  type StateMachineResponse,
  verification,
} from '@cartwheel/sdk';

/**
 * The identity calls for one OAuth client. Its visitor token (kept in memory for the page's life)
 * ties the session a login opens to that client, so the authorization endpoint can trade it.
 */
function createIdentityClient(clientId: string) {
  const origin = window.location.origin;
  return createClient({
    host: origin,
    auth: OAuthStrategy({ clientId, host: origin }),
    modules: { authentication, recovery, verification },
  });
}

export type IdentityClient = ReturnType<typeof createIdentityClient>;

const clients = new Map<string, IdentityClient>();

export function identityClient(clientId: string): IdentityClient {
  let client = clients.get(clientId);
  if (!client) {
    client = createIdentityClient(clientId);
    clients.set(clientId, client);
  }
  return client;
}

/** Where a login, registration, verification or reset stands after the server's answer. */
export type SignInStep =
  | { step: 'signed-in'; sessionToken: string }
  | { step: 'verify-email'; stateToken: string }
  | { step: 'owner-approval' }
  /** The password was right; a second step (point 7's `/v2/{factorType}/verify`) comes first. */
  | { step: 'second-factor'; stateToken: string; factors: Array<'EMAIL' | 'TOTP'> }
  | { step: 'unknown'; state: string };

export function signInStepOf(answer: StateMachineResponse): SignInStep {
  if (answer.state === 'SUCCESS' && answer.sessionToken) {
    return { step: 'signed-in', sessionToken: answer.sessionToken };
  }
  if (answer.state === 'REQUIRE_EMAIL_VERIFICATION' && answer.stateToken) {
    return { step: 'verify-email', stateToken: answer.stateToken };
  }
  if (answer.state === 'REQUIRE_OWNER_APPROVAL') return { step: 'owner-approval' };
  if (answer.state === 'REQUIRE_MFA' && answer.stateToken) {
    const factors = (answer.requireMfaData?.availableFactors ?? [])
      .map((factor) => factor.factorType)
      .filter((type): type is 'EMAIL' | 'TOTP' => type === 'EMAIL' || type === 'TOTP');
    if (factors.length > 0) return { step: 'second-factor', stateToken: answer.stateToken, factors };
  }
  return { step: 'unknown', state: String(answer.state ?? 'UNKNOWN_STATE') };
}

/** A login waiting for its emailed code: kept for the tab, so `/auth/verify` survives a reload. */
export interface PendingVerification {
  stateToken: string;
  clientId: string;
  email: string;
  /** The authorization request to finish once the code is right. */
  request: string;
}

const PENDING_KEY = 'cartwheel.hosted.verification';

export function savePendingVerification(pending: PendingVerification): void {
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
}

export function loadPendingVerification(): PendingVerification | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as PendingVerification | null;
    return value?.stateToken && value.clientId ? value : undefined;
  } catch {
    return undefined;
  }
}

export function clearPendingVerification(): void {
  sessionStorage.removeItem(PENDING_KEY);
}
