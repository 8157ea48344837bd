import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDirLock } from './lock';
import { prepareEveryStatement } from './pg-prepared';
import { PreparedPglite } from './pglite-prepared';

/**
 * The one database type services see, whichever driver is behind it. Without drizzle's relational
 * API (`db.query.<table>`), which nothing uses: given the schema, drizzle builds a query builder for
 * each of its tables on every transaction it opens (decision 061).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** The handle a `db.transaction` callback gets; services that write inside a caller's transaction take it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What a LISTEN connection tells its owner. */
export interface ListenHandlers {
  /** A notification on the channel (its payload as sent). */
  onNotify(payload: string): void;
  /**
   * The connection listens. `reconnected`: not at the first attempt (the connection had been lost,
   * or earlier attempts failed), so notifications sent meanwhile were missed; whoever caches what
   * they announce must read afresh.
   */
  onListening(info: { reconnected: boolean }): void;
  /** The connection failed or dropped; the next attempt comes in `retryInMs`. */
  onError?(err: unknown, retryInMs: number): void;
}

export interface Listener {
  close(): Promise<void>;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies committed migrations; safe to call on every start and from several processes.
   * `migrationsFolder`: another folder's, for a test that stops a database at an older migration.
   */
  migrate(opts?: { migrationsFolder?: string }): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTENs on `channel` on a connection of its own (not one of the pool's: a pooled client is
   * handed to other queries and its LISTEN would end with it), reconnecting with backoff when it
   * drops. Resolves once listening, or after the first attempt failed (it keeps trying). PostgreSQL
   * only: PGlite is one process, so there is nobody to hear from.
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<Listener>;
  /** PGlite only: its whole data directory as a tarball, to open again with `pgliteLoadDataDir`. */
  dumpDataDir?(): Promise<Blob>;
}

/**
 * The SQL migrations, beside this package's source. In the compiled server (decision 061) this
 * module is inside `apps/api/dist/server.mjs`, so the folder is found from the package's entry as
 * Node resolves it (resolving reads no file, so no TypeScript loader is needed).
 */
export const migrationsFolder = import.meta.url.endsWith('.ts')
  ? resolve(dirname(fileURLToPath(import.meta.url)), '../migrations')
  : fileURLToPath(new URL('../migrations', import.meta.resolve('@app/db')));

export interface OpenOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; ignored with a URL. `memory://` keeps nothing (tests). */
  dataDir?: string;
  poolSize?: number;
  /**
   * How long taking a PostgreSQL connection may wait before it fails (5 s unless told). Test
   * databases wait longer (`TEST_CONNECT_TIMEOUT_MS` in testing.ts): a loop held by a long
   * synchronous stretch (a PGlite statement beside it) runs the expired timer before it reads the
   * server's reply, already in the socket.
   */
  connectTimeoutMs?: number;
  /**
   * PGlite's shared buffers, MB (PostgreSQL's default is 128). Its pages live in the process's
   * WebAssembly memory, counted in its RSS once touched: a smaller pool keeps an idle server small,
   * and pages past it are read from the data directory through the operating system's file cache.
   */
  pgliteSharedBuffersMb?: number;
  /**
   * A PGlite data directory saved by its `dumpDataDir` to start from instead of an empty one: the
   * test suite migrates and seeds once and starts each test's database from that copy.
   */
  pgliteLoadDataDir?: Blob;
}

/** How long a request waits for a database connection before it is refused as unavailable. */
const CONNECT_TIMEOUT_MS = 5_000;

// An arbitrary constant: the advisory lock that serialises migrations across app processes.
const MIGRATION_LOCK_KEY = 727_001;

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolSize ?? 10, opts.connectTimeoutMs);
  return openPglite(opts.dataDir ?? './data', opts.pgliteSharedBuffersMb, opts.pgliteLoadDataDir);
}

async function openPostgres(url: string, max: number, connectTimeoutMs = CONNECT_TIMEOUT_MS): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    // Waiting for a connection (a new one, or a free one of the pool) gives up after this: when the
    // database cannot be reached, requests are refused quickly (503) instead of piling up.
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // A client checked out of the pool (a transaction, the migration lock) has no pool listener while
  // it is out: pg then emits the lost connection as 'error' on the client, and an 'error' nobody
  // listens to ends the process. The query in flight is rejected all the same, so its caller learns
  // of it; this listener only keeps the event from being fatal. The pool drops the dead client on
  // release (it is no longer queryable) and connects afresh when the database is back.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    prepareEveryStatement(client);
  });
  const db = drizzlePg(pool) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate(opts) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client), { migrationsFolder: opts?.migrationsFolder ?? migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
    listen: (channel, handlers) => listenOn(url, channel, handlers),
  };
}

/** Reconnect delays: doubling from the first, capped, each with jitter so processes do not retry in step. */
const LISTEN_RETRY_FIRST_MS = 100;
const LISTEN_RETRY_MAX_MS = 10_000;
/**
 * A connection can die without a word (a NAT or firewall forgetting it): a query every so often
 * proves it alive, and one unanswered in time counts as a drop.
 */
const LISTEN_HEARTBEAT_MS = 15_000;
const LISTEN_HEARTBEAT_TIMEOUT_MS = 5_000;

async function listenOn(url: string, channel: string, h: ListenHandlers): Promise<Listener> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  let closed = false;
  let client: pg.Client | undefined;
  let attempt = 0;
  let failedBefore = false;
  let retry: NodeJS.Timeout | undefined;
  let settleFirst = () => {};
  const first = new Promise<void>((resolve) => {
    settleFirst = resolve;
  });

  function connect() {
    if (closed) return;
    const c = new pg.Client({
      connectionString: url,
      application_name: `app-listen-${channel}`,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = c;
    let failed = false;
    let heartbeat: NodeJS.Timeout | undefined;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      clearInterval(heartbeat);
      c.removeAllListeners('notification');
      c.end().catch(() => {});
      if (closed) return;
      failedBefore = true;
      const delay = Math.min(LISTEN_RETRY_MAX_MS, LISTEN_RETRY_FIRST_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
      attempt++;
      h.onError?.(err, Math.round(delay));
      retry = setTimeout(connect, delay);
      settleFirst();
    };
    c.on('error', fail);
    c.on('end', () => fail(new Error('the LISTEN connection ended')));
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) h.onNotify(msg.payload);
    });
    c.connect()
      .then(() => c.query(`LISTEN ${channel}`))
      .then(
        () => {
          if (failed || closed) return;
          attempt = 0;
          heartbeat = setInterval(() => {
            const timeout = setTimeout(
              () => fail(new Error('the LISTEN connection did not answer')),
              LISTEN_HEARTBEAT_TIMEOUT_MS,
            );
            c.query('SELECT 1').then(
              () => clearTimeout(timeout),
              (err) => {
                clearTimeout(timeout);
                fail(err);
              },
            );
          }, LISTEN_HEARTBEAT_MS);
          heartbeat.unref();
          h.onListening({ reconnected: failedBefore });
          settleFirst();
        },
        (err) => fail(err),
      );
  }

  connect();
  await first;
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

async function openPglite(dataDir: string, sharedBuffersMb?: number, loadDataDir?: Blob): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  let release = () => {};
  let location = dataDir;
  if (!inMemory) {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true });
    release = acquireDirLock(join(dir, 'pg.lock'));
    location = join(dir, 'pg');
  }
  let client: PGlite;
  try {
    client = await PGlite.create(location, {
      extensions: { pg_trgm },
      ...(loadDataDir ? { loadDataDir } : {}),
      // PGlite's own start parameters, plus the pool size when one is asked for.
      ...(sharedBuffersMb
        ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`] }
        : {}),
    });
  } catch (err) {
    release();
    throw err;
  }
  // The app's queries go through prepared statements, one exchange each (decision 061); the
  // migrator below keeps PGlite's own client.
  const db = drizzlePglite(new PreparedPglite(client) as unknown as PGlite) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async migrate(opts) {
      await migratePglite(drizzlePglite(client), { migrationsFolder: opts?.migrationsFolder ?? migrationsFolder });
    },
    async ping() {
      await db.execute(sql`SELECT 1`);
    },
    dumpDataDir: () => client.dumpDataDir('none'),
    async close() {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}
