import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App } from './lib/app-types';
import { BODY_LIMIT_BYTES } from './lib/limits';
import { type AllServices, type BuildOptions, bootModules } from './lib/module';
import { createPlatform } from './lib/platform';
import { platformHostOf } from './lib/platform-host';
import { redactingLogger } from './lib/redact';
import { MODULES } from './modules/registry';
import { storeLifecycleGate } from './modules/store-lifecycle/index';
import { registerPages } from './modules/storefront/index';
import { privateStore } from './modules/tenant/index';
import costlyRoutes from './plugins/costly-routes';
import errors from './plugins/errors';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors';
import inputGuards from './plugins/input-guards';
import openapi from './plugins/openapi';
import requestContext from './plugins/request-context';
import { requestIdFor } from './plugins/request-id';
import { securityHeadersPlugin } from './plugins/security-headers';
import tenancy from './plugins/tenancy';

export type { BuildOptions } from './lib/module';

export const PLATFORM_PATHS = ['/api/docs'];

/** Builds the whole server without listening, so tests drive it with `inject`. */
export async function buildApp(opts: BuildOptions): Promise<App> {
  return (await buildAppWithServices(opts)).app;
}

/**
 * The server and its modules' services: tests and benches reach the services through this
 * (the job runner, the event bus, refunds ...) instead of through the app.
 */
export async function buildAppWithServices(opts: BuildOptions): Promise<{ app: App; services: AllServices }> {
  const { config } = opts;
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

  // The modules (modules/registry.ts): their services, event handlers and jobs, then their routes below.
  const platform = createPlatform(app, opts);
  const booted = await bootModules(app, platform, MODULES, opts.modules);
  const services = booted.services;
  await platform.events.start();

  await app.register(tenancy, {
    tenants: services.tenants,
    platformPaths: PLATFORM_PATHS,
    stateOf: services.storeLifecycle.stateOf,
  });
  if (platform.stores.names().length > 1) {
    // Several databases (decision 123): the rest of the request runs in its store's context, so the
    // services' queries go to the store's database; a write waits while a move holds the store's writes.
    await platform.stores.reload();
    const ended = Symbol('store request ended');
    type Tracked = { [ended]?: () => void };
    app.addHook('onRequest', (req, _reply, done) => {
      if (!req.tenantCtx) return done();
      const write = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS';
      (req as unknown as Tracked)[ended] = platform.stores.enterRequest(req.tenantCtx.tenantId, write, done).ended;
    });
    const end = async (req: unknown) => (req as Tracked)[ended]?.();
    app.addHook('onResponse', end);
    app.addHook('onRequestAbort', end);
  }
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
  await app.register(requestContext, { resolveActor: services.resolveActor, csrf: services.auth.csrf });
  // A store that is not active answers as its lifecycle state says, before anything else (decision 099).
  await app.register(storeLifecycleGate);
  // A private store's API is closed to visitors before any handler or read cache runs.
  await app.register(privateStore, { tenants: services.tenants });
  await booted.registerRoutes();
  if (opts.extraRoutes) await opts.extraRoutes(app);
  if (opts.webBuildDir) {
    await registerPages(app, {
      buildDir: opts.webBuildDir,
      resolveActor: services.resolveActor,
      csrf: services.auth.csrf,
      cache: platform.publicCache,
      store: services.store,
      tenants: services.tenants,
      chatWidgetUrl: config.CHAT_WIDGET_URL ?? 'https://embed.tawk.to',
      // PayPal's approval page is https; a local stand-in is http and must be named for the no-JS form post.
      formActionOrigins: config.PAYPAL_BASE_URL?.startsWith('http:') ? [new URL(config.PAYPAL_BASE_URL).origin] : [],
      modules: booted.pages(),
      stateOf: services.storeLifecycle.stateOf,
      lifecyclePage: services.lifecyclePage,
      platformModules: booted.platformPages(),
      platformHost: platformHostOf(config),
    });
  }
  return { app, services };
}
