import { useEffect, useState } from 'react';

/** What the platform tells its bundled apps at start (`GET /api/cartwheel/config`), read once a tab. */
interface StoreConfig {
  clientId?: string | undefined;
  storeName?: string | undefined;
}

let config: Promise<StoreConfig> | undefined;

function loadConfig(): Promise<StoreConfig> {
  config ??= (async () => {
    try {
      const response = await fetch('/api/cartwheel/config', { headers: { Accept: 'application/json' } });
      const body = (await response.json()) as StoreConfig;
      return response.ok ? body : {};
    } catch {
      return {};
    }
  })();
  return config;
}

/** The store's OAuth client id, which staff sign in with; undefined if unknown. */
export async function loadClientId(): Promise<string | undefined> {
  return (await loadConfig()).clientId;
}

/** The store's name as its emails and hosted pages say it (a packing slip prints it). */
export async function loadStoreName(): Promise<string> {
  return (await loadConfig()).storeName || 'Store';
}

/** The store's name (`loadStoreName`) for a component: undefined until it is known. */
export function useStoreName(): string | undefined {
  const [storeName, setStoreName] = useState<string>();
  useEffect(() => {
    let current = true;
    void loadStoreName().then((name) => {
      if (current) setStoreName(name);
    });
    return () => {
      current = false;
    };
  }, []);
  return storeName;
}
