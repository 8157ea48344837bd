/**
 * `npm run bench:jobs`: how long 1,000 due jobs take, and how long a mail due behind
 * 1,000 queued sweeps waits, with the job runner's defaults (two lanes, 1 s polls, 60 s lease), on
 * PGlite and (BENCH_DATABASE_URL or TEST_DATABASE_URL, a database of its own) on PostgreSQL.
 *
 * Each round starts the runner as a process starts: its lanes poll an empty table for a few
 * seconds first (so the claim's plan is made, and kept, for a table that looks empty; with
 * BENCH_ANALYZE_EMPTY=0 the table's statistics are left as they are instead of analysed empty).
 * Then, across 1,000 stores: 1,000 no-op jobs; then 1,000 sweeps (one read each) and, 10 ms later,
 * one mail. A round gives up after BENCH_JOBS_TIMEOUT_S (default 300) and reports where it stood.
 * A benchmark: it prints figures only.
 */
import { pathToFileURL } from 'node:url';
import { type Database, openDatabase, schema } from '@app/db';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { systemContext } from '../apps/api/src/lib/context';
import { createJobRunner, type JobRunner } from '../apps/api/src/modules/jobs/index';
import { withScratchPostgres } from './lib';

const STORES = 1000;
const TIMEOUT_MS = Number(process.env.BENCH_JOBS_TIMEOUT_S ?? 300) * 1000;
const WARM_MS = 7_000;
const quiet = {
  level: 'silent',
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  silent() {},
  child: () => quiet,
} as unknown as FastifyBaseLogger;

interface Figures {
  database: string;
  scenario: string;
  'total s': number;
  'jobs per s': number;
  'mail waited s'?: number;
  'done first attempt': number;
  'done later': number;
  'not done': number;
}

const ctxOf = (i: number) =>
  systemContext(
    {
      tenantId: `b${i}`,
      productStoreId: `s${i}`,
      hostName: `b${i}.bench.test`,
      origin: `https://b${i}.bench.test`,
      viaDevAlias: false,
    },
    'bench',
  );

async function freshRunner(database: Database): Promise<JobRunner> {
  await database.db.delete(schema.jobs);
  if (process.env.BENCH_ANALYZE_EMPTY !== '0') await database.db.execute(sql`VACUUM ANALYZE jobs`);
  const runner = createJobRunner(database.db, { log: quiet, linkOrigin: (h) => `https://${h}` });
  runner.register('bench.noop', async () => null);
  runner.register('bench.sweep', async (job) => {
    // What a store's sweep of stuck orders reads when it finds none.
    await database.db.execute(sql`SELECT count(*) FROM orders WHERE tenant_id = ${job.tenantId} AND status = 'placed'`);
  });
  runner.register('bench.mail', async () => null);
  await runner.start();
  await new Promise((r) => setTimeout(r, WARM_MS));
  return runner;
}

async function enqueue(database: Database, runner: JobRunner, type: string, n: number) {
  await database.db.transaction(async (tx) => {
    for (let i = 0; i < n; i++) await runner.enqueue(ctxOf(i), { type, payload: { i } }, { tx });
  });
  runner.committed();
}

async function waitUntilDone(database: Database, t0: number, mailId?: string) {
  let mailDoneAt: number | undefined;
  for (;;) {
    const [row] = (
      (await database.db.execute(sql`
        SELECT count(*) FILTER (WHERE status = 'succeeded' AND attempts = 1)::int AS first,
               count(*) FILTER (WHERE status = 'succeeded' AND attempts > 1)::int AS later,
               count(*) FILTER (WHERE status <> 'succeeded')::int AS open,
               bool_or(job_id = ${mailId ?? ''} AND status = 'succeeded') AS mail
        FROM jobs`)) as unknown as { rows: { first: number; later: number; open: number; mail: boolean }[] }
    ).rows;
    if (!row) throw new Error('no answer');
    if (row.mail && mailDoneAt === undefined) mailDoneAt = performance.now();
    if (row.open === 0 || performance.now() - t0 > TIMEOUT_MS) {
      return { ...row, end: performance.now(), mailDoneAt };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function runJobsBench(name: string, database: Database): Promise<Figures[]> {
  await database.migrate();
  await database.db
    .insert(schema.tenants)
    .values(Array.from({ length: STORES }, (_, i) => ({ tenantId: `b${i}`, name: `Bench ${i}` })))
    .onConflictDoNothing();
  const out: Figures[] = [];

  let runner = await freshRunner(database);
  let t0 = performance.now();
  await enqueue(database, runner, 'bench.noop', STORES);
  let done = await waitUntilDone(database, t0);
  out.push({
    database: name,
    scenario: `${STORES} no-op jobs`,
    'total s': Math.round((done.end - t0) / 100) / 10,
    'jobs per s': Math.round((done.first + done.later) / ((done.end - t0) / 1000)),
    'done first attempt': done.first,
    'done later': done.later,
    'not done': done.open,
  });
  await runner.stop();

  runner = await freshRunner(database);
  t0 = performance.now();
  await enqueue(database, runner, 'bench.sweep', STORES);
  await new Promise((r) => setTimeout(r, 10));
  const mailAt = performance.now();
  const mail = await runner.enqueue(ctxOf(0), { type: 'bench.mail', payload: {} });
  done = await waitUntilDone(database, t0, mail.id);
  out.push({
    database: name,
    scenario: `${STORES} sweeps, then a mail`,
    'total s': Math.round((done.end - t0) / 100) / 10,
    'jobs per s': Math.round((done.first + done.later) / ((done.end - t0) / 1000)),
    'mail waited s': done.mailDoneAt === undefined ? -1 : Math.round((done.mailDoneAt - mailAt) / 100) / 10,
    'done first attempt': done.first,
    'done later': done.later,
    'not done': done.open,
  });
  await runner.stop();
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows: Figures[] = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    const lite = await openDatabase({ dataDir: 'memory://' });
    try {
      rows.push(...(await runJobsBench('PGlite', lite)));
    } finally {
      await lite.close();
    }
  }
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) rows.push(...(await withScratchPostgres(url, 'bench_jobs', (d) => runJobsBench('PostgreSQL', d))));
  else console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it)');
  console.table(rows);
}
