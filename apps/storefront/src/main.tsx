// first, so every app's own styles come after the shared ones and may override them
import '@cartwheel/design/base.css';
import { CartwheelProvider } from '@cartwheel/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { StoreConfigContext } from './components/store-config.ts';
import { createStorefrontRouter } from './router.tsx';
import { createStoreClient, loadStoreConfig } from './store.ts';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

async function start() {
  const origin = window.location.origin;
  try {
    const config = await loadStoreConfig(origin);
    const client = createStoreClient(origin, config);
    const router = createStorefrontRouter();
    root.render(
      <StrictMode>
        <StoreConfigContext.Provider value={config}>
          <CartwheelProvider client={client}>
            <RouterProvider router={router} />
          </CartwheelProvider>
        </StoreConfigContext.Provider>
      </StrictMode>,
    );
  } catch (error) {
    root.render(
      <main className="page page--message">
        <h1>The store is unavailable</h1>
        <p role="alert">{error instanceof Error ? error.message : String(error)}</p>
      </main>,
    );
  }
}

void start();
