#!/usr/bin/env -S node --import tsx
import { configFromEnv } from './config.ts';
import { resetDemoStore } from './demo/seed.ts';
import { startPlatform } from './platform.ts';

const config = configFromEnv();

if (process.argv.includes('--reset-demo')) {
  await resetDemoStore(config);
  console.log('Demo store reset: the catalog is back to its first-start state.');
  process.exit(0);
}

const platform = await startPlatform(config);
const lines = [
  '',
  `  Cartwheel is running at ${platform.url}`,
  `  Storefront   ${platform.url}/`,
  `  Back office  ${platform.url}/admin`,
  `  API          ${platform.url} (the hosted platform's public paths)`,
  `  Database     ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}`,
  '',
  `  Demo OAuth client id: ${platform.demoClientId}`,
  platform.adminApiKey
    ? `  Admin API key: ${platform.adminApiKey}${config.adminApiKey ? '' : '   (shown once: keep it; set CARTWHEEL_ADMIN_API_KEY to choose your own)'}`
    : '  Admin API key: made on first start and shown then; set CARTWHEEL_ADMIN_API_KEY to use a key of your own',
  '',
];
console.log(lines.join('\n'));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    platform.close().then(() => process.exit(0));
  });
}
