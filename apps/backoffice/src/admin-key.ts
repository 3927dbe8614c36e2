import { createContext, useContext } from 'react';

/**
 * The admin API key the back office calls with. Asked for once and kept in sessionStorage: it lasts
 * as long as the tab and never reaches another tab or a later visit.
 */
const KEY = 'cartwheel.backoffice.adminApiKey';

export function loadAdminKey(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function saveAdminKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetAdminKey(): void {
  sessionStorage.removeItem(KEY);
}

export interface AdminSession {
  apiKey: string | undefined;
  /** Signed in as staff through the hosted login page (staff-session.ts) rather than with a key. */
  staff: boolean;
  /** Whether staff can sign in here: the platform told the store's OAuth client id. */
  staffSignInAvailable: boolean;
  signIn(apiKey: string): void;
  /** Sends the browser to the hosted login page, to come back to `returnTo`. */
  signInAsStaff(returnTo: string): Promise<void>;
  /** The hosted login page sent the browser back signed in. */
  staffSignedIn(): void;
  signOut(): void;
}

export const AdminSessionContext = createContext<AdminSession>({
  apiKey: undefined,
  staff: false,
  staffSignInAvailable: false,
  signIn: () => {},
  signInAsStaff: async () => {},
  staffSignedIn: () => {},
  signOut: () => {},
});

export function useAdminSession(): AdminSession {
  return useContext(AdminSessionContext);
}

/** The platform refused the key: it is not (or no longer) the admin API key. */
export class KeyRefusedError extends Error {
  override name = 'KeyRefusedError';
}

/** A GET of the platform's admin API with the key in `Authorization`, as the wire expects. */
export async function adminGet<T>(path: string, apiKey: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Authorization: apiKey, Accept: 'application/json' } });
  } catch {
    throw new Error('The platform could not be reached. Is it running?');
  }
  const body = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
  if (response.status === 401 || response.status === 403) {
    throw new KeyRefusedError('The platform did not accept this admin API key.');
  }
  if (!response.ok) throw new Error(body?.message ?? `The platform answered ${response.status}.`);
  return body as T;
}
