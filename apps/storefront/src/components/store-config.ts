import { createContext, useContext } from 'react';
import type { StoreConfig } from '../store.ts';

export const StoreConfigContext = createContext<StoreConfig>({ clientId: '', storeName: 'Store' });

export function useStoreConfig(): StoreConfig {
  return useContext(StoreConfigContext);
}

/** Sets the tab's title to the page's own, followed by the store's name. */
export function pageTitle(storeName: string, page?: string): string {
  return page ? `${page} · ${storeName}` : storeName;
}
