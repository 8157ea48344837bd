import { setFlagsFromString } from 'node:v8';
import { type Database, DataDirLockedError, openDatabase } from '@app/db';
import { buildApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { createDrain } from './lib/drain';
import { requestScope } from './lib/request-scope';
import { parseStoreDatabases } from './lib/store-databases';
import { bannerStores, startupBanner } from './startup-banner';

/**
 * Opens the database, applies migrations, seeds an empty database with the demo stores, and
 * listens. SIGTERM stops accepting, answers every request already accepted (decision 023), stops
 * the jobs and the event bus, closes the database, exits 0.
 */
export async function start() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }

  // V8 reads this at every full collection, so setting it now, before the stores are served, is in
  // time (decision 126).
  if (config.HEAP_GROWTH_PERCENT > 0) setFlagsFromString(`--heap-growing-percent=${config.HEAP_GROWTH_PERCENT}`);

  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      pgliteSharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB,
    });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(75); // EX_TEMPFAIL
    }
    throw err;
  }

  await database.migrate();
  // The other databases stores may live on (decision 123): PostgreSQL only, migrated like the home one.
  const storeDatabases: Record<string, Database> = {};
  const urls = parseStoreDatabases(config.STORE_DATABASES);
  if (Object.keys(urls).length > 0 && !config.DATABASE_URL) {
    console.error('STORE_DATABASES needs DATABASE_URL: stores are spread over PostgreSQL databases only');
    process.exit(78); // EX_CONFIG
  }
  for (const [name, url] of Object.entries(urls)) {
    storeDatabases[name] = await openDatabase({ databaseUrl: url });
    await storeDatabases[name].migrate();
  }
  const seed = await import('@app/db/seed');
  if (config.SEED_ON_START) {
    // The demo operator's password and TOTP secret are public (README): never in production.
    const { seeded, report } = await seed.seedDatabase(database.db, { demoOperator: config.NODE_ENV !== 'production' });
    if (seeded && report) console.log(seed.describeSeed(report));
  }

  const app = await buildApp({
    config,
    database,
    storeDatabases,
    generateMedia: seed.renderSeedImage,
    webBuildDir: config.WEB_BUILD_DIR,
  });

  // Each HTTP request runs in its own scope, so what goes wrong after its code lost track of it
  // (below) is logged with its request id.
  const handlers = app.server.listeners('request') as ((...args: unknown[]) => void)[];
  app.server.removeAllListeners('request');
  for (const handler of handlers) {
    app.server.on('request', (...args: unknown[]) => requestScope.run({}, () => handler(...args)));
  }
  // Decision 071. A rejection nobody handled is a lost error, not a broken process: the request it
  // belonged to has had its answer (or gets its timeout), so it is logged at fatal level, with that
  // request's id, and the server goes on serving every other store. An exception that unwound to
  // the top is different: it stopped something half-way, so the server logs it and exits, and the
  // supervisor (scripts/start.mjs) starts it again.
  process.on('unhandledRejection', (reason) => {
    app.log.fatal({ err: reason, reqId: requestScope.getStore()?.requestId }, 'unhandled rejection');
  });
  process.on('uncaughtException', (err) => {
    app.log.fatal({ err, reqId: requestScope.getStore()?.requestId }, 'uncaught exception: exiting');
    process.exit(70); // EX_SOFTWARE
  });

  const drain = createDrain(app);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.warn('grace period over: closing with requests still open');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_SECONDS * 1000);
    force.unref();
    try {
      await drain.drain();
      app.log.info('every connection answered and closed');
      await app.close();
      await database.close();
      for (const other of Object.values(storeDatabases)) await other.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // A newcomer's first question after `npm start` is where to look: the log line says only the socket.
  const banner = await bannerStores(database.db);
  console.log(startupBanner(banner.stores, config, banner.total));
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  start().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
