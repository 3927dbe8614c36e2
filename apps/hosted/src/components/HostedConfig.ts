import { createContext, useContext, useEffect } from 'react';
import type { HostedConfig } from '../config.ts';

export const HostedConfigContext = createContext<HostedConfig>({ clientId: '', storeName: 'Store' });

export function useHostedConfig(): HostedConfig {
  return useContext(HostedConfigContext);
}

/** The tab's title: the page's name, then the store's. */
export function usePageTitle(page: string): void {
  const { storeName } = useHostedConfig();
  useEffect(() => {
    document.title = `${page} · ${storeName}`;
  }, [page, storeName]);
}
