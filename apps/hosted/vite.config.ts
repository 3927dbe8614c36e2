import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the platform at /auth/; `npm run dev` proxies API calls to a platform on :4000.
export default defineConfig({
  base: '/auth/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '^/(?!src|@|node_modules|hosted).*': 'http://localhost:4000' } },
});
