import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { createCartwheelQueryClient } from './query-client.ts';

/** Any client built by `createClient`; hooks narrow it to the modules they call. */
export type AnyCartwheelClient = object;

const ClientContext = createContext<AnyCartwheelClient | null>(null);

export interface CartwheelProviderProps {
  /** `createClient({ host, auth, modules })` from `@cartwheel/sdk`. */
  client: AnyCartwheelClient;
  /** Defaults to one made by {@link createCartwheelQueryClient}, kept for the provider's life. */
  queryClient?: QueryClient;
  children?: ReactNode;
}

/** Makes the SDK client and a query cache with the specification's defaults reachable by the hooks. */
export function CartwheelProvider({ client, queryClient, children }: CartwheelProviderProps) {
  const [ownQueryClient] = useState(() => queryClient ?? createCartwheelQueryClient());
  return (
    <ClientContext.Provider value={client}>
      <QueryClientProvider client={queryClient ?? ownQueryClient}>{children}</QueryClientProvider>
    </ClientContext.Provider>
  );
}

/** The client given to the nearest `CartwheelProvider`, typed as the caller says it was built. */
export function useCartwheel<C extends AnyCartwheelClient = AnyCartwheelClient>(): C {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useCartwheel must be used inside a <CartwheelProvider client={...}>');
  return client as C;
}
