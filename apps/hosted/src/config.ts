/** What the platform tells its bundled apps at start (`GET /api/cartwheel/config`). */
export interface HostedConfig {
  /** The demo store's OAuth client: used when a page is opened without an authorization request. */
  clientId: string;
  storeName: string;
}

export async function loadHostedConfig(origin: string): Promise<HostedConfig> {
  let response: Response;
  try {
    response = await fetch(`${origin}/api/cartwheel/config`, { headers: { Accept: 'application/json' } });
  } catch {
    throw new Error('The store could not be reached. Check your connection and reload the page.');
  }
  const body = response.ok
    ? ((await response.json().catch(() => undefined)) as Partial<HostedConfig> | undefined)
    : undefined;
  if (!body?.clientId) {
    throw new Error('This store is not set up yet: the platform did not say which client signs people in.');
  }
  return { clientId: body.clientId, storeName: body.storeName || 'Store' };
}
