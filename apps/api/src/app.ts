import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Database } from '@app/db';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { App } from './lib/app-types';
import { hasPermission } from './lib/context';
import { createEventBus, type EventBus } from './lib/events/index';
import { BODY_LIMIT_BYTES } from './lib/limits';
import { PublicReadCache } from './lib/public-cache';
import { redactingLogger } from './lib/redact';
import { createSecretBox, parseSecretsKey } from './lib/secret-box';
import { addressesPages, addressesRoutes, createAddressesService } from './modules/addresses/index';
import { auditRoutes, createAuditService } from './modules/audit/index';
import { authPages, authRoutes, createActorResolver, createAuthService } from './modules/auth/index';
import { bannersPages, bannersRoutes, createBannersService } from './modules/banners/index';
import { cancelRequestPages, cancelRequestRoutes, createCancelRequestService } from './modules/cancel-request/index';
import { cartPages, cartRoutes, createCartService, guestCartToken, mergeGuestCartOnLogin } from './modules/cart/index';
import { catalogRoutes, createCatalogService } from './modules/catalog/index';
import { catalogAdminPages, catalogAdminRoutes, createCatalogAdminService } from './modules/catalog-admin/index';
import {
  checkoutPages,
  checkoutRoutes,
  createCheckoutService,
  createCheckoutTables,
  registerPayPalHousekeeping,
  registerStuckOrderSweep,
} from './modules/checkout/index';
import { cmsPages, cmsRoutes, createCmsService } from './modules/cms/index';
import {
  contactInboxPages,
  contactInboxRoutes,
  contactPages,
  contactRoutes,
  createContactInboxService,
  createContactService,
} from './modules/contact/index';
import { createCustomersService, customersPages, customersRoutes } from './modules/customers/index';
import { createDashboardService, dashboardPages, dashboardRoutes } from './modules/dashboard/index';
import { createDraftsService, draftsPages, draftsRoutes } from './modules/drafts/index';
import { healthRoutes } from './modules/health/index';
import { createInventoryService, createThresholds, inventoryPages, inventoryRoutes } from './modules/inventory/index';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './modules/jobs/index';
import { createMailer, createMailQueue, type Mailer, mailboxRoutes } from './modules/mail/index';
import { createMarketplaceService, marketplacePages, marketplaceRoutes } from './modules/marketplace/index';
import {
  createDiskStorage,
  createMediaService,
  type MediaObject,
  mediaPages,
  mediaRoutes,
  mediaUploadRoutes,
} from './modules/media/index';
import { createNewsletterService, newsletterPages, newsletterRoutes } from './modules/newsletter/index';
import { createOrderAdminService, orderAdminPages, orderAdminRoutes } from './modules/order-admin/index';
import { createOrderListService, orderListPages, orderListRoutes } from './modules/order-list/index';
import {
  createInvoiceRenderer,
  createOrderRefunds,
  createOrdersService,
  ordersPages,
  ordersRoutes,
} from './modules/orders/index';
import {
  cardsPages,
  cardsRoutes,
  createCardsService,
  createPayPalClient,
  createTestPaymentProvider,
  type PaymentProvider,
} from './modules/payments/index';
import {
  createPaymentAccounts,
  createPaypalConfigService,
  createSellerOnboarding,
  paypalConfigPages,
  paypalConfigRoutes,
  paypalSellerPages,
  paypalSellerRoutes,
} from './modules/paypal-seller/index';
import {
  createPaymentIssuesService,
  createPayPalWebhookService,
  paymentIssuesPages,
  paypalWebhookRoutes,
} from './modules/paypal-webhooks/index';
import { createProductAdminService, productAdminPages, productAdminRoutes } from './modules/product-admin/index';
import { createProductImportService, productImportPages, productImportRoutes } from './modules/product-import/index';
import { createProductListService, productListPages, productListRoutes } from './modules/product-list/index';
import { catalogPages, createProductsService, productsRoutes } from './modules/products/index';
import { createPromotionsService, promotionsPages, promotionsRoutes } from './modules/promotions/index';
import { createReturnAdminService, returnAdminPages, returnAdminRoutes } from './modules/return-admin/index';
import { createReturnsService, orderReturns, returnsPages, returnsRoutes } from './modules/returns/index';
import {
  createReviewAdminService,
  createReviewsService,
  reviewAdminPages,
  reviewAdminRoutes,
  reviewsPages,
  reviewsRoutes,
} from './modules/reviews/index';
import { createSitemapService, sitemapPages, sitemapRoutes } from './modules/sitemap/index';
import { createStaffService, staffPages, staffRoutes } from './modules/staff/index';
import { createStoreService, forgetStoreIdentity, shellPages, storeRoutes } from './modules/store/index';
import { createStoreSettingsService, storeSettingsPages, storeSettingsRoutes } from './modules/store-settings/index';
import { registerPages } from './modules/storefront/index';
import {
  createStoreVisibilityService,
  createTenantService,
  privateStore,
  tenantAccessRoutes,
  tenantRoutes,
} from './modules/tenant/index';
import { carryWishlistItem, createWishlistService, wishlistPages, wishlistRoutes } from './modules/wishlist/index';
import costlyRoutes from './plugins/costly-routes';
import errors from './plugins/errors';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors';
import inputGuards from './plugins/input-guards';
import openapi from './plugins/openapi';
import requestContext from './plugins/request-context';
import { requestIdFor } from './plugins/request-id';
import { securityHeadersPlugin } from './plugins/security-headers';
import tenancy from './plugins/tenancy';

export interface BuildOptions {
  config: Pick<Config, 'DATA_DIR' | 'DEV_TENANT_ID' | 'LOG_LEVEL' | 'TRUST_PROXY' | 'NODE_ENV'> &
    Partial<
      Pick<
        Config,
        | 'CHAT_WIDGET_URL'
        | 'PLATFORM_NAME'
        | 'SMTP_URL'
        | 'MAIL_FROM'
        | 'PUBLIC_SCHEME'
        | 'PUBLIC_PORT'
        | 'PAYPAL_BASE_URL'
        | 'PAYPAL_CLIENT_ID'
        | 'PAYPAL_CLIENT_SECRET'
        | 'PAYPAL_PARTNER_ID'
        | 'PAYPAL_BN_CODE'
        | 'PAYPAL_WEBHOOK_ID'
        | 'SECRETS_KEY'
        | 'SEARCH_INDEX_MEMORY_MB'
        | 'SEARCH_INDEX_TTL_SECONDS'
        | 'PUBLIC_CACHE_SECONDS'
        | 'PRODUCT_PAGES_IN_MEMORY'
        | 'PORT'
        | 'SESSION_SECRET'
        | 'STUCK_ORDER_MINUTES'
        | 'NIGHTLY_JOBS_AT'
        | 'JOB_RETENTION_DAYS'
        | 'LOGIN_ATTEMPTS_PER_IP'
        | 'INVOICE_PDF_WORKERS'
        | 'INVOICE_PDF_QUEUE'
        | 'STORE_PDF_CONCURRENCY'
        | 'STORE_SEARCH_CONCURRENCY'
        | 'STORE_COSTLY_QUEUE'
        | 'STORE_SEARCH_QUEUE'
      >
    >;
  database: Database;
  /** Generates media that is missing but derivable (the demo seed's images). */
  generateMedia?: (key: string) => Promise<MediaObject | null>;
  logger?: FastifyServerOptions['logger'];
  /** The storefront's build (apps/web/build); its pages are served after every API route. */
  webBuildDir?: string;
  /** Outgoing mail's transport; by default SMTP_URL, else .eml files in DATA_DIR/outbox. */
  mailer?: Mailer;
  /** The job worker's timing (tests poll and retry faster); `startupSweepDelayMs` null: no sweep at start. */
  jobs?: Partial<Pick<JobRunnerOptions, 'pollMs' | 'leaseMs' | 'retryBaseMs' | 'concurrency'>> & {
    startupSweepDelayMs?: number | null;
  };
  /** Sitemap regeneration after changes at most once per this many ms (default 5 min); URLs per file (tests). */
  sitemap?: { debounceMs?: number; maxUrlsPerFile?: number };
  /** The card payment provider; by default the built-in test provider. */
  paymentProvider?: PaymentProvider;
  /** Extra routes registered before the pages (tests). */
  extraRoutes?: (app: App) => Promise<void>;
  /** How long a client may take to send a whole request; 30 s unless a test needs a short one. */
  requestTimeoutMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    publicCache: PublicReadCache;
    events: EventBus;
    tenants: import('./modules/tenant/index').TenantService;
    jobs: JobRunner;
    /** Sends newsletter issues (no route yet: the dashboard's customers area will start them). */
    newsletter: import('./modules/newsletter/index').NewsletterService;
    /** Drafts of look and content; a kind registers here (tests register their own). */
    drafts: import('./modules/drafts/index').DraftsService;
    /** The catalog reads; tests and benches read its search index counters (builds, patches). */
    products: import('./modules/products/index').ProductsService;
    /** Refunds of orders (modules/orders); tests settle pending ones through it. */
    refunds: import('./modules/orders/index').OrderRefunds;
    /** Whose PayPal account each store pays into (decision 049); tests connect stores through it. */
    paymentAccounts: import('./modules/paypal-seller/index').PaymentAccounts;
    /** A store's PayPal seller onboarding; PayPal's onboarding webhook confirms through it. */
    sellerOnboarding: import('./modules/paypal-seller/index').SellerOnboarding;
    /** Seals owner-entered secrets; tests check what is stored is sealed. */
    secrets: import('./lib/secret-box').SecretBox;
    /** Checkout (modules/checkout); tests call its page functions with it. */
    checkout: import('./modules/checkout/index').CheckoutService;
  }
}

export const PLATFORM_PATHS = ['/api/docs'];

/** Builds the whole server without listening, so tests drive it with `inject`. */
export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config, database } = opts;
  const requestTimeout = opts.requestTimeoutMs ?? 30_000;
  const app = Fastify({
    logger: redactingLogger(
      opts.logger ?? {
        level: config.LOG_LEVEL,
        redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      },
    ),
    genReqId: requestIdFor,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify waits forever by default; a slow client must not hold a socket. Node 20 applies
    // requestTimeout to a body that never ends only when the server is created with it (Fastify sets
    // it afterwards), and looks for overdue requests every connectionsCheckingInterval (30 s default).
    requestTimeout,
    http: {
      requestTimeout,
      connectionsCheckingInterval: Math.max(10, Math.min(10_000, Math.floor(requestTimeout / 3))),
    },
    connectionTimeout: 60_000,
    keepAliveTimeout: 72_000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  await app.register(errors);
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { 1: 4 } } });
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        formAction: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  // After helmet: a refusal in an onRequest hook skips the hooks after it.
  await app.register(inputGuards);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 20, fieldSize: 16 * 1024, files: 0, parts: 20 },
  });
  await app.register(openapi);

  const events = createEventBus({ database, log: app.log });
  app.addHook('onClose', async () => events.close());
  const tenants = createTenantService(database.db, {
    devTenantId: config.DEV_TENANT_ID,
    production: config.NODE_ENV === 'production',
  });
  const audit = createAuditService(database.db);
  // The store's low-stock threshold: the dashboard, the inventory and the storefront's "only N left".
  const thresholds = createThresholds(database.db);
  const inventory = createInventoryService(database.db, { audit, events }, thresholds);
  const promotions = createPromotionsService(database.db, { audit });
  // Look-and-content kinds (theme, banners, pages, details) register with it where they are built.
  const drafts = createDraftsService(database.db, { audit, events });
  const dashboard = createDashboardService(database.db, {
    cleanupAfterMinutes: config.STUCK_ORDER_MINUTES,
    lowStockThreshold: thresholds.get,
    // The home lists the latest entries to those who may read the log (the settings permission).
    async recentActivity(ctx, limit) {
      if (!hasPermission(ctx, 'settings')) return null;
      const { entries } = await audit.list(ctx, { limit });
      return entries.map((e) => ({
        id: e.id,
        createdAt: e.at,
        actor: {
          userId: e.actor.kind === 'system' ? null : e.actor.id,
          name: e.actor.name ?? e.actor.email ?? e.actor.id ?? 'Someone',
        },
        entity: e.entity,
        entityId: e.entityId,
        action: e.action,
        changes: e.changes,
      }));
    },
  });
  const cache = new PublicReadCache((config.PUBLIC_CACHE_SECONDS ?? 30) * 1000);
  const store = createStoreService(database.db);
  // CMS pages are drafts of kind `page` (decision 034); building the service registers the kind.
  const cms = createCmsService(database.db, { drafts, audit, events });
  // The theme and details draft kinds register with the drafts service here (decision 033).
  const storeSettings = createStoreSettingsService(database.db, { drafts });
  const storePreview = {
    details: storeSettings.overlayDetails,
    config: storeSettings.overlayConfig,
    seo: storeSettings.overlaySeo,
  };
  const catalog = createCatalogService(database.db);
  const products = createProductsService(database.db, {
    lowStockThreshold: thresholds.get,
    productPagesInMemory: config.PRODUCT_PAGES_IN_MEMORY ?? 5_000,
    searchIndex: {
      budgetBytes: (config.SEARCH_INDEX_MEMORY_MB ?? 512) * 2 ** 20,
      ttlMs: (config.SEARCH_INDEX_TTL_SECONDS ?? 60) * 1000,
    },
  });
  const storage = createDiskStorage(`${config.DATA_DIR}/media`);
  const media = createMediaService(database.db, { storage, audit });
  const banners = createBannersService(database.db, { drafts, media, tenants });
  const productAdmin = createProductAdminService(database.db, { audit, events, media, storage });
  drafts.register(banners.kind);
  // Long work and mail run as database-backed jobs (decision 017); the worker starts when the app is ready.
  const { startupSweepDelayMs, ...jobTiming } = opts.jobs ?? {};
  const jobs = createJobRunner(database.db, {
    log: app.log,
    linkOrigin: (host) => linkOrigin(host),
    retentionDays: config.JOB_RETENTION_DAYS ?? 7,
    ...jobTiming,
  });
  const transport =
    opts.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM ?? 'Storefront Platform <no-reply@storefront.localhost>',
      outboxDir: `${config.DATA_DIR}/outbox`,
    });
  const mailer = createMailQueue(jobs, transport);
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => {
    await jobs.stop();
    transport.close();
  });
  const contact = createContactService(database.db, { mailer, store, log: app.log });
  const addresses = createAddressesService(database.db);
  const cards = createCardsService(database.db, opts.paymentProvider ?? createTestPaymentProvider());
  // Tests make many failed logins on purpose; waiting out the slow-down would only make them slow.
  const production = config.NODE_ENV === 'production';
  const linkScheme = config.PUBLIC_SCHEME ?? (production ? 'https' : 'http');
  const linkPort = config.PUBLIC_PORT ?? (production ? undefined : config.PORT);
  const linkOrigin = (host: string) =>
    `${linkScheme}://${host}${linkPort && linkPort !== 80 && linkPort !== 443 ? `:${linkPort}` : ''}`;
  // loadConfig always provides one; a test app without it signs with a secret of its own.
  const sessionSecret = config.SESSION_SECRET ?? randomBytes(32).toString('base64url');
  const auth = createAuthService(database.db, {
    mailer,
    store,
    log: app.log,
    secret: sessionSecret,
    slowDown: config.NODE_ENV !== 'test',
    loginPerIp: config.LOGIN_ATTEMPTS_PER_IP,
    linkOrigin,
  });
  // Store access (decision 027): who sees the store, and who is on its staff.
  const visibility = createStoreVisibilityService(database.db, { events, audit });
  const staff = createStaffService(database.db, { events, audit, mailer, visibility, linkOrigin });
  const newsletter = createNewsletterService(database.db, { mailer, secret: sessionSecret, linkOrigin });
  const cart = createCartService(database.db, { products });
  const wishlist = createWishlistService(database.db, { cart, lowStockThreshold: thresholds.get });
  const orders = createOrdersService(database.db, { secret: sessionSecret, returnsOf: orderReturns });
  // Invoices render in worker threads, off the event loop every store shares (decision 024).
  const invoices = createInvoiceRenderer({ workers: config.INVOICE_PDF_WORKERS, queue: config.INVOICE_PDF_QUEUE });
  app.addHook('onClose', async () => invoices.close());
  // Started with the server so the first invoice does not wait for a worker to compile; tests start them on use.
  if (config.NODE_ENV !== 'test') app.addHook('onReady', async () => invoices.warm());
  const paypal =
    config.PAYPAL_BASE_URL && config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET
      ? createPayPalClient({
          baseUrl: config.PAYPAL_BASE_URL,
          clientId: config.PAYPAL_CLIENT_ID,
          clientSecret: config.PAYPAL_CLIENT_SECRET,
          partnerAttributionId: config.PAYPAL_BN_CODE,
        })
      : undefined;
  // Secrets owners enter are sealed under SECRETS_KEY (decision 049); config.ts requires it in
  // production and generates one in DATA_DIR elsewhere. An app built without one (tests) derives one.
  const secretsKey =
    (config.SECRETS_KEY && parseSecretsKey(config.SECRETS_KEY)) ||
    createHash('sha256').update(`secrets-key:${sessionSecret}`).digest();
  const secrets = createSecretBox(secretsKey);
  // Whose PayPal account each store's checkout pays into: its own app, its connected seller account, or none.
  const paymentAccounts = createPaymentAccounts(database.db, {
    platform: paypal,
    platformBaseUrl: config.PAYPAL_BASE_URL,
    partnerId: config.PAYPAL_PARTNER_ID,
    partnerAttributionId: config.PAYPAL_BN_CODE,
    secrets,
  });
  events.on('payments.changed', ({ tenantId }) => paymentAccounts.forget(tenantId));
  const sellerOnboarding = createSellerOnboarding(database.db, { paymentAccounts, audit, events });
  // PP_CONFIG (decision 051): PayPal on or off per store, and a store's own PayPal app.
  const paypalConfig = createPaypalConfigService(database.db, {
    audit,
    events,
    secrets,
    platformBaseUrl: config.PAYPAL_BASE_URL,
    defaultEnvironment: paymentAccounts.environment,
  });
  const checkoutTables = createCheckoutTables(database.db);
  const checkout = createCheckoutService(database.db, {
    tables: checkoutTables,
    paymentAccounts,
    addresses,
    cart,
    orders,
    cards,
    mailer,
    log: app.log,
    linkOrigin,
    events,
  });
  // The one way money goes back to a shopper (order actions, cancels, returns): modules/orders.
  const refunds = createOrderRefunds(database.db, { provider: cards.provider, paymentAccounts, audit, events });
  // The store side of one order: its page and actions (fulfil, deliver, cancel, refund, invoice).
  const orderAdmin = createOrderAdminService(database.db, {
    refunds,
    orders,
    audit,
    events,
    mailer,
    store,
    invoices,
    linkOrigin,
  });
  registerStuckOrderSweep(database.db, {
    jobs,
    checkout,
    orders,
    paymentAccounts,
    log: app.log,
    afterMinutes: config.STUCK_ORDER_MINUTES,
    dailyAtUtc: config.NIGHTLY_JOBS_AT,
    startupDelayMs: startupSweepDelayMs,
    events,
  });
  // PayPal's webhooks and the payments they report that match no order (decision 053).
  const paymentIssues = createPaymentIssuesService(database.db, { audit });
  // PayPal checkouts the shopper never came back from: closed, or flagged when PayPal has the money.
  registerPayPalHousekeeping(database.db, {
    jobs,
    paymentAccounts,
    issues: paymentIssues,
    log: app.log,
    dailyAtUtc: config.NIGHTLY_JOBS_AT,
    startupDelayMs: startupSweepDelayMs,
  });
  const paypalWebhooks = createPayPalWebhookService(database.db, {
    paymentAccounts,
    webhookId: config.PAYPAL_WEBHOOK_ID,
    platformBaseUrl: config.PAYPAL_BASE_URL,
    events,
    issues: paymentIssues,
    orders,
    checkout,
    log: app.log,
    linkOrigin,
    onboarding: () => sellerOnboarding,
  });
  const returns = createReturnsService(database.db, { orders, mailer, log: app.log, linkOrigin });
  const returnAdmin = createReturnAdminService(database.db, {
    audit,
    events,
    mailer,
    refunds,
    orders,
    log: app.log,
    linkOrigin,
  });
  const reviews = createReviewsService(database.db, { events });
  const reviewAdmin = createReviewAdminService(database.db, { audit, events });
  const inbox = createContactInboxService(database.db, { audit, mailer, store });
  const sitemap = createSitemapService(database.db, {
    jobs,
    events,
    audit,
    log: app.log,
    linkOrigin,
    dailyAtUtc: config.NIGHTLY_JOBS_AT,
    ...opts.sitemap,
  });
  // Marketplace connect and each store's product feed (decision 054); feed URL tokens are signed
  // with a key of their own derived from SECRETS_KEY.
  const marketplace = createMarketplaceService(database.db, {
    audit,
    events,
    secrets,
    log: app.log,
    isPublic: (tenantId) => tenants.isPublic(tenantId),
    linkOrigin,
    feedKey: createHmac('sha256', secretsKey).update('product-feed-url').digest(),
    cacheDir: `${config.DATA_DIR}/feeds`,
  });
  const cancelRequests = createCancelRequestService(database.db, { events, audit, mailer });
  const catalogAdmin = createCatalogAdminService(database.db, { audit, events, media, tenants });
  const productList = createProductListService(database.db, { audit, events, jobs });
  const orderList = createOrderListService(database.db, { audit });
  const customers = createCustomersService(database.db, { audit, auth });
  const productImports = createProductImportService(database.db, {
    jobs,
    events,
    audit,
    dataDir: config.DATA_DIR,
    log: app.log,
  });
  // Writers emit; the caches and the search index follow, in this process and the others (decision 018).
  events.on('catalog.changed', ({ tenantId, productIds, categoryIds }) => {
    thresholds.forget(tenantId);
    cache.invalidateTenant(tenantId);
    products.catalogChanged(tenantId, { productIds, categoryIds });
  });
  events.on('stock.changed', ({ tenantId, productIds }) => {
    cache.invalidateTenant(tenantId);
    products.stockChanged(tenantId, productIds);
  });
  events.on('review.created', ({ tenantId, productId }) => {
    cache.invalidateTenant(tenantId);
    products.reviewsChanged(tenantId, productId);
  });
  events.on('review.changed', ({ tenantId, productId }) => {
    cache.invalidateTenant(tenantId);
    products.reviewsChanged(tenantId, productId);
  });
  events.on('settings.changed', ({ tenantId }) => {
    thresholds.forget(tenantId);
    checkoutTables.forget(tenantId);
    forgetStoreIdentity(database.db, tenantId);
    cache.invalidateTenant(tenantId);
    tenants.invalidate();
  });
  events.on('events.missed', () => {
    thresholds.clear();
    checkoutTables.clear();
    forgetStoreIdentity(database.db);
    cache.clear();
    products.allChanged();
    tenants.invalidate();
  });
  await events.start();
  app.decorate('publicCache', cache);
  app.decorate('events', events);
  app.decorate('tenants', tenants);
  app.decorate('jobs', jobs);
  app.decorate('newsletter', newsletter);
  app.decorate('drafts', drafts);
  app.decorate('products', products);
  app.decorate('refunds', refunds);
  app.decorate('checkout', checkout);
  app.decorate('paymentAccounts', paymentAccounts);
  app.decorate('sellerOnboarding', sellerOnboarding);
  app.decorate('secrets', secrets);
  await app.register(tenancy, { tenants, platformPaths: PLATFORM_PATHS });
  // Between tenancy and the request context: a costly route's store slot is taken before the session
  // lookup, so a flooded request waits or is refused before it costs anything more (decision 024).
  const storeQueue = config.STORE_COSTLY_QUEUE ?? 32;
  await app.register(costlyRoutes, {
    limits: {
      pdf: { concurrency: config.STORE_PDF_CONCURRENCY ?? 1, queue: storeQueue },
      search: { concurrency: config.STORE_SEARCH_CONCURRENCY ?? 2, queue: config.STORE_SEARCH_QUEUE ?? 256 },
      // An upload is seconds of sharp work at most; a short queue, as a waiting upload holds its body.
      upload: { concurrency: 1, queue: 8 },
    },
  });
  const resolveActor = createActorResolver(auth, { guestCartToken });
  await app.register(requestContext, { resolveActor, csrf: auth.csrf });
  // A private store's API is closed to visitors before any handler or read cache runs.
  await app.register(privateStore, { tenants });

  await app.register(healthRoutes, { ping: () => database.ping() });
  await app.register(tenantAccessRoutes, { visibility });
  await app.register(staffRoutes, { staff });
  await app.register(tenantRoutes, { tenants, cancelRequestState: (tenantId) => cancelRequests.state(tenantId) });
  await app.register(storeRoutes, { store, tenants, cache, preview: storePreview });
  await app.register(storeSettingsRoutes, { settings: storeSettings });
  await app.register(cmsRoutes, { cms, tenants, cache });
  await app.register(catalogRoutes, { catalog, tenants, cache });
  await app.register(contactRoutes, { contact });
  await app.register(newsletterRoutes, { newsletter });
  await app.register(authRoutes, { auth, afterLogin: mergeGuestCartOnLogin(cart) });
  await app.register(addressesRoutes, { addresses });
  await app.register(cardsRoutes, { cards });
  await app.register(cartRoutes, { cart });
  await app.register(wishlistRoutes, { wishlist, cart });
  await app.register(checkoutRoutes, { checkout, addresses, cards });
  await app.register(ordersRoutes, { orders, store, cart, invoices });
  await app.register(returnsRoutes, { returns });
  await app.register(returnAdminRoutes, { returnAdmin });
  await app.register(reviewsRoutes, { reviews });
  await app.register(reviewAdminRoutes, { reviewAdmin });
  await app.register(contactInboxRoutes, { inbox });
  await app.register(auditRoutes, { audit });
  await app.register(dashboardRoutes, { dashboard });
  await app.register(draftsRoutes, { drafts });
  await app.register(sitemapRoutes, { sitemap });
  await app.register(marketplaceRoutes, { marketplace });
  await app.register(cancelRequestRoutes, { cancelRequests });
  await app.register(catalogAdminRoutes, { catalogAdmin });
  // The dev mailbox shows the outbox; in production mail leaves by SMTP and this page does not exist.
  if (config.NODE_ENV !== 'production' && !config.SMTP_URL && !opts.mailer) {
    await app.register(mailboxRoutes, { outboxDir: `${config.DATA_DIR}/outbox` });
  }
  await app.register(productsRoutes, { products, cache, storage, generate: opts.generateMedia });
  await app.register(mediaRoutes, { storage, generate: opts.generateMedia });
  await app.register(mediaUploadRoutes, { media });
  await app.register(bannersRoutes, { banners });
  await app.register(productAdminRoutes, { productAdmin });
  await app.register(inventoryRoutes, { inventory });
  await app.register(promotionsRoutes, { promotions });
  await app.register(orderAdminRoutes, { orderAdmin });
  await app.register(productListRoutes, { productList });
  await app.register(orderListRoutes, { orderList });
  await app.register(customersRoutes, { customers });
  await app.register(productImportRoutes, { imports: productImports });
  await app.register(paypalSellerRoutes, { onboarding: sellerOnboarding, csrf: auth.csrf });
  await app.register(paypalConfigRoutes, { paypalConfig });
  await app.register(paypalWebhookRoutes, { webhooks: paypalWebhooks, issues: paymentIssues });
  if (opts.extraRoutes) await opts.extraRoutes(app);
  if (opts.webBuildDir) {
    const mergeGuestCart = mergeGuestCartOnLogin(cart);
    const carryWishlist = carryWishlistItem(wishlist);
    await registerPages(app, {
      buildDir: opts.webBuildDir,
      resolveActor,
      csrf: auth.csrf,
      cache,
      store,
      chatWidgetUrl: config.CHAT_WIDGET_URL ?? 'https://embed.tawk.to',
      // PayPal's approval page is https; a local stand-in is http and must be named for the no-JS form post.
      formActionOrigins: config.PAYPAL_BASE_URL?.startsWith('http:') ? [new URL(config.PAYPAL_BASE_URL).origin] : [],
      modules: [
        shellPages({
          store,
          cms,
          catalog,
          tenants,
          chatWidgetUrl: config.CHAT_WIDGET_URL ?? 'https://embed.tawk.to',
          platformName: config.PLATFORM_NAME ?? 'Storefront Platform',
          preview: storePreview,
          previewBanners: (ctx) => banners.preview(ctx),
        }),
        catalogPages({ products }),
        authPages({
          auth,
          async afterLogin(page, userId, carried) {
            const cookies = await mergeGuestCart(page.ctx, page.headers, userId);
            await carryWishlist(page.ctx, userId, carried.wishlistProductId);
            return cookies;
          },
        }),
        cartPages({ cart, orders }),
        checkoutPages({ checkout, addresses, cards }),
        ordersPages({ orders }),
        returnsPages({ returns }),
        returnAdminPages({ returnAdmin }),
        reviewsPages({ reviews }),
        reviewAdminPages({ reviewAdmin }),
        contactInboxPages({ inbox }),
        wishlistPages({ wishlist }),
        contactPages({ contact }),
        newsletterPages({ newsletter }),
        addressesPages({ addresses }),
        cardsPages({ cards, addresses }),
        dashboardPages({ dashboard }),
        draftsPages({ drafts }),
        bannersPages({ banners, drafts }),
        inventoryPages({ inventory }),
        orderAdminPages({ orderAdmin }),
        mediaPages({ media }),
        staffPages({ staff, visibility }),
        sitemapPages({ sitemap }),
        marketplacePages({ marketplace }),
        productImportPages({ imports: productImports }),
        cancelRequestPages({ cancelRequests }),
        catalogAdminPages({ catalogAdmin }),
        cmsPages({ cms, drafts }),
        storeSettingsPages({ settings: storeSettings, drafts }),
        productAdminPages({ productAdmin }),
        productListPages({ productList }),
        promotionsPages({ db: database.db, promotions }),
        orderListPages({ orderList }),
        customersPages({ customers }),
        paypalSellerPages({ onboarding: sellerOnboarding }),
        paypalConfigPages({ paypalConfig }),
        paymentIssuesPages({ issues: paymentIssues }),
      ],
    });
  }
  return app;
}
