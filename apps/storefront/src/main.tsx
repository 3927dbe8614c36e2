import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

function Storefront() {
  return <h1>Cartwheel store</h1>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Storefront />
  </StrictMode>,
);
