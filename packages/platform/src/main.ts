#!/usr/bin/env node
/**
 * The `cartwheel` command (`npx @cartwheel/platform`, `npm start`): `start` (the default) runs the
 * platform, `reset-demo` puts the demo catalog back, `--version` prints the package's version. Every
 * setting comes from the environment, as README's Configuration lists.
 */
import fs from 'node:fs';
import { configFromEnv } from './config.ts';
import { resetDemoStore } from './demo/seed.ts';
import { periodOf, reconcilePayments } from './payments/reconcile.ts';
import { openServices, startPlatform } from './platform.ts';

const USAGE = `Usage: cartwheel [command]

Commands:
  start        run the store: storefront, back office and API (the default)
  reset-demo   put the demo store's catalog back to its first-start state
  reconcile    compare the store's payments with each payment provider's own records:
               --from=<date-time> --to=<date-time> (the last day unless given); prints JSON,
               exits 1 when a difference is found
  version      print the version (also --version, -v)
  help         print this (also --help, -h)

Settings come from the environment: PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL,
CARTWHEEL_ADMIN_API_KEY, ... (the README's Configuration).`;

const args = process.argv.slice(2);
const command =
  args.find((arg) => !arg.startsWith('-')) ??
  (args.includes('--reset-demo')
    ? 'reset-demo'
    : args.some((arg) => arg === '--version' || arg === '-v')
      ? 'version'
      : args.some((arg) => arg === '--help' || arg === '-h')
        ? 'help'
        : 'start');

if (command === 'version') {
  // packages/platform/package.json, from src/ and from dist/ alike
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  console.log(manifest.version);
  process.exit(0);
}
if (command === 'help') {
  console.log(USAGE);
  process.exit(0);
}
if (command !== 'start' && command !== 'reset-demo' && command !== 'reconcile') {
  console.error(`cartwheel: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
  process.exit(2);
}
// stack traces name the TypeScript source, as `npm start`'s --enable-source-maps does
process.setSourceMapsEnabled(true);

const config = configFromEnv();

if (command === 'reset-demo') {
  await resetDemoStore(config);
  console.log('Demo store reset: the catalog is back to its first-start state.');
  process.exit(0);
}

if (command === 'reconcile') {
  const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const to = option('to') ?? new Date().toISOString();
  const from = option('from') ?? new Date(Date.parse(to) - 24 * 60 * 60 * 1000).toISOString();
  const opened = await openServices({ ...config, seedDemo: false });
  try {
    const { database, payments, billing } = opened.services;
    const reconciliation = await reconcilePayments(
      database.db,
      payments.providers,
      periodOf({ from, to }),
      (orderIds) => billing.refundedByPayment(orderIds),
    );
    console.log(JSON.stringify(reconciliation, null, 2));
    process.exitCode = reconciliation.differences.length > 0 ? 1 : 0;
  } catch (error) {
    console.error(`cartwheel reconcile: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  } finally {
    await opened.close();
  }
  process.exit();
}

const platform = await startPlatform(config);
// where shoppers open it (PUBLIC_URL: its links and sign-in redirects name that address), not where it listens
const url = config.publicUrl;
const lines = [
  '',
  `  Cartwheel is running at ${url}`,
  `  Storefront   ${url}/`,
  `  Back office  ${url}/admin`,
  `  API          ${url} (the hosted platform's public paths)`,
  `  Database     ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}`,
  '',
  `  Demo OAuth client id: ${platform.demoClientId}`,
  platform.adminApiKey
    ? `  Admin API key: ${platform.adminApiKey}${config.adminApiKey ? '' : '   (shown once: keep it; set CARTWHEEL_ADMIN_API_KEY to choose your own)'}`
    : '  Admin API key: made on first start and shown then; set CARTWHEEL_ADMIN_API_KEY to use a key of your own',
  // the store's owner signs in to the back office through the hosted login page
  platform.owner
    ? `  Owner: ${platform.owner.email}${platform.owner.password && !config.ownerPassword ? ` / password ${platform.owner.password}   (shown once: keep it; CARTWHEEL_OWNER_PASSWORD chooses your own)` : ''}`
    : '  Owner: made on first start and shown then; CARTWHEEL_OWNER_EMAIL / CARTWHEEL_OWNER_PASSWORD choose the login',
  '',
];
console.log(lines.join('\n'));

/** How long a stop signal waits for the calls under way and the database before the process ends anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000;

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // a second signal (Ctrl+C twice) ends the process at once
    if (stopping) process.exit(1);
    stopping = true;
    let step = 'starting';
    const deadline = setTimeout(() => {
      platform.app.log.error(`${signal}: still ${step} after ${SHUTDOWN_DEADLINE_MS / 1000} s; stopping now`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    platform
      .close((current) => {
        step = current;
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          platform.app.log.error({ err: error }, `${signal}: closing failed while ${step}`);
          process.exit(1);
        },
      );
  });
}
