import { randomBytes } from 'node:crypto';
import type { Database } from '@app/db';
import type { App } from './app-types';
import { createEventBus } from './events/index';
import { MemoryBudget } from './memory-budget';
import type { BuildOptions, Platform } from './module';
import { PublicReadCache } from './public-cache';
import { createSecretBox, secretsKeyOf } from './secret-box';
import { createStoreDatabases } from './store-databases';

/** What every module shares: the event bus, the public read cache, links, and the keys. */
export function createPlatform(app: App, opts: BuildOptions): Platform {
  const { config, database, ...options } = opts;
  // One database: `stores.db` is `database.db` itself. Several: a router to each store's (decision 123).
  const stores = createStoreDatabases(database, opts.storeDatabases);
  // The bus's transactions are the services' too: they go to the store's database, and so does the
  // NOTIFY they send at commit; so every process listens on every database.
  const others = Object.values(opts.storeDatabases ?? {});
  const listenAll: Database['listen'] =
    others.length && database.listen
      ? async (channel, handlers) => {
          const all = [database, ...others].filter((d) => d.listen);
          const listeners = await Promise.all(all.map((d) => d.listen?.(channel, handlers)));
          return { close: async () => void (await Promise.all(listeners.map((l) => l?.close()))) };
        }
      : database.listen;
  const events = createEventBus({ database: { ...database, db: stores.db, listen: listenAll }, log: app.log });
  app.addHook('onClose', async () => events.close());
  // Everything kept per store is charged to one budget (decision 124).
  const memory = new MemoryBudget((config.STORE_MEMORY_MB ?? 192) * 2 ** 20);
  const publicCache = new PublicReadCache((config.PUBLIC_CACHE_SECONDS ?? 30) * 1000, undefined, { memory });
  // Writers emit; the cached public reads follow, in this process and the others (decision 018).
  for (const name of [
    'catalog.changed',
    'stock.changed',
    'review.created',
    'review.changed',
    'settings.changed',
  ] as const) {
    events.on(name, ({ tenantId }) => publicCache.invalidateTenant(tenantId));
  }
  events.on('events.missed', () => publicCache.clear());

  const production = config.NODE_ENV === 'production';
  const linkScheme = config.PUBLIC_SCHEME ?? (production ? 'https' : 'http');
  const linkPort = config.PUBLIC_PORT ?? (production ? undefined : config.PORT);
  const linkOrigin = (host: string) =>
    `${linkScheme}://${host}${linkPort && linkPort !== 80 && linkPort !== 443 ? `:${linkPort}` : ''}`;
  // loadConfig always provides one; a test app without it signs with a secret of its own.
  const sessionSecret = config.SESSION_SECRET ?? randomBytes(32).toString('base64url');
  // Secrets owners enter are sealed under SECRETS_KEY (decision 049); config.ts requires it in
  // production and generates one in DATA_DIR elsewhere. An app built without one (tests) derives one.
  const secretsKey = secretsKeyOf(config.SECRETS_KEY, sessionSecret);
  return {
    db: stores.db,
    database,
    stores,
    config,
    options,
    log: app.log,
    events,
    publicCache,
    memory,
    linkOrigin,
    sessionSecret,
    secretsKey,
    secrets: createSecretBox(secretsKey),
  };
}
