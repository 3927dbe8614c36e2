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
  signIn(apiKey: string): void;
  signOut(): void;
}

export const AdminSessionContext = createContext<AdminSession>({
  apiKey: undefined,
  signIn: () => {},
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
