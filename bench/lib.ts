import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { type Database, openDatabase } from '@app/db';
import autocannon from 'autocannon';
import pg from 'pg';

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(
  name: string,
  opts: {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    /** A path per request (the i-th request gets pathFor(i)); else every request uses url's path. */
    pathFor?: (i: number) => string;
  },
): Promise<Result> {
  let i = 0;
  const pathFor = opts.pathFor;
  const r = await autocannon({
    url: opts.url,
    ...(pathFor
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => ({ ...req, path: pathFor(i++) }),
            },
          ],
        }
      : {}),
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? 10,
  });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** The production server on a fresh, seeded PGlite (or DATABASE_URL) in its own process. */
let compiled = false;
/** The server as `npm start` runs it (decision 061), compiled once per benchmark from the source. */
export const COMPILED_SERVER = 'apps/api/dist/server.mjs';
export function compileServer() {
  if (compiled) return;
  const r = spawnSync(process.execPath, ['apps/api/build.mjs'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the server did not compile');
  compiled = true;
}

export async function startServer(
  port: number,
  env: Record<string, string> = {},
  opts: { dataDir?: string; server?: string } = {},
): Promise<ChildProcess> {
  // A data directory of the caller's (filled beforehand) is served as it is; the default is fresh.
  const dataDir = opts.dataDir ?? `.bench/data-${port}`;
  if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops (open it in
  // Chrome's DevTools), to see where a row's time goes.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // A server bundle of the caller's (an earlier build, to measure before and after) is run as it is.
  if (!opts.server) compileServer();
  // BENCH_NODE_FLAGS='--max-semi-space-size=4 ...': node and V8 flags for the server, to compare settings.
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...profile, ...flags, opts.server ?? COMPILED_SERVER], {
    env: {
      ...process.env,
      // The production configuration, as a deployment would run it.
      NODE_ENV: 'production',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      SECRETS_KEY: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error('server exited');
    if ((await fetchStatus(port, '/readyz')) === 200) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error('server did not become ready');
}

/** Stops a server of `startServer` and waits until it has exited (its port and data are free). */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await exited;
}

export function fetchBody(
  port: number,
  path: string,
  host: string,
  method = 'GET',
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

async function fetchStatus(port: number, path: string): Promise<number> {
  try {
    return (await fetchBody(port, path, 'localhost')).status;
  } catch {
    return 0;
  }
}

export function table(results: Result[]) {
  const rows = results.map((r) => ({
    name: r.name,
    'req/s': Math.round(r.rps),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  }));
  console.table(rows);
}

/**
 * A database of the given name beside the URL's, made when missing and kept after the run: a scale
 * bench fills it once and measures it again later (on a quiet machine) without filling it again.
 */
export async function withKeptPostgres<T>(url: string, name: string, work: (database: Database) => Promise<T>) {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(name)) throw new Error(`BENCH_KEEP_DB: ${name} is not a plain database name`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 4 });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * Runs `work` on a database of its own, created on the PostgreSQL server at `url` and dropped
 * afterwards whatever happens, so a benchmark leaves nothing behind on the server it used.
 */
export async function withScratchPostgres<T>(url: string, prefix: string, work: (database: Database) => Promise<T>) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 4 });
  try {
    return await work(database);
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
