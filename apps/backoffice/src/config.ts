/** The store's OAuth client id (`GET /api/cartwheel/config`), which staff sign in with; undefined if unknown. */
export async function loadClientId(): Promise<string | undefined> {
  try {
    const response = await fetch('/api/cartwheel/config', { headers: { Accept: 'application/json' } });
    const body = (await response.json()) as { clientId?: string };
    return response.ok ? body.clientId : undefined;
  } catch {
    return undefined;
  }
}
