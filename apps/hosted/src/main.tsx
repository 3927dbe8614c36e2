import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** The platform's hosted pages (sign in, sign up, verify email, reset password) at /auth/. */
function HostedPages() {
  return <h1>Sign in</h1>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <HostedPages />
  </StrictMode>,
);
