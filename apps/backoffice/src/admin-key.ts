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
