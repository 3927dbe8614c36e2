// first, so every app's own styles come after the shared ones and may override them
import '@cartwheel/design/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { HostedConfigContext } from './components/HostedConfig.ts';
import { loadHostedConfig } from './config.ts';
import { createHostedRouter } from './router.tsx';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

/** The platform's hosted pages (sign in, sign up, verify email, reset password) at /auth/. */
async function start() {
  try {
    const config = await loadHostedConfig(window.location.origin);
    const router = createHostedRouter();
    root.render(
      <StrictMode>
        <HostedConfigContext.Provider value={config}>
          <RouterProvider router={router} />
        </HostedConfigContext.Provider>
      </StrictMode>,
    );
  } catch (error) {
    root.render(
      <main className="card">
        <h1>Sign-in is unavailable</h1>
        <p role="alert">{error instanceof Error ? error.message : String(error)}</p>
      </main>,
    );
  }
}

void start();
