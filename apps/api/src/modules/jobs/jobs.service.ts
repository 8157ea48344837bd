import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Db, insertWhere, schema } from '@app/db';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../lib/context';
import { type Claimed, createJobExecution, type RegisteredType } from './job-execution';
import {
  type EnqueueInput,
  type JobHandler,
  type JobRow,
  type JobRunnerOptions,
  type JobView,
  j,
  jobContext,
  nextDailyRun,
  type RecurringOptions,
  type RegisterOptions,
  rowFromSql,
  rowsOf,
  type Tx,
  toView,
} from './job-model';
import { createJobSchedules } from './job-schedules';
import { claimStatement, insertJobRow, pruneStatement, runnableStore } from './job-statements';

export * from './job-model';

/** The stores the home database has suspended, read once for a pass over the databases. */
interface HomeStates {
  suspended?: string[];
}

/**
 * Database-backed jobs (decision 017). Modules register a handler per job type and enqueue work in a
 * store's context; a worker loop in every app process claims due jobs with `FOR UPDATE SKIP LOCKED`
 * under a lease, so two processes never run one job at once, and a job whose process died runs again
 * once its lease has run out. Failures retry with exponential backoff up to the type's maxAttempts.
 * The shapes callers use and the row conversions are in job-model.ts, exported from here (decision 090).
 * Running a claimed job (its lease, its outcome, its retries) is in job-execution.ts, the daily
 * schedules in job-schedules.ts.
 *
 * With stores on several databases (decision 123) every database has its own `jobs` table: a job
 * enqueued in a store's transaction is written where that transaction runs, the store's database,
 * so it exists if and only if the write commits. The lanes therefore claim from every database (in
 * turn, the same lanes: the concurrency is the process's, not per database), and a claimed job's
 * bookkeeping (lease, result) goes to the database it was claimed from. Jobs enqueued without a
 * transaction and the daily schedules stay on the runner's own (home) database.
 */
export function createJobRunner(db: Db, opts: JobRunnerOptions) {
  const log = opts.log;
  const pollMs = opts.pollMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 60_000;
  const retryBaseMs = opts.retryBaseMs ?? 10_000;
  const retryMaxMs = opts.retryMaxMs ?? 30 * 60_000;
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const scheduleCheckMs = opts.scheduleCheckMs ?? 30_000;
  const stopGraceMs = opts.stopGraceMs ?? 5000;
  const workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const retentionDays = opts.retentionDays ?? 7;
  const pruneEveryMs = opts.pruneEveryMs ?? 60 * 60_000;
  const pruneBatch = Math.max(1, opts.pruneBatch ?? 500);
  const databases = opts.databases ?? (() => [db]);

  const handlers = new Map<string, RegisteredType>();
  const schedules = new Map<string, RecurringOptions>();
  /** Jobs this process is running, so stop() can ask them to stop. */
  const running = new Map<string, AbortController>();
  /** Claims and runs under way in this process (the loop's and drain's), from before the claim answers. */
  const busy = new Set<Promise<boolean>>();
  const sleepers = new Set<() => void>();
  let started = false;
  let stopping = false;
  let lanes: Promise<void>[] = [];
  let nextScheduleCheck = 0;
  let nextPrune = 0;
  /** The type the next claim prefers, in turn (see `claim`). */
  let turn = 0;
  /** The database the next claim asks first, in turn, so no database's jobs wait behind another's. */
  let dbTurn = 0;

  const wake = () => {
    for (const w of sleepers) w();
    sleepers.clear();
  };
  /**
   * One new job needs one lane: waking them all sent every idle lane to claim, and all but one found
   * nothing (on PGlite each empty claim still costs a statement on the one connection). A lane that is
   * busy claims again when it finishes, so jobs enqueued in a burst are not left waiting.
   */
  const wakeOne = () => {
    const [first] = sleepers;
    first?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      sleepers.add(done);
    });

  /** The row a job is written as. */
  function jobRow(ctx: TenantContext | RequestContext, input: EnqueueInput): typeof j.$inferInsert {
    const type = handlers.get(input.type);
    if (!type) throw new Error(`No handler is registered for job type "${input.type}".`);
    return {
      tenantId: ctx.tenantId,
      jobId: randomUUID(),
      type: input.type,
      key: input.key ?? null,
      status: 'pending',
      payload: input.payload ?? {},
      context: jobContext(ctx),
      maxAttempts: input.maxAttempts ?? type.maxAttempts,
      runAt: input.runAt ?? new Date(),
    };
  }

  async function insertJob(q: Db | Tx, ctx: TenantContext | RequestContext, input: EnqueueInput) {
    const values = jobRow(ctx, input);
    return insertJobRow(q, values);
  }

  const { execute } = createJobExecution({
    log,
    workerId,
    leaseMs,
    retryBaseMs,
    retryMaxMs,
    ...(opts.inStore ? { inStore: opts.inStore } : {}),
    handlers,
    running,
    stopping: () => stopping,
  });
  const { runSchedules, initSchedules } = createJobSchedules({
    db,
    log,
    linkOrigin: opts.linkOrigin,
    schedules,
    insertJob,
    wake,
  });

  /**
   * Claims one due job of a type this process can run (see claimStatement for how and why), from the
   * first database in turn that has one. A database that cannot be reached does not keep the others'
   * jobs waiting: its error is raised only when no other database had a job.
   */
  async function claim(): Promise<Claimed | null> {
    const types = [...handlers.keys()];
    if (types.length === 0) return null;
    const preferred = types[turn++ % types.length] as string;
    const all = databases();
    const first = dbTurn++;
    let failure: unknown;
    const home: HomeStates = {};
    for (let i = 0; i < all.length; i++) {
      const q = all[(first + i) % all.length] as Db;
      try {
        const claimed = claimStatement(types, preferred, workerId, leaseMs, await runnableOn(q, home));
        const [row] = rowsOf(await q.execute(claimed));
        if (row) return { ...rowFromSql(row), db: q };
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure) throw failure;
    return null;
  }

  /**
   * Which stores' jobs may run, on database `q` (job-statements.ts, runnableStore): the stores the
   * home database has suspended wait on every database. `home` keeps the list for one pass.
   */
  async function runnableOn(q: Db, home: HomeStates): Promise<SQL> {
    if (q === db) return runnableStore();
    home.suspended ??= (
      await db
        .select({ tenantId: schema.storeLifecycle.tenantId })
        .from(schema.storeLifecycle)
        .where(eq(schema.storeLifecycle.state, 'suspended'))
    ).map((r) => r.tenantId);
    return runnableStore(home.suspended);
  }

  /**
   * Deletes finished jobs past the retention a batch a statement (pruneStatement), on every database;
   * answers how many went.
   */
  async function prune(): Promise<number> {
    let deleted = 0;
    for (const q of databases()) {
      for (;;) {
        const res = await q.execute(pruneStatement(retentionDays, pruneBatch));
        const n = rowsOf(res).length;
        deleted += n;
        if (n < pruneBatch || stopping) break;
      }
    }
    if (deleted > 0) log.info({ deleted, retentionDays }, 'finished jobs pruned');
    return deleted;
  }

  /** Claims and runs one due job; false when none was due. */
  async function runNext(): Promise<boolean> {
    if (stopping) return false;
    const work = (async () => {
      const row = await claim();
      if (!row) return false;
      await execute(row).catch((err: unknown) =>
        log.error({ err, jobId: row.jobId }, 'job bookkeeping failed; its lease will run out and it runs again'),
      );
      return true;
    })();
    busy.add(work);
    try {
      return await work;
    } finally {
      busy.delete(work);
    }
  }

  async function lane(index: number) {
    while (!stopping) {
      try {
        if (index === 0 && schedules.size > 0 && Date.now() >= nextScheduleCheck) {
          nextScheduleCheck = Date.now() + scheduleCheckMs;
          await runSchedules();
        }
        if (index === 0 && Date.now() >= nextPrune) {
          nextPrune = Date.now() + pruneEveryMs;
          await prune();
        }
        if (await runNext()) continue;
      } catch (err) {
        if (stopping) return;
        log.error({ err }, 'job worker could not reach the database; trying again');
      }
      await sleep(pollMs);
    }
  }

  /**
   * The earliest time something this process can run comes due on any database: a pending job, or a
   * lease running out.
   */
  async function nextDue(): Promise<Date | null> {
    const types = [...handlers.keys()];
    if (types.length === 0) return null;
    let earliest: Date | null = null;
    const home: HomeStates = {};
    for (const q of databases()) {
      const at = await nextDueOn(q, types, await runnableOn(q, home));
      if (at && (!earliest || at < earliest)) earliest = at;
    }
    return earliest;
  }

  async function nextDueOn(q: Db, types: string[], runnable: SQL): Promise<Date | null> {
    const res = await q.execute(sql`
      SELECT min(CASE WHEN status = 'pending' THEN run_at ELSE lease_until END) AS at FROM jobs
      WHERE type IN (${sql.join(
        types.map((t) => sql`${t}`),
        sql`, `,
      )}) AND (status = 'pending' OR (status = 'running' AND locked_by IS DISTINCT FROM ${workerId}))
        AND ${runnable}`);
    const at = rowsOf(res)[0]?.at;
    return at == null ? null : at instanceof Date ? at : new Date(String(at));
  }

  return {
    workerId,

    /**
     * Registers what runs jobs of `type` (`mail.send`, `orders.sweep-stuck`, ...), by the module that
     * owns the work. A job runs at least once, not exactly once: a worker that dies after the work but
     * before recording it leaves the job to run again, and a retry repeats what the failed attempt
     * already did. So handlers must be idempotent: check before acting (the order is still placed),
     * write under row locks or unique keys, and pass stable idempotency keys to outside services.
     */
    register<P>(type: string, handler: JobHandler<P>, options: RegisterOptions<P> = {}) {
      if (handlers.has(type)) throw new Error(`Job type "${type}" is registered twice.`);
      handlers.set(type, {
        handler: handler as JobHandler<never>,
        maxAttempts: options.maxAttempts ?? 5,
        ...(options.redact ? { redact: options.redact as (p: never) => unknown } : {}),
      });
    },

    /**
     * Runs `type` in every store daily at `dailyAtUtc`, and once `startupDelayMs` after a process starts.
     * With several processes each run is enqueued once (the schedule row), and a store's run that is
     * still going is not doubled (the job key). The type's handler must be registered too.
     */
    recurring(type: string, options: RecurringOptions) {
      nextDailyRun(options.dailyAtUtc, new Date());
      schedules.set(type, options);
    },

    /**
     * Adds a job for the context's store. Pass `tx` to enqueue in the caller's transaction, so the job
     * exists if and only if the write that caused it commits.
     */
    async enqueue<P>(
      ctx: TenantContext | RequestContext,
      input: EnqueueInput<P>,
      options: { tx?: Tx } = {},
    ): Promise<JobView> {
      const row = await insertJob(options.tx ?? db, ctx, input);
      // In a transaction the job is not visible before the commit; the next poll finds it.
      if (!options.tx && started) wakeOne();
      return toView(row);
    },

    /**
     * The job's insert as a statement to run inside another (a part of its WITH, as
     * `transitionOrder`'s `alongside`), written only when `condition` holds. Call `committed()` once
     * that statement has committed. Without a key: a key's conflict is settled by enqueue's retries.
     */
    insertWhere<P>(ctx: TenantContext | RequestContext, input: EnqueueInput<P>, condition: SQL): SQL {
      if (input.key) throw new Error('insertWhere: a job with a key goes through enqueue');
      return insertWhere(j, [jobRow(ctx, input as EnqueueInput)], condition);
    },

    /** Jobs enqueued in a transaction (`tx`) that has now committed: an idle lane claims them now. */
    committed() {
      if (started) wakeOne();
    },

    /**
     * A job of the context's store; another store's job is not found. Looked for on every database:
     * a job is where it was enqueued, which for a store that moved may be where it used to live.
     */
    async get(ctx: TenantContext, id: string): Promise<JobView | null> {
      for (const q of databases()) {
        const [row] = await q
          .select()
          .from(j)
          .where(and(eq(j.tenantId, ctx.tenantId), eq(j.jobId, id)));
        if (row) return toView(row);
      }
      return null;
    },

    /**
     * The store's newest job of `type` (running, waiting or finished), for a page showing its
     * progress: the newest of every database's.
     */
    async latest(ctx: TenantContext, type: string): Promise<JobView | null> {
      let newest: JobRow | null = null;
      for (const q of databases()) {
        const [row] = await q
          .select()
          .from(j)
          .where(and(eq(j.tenantId, ctx.tenantId), eq(j.type, type)))
          .orderBy(desc(j.createdAt), desc(j.jobId))
          .limit(1);
        if (row && (!newest || row.createdAt > newest.createdAt)) newest = row as JobRow;
      }
      return newest ? toView(newest) : null;
    },

    runNext,
    runSchedules,
    prune,

    /**
     * Runs jobs until nothing this process can run is due within `dueWithinMs` (by default
     * `timeoutMs`: retries that come due in time included), and waits for the jobs its worker loop is
     * running. For tests and scripts: "the mail has been handed to the transport". A caller waiting
     * for work that is due now passes `dueWithinMs: 0`: a job queued for later by the same change (the
     * sitemap's regeneration at the end of its five-minute window) is then not waited for, which
     * made a test's time depend on the clock (up to a minute when the window was about to close).
     */
    async drain({ timeoutMs = 10_000, dueWithinMs = timeoutMs }: { timeoutMs?: number; dueWithinMs?: number } = {}) {
      const deadline = Date.now() + timeoutMs;
      const horizon = Date.now() + dueWithinMs;
      for (;;) {
        while (await runNext()) {}
        // The loop may hold a claim the database has answered and this process not yet seen.
        await Promise.allSettled([...busy]);
        const next = await nextDue();
        if (next === null || next.getTime() > horizon) {
          if (busy.size === 0) return;
          continue;
        }
        if (Date.now() > deadline) throw new Error(`Jobs were still due after ${timeoutMs} ms.`);
        await new Promise((r) => setTimeout(r, Math.max(1, Math.min(next.getTime() - Date.now(), 50))));
      }
    },

    /** Starts the worker loop; called when the app is ready. */
    async start() {
      if (started || stopping) return;
      await initSchedules();
      started = true;
      // The first prune a minute after start, not in the middle of it.
      nextPrune = Date.now() + Math.min(pruneEveryMs, 60_000);
      lanes = Array.from({ length: concurrency }, (_, i) => lane(i));
    },

    /** Stops taking jobs, lets running ones finish (then asks them to stop), and waits for the loop. */
    async stop() {
      stopping = true;
      wake();
      if (busy.size > 0) {
        const grace = new Promise<void>((r) => setTimeout(r, stopGraceMs).unref());
        await Promise.race([Promise.allSettled([...busy]), grace]);
        for (const abort of running.values()) abort.abort(new Error('The app is shutting down.'));
        await Promise.allSettled([...busy]);
      }
      await Promise.all(lanes);
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
