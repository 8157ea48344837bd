import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { seedDatabase } from '../seed/index';
import { type Db, migrationsFolder, openDatabase } from './client';
import { adminQuery, SEEDED_DATA_DIR, TEMPLATE_ENV, TEST_CONNECT_TIMEOUT_MS } from './testing';

/**
 * Vitest's global setup: builds, once per run, the databases every test starts from (see
 * `openTestDatabase`). Migrating and seeding a database for each of some two hundred test files
 * was about a quarter of the suite's time; each file now copies the result instead.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'sf-templates-'));
  const url = process.env.TEST_DATABASE_URL;
  const templates: string[] = [];
  // The PGlite dumps and the PostgreSQL templates are built side by side: PGlite works in this
  // process, PostgreSQL in its own (decision 083).
  await Promise.all([pgliteTemplates(dir), url ? postgresTemplates(url, templates) : undefined]);
  // Read by the test processes, which Vitest starts after this with this process's environment.
  process.env[TEMPLATE_ENV.pgliteDir] = dir;

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (url) for (const name of templates) await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}

/**
 * Every PGlite test database starts by unpacking one of these dumps, some two hundred times a run,
 * so they hold only what a test reads (decision 108): the `postgres` database the app uses, without
 * the two template databases PGlite's initdb also creates (nothing here creates a database), and
 * write-ahead log in 1 MB segments, checkpointed before each dump, instead of one 16 MB segment.
 * That halves the dump (48 to 22 MB) and takes a third off each open. Neither is something a query
 * can see; a data directory the server creates itself (server.process.test.ts) has both as usual.
 */
const TEMPLATE_INITDB = ['--wal-segsize=1'];
const TEMPLATE_START = [...PGlite.defaultStartParams, '-c', 'min_wal_size=2MB', '-c', 'max_wal_size=4MB'];

async function pgliteTemplates(dir: string) {
  const pglite = await PGlite.create('memory://', {
    extensions: { pg_trgm },
    initDbStartParams: TEMPLATE_INITDB,
    startParams: TEMPLATE_START,
  });
  try {
    await migrate(drizzle(pglite), { migrationsFolder });
    for (const name of ['template1', 'template0']) {
      await pglite.query(`ALTER DATABASE ${name} IS_TEMPLATE false`);
      await pglite.query(`DROP DATABASE ${name}`);
    }
    await dumpTo(pglite, join(dir, 'migrated.tar'));
    // The app's own client (prepared statements) is not needed to write the demo stores.
    await seedDatabase(drizzle(pglite) as unknown as Db);
    await dumpTo(pglite, join(dir, 'seeded.tar'));
  } finally {
    await pglite.close();
  }
  // The same seeded database as a data directory on disk, for the drills that start the real server
  // (seededDataDir in apps/api/src/test/processes.ts): a server on an empty directory spends 11 CPU
  // seconds on initdb, migrations and the seed before it answers, on a copy of this one 4.
  const disk = await openDatabase({
    dataDir: join(dir, SEEDED_DATA_DIR),
    pgliteLoadDataDir: new Blob([readFileSync(join(dir, 'seeded.tar'))]),
  });
  await disk.close();
  // `npm test` keeps a copy for the browser tests' server, which run after this suite and would
  // otherwise build the same database again before its first test (e2e/start-server.mjs).
  const keep = process.env.E2E_SEEDED_DATA_DIR;
  if (keep) {
    rmSync(keep, { recursive: true, force: true });
    cpSync(join(dir, SEEDED_DATA_DIR), keep, { recursive: true });
  }
}

/** Two template databases, migrated and seeded, each built on a connection of its own, side by side. */
async function postgresTemplates(url: string, templates: string[]) {
  const suffix = randomBytes(4).toString('hex');
  await Promise.all(
    [false, true].map(async (seeded) => {
      const name = `tmpl_${seeded ? 'seeded' : 'migrated'}_${suffix}`;
      await adminQuery(url, `CREATE DATABASE ${name}`);
      templates.push(name);
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      // Closed before use: PostgreSQL copies a template only while nobody is connected to it. The
      // PGlite templates hold this event loop for up to 3 s a statement: a connection that timed
      // out behind them at the app's 5 s failed a whole CI run.
      const db = await openDatabase({
        databaseUrl: dbUrl.toString(),
        poolSize: 2,
        connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS,
      });
      try {
        await db.migrate();
        if (seeded) await seedDatabase(db.db);
      } finally {
        await db.close();
      }
      process.env[seeded ? TEMPLATE_ENV.pgSeeded : TEMPLATE_ENV.pgMigrated] = name;
    }),
  );
}

/** The data directory as a tarball, after a checkpoint so that little write-ahead log goes with it. */
async function dumpTo(pglite: PGlite, file: string) {
  await pglite.query('CHECKPOINT');
  writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
}
