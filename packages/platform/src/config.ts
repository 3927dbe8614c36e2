import path from 'node:path';

export interface PlatformConfig {
  port: number;
  /** Interface to listen on; `localhost` answers on both 127.0.0.1 and ::1. */
  host: string;
  /** Where the SQLite file, uploads and generated images live. */
  dataDir: string;
  /** PostgreSQL connection string; SQLite in `dataDir` when absent. */
  databaseUrl: string | undefined;
  /** Public base URL for links the platform hands out (redirects, emails, image urls). */
  publicUrl: string;
  logLevel: string;
  /**
   * Behind a load balancer, the proxies whose `X-Forwarded-For` names the shopper's address (the login
   * throttle counts by it): `true`, a hop count, or addresses and CIDRs separated by commas.
   */
  trustProxy: boolean | number | string;
  /** The store's name, shown by the storefront, the hosted pages and emails. */
  storeName: string;
  adminApiKey: string | undefined;
  /** The owner's login on the first start (CARTWHEEL_OWNER_EMAIL, CARTWHEEL_OWNER_PASSWORD; else made and printed once). */
  ownerEmail: string | undefined;
  ownerPassword: string | undefined;
  demoClientId: string | undefined;
  /** More redirect URIs and allowed origins for the demo OAuth client (a storefront elsewhere). */
  demoRedirectUris: string[];
  demoAllowedOrigins: string[];
  /** Mail server for the store's emails (`smtp://user:pass@host:587`); without one they stay in the outbox. */
  smtpUrl: string | undefined;
  /** Sender of the store's emails. */
  smtpFrom: string;
  /** How long a visitor's catalog read may be answered again from memory (ms; 0 turns it off). */
  catalogReadCacheMs: number;
  /**
   * Rows between two anchors where a deep page of a listing may start (catalog/page-anchors.ts); 0
   * turns them off; undefined: the database's default.
   */
  pageAnchorSpacing: number | undefined;
  /** Days an event stays in the outbox once every subscriber has handled it (events/bus.ts prunes it). */
  eventRetentionDays: number;
  /** PostgreSQL's `statement_timeout` on every pooled connection, in ms: no one call can hold the server. */
  statementTimeoutMs: number;
  /** Seed the demo store on first start. */
  seedDemo: boolean;
  /** Directory holding the built storefront and back office (`apps/*\/dist`). */
  appsDir: string | undefined;
}

/** Reads the configuration from the environment (README, Configuration). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const host = env.HOST ?? 'localhost';
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    storeName: env.CARTWHEEL_STORE_NAME ?? 'Cartwheel Demo Store',
    adminApiKey: env.CARTWHEEL_ADMIN_API_KEY || undefined,
    ownerEmail: env.CARTWHEEL_OWNER_EMAIL || undefined,
    ownerPassword: env.CARTWHEEL_OWNER_PASSWORD || undefined,
    demoClientId: env.CARTWHEEL_DEMO_CLIENT_ID || undefined,
    demoRedirectUris: commaList(env.CARTWHEEL_DEMO_REDIRECT_URIS),
    demoAllowedOrigins: commaList(env.CARTWHEEL_DEMO_ALLOWED_ORIGINS),
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM ?? `no-reply@${new URL(env.PUBLIC_URL ?? 'http://localhost').hostname}`,
    catalogReadCacheMs: Number(env.CARTWHEEL_CATALOG_CACHE_MS ?? 1000),
    pageAnchorSpacing: wholeNumber('CARTWHEEL_PAGE_ANCHOR_SPACING', env.CARTWHEEL_PAGE_ANCHOR_SPACING),
    eventRetentionDays:
      wholeNumber('CARTWHEEL_EVENT_RETENTION_DAYS', env.CARTWHEEL_EVENT_RETENTION_DAYS) ?? 30,
    statementTimeoutMs:
      wholeNumber('CARTWHEEL_STATEMENT_TIMEOUT_MS', env.CARTWHEEL_STATEMENT_TIMEOUT_MS) ?? 5000,
    seedDemo: env.CARTWHEEL_SEED_DEMO !== 'false',
    appsDir: env.CARTWHEEL_APPS_DIR,
  };
}

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new Error(`${name} must be a whole number, got ${value}`);
  return number;
}

const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function trustProxyOf(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}
