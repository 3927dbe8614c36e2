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
  /**
   * CARTWHEEL_SECRET_KEY: seals secrets the store keeps for later use (authenticators' TOTP secrets) at
   * rest; without it a key kept in the database does, so a copy of the database alone reveals them.
   */
  secretKey: string | undefined;
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
  /** Days the webhook delivery log keeps a delivered event and its attempts (at least 1). */
  webhookLogRetentionDays: number;
  /** CARTWHEEL_ABANDONED_CHECKOUT_MINUTES: an unfinished checkout with an email is abandoned this long after its last change (60). */
  abandonedCheckoutMinutes: number;
  /** CARTWHEEL_SUBSCRIPTION_RENEWALS_EVERY_MS: how often the leased worker looks for due subscription cycles (60000). */
  subscriptionRenewalsEveryMs: number;
  /** PostgreSQL's `statement_timeout` on every pooled connection, in ms: no one call can hold the server. */
  statementTimeoutMs: number;
  /**
   * On SQLite, how long a write waits for the file's write lock another process holds (`busy_timeout`),
   * in ms; past it the call answers 503 DATABASE_BUSY with `Retry-After`. better-sqlite3 waits
   * synchronously: the whole process waits with it, so it stays short.
   */
  sqliteBusyTimeoutMs: number;
  /**
   * The payment providers the store registers (CARTWHEEL_PAYMENT_PROVIDERS), and the one new checkouts
   * pay through (CARTWHEEL_PAYMENT_PROVIDER; the first registered when unset). A payment goes back to
   * the provider that took it, so one is removed only once its payments need nothing more.
   */
  paymentProviders: PaymentProviderConfig[];
  defaultPaymentProvider: string;
  /** The store's Stripe account (STRIPE_*), when it takes real payments; then Stripe is the default provider. */
  stripe: StripeConfig | undefined;
  /** Seed the demo store on first start. */
  seedDemo: boolean;
  /**
   * CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK: webhook endpoints on this machine (127.0.0.1, ::1), over http
   * too, for a developer's receiver. Off by default: webhooks go over https to public addresses only.
   */
  webhooksAllowHttpLoopback: boolean;
  /** Directory holding the built storefront and back office (`apps/*\/dist`). */
  appsDir: string | undefined;
}

/**
 * What a registered payment provider is: `test-gateway` takes test cards as typed; `-tokens-only` does
 * not; `stripe` is the store's Stripe account (STRIPE_SECRET_KEY).
 */
export const PAYMENT_PROVIDER_KINDS = ['test-gateway', 'test-gateway-tokens-only', 'stripe'] as const;
export type PaymentProviderKind = (typeof PAYMENT_PROVIDER_KINDS)[number];

/** A payment provider the store registers: the id its payments record, and what it is. */
export interface PaymentProviderConfig {
  id: string;
  kind: PaymentProviderKind;
}

/** The store's Stripe account: its keys, and the API's address (STRIPE_API_URL: a stand-in in tests). */
export interface StripeConfig {
  secretKey: string;
  publishableKey: string | undefined;
  /** Signs the webhook deliveries Stripe posts to `/api/cartwheel/stripe/webhook`. */
  webhookSecret: string | undefined;
  apiUrl: string | undefined;
  /** How long one call to Stripe may take before it counts as unanswered (STRIPE_TIMEOUT_MS). */
  timeoutMs: number | undefined;
}

/** The Stripe provider's id when the store names no providers but configures Stripe. */
export const STRIPE_PROVIDER_ID = 'stripe';

/** The built-in test gateway's id: registered when the store names no providers. */
export const TEST_GATEWAY_ID = 'cartwheel-test-gateway';

/** CARTWHEEL_SECRET_KEY: unset, or at least 32 characters (a key anyone could guess seals nothing). */
function secretKeyOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < 32) {
    throw new Error('CARTWHEEL_SECRET_KEY must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  }
  return value;
}

/** Reads the configuration from the environment (README, Configuration). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const host = env.HOST ?? 'localhost';
  const stripe = stripeOf(env);
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
    secretKey: secretKeyOf(env.CARTWHEEL_SECRET_KEY),
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
    webhookLogRetentionDays: Math.max(
      1,
      wholeNumber('CARTWHEEL_WEBHOOK_LOG_RETENTION_DAYS', env.CARTWHEEL_WEBHOOK_LOG_RETENTION_DAYS) ?? 30,
    ),
    abandonedCheckoutMinutes:
      wholeNumber('CARTWHEEL_ABANDONED_CHECKOUT_MINUTES', env.CARTWHEEL_ABANDONED_CHECKOUT_MINUTES) ?? 60,
    subscriptionRenewalsEveryMs: Math.max(
      1,
      wholeNumber('CARTWHEEL_SUBSCRIPTION_RENEWALS_EVERY_MS', env.CARTWHEEL_SUBSCRIPTION_RENEWALS_EVERY_MS) ??
        60_000,
    ),
    statementTimeoutMs:
      wholeNumber('CARTWHEEL_STATEMENT_TIMEOUT_MS', env.CARTWHEEL_STATEMENT_TIMEOUT_MS) ?? 5000,
    sqliteBusyTimeoutMs:
      wholeNumber('CARTWHEEL_SQLITE_BUSY_TIMEOUT_MS', env.CARTWHEEL_SQLITE_BUSY_TIMEOUT_MS) ?? 5000,
    ...paymentProvidersOf(env.CARTWHEEL_PAYMENT_PROVIDERS, env.CARTWHEEL_PAYMENT_PROVIDER, stripe),
    stripe,
    seedDemo: env.CARTWHEEL_SEED_DEMO !== 'false',
    appsDir: env.CARTWHEEL_APPS_DIR,
    webhooksAllowHttpLoopback: env.CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK === 'true',
  };
}

function stripeOf(env: NodeJS.ProcessEnv): StripeConfig | undefined {
  const secretKey = env.STRIPE_SECRET_KEY || undefined;
  if (!secretKey) return undefined;
  const apiUrl = env.STRIPE_API_URL || undefined;
  if (apiUrl && !/^https?:\/\/[^/]+\/?$/.test(apiUrl))
    throw new Error(`STRIPE_API_URL must be an http(s) address with no path, got ${apiUrl}`);
  return {
    secretKey,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    apiUrl,
    timeoutMs: wholeNumber('STRIPE_TIMEOUT_MS', env.STRIPE_TIMEOUT_MS) || undefined,
  };
}

/**
 * `CARTWHEEL_PAYMENT_PROVIDERS`: `<id>=<kind>` entries separated by commas (`cartwheel-test-gateway`
 * alone is the test gateway); unset, the test gateway alone, or Stripe alone when it is configured.
 * With Stripe configured, Stripe is registered (as `stripe` unless the list names it) and is the
 * default unless CARTWHEEL_PAYMENT_PROVIDER chooses another: the test gateway only when listed.
 */
function paymentProvidersOf(
  list: string | undefined,
  chosen: string | undefined,
  stripe: StripeConfig | undefined,
): { paymentProviders: PaymentProviderConfig[]; defaultPaymentProvider: string } {
  const entries = commaList(list);
  const unlisted = stripe ? `${STRIPE_PROVIDER_ID}=stripe` : TEST_GATEWAY_ID;
  const paymentProviders = (entries.length > 0 ? entries : [unlisted]).map((entry) => {
    const [id = '', kind = id === TEST_GATEWAY_ID ? 'test-gateway' : ''] = entry
      .split('=')
      .map((part) => part.trim());
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(id))
      throw new Error(
        `CARTWHEEL_PAYMENT_PROVIDERS: ${entry} needs an id of lowercase letters, digits and dashes`,
      );
    if (!(PAYMENT_PROVIDER_KINDS as readonly string[]).includes(kind))
      throw new Error(
        `CARTWHEEL_PAYMENT_PROVIDERS: ${entry} needs a kind, one of ${PAYMENT_PROVIDER_KINDS.join(', ')} (<id>=<kind>)`,
      );
    return { id, kind: kind as PaymentProviderKind };
  });
  const stripes = paymentProviders.filter((provider) => provider.kind === 'stripe');
  if (stripes.length > 0 && !stripe)
    throw new Error('CARTWHEEL_PAYMENT_PROVIDERS names a stripe provider: set STRIPE_SECRET_KEY');
  if (stripe && stripes.length === 0) paymentProviders.unshift({ id: STRIPE_PROVIDER_ID, kind: 'stripe' });
  if (stripes.length > 1)
    throw new Error(
      'CARTWHEEL_PAYMENT_PROVIDERS names more than one stripe provider (one account: STRIPE_*)',
    );
  const ids = paymentProviders.map((provider) => provider.id);
  if (new Set(ids).size !== ids.length)
    throw new Error(`CARTWHEEL_PAYMENT_PROVIDERS names an id twice: ${list}`);
  const stripeId = paymentProviders.find((provider) => provider.kind === 'stripe')?.id;
  const defaultPaymentProvider = chosen || stripeId || ids[0]!;
  if (!ids.includes(defaultPaymentProvider))
    throw new Error(
      `CARTWHEEL_PAYMENT_PROVIDER ${chosen} is not one of CARTWHEEL_PAYMENT_PROVIDERS (${ids.join(', ')})`,
    );
  return { paymentProviders, defaultPaymentProvider };
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
