import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the platform at /; `npm run dev` proxies API calls to a platform on :4000.
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '^/(?!src|@|node_modules|storefront).*': 'http://localhost:4000' } },
});
