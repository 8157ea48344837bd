import { openDatabase } from '@app/db';
import { buildApp } from '../app';
import { loadConfig } from '../config';

/**
 * The API as a process of its own, without the storefront's pages (so without its build), for
 * tests that need a real second process on one database. server.ts is the real entry.
 */
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const app = await buildApp({ config, database });
process.on('SIGTERM', () => {
  app
    .close()
    .then(() => database.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
await app.listen({ port: config.PORT, host: config.HOST });
