// The recurring schedules: a job type run in every store daily at a set time (and once shortly after a
// process starts). Separate from the runner (jobs.service.ts): a schedule only enqueues, once across
// every process (the job_schedules row is what one process wins), and the lanes then run what it
// enqueued like any other job.
import { type Db, schema } from '@app/db';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { type RequestContext, systemContext, type TenantContext } from '../../lib/context';
import {
  type EnqueueInput,
  type JobRunnerOptions,
  js,
  nextDailyRun,
  type RecurringOptions,
  type Tx,
} from './job-model';

export interface JobSchedulesDeps {
  /** The runner's own (home) database: the schedules, and the jobs they enqueue, are kept there. */
  db: Db;
  log: JobRunnerOptions['log'];
  linkOrigin: JobRunnerOptions['linkOrigin'];
  /** The schedules registered with `recurring`, by job type. */
  schedules: ReadonlyMap<string, RecurringOptions>;
  /** Writes one job (the runner's insertJob). */
  insertJob(q: Tx, ctx: TenantContext | RequestContext, input: EnqueueInput): Promise<unknown>;
  /** Wakes the idle lanes, for the jobs just enqueued. */
  wake(): void;
}

/** The runner's schedules: `initSchedules` at start, `runSchedules` from the first lane. */
export function createJobSchedules({ db, log, linkOrigin, schedules, insertJob, wake }: JobSchedulesDeps) {
  /**
   * Enqueues one job per store for each recurring schedule that is due. The `UPDATE ... WHERE
   * next_run_at <= now()` that moves the schedule on is what only one process can win.
   */
  async function runSchedules(now = new Date()): Promise<number> {
    let enqueued = 0;
    for (const [name, s] of schedules) {
      enqueued += await db.transaction(async (tx) => {
        const won = await tx
          .update(js)
          .set({ nextRunAt: nextDailyRun(s.dailyAtUtc, now), lastRunAt: sql`now()`, updatedAt: sql`now()` })
          .where(and(eq(js.name, name), lte(js.nextRunAt, sql`now()`)))
          .returning({ name: js.name });
        if (won.length === 0) return 0;
        const stores = await tx
          .selectDistinctOn([schema.productStores.tenantId], {
            tenantId: schema.productStores.tenantId,
            productStoreId: schema.productStores.productStoreId,
            host: schema.productStores.canonicalHost,
          })
          .from(schema.productStores)
          .where(s.stores?.())
          .orderBy(asc(schema.productStores.tenantId), asc(schema.productStores.productStoreId));
        for (const store of stores) {
          const ctx = systemContext(
            {
              tenantId: store.tenantId,
              productStoreId: store.productStoreId,
              hostName: store.host,
              origin: linkOrigin(store.host),
              viaDevAlias: false,
            },
            `schedule:${name}`,
          );
          // The key keeps a run that is still going from being doubled by the next one.
          await insertJob(tx, ctx, { type: name, payload: s.payload ?? {}, key: name });
        }
        log.info({ schedule: name, stores: stores.length }, 'recurring job enqueued');
        return stores.length;
      });
    }
    if (enqueued > 0) wake();
    return enqueued;
  }

  /**
   * Makes sure each schedule has a row, and pulls the next run forward to "shortly after start",
   * unless a process ran it within the last minute: processes that start one after another (a rolling
   * deploy, or a slow machine) then still give one run, whichever of them gets to the schedule first.
   */
  async function initSchedules() {
    for (const [name, s] of schedules) {
      const nightly = nextDailyRun(s.dailyAtUtc, new Date());
      const first =
        s.startupDelayMs === null ? nightly : new Date(Math.min(nightly.getTime(), Date.now() + s.startupDelayMs));
      await db
        .insert(js)
        .values({ name, nextRunAt: first })
        .onConflictDoUpdate({
          target: js.name,
          set: { nextRunAt: sql`least(${js.nextRunAt}, excluded.next_run_at)`, updatedAt: sql`now()` },
          setWhere: sql`${js.lastRunAt} IS NULL OR ${js.lastRunAt} < now() - interval '60 seconds'`,
        });
    }
  }

  return { runSchedules, initSchedules };
}
