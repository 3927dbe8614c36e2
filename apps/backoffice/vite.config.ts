import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// Served by the platform at /admin/; `npm run dev` proxies API calls to a platform on :4000.
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  // the workspace's packages from their TypeScript source: no need to build them first
  resolve: { conditions: ['@cartwheel/source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '^/(?!src|@|node_modules|backoffice).*': 'http://localhost:4000' } },
});
