import { type Database, schema } from '@app/db';
import { openTestDatabase } from '@app/db/testing';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext, type TenantContext } from '../../lib/context';
import { createJobRunner, type JobRunner, type JobRunnerOptions, jobProgressView, nextDailyRun } from './index';

const store = (tenantId: string, productStoreId: string): TenantContext => ({
  tenantId,
  productStoreId,
  hostName: `${tenantId}.shop.test`,
  viaDevAlias: false,
  origin: `https://${tenantId}.shop.test`,
});
const LIGHTING = store('lighting', '9000');
const GARDEN = store('garden', '9001');

/** What the runner logged, by level: a test can see that a failure was reported. */
function recordingLog() {
  const lines: { level: string; msg: string }[] = [];
  const at =
    (level: string) =>
    (_obj: unknown, msg?: string): void => {
      lines.push({ level, msg: msg ?? String(_obj) });
    };
  const log = {
    level: 'info',
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    trace: at('trace'),
    fatal: at('fatal'),
    silent: () => {},
    child: () => log,
  };
  return { log: log as unknown as FastifyBaseLogger, lines };
}

/** A promise a test resolves when it chooses: the handler's "work" waits on it. */
function gate() {
  let open: () => void = () => {};
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

let database: Database;
let runners: JobRunner[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
  const db = database.db;
  await db.insert(schema.tenants).values([
    { tenantId: 'lighting', name: 'Lighting' },
    { tenantId: 'garden', name: 'Garden' },
  ]);
  await db.insert(schema.productStores).values([
    { tenantId: 'lighting', productStoreId: '9000', storeName: 'Lighting', canonicalHost: 'lighting.shop.test' },
    { tenantId: 'garden', productStoreId: '9001', storeName: 'Garden', canonicalHost: 'garden.shop.test' },
  ]);
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await database.db.delete(schema.jobs);
  await database.db.delete(schema.jobSchedules);
});
afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  runners = [];
});

function runner(opts: Partial<JobRunnerOptions> = {}) {
  const r = createJobRunner(database.db, {
    log: recordingLog().log,
    linkOrigin: (host) => `https://${host}`,
    retryBaseMs: 5,
    pollMs: 20,
    ...opts,
  });
  runners.push(r);
  return r;
}

const jobRow = async (id: string) => (await database.db.select().from(schema.jobs).where(eq(schema.jobs.jobId, id)))[0];

describe('a job', () => {
  it('runs once, and a page can read its progress while it runs and its result after', async () => {
    const r = runner();
    const halfway = gate();
    const finish = gate();
    const runs: string[] = [];
    r.register<{ rows: number }>('test.import', async (job, { progress }) => {
      runs.push(job.id);
      expect(job.ctx).toMatchObject({ tenantId: 'lighting', actor: { kind: 'system', name: 'job:test.import' } });
      await progress({ done: 1, total: job.payload.rows });
      halfway.open();
      await finish.promise;
      await progress({ done: 2, total: job.payload.rows, errors: ['row 2: no price'] });
      return { imported: 1 };
    });
    const queued = await r.enqueue(LIGHTING, { type: 'test.import', payload: { rows: 2 } });
    expect(queued).toMatchObject({ status: 'pending', attempts: 0, progress: null });

    const running = r.runNext();
    await halfway.promise;
    const half = await r.get(LIGHTING, queued.id);
    expect(half).toMatchObject({ status: 'running', progress: { done: 1, total: 2 } });
    // What a progress page shows of it (the store's export, the store's move): no result yet.
    expect(half && jobProgressView(half)).toMatchObject({ status: 'running', done: 1, total: 2, result: null });
    finish.open();
    expect(await running).toBe(true);

    expect(await r.get(LIGHTING, queued.id)).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      progress: { done: 2, total: 2, errors: ['row 2: no price'] },
      result: { imported: 1 },
      error: null,
    });
    const done = await r.get(LIGHTING, queued.id);
    expect(done && jobProgressView(done)).toEqual({
      jobId: queued.id,
      status: 'succeeded',
      done: 2,
      total: 2,
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      result: { imported: 1 },
    });
    await r.drain();
    expect(runs).toEqual([queued.id]);
    // Another store asking for it finds nothing, as for a job that does not exist.
    expect(await r.get(GARDEN, queued.id)).toBeNull();
  });

  it('that fails is retried with backoff, then marked failed with its error', async () => {
    const { log, lines } = recordingLog();
    const r = runner({ log });
    const attempts: number[] = [];
    r.register(
      'test.flaky',
      async (job) => {
        attempts.push(job.attempt);
        throw new Error(`mail server said 421 (attempt ${job.attempt})`);
      },
      { maxAttempts: 3 },
    );
    const { id } = await r.enqueue(LIGHTING, { type: 'test.flaky', payload: {} });
    await r.drain();
    expect(attempts).toEqual([1, 2, 3]);
    expect(await r.get(LIGHTING, id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: 'mail server said 421 (attempt 3)',
    });
    expect(lines.filter((l) => l.level === 'warn' && l.msg === 'job will retry')).toHaveLength(2);
    expect(lines.filter((l) => l.level === 'error' && l.msg === 'job failed')).toHaveLength(1);
  });

  it('queued for later is waited for by a drain whose horizon reaches it, not by one for what is due now', async () => {
    const r = runner();
    const runs: string[] = [];
    r.register('test.now', async (job) => void runs.push(job.id));
    r.register('test.later', async (job) => void runs.push(job.id));
    const now = await r.enqueue(LIGHTING, { type: 'test.now', payload: {} });
    const later = await r.enqueue(LIGHTING, { type: 'test.later', payload: {}, runAt: new Date(Date.now() + 30_000) });
    const started = Date.now();
    await r.drain({ timeoutMs: 60_000, dueWithinMs: 0 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(runs).toEqual([now.id]);
    expect(await r.get(LIGHTING, later.id)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('that fails once and then works ends succeeded, its earlier error cleared', async () => {
    const r = runner();
    let calls = 0;
    r.register('test.once', async () => {
      calls++;
      if (calls === 1) throw new Error('connection reset');
      return 'sent';
    });
    const { id } = await r.enqueue(LIGHTING, { type: 'test.once', payload: {} });
    await r.drain();
    expect(await r.get(LIGHTING, id)).toMatchObject({ status: 'succeeded', attempts: 2, error: null, result: 'sent' });
  });

  it('keeps only what `redact` leaves of the payload once it has finished', async () => {
    const r = runner();
    r.register<{ to: string; secret: string }>('test.redacted', async () => null, {
      redact: (p) => ({ to: p.to }),
    });
    const { id } = await r.enqueue(LIGHTING, {
      type: 'test.redacted',
      payload: { to: 'ada@example.com', secret: 'reset-token' },
    });
    expect((await jobRow(id))?.payload).toEqual({ to: 'ada@example.com', secret: 'reset-token' });
    await r.drain();
    expect((await jobRow(id))?.payload).toEqual({ to: 'ada@example.com' });
  });

  it('enqueued in a transaction that rolls back does not exist', async () => {
    const r = runner();
    r.register('test.tx', async () => null);
    await expect(
      database.db.transaction(async (tx) => {
        await r.enqueue(LIGHTING, { type: 'test.tx', payload: {} }, { tx });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await database.db.select().from(schema.jobs)).toHaveLength(0);
  });

  it('does not run before its runAt', async () => {
    const r = runner();
    const ran: string[] = [];
    r.register('test.later', async (job) => {
      ran.push(job.id);
    });
    const later = await r.enqueue(LIGHTING, {
      type: 'test.later',
      payload: {},
      runAt: new Date(Date.now() + 3_600_000),
    });
    await r.drain();
    expect(ran).toEqual([]);
    expect(await r.get(LIGHTING, later.id)).toMatchObject({ status: 'pending' });
  });
});

describe('an idempotency key', () => {
  it('gives one job for repeated enqueues while it is pending or running, and a new one after', async () => {
    const r = runner();
    const inside = gate();
    const finish = gate();
    let runs = 0;
    r.register('test.export', async () => {
      runs++;
      inside.open();
      await finish.promise;
    });
    const first = await r.enqueue(LIGHTING, { type: 'test.export', payload: {}, key: 'catalog' });
    const again = await r.enqueue(LIGHTING, { type: 'test.export', payload: {}, key: 'catalog' });
    expect(again.id).toBe(first.id);
    // Another store's job of the same key is its own.
    const garden = await r.enqueue(GARDEN, { type: 'test.export', payload: {}, key: 'catalog' });
    expect(garden.id).not.toBe(first.id);

    const running = r.runNext();
    await inside.promise;
    const whileRunning = await r.enqueue(LIGHTING, { type: 'test.export', payload: {}, key: 'catalog' });
    expect(whileRunning).toMatchObject({ id: first.id, status: 'running' });
    finish.open();
    await running;
    await r.drain();
    expect(runs).toBe(2);

    const after = await r.enqueue(LIGHTING, { type: 'test.export', payload: {}, key: 'catalog' });
    expect(after.id).not.toBe(first.id);
    const rows = await database.db.select().from(schema.jobs).where(eq(schema.jobs.tenantId, 'lighting'));
    expect(rows).toHaveLength(2);
  });

  it('gives one job for many enqueues at the same moment', async () => {
    const r = runner();
    r.register('test.burst', async () => null);
    const views = await Promise.all(
      Array.from({ length: 12 }, () => r.enqueue(LIGHTING, { type: 'test.burst', payload: {}, key: 'k' })),
    );
    expect(new Set(views.map((v) => v.id)).size).toBe(1);
    expect(await database.db.select().from(schema.jobs)).toHaveLength(1);
  });
});

describe('workers', () => {
  it('run again a job whose worker died while running it, once its lease has run out', async () => {
    const r = runner();
    const ran: number[] = [];
    r.register('test.resume', async (job) => {
      ran.push(job.attempt);
    });
    const { id } = await r.enqueue(LIGHTING, { type: 'test.resume', payload: {} });
    const where = and(eq(schema.jobs.tenantId, 'lighting'), eq(schema.jobs.jobId, id));
    // A worker claimed it and was killed: the row says running, under a lease that is still valid.
    await database.db
      .update(schema.jobs)
      .set({
        status: 'running',
        attempts: 1,
        lockedBy: 'dead-host:4242:0000',
        startedAt: new Date(),
        leaseUntil: sql`now() + interval '1 minute'`,
      })
      .where(where);
    expect(await r.runNext()).toBe(false);
    expect(ran).toEqual([]);
    // The lease runs out.
    await database.db.update(schema.jobs).set({ leaseUntil: sql`now() - interval '1 second'` }).where(where);
    await r.drain();
    expect(ran).toEqual([2]);
    expect(await r.get(LIGHTING, id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect((await jobRow(id))?.lockedBy).toBeNull();
  });

  it('give up on a job whose workers kept dying, without running it again', async () => {
    const r = runner();
    let runs = 0;
    r.register(
      'test.poison',
      async () => {
        runs++;
      },
      { maxAttempts: 2 },
    );
    const { id } = await r.enqueue(LIGHTING, { type: 'test.poison', payload: {} });
    await database.db
      .update(schema.jobs)
      .set({ status: 'running', attempts: 2, lockedBy: 'dead', leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(schema.jobs.jobId, id));
    await r.drain();
    expect(runs).toBe(0);
    expect(await r.get(LIGHTING, id)).toMatchObject({ status: 'failed', error: expect.stringContaining('stopped') });
  });

  it('two workers on one database never run the same job twice', async () => {
    const a = runner({ workerId: 'worker-a' });
    const b = runner({ workerId: 'worker-b' });
    const runs: { id: string; by: string }[] = [];
    for (const [w, name] of [
      [a, 'worker-a'],
      [b, 'worker-b'],
    ] as const) {
      w.register('test.parallel', async (job) => {
        runs.push({ id: job.id, by: name });
        // Some real work on the database, so the two workers overlap.
        await database.db.select().from(schema.jobs).where(eq(schema.jobs.jobId, job.id));
      });
    }
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push((await a.enqueue(i % 2 ? LIGHTING : GARDEN, { type: 'test.parallel', payload: { i } })).id);
    }
    await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
    expect(runs.map((r) => r.id).sort()).toEqual([...ids].sort());
    const rows = await database.db.select().from(schema.jobs);
    expect(rows.every((row) => row.status === 'succeeded' && row.attempts === 1)).toBe(true);
  });

  it('claim one job per call, even with the claim planned while the table was empty', async () => {
    const r = runner();
    const runs: string[] = [];
    r.register('test.one-by-one', async (job) => {
      runs.push(job.id);
    });
    // Every fresh start: the statistics say the table is empty (as autovacuum leaves them on
    // PostgreSQL), the first claims find nothing, and the statement is prepared (after five runs,
    // its generic plan kept) for a table that looked empty. That plan scans the jobs outside and
    // runs the subquery again for each, where a LIMIT 1 subquery in FROM took the next due job
    // each time: one claim marked every due job running.
    await database.db.execute(sql`VACUUM ANALYZE jobs`);
    for (let i = 0; i < 8; i++) expect(await r.runNext()).toBe(false);
    for (let i = 0; i < 40; i++)
      await r.enqueue(i % 2 ? LIGHTING : GARDEN, { type: 'test.one-by-one', payload: { i } });
    const byStatus = async () => {
      const rows = await database.db.select().from(schema.jobs);
      const count: Record<string, number> = {};
      for (const row of rows) count[row.status] = (count[row.status] ?? 0) + 1;
      return { count, attempted: rows.filter((row) => row.attempts > 0).length };
    };
    for (let call = 1; call <= 3; call++) {
      expect(await r.runNext()).toBe(true);
      // The job it ran is the only one touched: none is left running, none lost an attempt.
      expect(await byStatus()).toEqual({ count: { succeeded: call, pending: 40 - call }, attempted: call });
    }
    expect(runs).toHaveLength(3);
  });

  it('take kinds in turn: a mail due behind many queued sweeps runs within a round of claims', async () => {
    const r = runner();
    const ran: string[] = [];
    for (const type of ['test.sweep', 'test.import', 'test.mail']) {
      r.register(type, async () => {
        ran.push(type);
      });
    }
    for (let i = 0; i < 30; i++) await r.enqueue(i % 2 ? LIGHTING : GARDEN, { type: 'test.sweep', payload: { i } });
    await r.enqueue(LIGHTING, { type: 'test.mail', payload: {} });
    // Three kinds: the mail is claimed within three claims, not after the thirty sweeps before it.
    for (let i = 0; i < 3; i++) await r.runNext();
    expect(ran).toContain('test.mail');
    await r.drain();
    expect(ran.filter((t) => t === 'test.sweep')).toHaveLength(30);
  });

  it('run many due jobs each once, in seconds, with the default lease (bench:jobs times 1,000)', async () => {
    // A claim costs more the more jobs are due (it sorts them): 300 keep the test quick on a busy
    // machine, and with the old claim they still took minutes (each waited out a 60 s lease).
    const JOBS = 300;
    const r = runner({ pollMs: 20 });
    let runs = 0;
    r.register('test.many', async () => {
      runs++;
    });
    await database.db.execute(sql`VACUUM ANALYZE jobs`);
    // As every start: the lanes poll an empty table long enough for its plan to be kept.
    await r.start();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const t0 = performance.now();
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < JOBS; i++)
        await r.enqueue(i % 2 ? LIGHTING : GARDEN, { type: 'test.many', payload: { i } }, { tx });
    });
    r.committed();
    let left = JOBS;
    while (left > 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [row] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(schema.jobs)
        .where(sql`status <> 'succeeded' OR attempts <> 1`);
      left = row?.n ?? 0;
      // A claim that took more than its job left the rest to their 60 s lease and a second attempt.
      expect(performance.now() - t0).toBeLessThan(60_000);
    }
    expect(runs).toBe(JOBS);
  }, 90_000);

  it('stopping puts a running job back without using up an attempt', async () => {
    const r = runner({ stopGraceMs: 10 });
    const inside = gate();
    r.register('test.long', async (_job, { signal }) => {
      inside.open();
      await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const { id } = await r.enqueue(LIGHTING, { type: 'test.long', payload: {} });
    const running = r.runNext();
    await inside.promise;
    await r.stop();
    await running;
    expect(await r.get(LIGHTING, id)).toMatchObject({ status: 'pending', attempts: 0 });
    // The next process takes it up.
    const next = runner();
    let resumed = 0;
    next.register('test.long', async () => {
      resumed++;
    });
    await next.drain();
    expect(resumed).toBe(1);
  });
});

describe('finished jobs', () => {
  it('are deleted once older than the retention, failed ones after four times as long, in batches', async () => {
    const r = runner({ retentionDays: 7, pruneBatch: 3 });
    r.register('test.old', async () => null);
    const ids: Record<string, string> = {};
    for (const name of [
      'recentDone',
      'oldDone',
      'oldDone2',
      'oldDone3',
      'oldDone4',
      'oldFailed',
      'veryOldFailed',
      'pending',
      'running',
    ]) {
      ids[name] = (await r.enqueue(LIGHTING, { type: 'test.old', payload: {} })).id;
    }
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    const set = (name: string, values: Partial<typeof schema.jobs.$inferInsert>) =>
      database.db
        .update(schema.jobs)
        .set(values)
        .where(eq(schema.jobs.jobId, ids[name] as string));
    await set('recentDone', { status: 'succeeded', finishedAt: days(6) });
    for (const name of ['oldDone', 'oldDone2', 'oldDone3', 'oldDone4'])
      await set(name, { status: 'succeeded', finishedAt: days(8) });
    await set('oldFailed', { status: 'failed', finishedAt: days(20) });
    await set('veryOldFailed', { status: 'failed', finishedAt: days(29) });
    // Waiting or running for ever so long is not finished: never pruned.
    await set('pending', { runAt: days(40), createdAt: days(40) });
    await set('running', { status: 'running', startedAt: days(40), leaseUntil: new Date(Date.now() + 60_000) });

    expect(await r.prune()).toBe(5);
    const left = (await database.db.select({ id: schema.jobs.jobId }).from(schema.jobs)).map((row) => row.id);
    expect(left.sort()).toEqual([ids.recentDone, ids.oldFailed, ids.pending, ids.running].sort());
    expect(await r.prune()).toBe(0);
  });

  it('are pruned by the worker loop itself, without anyone calling prune', async () => {
    const r = runner({ pruneEveryMs: 20 });
    r.register('test.old', async () => null);
    const { id } = await r.enqueue(LIGHTING, { type: 'test.old', payload: {} });
    await database.db
      .update(schema.jobs)
      .set({ status: 'succeeded', finishedAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(schema.jobs.jobId, id));
    await r.start();
    const deadline = Date.now() + 5000;
    while ((await jobRow(id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await jobRow(id)).toBeUndefined();
  });
});

describe('recurring jobs', () => {
  it('run once per store after start, however many processes start, and next at the daily time', async () => {
    const ran: string[] = [];
    const processes = [runner({ workerId: 'p1', pollMs: 10 }), runner({ workerId: 'p2', pollMs: 10 })];
    for (const p of processes) {
      p.register('test.nightly', async (job) => {
        ran.push(job.tenantId);
        expect(job.ctx).toMatchObject({ productStoreId: job.tenantId === 'garden' ? '9001' : '9000' });
      });
      p.recurring('test.nightly', { dailyAtUtc: '03:00', startupDelayMs: 0 });
    }
    const before = new Date();
    await Promise.all(processes.map((p) => p.start()));
    // Both check the schedule at once; the one that moves it on enqueues the run.
    const enqueued = await Promise.all(processes.map((p) => p.runSchedules()));
    await Promise.all(processes.map((p) => p.drain()));
    expect(enqueued.reduce((s, n) => s + n, 0)).toBeLessThanOrEqual(2);
    expect(ran.sort()).toEqual(['garden', 'lighting']);
    const [schedule] = await database.db.select().from(schema.jobSchedules);
    expect(schedule?.nextRunAt.toISOString()).toBe(nextDailyRun('03:00', before).toISOString());
    expect(await processes[0]?.runSchedules()).toBe(0);
    // A process that starts a moment later (after the run) does not pull the run forward again.
    const late = runner({ workerId: 'p3', pollMs: 10 });
    late.register('test.nightly', async (job) => {
      ran.push(job.tenantId);
    });
    late.recurring('test.nightly', { dailyAtUtc: '03:00', startupDelayMs: 0 });
    await late.start();
    expect(await late.runSchedules()).toBe(0);
    await late.drain();
    expect(ran).toHaveLength(2);
  });

  it('know the next daily time, UTC', () => {
    const at = (iso: string) => new Date(iso);
    const cases: [string, string, string][] = [
      ['03:00', '2026-01-10T02:59:00Z', '2026-01-10T03:00:00.000Z'],
      ['03:00', '2026-01-10T03:00:00Z', '2026-01-11T03:00:00.000Z'],
      ['03:00', '2026-01-31T23:00:00Z', '2026-02-01T03:00:00.000Z'],
      ['23:45', '2026-12-31T23:50:00Z', '2027-01-01T23:45:00.000Z'],
    ];
    for (const [daily, now, next] of cases) expect(nextDailyRun(daily, at(now)).toISOString()).toBe(next);
    expect(() => nextDailyRun('3am', new Date())).toThrow(RangeError);
  });
});

describe('a job handler', () => {
  it('runs in a system context of the store that enqueued it', async () => {
    const r = runner();
    const seen: unknown[] = [];
    r.register('test.ctx', async (job) => {
      seen.push(job.ctx);
    });
    await r.enqueue(systemContext(GARDEN, 'test'), { type: 'test.ctx', payload: {} });
    await r.drain();
    expect(seen[0]).toMatchObject({
      tenantId: 'garden',
      productStoreId: '9001',
      hostName: 'garden.shop.test',
      actor: { kind: 'system', name: 'job:test.ctx' },
    });
    const [row] = await database.db.select().from(schema.jobs);
    expect(row?.context.enqueuedBy).toBe('system:test');
  });

  it('cannot be registered twice, and a job of an unknown type is refused', async () => {
    const r = runner();
    r.register('test.one', async () => null);
    expect(() => r.register('test.one', async () => null)).toThrow('registered twice');
    await expect(r.enqueue(LIGHTING, { type: 'test.nobody', payload: {} })).rejects.toThrow('No handler');
  });
});
