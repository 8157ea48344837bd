import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { seedDatabase } from '../seed/index';
import { type Database, openDatabase } from './client';

/** The URL of each PostgreSQL test database, for a second handle or a server process on it. */
const urls = new WeakMap<Database, string>();

/**
 * Where the suite's global setup (`testing-templates.ts`) left the databases each test starts
 * from: a PGlite data directory dumped once migrated and once seeded, and two PostgreSQL template
 * databases. Without them (a test run outside the suite's config) every database is built afresh.
 */
export const TEMPLATE_ENV = {
  pgliteDir: 'TEST_PGLITE_TEMPLATES',
  pgMigrated: 'TEST_PG_TEMPLATE_MIGRATED',
  pgSeeded: 'TEST_PG_TEMPLATE_SEEDED',
} as const;

/** The seeded database as a PGlite data directory, under the templates' directory. */
export const SEEDED_DATA_DIR = 'seeded-data';

/**
 * A new DATA_DIR holding a copy of the suite's seeded database (testing-templates.ts), for a test
 * that need not show a first start (a drill's server, the data directory's own tests): a server on
 * it answers after 4 CPU seconds instead of 11 (initdb, migrations, the seed). Its migrations and
 * seed are this run's own, so the server finds nothing to do. The caller removes the directory.
 */
export function seededDataDir(prefix: string): string {
  const templates = process.env[TEMPLATE_ENV.pgliteDir];
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (templates) cpSync(join(templates, SEEDED_DATA_DIR, 'pg'), join(dir, 'pg'), { recursive: true });
  return dir;
}

/**
 * A fresh, migrated database: PGlite in memory, or a new database on the PostgreSQL of
 * TEST_DATABASE_URL (dropped on close) when the suite runs in its `postgres` project. With
 * `seeded`, it holds the demo stores too. Copied from the suite's templates when they exist: to
 * migrate and seed costs about 3 s a database on PGlite, a copy half a second. With `empty`, nothing
 * is migrated: for a test that migrates it itself (to an older migration, then on).
 */
export async function openTestDatabase(opts: { seeded?: boolean; empty?: boolean } = {}): Promise<Database> {
  const seeded = opts.seeded ?? false;
  const empty = opts.empty ?? false;
  if (process.env.TEST_DB !== 'postgres') {
    const memory = { dataDir: 'memory://', pgliteSharedBuffersMb: TEST_SHARED_BUFFERS_MB };
    if (empty) return openDatabase(memory);
    const dir = process.env[TEMPLATE_ENV.pgliteDir];
    if (dir) return openDatabase({ ...memory, pgliteLoadDataDir: templateDump(dir, seeded) });
    const db = await openDatabase(memory);
    await db.migrate();
    if (seeded) await seedDatabase(db.db);
    return db;
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = empty ? undefined : process.env[seeded ? TEMPLATE_ENV.pgSeeded : TEMPLATE_ENV.pgMigrated];
  const name = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const db = await openDatabase({
    databaseUrl: dbUrl.toString(),
    poolSize: 4,
    connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS,
  });
  if (!template && !empty) {
    await db.migrate();
    if (seeded) await seedDatabase(db.db);
  }
  const opened: Database = {
    ...db,
    async close() {
      await db.close();
      await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
  urls.set(opened, dbUrl.toString());
  return opened;
}

/**
 * How long a test's PostgreSQL pool waits for a connection, new or free, instead of the app's 5 s.
 * On CI's two busy cores a worker's event loop can be held for seconds (a PGlite statement, a module
 * graph being evaluated), and an expired timer runs before the socket's waiting reply is read: the
 * run then failed on a timeout no user could meet. No test relies on the 5 s (a stopped database
 * refuses at once; `isDatabaseUnavailable` is tested on its messages).
 */
export const TEST_CONNECT_TIMEOUT_MS = 120_000;

/**
 * The buffer pool of a PGlite test database. PGlite's start sets up the whole pool (PostgreSQL's
 * 128 MB unless told), and at 128 MB that was about 600 ms of CPU of each open's 1.1 s, with some
 * 190 opens a run. A test database holds the demo stores, about 20 MB with its indexes: 8 MB
 * of buffers reads the rest from PGlite's in-memory files, a copy each, with no disk behind them.
 */
const TEST_SHARED_BUFFERS_MB = 8;

/**
 * The template's tarball, read once per test process: a worker runs file after file (vitest.config.ts,
 * `isolate: false`). PGlite asks the Blob it is given for its bytes and only reads them (it untars
 * them and copies each file into its in-memory file system), so the same bytes serve every open: a
 * plain Blob would copy its 22 MB out afresh each time, about 150 ms of CPU an open.
 */
class TemplateDump extends Blob {
  readonly #bytes: ArrayBuffer;
  constructor(file: string) {
    super([]);
    const raw = readFileSync(file);
    this.#bytes = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }
}
const dumps = new Map<string, Blob>();
function templateDump(dir: string, seeded: boolean): Blob {
  const file = join(dir, seeded ? 'seeded.tar' : 'migrated.tar');
  let dump = dumps.get(file);
  if (!dump) {
    dump = new TemplateDump(file);
    dumps.set(file, dump);
  }
  return dump;
}

/** One statement on the server's maintenance connection (CREATE and DROP DATABASE). */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A second handle on the PostgreSQL database of `openTestDatabase`, as another app process would
 * open it: its own pool and connections, nothing shared in memory. Closing it leaves the database.
 */
export async function openSecondHandle(database: Database): Promise<Database> {
  const url = urls.get(database);
  if (!url) throw new Error('openSecondHandle needs a PostgreSQL database from openTestDatabase (TEST_DB=postgres)');
  return openDatabase({ databaseUrl: url, poolSize: 4, connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS });
}

/** The connection URL of a PostgreSQL test database, for a server process started by a test. */
export function testDatabaseUrl(database: Database): string {
  const url = urls.get(database);
  if (!url) throw new Error('testDatabaseUrl needs a PostgreSQL database from openTestDatabase (TEST_DB=postgres)');
  return url;
}

/**
 * One plain connection for drills that hold locks or watch the server while the database goes
 * away: its 'error' is expected then, so it is recorded, not thrown (an unhandled one ends the process).
 */
export async function openRawClient(url: string): Promise<pg.Client & { lostWith: () => unknown }> {
  const client = new pg.Client({ connectionString: url });
  let lost: unknown;
  client.on('error', (err) => {
    lost = err;
  });
  await client.connect();
  return Object.assign(client, { lostWith: () => lost });
}
