import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from './client';

/** The URL of each PostgreSQL test database, for a second handle or a server process on it. */
const urls = new WeakMap<Database, string>();

/**
 * A fresh, migrated database: PGlite in memory, or a new database on the PostgreSQL of
 * TEST_DATABASE_URL (dropped on close) when the suite runs in its `postgres` project.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') {
    const db = await openDatabase({ dataDir: 'memory://' });
    await db.migrate();
    return db;
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 4 });
  await db.migrate();
  const opened: Database = {
    ...db,
    async close() {
      await db.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
  urls.set(opened, dbUrl.toString());
  return opened;
}

/**
 * A second handle on the PostgreSQL database of `openTestDatabase`, as another app process would
 * open it: its own pool and connections, nothing shared in memory. Closing it leaves the database.
 */
export async function openSecondHandle(database: Database): Promise<Database> {
  const url = urls.get(database);
  if (!url) throw new Error('openSecondHandle needs a PostgreSQL database from openTestDatabase (TEST_DB=postgres)');
  return openDatabase({ databaseUrl: url, poolSize: 4 });
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
