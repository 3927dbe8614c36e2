import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** The back office: orders and payments, members and catalog arrive with their issues. */
function BackOffice() {
  return (
    <main
      style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '4rem auto', padding: '0 1rem' }}
    >
      <h1>Cartwheel back office</h1>
      <p>
        Orders and payments, members and the catalog will be managed here. Until then, the admin API key the
        platform printed at first start manages everything through the API.
      </p>
      <p>
        <a href="/">Go to the storefront</a>
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BackOffice />
  </StrictMode>,
);
