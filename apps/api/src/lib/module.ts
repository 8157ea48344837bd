import type { Database, Db } from '@app/db';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Config } from '../config';
import type { App } from './app-types';
import type { EventBus, EventHandler, EventName } from './events/index';
import type { MemoryBudget } from './memory-budget';
import type { PageModule, PlatformPageModule } from './page-request';
import type { PublicReadCache } from './public-cache';
import type { SecretBox } from './secret-box';
import type { StoreDatabases } from './store-databases';

/**
 * What each module provides, by module name. Every `modules/<name>/<name>.module.ts` adds its own
 * entry (`declare module '../../lib/module' { interface ModuleServices { ... } }`), so a module's
 * dependencies are typed without it importing the modules it depends on, or the registry.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each module
export interface ModuleServices {}
export type ModuleName = keyof ModuleServices;

/**
 * What the app is built with. Options only one module reads (the mailer, the payment provider,
 * the job timing ...) are declared by that module, next to its services, the same way.
 */
export interface BuildOptions {
  config: Pick<Config, 'DATA_DIR' | 'DEV_TENANT_ID' | 'LOG_LEVEL' | 'TRUST_PROXY' | 'NODE_ENV'> &
    Partial<
      Pick<
        Config,
        | 'CHAT_WIDGET_URL'
        | 'PLATFORM_NAME'
        | 'PLATFORM_HOST'
        | 'PLATFORM_DOMAIN'
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
        | 'STRIPE_BASE_URL'
        | 'SECRETS_KEY'
        | 'SEARCH_INDEX_MEMORY_MB'
        | 'STORE_MEMORY_MB'
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
        | 'UPS_BASE_URL'
        | 'DNS_RESOLVER'
        | 'DOMAIN_CNAME_TARGET'
        | 'DOMAIN_A_TARGET'
        | 'DOMAIN_AAAA_TARGET'
        | 'FEDEX_BASE_URL'
      >
    >;
  database: Database;
  /**
   * The other PostgreSQL databases stores may live on, by name (`STORE_DATABASES`, decision 123);
   * opened and migrated by the caller. None: every store is on `database`.
   */
  storeDatabases?: Record<string, Database>;
  logger?: FastifyServerOptions['logger'];
  /** The storefront's build (apps/web/build); its pages are served after every API route. */
  webBuildDir?: string;
  /** Extra routes registered before the pages (tests). */
  extraRoutes?: (app: App) => Promise<void>;
  /** How long a client may take to send a whole request; 30 s unless a test needs a short one. */
  requestTimeoutMs?: number;
  /**
   * Only these modules (and those they need) are booted; all of them by default. The tenant and
   * auth modules are always booted: every request resolves its store and who acts.
   */
  modules?: readonly ModuleName[];
}

/** What every module can use without naming it: the database, the settings, the bus and the caches. */
export interface Platform {
  /** Queries go to the database of the store the current request or job serves (decision 123). */
  db: Db;
  database: Database;
  /** Which database holds each store, the write gate a move holds, the router behind `db`. */
  stores: StoreDatabases;
  config: BuildOptions['config'];
  /** The build's other options (the mailer, payment provider, job timing, ... a test swaps in). */
  options: Omit<BuildOptions, 'config' | 'database'>;
  log: FastifyBaseLogger;
  events: EventBus;
  /** Public reads cached per store (decision 018); emptied on the events that change them. */
  publicCache: PublicReadCache;
  /** The one memory budget of everything kept per store (decision 124); caches open accounts on it. */
  memory: MemoryBudget;
  /** An absolute link to a store's host, as mail and feeds write it. */
  linkOrigin: (host: string) => string;
  /** Signs sessions, confirmation links and order tokens. */
  sessionSecret: string;
  /** The key owner-entered secrets are sealed under (decision 049); other keys derive from it. */
  secretsKey: Buffer;
  secrets: SecretBox;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The services of the named modules, as one object. */
export type ServicesOf<N extends ModuleName> = [N] extends [never] ? object : UnionToIntersection<ModuleServices[N]>;

/** Every module's services and the platform's: what tests and benches reach through `services`. */
export type AllServices = ServicesOf<ModuleName> & Platform;

export interface ModuleDefinition<
  N extends ModuleName = ModuleName,
  Needs extends ModuleName = ModuleName,
  Uses extends ModuleName = never,
  Optional extends ModuleName = never,
> {
  name: N;
  /** Modules built before this one: `create` gets their services. Booting this module boots them. */
  needs: readonly Needs[];
  /**
   * Modules this one's routes, pages and event handlers also use, and that may be built after it
   * (two modules that use each other). Booting this module boots them; `create` reaches them
   * only through `later()`, once every module is built.
   */
  uses?: readonly Uses[];
  /** Modules used when they are booted, and left out of a test that boots only some modules. */
  optional?: readonly Optional[];
  /** Builds the module's services; subscribes its jobs to the job runner. */
  create(
    platform: Platform,
    deps: ServicesOf<Needs>,
    later: () => ServicesOf<Uses> & Partial<ServicesOf<Optional>>,
  ): ModuleServices[N];
  /** Registers the module's HTTP routes (in registry order, after the tenancy and session plugins). */
  routes?(app: App, services: Own<N, Needs, Uses, Optional>, platform: Platform): PromiseLike<unknown>;
  /** The page functions loaders call (`context.api`), bound per request. */
  pages?(services: Own<N, Needs, Uses, Optional>, platform: Platform): PageModule<object>[];
  /** The page functions of the platform's own host (`context.platform`), bound per request. */
  platformPages?(services: Own<N, Needs, Uses, Optional>, platform: Platform): PlatformPageModule<object>[];
  /** What the module does when another writes (decision 018): handlers by event name. */
  events?(services: Own<N, Needs, Uses, Optional>, platform: Platform): EventHandlers;
  /** Once the app is ready (start workers). */
  onReady?(services: Own<N, Needs, Uses, Optional>, platform: Platform): Promise<void> | void;
  /** When the app closes; modules close in the order they were built, so the job runner stops first. */
  onClose?(services: Own<N, Needs, Uses, Optional>, platform: Platform): Promise<void> | void;
}

type Own<
  N extends ModuleName,
  Needs extends ModuleName,
  Uses extends ModuleName,
  Optional extends ModuleName,
> = ModuleServices[N] & ServicesOf<Needs> & ServicesOf<Uses> & Partial<ServicesOf<Optional>>;

export type EventHandlers = { [E in EventName]?: EventHandler<E> };

/**
 * Declares a module: its name, the modules it needs, its services, routes, pages and event
 * handlers. The module is mounted by one line in `modules/registry.ts`.
 */
export function defineModule<
  N extends ModuleName,
  const Needs extends ModuleName = never,
  const Uses extends ModuleName = never,
  const Optional extends ModuleName = never,
>(definition: ModuleDefinition<N, Needs, Uses, Optional>) {
  return definition;
}

/** The registry: each module by name, loaded when the app boots it. */
export type ModuleRegistry = { readonly [N in ModuleName]?: () => Promise<{ readonly name: N }> };

/** A module as the boot sees it, whatever it needs. */
interface LooseModule {
  name: ModuleName;
  needs: readonly ModuleName[];
  uses?: readonly ModuleName[];
  optional?: readonly ModuleName[];
  create(platform: Platform, deps: AllServices, later: () => AllServices): object;
  routes?(app: App, services: AllServices, platform: Platform): PromiseLike<unknown>;
  pages?(services: AllServices, platform: Platform): PageModule<object>[];
  platformPages?(services: AllServices, platform: Platform): PlatformPageModule<object>[];
  events?(services: AllServices, platform: Platform): EventHandlers;
  onReady?(services: AllServices, platform: Platform): unknown;
  onClose?(services: AllServices, platform: Platform): unknown;
}

/**
 * Modules every app boots: each request resolves its store (tenant), the store's lifecycle state
 * (store-lifecycle, decision 099) and who acts (auth).
 */
const ALWAYS: readonly ModuleName[] = ['tenant', 'store-lifecycle', 'auth'];

export interface BootedModules {
  services: AllServices;
  /** Registers the booted modules' routes, in registry order. */
  registerRoutes(): Promise<void>;
  /** The booted modules' page functions, in registry order. */
  pages(): PageModule<object>[];
  /** The booted modules' platform page functions, in registry order. */
  platformPages(): PlatformPageModule<object>[];
}

/**
 * Loads the modules asked for (all by default) and those they need or use, builds their services
 * in dependency order, subscribes their event handlers and hooks their start and stop to the app's.
 */
export async function bootModules(
  app: App,
  platform: Platform,
  registry: ModuleRegistry,
  only?: readonly ModuleName[],
): Promise<BootedModules> {
  const names = Object.keys(registry) as ModuleName[];
  // Breadth first: two modules that use each other must not wait for each other to load.
  const defs = new Map<ModuleName, LooseModule>();
  let wanted: ModuleName[] = only ? [...ALWAYS, ...only] : names;
  while (wanted.length > 0) {
    const fresh = [...new Set(wanted)].filter((name) => !defs.has(name));
    const loaded = await Promise.all(
      fresh.map(async (name) => {
        const loader = registry[name];
        if (!loader) throw new Error(`The module ${name} is not in modules/registry.ts.`);
        const def = (await loader()) as unknown as LooseModule;
        if (def.name !== name) throw new Error(`modules/registry.ts loads the module ${def.name} as ${name}.`);
        return def;
      }),
    );
    for (const def of loaded) defs.set(def.name, def);
    wanted = loaded.flatMap((def) => [...def.needs, ...(def.uses ?? [])]);
  }
  const booted = names.filter((name) => defs.has(name)).map((name) => defs.get(name) as LooseModule);

  // Dependency order: each module after the ones it needs; registry order otherwise.
  const built: LooseModule[] = [];
  const visiting: ModuleName[] = [];
  const visit = (def: LooseModule) => {
    if (built.includes(def)) return;
    if (visiting.includes(def.name)) {
      throw new Error(`Modules need each other: ${[...visiting, def.name].join(' -> ')}; one should 'use' the other.`);
    }
    visiting.push(def.name);
    for (const need of def.needs) visit(defs.get(need) as LooseModule);
    visiting.pop();
    built.push(def);
  };
  for (const def of booted) visit(def);

  const services = { ...platform } as AllServices;
  const later = () => services;
  for (const def of built) {
    const provided = def.create(platform, services, later);
    for (const key of Object.keys(provided)) {
      if (key in services) throw new Error(`The module ${def.name} provides ${key}, which another already does.`);
    }
    Object.assign(services, provided);
  }
  for (const def of built) {
    const handlers = def.events?.(services, platform) ?? {};
    for (const [name, handler] of Object.entries(handlers)) {
      platform.events.on(name as EventName, handler as EventHandler<EventName>);
    }
  }
  app.addHook('onReady', async () => {
    for (const def of built) await def.onReady?.(services, platform);
  });
  // In build order: the job runner, built early, stops before the modules its jobs use.
  app.addHook('onClose', async () => {
    for (const def of built) await def.onClose?.(services, platform);
  });
  return {
    services,
    async registerRoutes() {
      for (const def of booted) await def.routes?.(app, services, platform);
    },
    pages: () => booted.flatMap((def) => def.pages?.(services, platform) ?? []),
    platformPages: () => booted.flatMap((def) => def.platformPages?.(services, platform) ?? []),
  };
}
