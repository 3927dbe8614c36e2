import { useEffect, useState } from 'react';
import { pageTitle, useStoreConfig } from './store-config.ts';

/** `value`, once it has stopped changing for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function useDocumentTitle(page?: string): void {
  const { storeName } = useStoreConfig();
  useEffect(() => {
    document.title = pageTitle(storeName, page);
  }, [storeName, page]);
}
