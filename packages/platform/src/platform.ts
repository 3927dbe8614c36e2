import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { abandonedCheckoutRoutes } from './abandoned-checkouts/routes.ts';
import { AbandonedCheckoutService } from './abandoned-checkouts/service.ts';
import { backInStockRoutes } from './back-in-stock/routes.ts';
import { BackInStockService } from './back-in-stock/service.ts';
import { recordOrderPayment } from './billing/recorded-payments.ts';
import { billingRoutes } from './billing/routes.ts';
import { BillingService } from './billing/service.ts';
import { BuyingPath } from './buying/path.ts';
import type { OrderPlacement } from './buying/placing.ts';
import { cartRoutes } from './carts/routes.ts';
import { CartService } from './carts/service.ts';
import { catalogRoutes } from './catalog/routes.ts';
import { CatalogService } from './catalog/service.ts';
import { checkoutTemplateRoutes } from './checkout-templates/routes.ts';
import { CheckoutTemplateService } from './checkout-templates/service.ts';
import { checkoutRoutes } from './checkouts/routes.ts';
import { CheckoutService } from './checkouts/service.ts';
import type { PlatformConfig } from './config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { seedDemoStore } from './demo/seed.ts';
import { Mailer } from './email/mailer.ts';
import { emailRoutes } from './email/routes.ts';
import { smtpDelivery } from './email/smtp.ts';
import { EventBus } from './events/bus.ts';
import { FulfillmentRecords } from './fulfillments/records.ts';
import { fulfillmentRoutes } from './fulfillments/routes.ts';
import { FulfillmentService } from './fulfillments/service.ts';
import { graphqlRoutes } from './graphql/routes.ts';
import { createHttpApp } from './http/app.ts';
import { PLATFORM_OPERATIONS } from './http/operations-access.ts';
import { storefrontConfigRoutes } from './http/storefront-config.ts';
import { identityRoutes } from './identity/routes.ts';
import { IdentityService } from './identity/service.ts';
import { memberRoutes } from './members/routes.ts';
import { MembersService } from './members/service.ts';
import { MemberSignIns } from './members/sign-ins.ts';
import { DemoClient } from './oauth/clients.ts';
import { RevokedFamilies } from './oauth/revocations.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { REVOCATION_HORIZON_MS, sha256, TokenService } from './oauth/tokens.ts';
import { orderViewRoutes } from './order-views/routes.ts';
import { orderExportRoutes } from './orders/export.ts';
import { orderOperationRoutes } from './orders/operation-routes.ts';
import { OrderOperations } from './orders/operations.ts';
import { orderRoutes } from './orders/routes.ts';
import { OrderService } from './orders/service.ts';
import { guestOrderAdoption, orderConfirmationEmails } from './orders/subscribers.ts';
import { authorizedPaymentIds } from './payments/order-payments.ts';
import { openPaymentProviders } from './payments/providers.ts';
import { paymentRoutes, stripeWebhookRoutes } from './payments/routes.ts';
import { PaymentService } from './payments/service.ts';
import { StripeWebhooks } from './payments/stripe-webhook.ts';
import { PricingService } from './pricing/service.ts';
import { Settings } from './settings/settings.ts';
import { newSecret } from './shared/ids.ts';
import { PublicLinks } from './shared/public-links.ts';
import { accessControl } from './staff/access.ts';
import { API_KEY_PREFIX, ApiKeyService } from './staff/api-keys.ts';
import { AuditLog } from './staff/audit.ts';
import { StaffAuthorities } from './staff/authorities.ts';
import { staffRoutes } from './staff/routes.ts';
import { StaffService } from './staff/service.ts';
import { storeSettingsRoutes } from './store-settings/routes.ts';
import { StoreSettingsService } from './store-settings/service.ts';
import { subscriptionContractRoutes } from './subscriptions/routes.ts';
import { SubscriptionService } from './subscriptions/service.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { WebhookService } from './webhooks/service.ts';
import { Workers } from './workers/runtime.ts';

/** Everything a route may reach: the domains' services, built once per process. */
export interface Services {
  config: PlatformConfig;
  database: Database;
  settings: Settings;
  tokens: TokenService;
  catalog: CatalogService;
  mailer: Mailer;
  members: MembersService;
  identity: IdentityService;
  /** Tax regions, shipping, pickup, discount rules, coupons, checkout settings: what pricing reads. */
  storeSettings: StoreSettingsService;
  /** Lines to money: catalog prices, discounts, shipping and tax (pricing/contract.ts). */
  pricing: PricingService;
  carts: CartService;
  checkouts: CheckoutService;
  /** A merchant's checkout templates: buy links that make a checkout (issue 34). */
  checkoutTemplates: CheckoutTemplateService;
  /** Checkouts left unfinished: found by a leased scan, emailed, recovered (issue 34). */
  abandonedCheckouts: AbandonedCheckoutService;
  /** Subscription contracts: started by a paid checkout, renewed by a leased worker (issue 34). */
  subscriptions: SubscriptionService;
  /** Shoppers waiting for an item to be back: emailed once when its stock returns (issue 34). */
  backInStock: BackInStockService;
  /** The buying path's cross-domain steps: cart to checkout, checkout to order, paid order to cart. */
  buying: BuyingPath;
  /** Paying for a checkout on the hosted page (`buying.placement`): attempts, charges, lost answers. */
  placement: OrderPlacement;
  orders: OrderService;
  /** The merchant's changes to placed orders: update, cancel, tags, activities, aggregates. */
  orderOperations: OrderOperations;
  /** An order's fulfillments, with tracking; they derive its fulfillment status. */
  fulfillments: FulfillmentService;
  /** The payment providers by id (config.ts; the built-in test gateway by default) and every order's transactions. */
  payments: PaymentService;
  /** The owner, staff roles and invitations (issue 21); with the keys and log below, staff/. */
  staff: StaffService;
  /** Apps' API keys with permissions. */
  apiKeys: ApiKeyService;
  /** What staff and keys changed. */
  audit: AuditLog;
  /** Capture, void and refunds of orders' payments, and payments the merchant records (billing/). */
  billing: BillingService;
  /** The process's background jobs (workers/): started by `startPlatform`, stopped by `close`. */
  workers: Workers;
  /** The outbox as the platform's event bus, and its subscribers (events/bus.ts). */
  events: EventBus;
  /** Apps' webhook endpoints, their keys, and the delivery of events to them (issue 31). */
  webhooks: WebhookService;
}

export interface Platform {
  /** `http://localhost:4000`: where the storefront, back office and API answer. */
  url: string;
  port: number;
  app: FastifyInstance;
  services: Services;
  /** The admin API key when this start created it (printed once) or the environment set it. */
  adminApiKey: string | undefined;
  /** The owner's login when this start made the owner (the password only when it set one): printed once. */
  owner: { email: string; password?: string } | undefined;
  demoClientId: string;
  /**
   * Stops taking calls, finishes the ones under way, then closes the database. `onStep` hears the name
   * of each step as it begins, so a shutdown that overstays its deadline can say where it waits.
   */
  close(onStep?: (step: string) => void): Promise<void>;
}

/** What a process's notices go to: stderr until the HTTP app (and its logger) exists, then the logger. */
export interface PlatformNotices {
  connectionLost(error: Error): void;
  revocationsFailed(error: Error, what: string): void;
}

/** The store's domains over its database, as one process holds them, with what opening them set up. */
export interface OpenServices {
  services: Services;
  /** The admin API key when this opening created it (printed once) or the environment set it. */
  adminApiKey: string | undefined;
  /** The owner's login when this opening made the owner (the password only when it set one). */
  owner: { email: string; password?: string } | undefined;
  demoClientId: string;
  /** Stops the background jobs and the catalog's background writes, then closes the database. */
  close(onStep?: (step: string) => void): Promise<void>;
}

/**
 * Opens the database (bringing it up to date), follows token revocations, makes the store's keys and
 * demo client on the first opening, and builds every domain's service and background job. Of the jobs
 * only the revocation reader runs here: a process that only works on the store's data (a test's view
 * of it, a script) opens this alone; `startPlatform` starts the others.
 */
export async function openServices(
  config: PlatformConfig,
  notices: PlatformNotices = stderrNotices(config),
): Promise<OpenServices> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
    onConnectionLost: (error) => notices.connectionLost(error),
  });
  const workers = new Workers(database.db, {
    onError: (error, worker) => notices.revocationsFailed(error as Error, `background job ${worker}`),
  });
  // every process refuses revoked tokens within a second: it follows the table from the start
  const revocations = new RevokedFamilies(database.db, {
    dialect: database.dialect,
    databaseUrl: config.databaseUrl,
    horizonMs: REVOCATION_HORIZON_MS,
    onError: (error, what) => notices.revocationsFailed(error, what),
    workers,
  });
  try {
    await revocations.start();
    const settings = new Settings(database.db);
    const signingSecret = (await settings.getOrCreate('oauth.signing_secret', () => newSecret(48))).value;
    let adminApiKey = config.adminApiKey;
    if (!adminApiKey) {
      const candidate = `cw_admin_${newSecret()}`;
      const stored = await settings.getOrCreate('admin.api_key_sha256', () => sha256(candidate));
      if (stored.created) adminApiKey = candidate;
    }
    const adminKeyHash = config.adminApiKey
      ? sha256(config.adminApiKey)
      : ((await settings.get('admin.api_key_sha256')) as string);

    const demoClientId = await new DemoClient(database.db, settings).ensure(
      config.demoClientId,
      config.publicUrl,
      { redirectUris: config.demoRedirectUris, allowedOrigins: config.demoAllowedOrigins },
    );

    // Each service gets the few services it declares it uses (its `...Dependencies`), built before it.
    const mailer = new Mailer(database.db, {
      logLevel: config.logLevel,
      deliver: smtpDelivery(config.smtpUrl, config.smtpFrom),
    });
    mailer.deliverOn(workers);
    const events = new EventBus(database.db, workers, {
      retentionMs: config.eventRetentionDays * 24 * 60 * 60 * 1000,
    });
    const store = { publicUrl: config.publicUrl, storeName: config.storeName };
    // who is staff, and whether a member may sign in: what tokens ask of staff and members, built apart
    // from the services that end sessions through tokens
    const staffAuthorities = new StaffAuthorities(database.db);
    const memberSignIns = new MemberSignIns(database.db);
    const tokens = new TokenService(database.db, signingSecret, adminKeyHash, revocations, {
      members: memberSignIns,
      staff: staffAuthorities,
    });
    const members = new MembersService(database.db, { tokens, staff: staffAuthorities }, database.dialect);
    const staff = new StaffService(
      database.db,
      { authorities: staffAuthorities, tokens, members, mailer },
      store,
    );
    const storeSettings = new StoreSettingsService(database.db, { dialect: database.dialect });
    const catalog = new CatalogService(database.db, {
      publicUrl: config.publicUrl,
      dialect: database.dialect,
      readCacheMs: config.catalogReadCacheMs,
      pageAnchorSpacing: config.pageAnchorSpacing,
    });
    const orders = new OrderService(
      database.db,
      {
        mailer,
        storeSettings,
        memberExists: async (memberId) => (await members.row(memberId)) !== undefined,
        catalog,
        recordPayment: recordOrderPayment,
      },
      { ...store, dialect: database.dialect },
    );
    const identity = new IdentityService(
      database.db,
      { settings, tokens, members, mailer, events, staff: staffAuthorities },
      { ...store, secretKey: config.secretKey },
    );
    // authenticators' secrets from before sealing, or under the database's key before CARTWHEEL_SECRET_KEY
    await identity.sealFactorSecrets();
    events.subscribe(guestOrderAdoption(orders));
    events.subscribe(orderConfirmationEmails(mailer, store));
    const webhooks = new WebhookService(
      database.db,
      { settings },
      {
        dialect: database.dialect,
        clock: workers.clock,
        policy: { allowHttpLoopback: config.webhooksAllowHttpLoopback },
        logRetentionMs: config.webhookLogRetentionDays * 24 * 60 * 60 * 1000,
        onError: (error) => workers.onError(error, 'webhook-delivery'),
      },
    );
    events.subscribe(webhooks.fanOut());
    webhooks.deliverOn(workers);
    // the commerce domains, each built from the ones above it, and the buying path over them
    const pricing = new PricingService({ catalog, storeSettings });
    const carts = new CartService(database, {
      pricing,
      catalog,
      log: pino({ level: config.logLevel, name: 'carts' }),
    });
    const checkouts = new CheckoutService(
      database.db,
      { dialect: database.dialect, ...store },
      { pricing, catalog, orders, members },
    );
    const payments = new PaymentService(
      settings,
      await openPaymentProviders(database.db, {
        providers: config.paymentProviders,
        defaultId: config.defaultPaymentProvider,
        stripe: config.stripe,
      }),
    );
    const abandonedCheckouts = new AbandonedCheckoutService(
      database.db,
      { checkouts, mailer },
      { ...store, abandonAfterMs: config.abandonedCheckoutMinutes * 60_000 },
    );
    // a completed checkout that was abandoned is recovered; the scan runs on one process at a time
    events.subscribe({
      name: 'abandoned-checkout-recovery',
      wants: { checkout: ['completed'] },
      handle: (event) => abandonedCheckouts.recover(event),
    });
    workers.add({
      name: 'abandoned-checkout-scan',
      everyMs: ABANDONED_SCAN_EVERY_MS,
      leased: true,
      run: async () => {
        await abandonedCheckouts.scan(new Date(workers.clock.now()));
      },
    });
    const subscriptions = new SubscriptionService(
      database.db,
      { orders, payments, catalog },
      { dialect: database.dialect },
    );
    // each due cycle's order made and charged, by one process at a time (and once even with several)
    workers.add({
      name: 'subscription-renewals',
      everyMs: config.subscriptionRenewalsEveryMs,
      leased: true,
      run: async () => {
        await subscriptions.renewDue(new Date(workers.clock.now()), (error) =>
          workers.onError(error, 'subscription-renewals'),
        );
      },
    });
    const backInStock = new BackInStockService(database.db, { catalog, mailer }, store);
    // any stock change the catalog announces (back office, API, an order's restock, v3 inventory)
    // notifies the requests of what came back; what failed or was left mid-way is taken again later
    events.subscribe({
      name: 'back-in-stock-notifications',
      wants: { inventory: ['updated'] },
      handle: (event) => backInStock.restocked(event),
    });
    workers.add({
      name: 'back-in-stock-retry',
      everyMs: BACK_IN_STOCK_RETRY_EVERY_MS,
      leased: true,
      run: async () => {
        await backInStock.retryDue(new Date(workers.clock.now()));
      },
    });
    const buying = new BuyingPath({ carts, checkouts, orders, payments, members, subscriptions });
    // what an order shipped: what its cancel and its refunds read, apart from the service that
    // changes fulfillments through the order operations
    const fulfillmentRecords = new FulfillmentRecords();
    const orderOperations = new OrderOperations(
      database.db,
      { mailer, catalog, fulfillments: fulfillmentRecords, payments: { authorizedPaymentIds } },
      { dialect: database.dialect, ...store },
    );
    const fulfillments = new FulfillmentService(
      database.db,
      { orders, orderOperations, records: fulfillmentRecords },
      store,
    );
    const services: Services = {
      config,
      database,
      settings,
      tokens,
      catalog,
      mailer,
      members,
      identity,
      storeSettings,
      pricing,
      carts,
      checkouts,
      checkoutTemplates: new CheckoutTemplateService(database.db, { catalog, checkouts }),
      abandonedCheckouts,
      subscriptions,
      backInStock,
      buying,
      placement: buying.placement,
      orders,
      orderOperations,
      fulfillments,
      payments,
      staff,
      apiKeys: new ApiKeyService(database.db),
      audit: new AuditLog(database.db),
      billing: new BillingService(
        database.db,
        {
          payments,
          catalog,
          fulfillments: fulfillmentRecords,
          mailer,
          orders: orderOperations.writes,
          cancels: orderOperations,
        },
        store,
      ),
      workers,
      events,
      webhooks,
    };
    // bulk member jobs a stopped process left unfinished: this one takes them over
    members.jobs.resumeOn(workers);
    workers.add({
      name: 'payment-sweep',
      everyMs: SWEEP_EVERY_MS,
      leased: true,
      run: async () => {
        await services.placement.sweep();
        // the merchant's captures, voids and refunds whose caller never came back: their money is no
        // longer held as taken
        await services.billing.sweepStarted();
      },
    });
    // the store's owner, on the first start (race-safe: several processes make one)
    const owner = await services.staff.ensureOwner({
      email: config.ownerEmail,
      password: config.ownerPassword,
    });
    return {
      services,
      adminApiKey,
      owner,
      demoClientId,
      close: async (onStep = () => {}) => {
        onStep('stopping the background jobs');
        events.unlisten();
        await workers.stop();
        await webhooks.delivery.settled();
        await services.members.jobs.close();
        onStep('stopping the token revocation reader');
        await revocations.close();
        onStep('finishing catalog anchor writes');
        await services.catalog.anchors.settled();
        onStep('closing the database');
        await database.close();
      },
    };
  } catch (error) {
    await workers.stop();
    await revocations.close();
    await database.close();
    throw error;
  }
}

function stderrNotices(config: PlatformConfig): PlatformNotices {
  const warn = (message: string) => {
    if (config.logLevel !== 'silent') console.warn(message);
  };
  return {
    connectionLost: (error) => warn(`PostgreSQL connection lost while idle: ${error.message}`),
    revocationsFailed: (error, what) => warn(`${what}: ${error.message}`),
  };
}

/**
 * The platform's HTTP app over `services`: the wire's shell, every domain's routes and the built apps,
 * not yet listening.
 */
export async function buildHttpApp(opened: OpenServices): Promise<FastifyInstance> {
  const { services, demoClientId } = opened;
  const { config } = services;
  const authorize = accessControl(services.staff);
  const app = createHttpApp({
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    // an app's API key (`cw_key_...`) is the staff domain's to look up; anything else is a token's
    resolvePrincipal: (authorization) => {
      const value = authorization?.startsWith('Bearer ') ? authorization.slice(7) : authorization;
      return value?.startsWith(API_KEY_PREFIX)
        ? services.apiKeys.resolve(value)
        : services.tokens.resolve(authorization);
    },
    authorize,
    answered: (request, statusCode) => services.audit.record(request, statusCode),
    links: new PublicLinks(config.publicUrl),
  });
  storefrontConfigRoutes(
    app,
    { clientId: demoClientId, storeName: config.storeName },
    { captcha: () => services.identity.captchaConfig() },
  );
  oauthRoutes(app, services);
  catalogRoutes(app, services);
  identityRoutes(app, services);
  memberRoutes(app, services);
  emailRoutes(app, services);
  storeSettingsRoutes(app, services);
  cartRoutes(app, services);
  checkoutRoutes(app, services);
  checkoutTemplateRoutes(app, services);
  abandonedCheckoutRoutes(app, services);
  subscriptionContractRoutes(app, services);
  backInStockRoutes(app, services);
  orderRoutes(app, services);
  orderOperationRoutes(app, services);
  orderExportRoutes(app, services);
  orderViewRoutes(app, services);
  fulfillmentRoutes(app, services);
  paymentRoutes(app, services);
  stripeWebhookRoutes(app, {
    stripeWebhooks: new StripeWebhooks(services.database.db, {
      billing: services.billing,
      checkouts: services.placement,
      providers: services.payments.providers,
      webhookSecret: services.config.stripe?.webhookSecret,
    }),
  });
  staffRoutes(app, services);
  billingRoutes(app, services);
  webhookRoutes(app, services);
  await graphqlRoutes(app, { ...services, authorize });
  await serveApps(app, config);
  return app;
}

/** Opens the store's services, seeds the demo store once, and starts listening. */
export async function startPlatform(config: PlatformConfig): Promise<Platform> {
  const notices = stderrNotices(config);
  const opened = await openServices(config, {
    connectionLost: (error) => notices.connectionLost(error),
    revocationsFailed: (error, what) => notices.revocationsFailed(error, what),
  });
  const { services } = opened;
  try {
    if (config.seedDemo) await seedDemoStore(services);

    const app = await buildHttpApp(opened);
    notices.connectionLost = (error) =>
      app.log.warn({ err: error }, 'PostgreSQL connection lost while idle; the pool opens another');
    notices.revocationsFailed = (error, what) => app.log.warn({ err: error }, `${what} failed; retrying`);
    services.workers.onError = (error, worker) =>
      app.log.warn({ err: error }, `background job ${worker} failed; its next run tries again`);

    await app.listen({ port: config.port, host: config.host });
    services.events.listen();
    services.workers.start();
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    return {
      url: `http://localhost:${port}`,
      port,
      app,
      services,
      adminApiKey: opened.adminApiKey,
      owner: opened.owner,
      demoClientId: opened.demoClientId,
      close: async (onStep = () => {}) => {
        onStep('finishing the calls under way');
        await app.close();
        await opened.close(onStep);
      },
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/**
 * How often the payment sweep runs: a charge whose answer was lost becomes an order or gives its stock
 * back, and 3-D Secure steps past their hold give theirs back, though no shopper looks at that checkout
 * again (OrderPlacement.sweep); then the merchant's captures, voids and refunds left started are
 * finished (BillingService.sweepStarted). One process of several runs it (its lease).
 */
const SWEEP_EVERY_MS = 60_000;
/** How often the abandoned-checkout scan looks for checkouts left unfinished. */
const ABANDONED_SCAN_EVERY_MS = 60_000;
/** How often failed back-in-stock notifications, and claims a stopped process left, are looked for. */
const BACK_IN_STOCK_RETRY_EVERY_MS = 60_000;

const HERE = path.dirname(fileURLToPath(import.meta.url));
/**
 * Where the built apps are when `CARTWHEEL_APPS_DIR` does not say: in this repository `apps/` (from
 * `packages/platform/{src,dist}`); in an installed `@cartwheel/platform`, the copies its tarball holds
 * in its own `apps/` folder (scripts/pack-apps.ts puts them there when it is packed).
 */
const DEFAULT_APPS =
  [path.resolve(HERE, '../../../apps'), path.resolve(HERE, '../apps')].find((dir) =>
    fs.existsSync(path.join(dir, 'storefront/dist/index.html')),
  ) ?? path.resolve(HERE, '../../../apps');

/** The paths that are an app's front page whatever the request accepts: no API call answers there. */
const APP_ROOTS = new Set(['/', '/admin', '/admin/']);

/** The storefront at `/` and the back office at `/admin`, built by Vite; any other page is the app's. */
async function serveApps(app: FastifyInstance, config: PlatformConfig): Promise<void> {
  const appsDir = config.appsDir ?? DEFAULT_APPS;
  // Longest prefix first: a page under /admin/ or /auth/ belongs to that app, anything else to the shop.
  const apps = [
    { name: 'back office', prefix: '/admin/', dir: path.join(appsDir, 'backoffice/dist') },
    { name: 'hosted pages', prefix: '/auth/', dir: path.join(appsDir, 'hosted/dist') },
    { name: 'storefront', prefix: '/', dir: path.join(appsDir, 'storefront/dist') },
  ];
  const built = (dir: string) => fs.existsSync(path.join(dir, 'index.html'));

  // The apps' files are for everyone: every route this scope adds is public (routes default to admin-only).
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, ...PLATFORM_OPERATIONS.getAppFile };
    });
    let decorated = false;
    for (const { prefix, dir } of apps.filter((candidate) => built(candidate.dir))) {
      await scope.register(fastifyStatic, {
        root: dir,
        prefix,
        decorateReply: !decorated,
        wildcard: false,
        index: false,
      });
      decorated = true;
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // a browser asks for HTML; a plain `curl /` (Accept: */* or none) gets the app at an app's root
    // too, since no call lives there. Any other path without text/html is an API call: 404 JSON.
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      ((request.headers.accept ?? '').includes('text/html') || APP_ROOTS.has(pathname));
    if (wantsPage) {
      const target = apps.find(({ prefix }) => `${pathname}/`.startsWith(prefix))!;
      if (built(target.dir)) {
        return reply.type('text/html').send(fs.createReadStream(path.join(target.dir, 'index.html')));
      }
      return reply.status(404).type('text/plain').send(`the ${target.name} is not built: run npm run build`);
    }
    return reply.status(404).send({
      message: `no such call: ${request.method} ${request.url.split('?')[0]}`,
      details: { applicationError: { code: 'NOT_FOUND', description: 'no such call' } },
    });
  });
}
