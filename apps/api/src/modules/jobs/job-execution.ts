// Running one claimed job: its lease's heartbeat, the handler in the store's context, and what its
// outcome writes back (succeeded, failed, or pending again after a backoff). Separate from the runner
// (jobs.service.ts), which decides when to claim and from which database; this file is what happens
// to a job once it is ours, and the only place that writes a claimed job's row.
import type { Db } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import { systemContext } from '../../lib/context';
import {
  type Job,
  type JobHandler,
  type JobProgress,
  type JobRow,
  type JobRunnerOptions,
  type JobTools,
  j,
  LeaseLostError,
} from './job-model';

/** A claimed job and the database it was claimed from, where its lease and result are written. */
export type Claimed = JobRow & { db: Db };

/** What the runner keeps of a registered job type. */
export interface RegisteredType {
  handler: JobHandler<never>;
  maxAttempts: number;
  redact?: (p: never) => unknown;
}

export interface JobExecutionDeps {
  log: JobRunnerOptions['log'];
  workerId: string;
  leaseMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  inStore?: JobRunnerOptions['inStore'];
  handlers: ReadonlyMap<string, RegisteredType>;
  /** Jobs this process is running, so stop() can ask them to stop: kept up to date here. */
  running: Map<string, AbortController>;
  /** Whether the runner is stopping: a job aborted then goes back to the queue without losing an attempt. */
  stopping(): boolean;
}

/** Runs claimed jobs for the runner (createJobRunner): `execute` one, and record how it went. */
export function createJobExecution(deps: JobExecutionDeps) {
  const { log, workerId, leaseMs, retryBaseMs, retryMaxMs, handlers, running } = deps;

  function backoff(attempt: number): number {
    const base = Math.min(retryMaxMs, retryBaseMs * 2 ** (attempt - 1));
    // A little jitter, so jobs that failed together (an SMTP outage) do not all retry in one burst.
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  /** Only the claim that is still ours (same worker, same attempt, still running) may write the job. */
  const ours = (row: JobRow) =>
    and(
      eq(j.tenantId, row.tenantId),
      eq(j.jobId, row.jobId),
      eq(j.status, 'running'),
      eq(j.lockedBy, workerId),
      eq(j.attempts, row.attempts),
    );

  async function renew(row: Claimed, progress?: JobProgress): Promise<boolean> {
    const done = await row.db
      .update(j)
      .set({
        leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
        updatedAt: new Date(),
        ...(progress ? { progress } : {}),
      })
      .where(ours(row))
      .returning({ id: j.jobId });
    return done.length > 0;
  }

  async function finish(row: Claimed, set: Partial<typeof j.$inferInsert>) {
    const done = await row.db
      .update(j)
      .set({ ...set, lockedBy: null, leaseUntil: null, updatedAt: new Date() })
      .where(ours(row))
      .returning({ id: j.jobId });
    if (done.length === 0) {
      log.warn({ jobId: row.jobId, type: row.type }, 'job finished after another worker took it over; result dropped');
    }
  }

  async function execute(row: Claimed) {
    const type = handlers.get(row.type);
    if (!type) return;
    const redacted = (payload: unknown) => (type.redact ? type.redact(payload as never) : payload);
    if (row.attempts > row.maxAttempts) {
      // Its workers kept dying (or being killed) while running it: do not try a poison job forever.
      await finish(row, {
        status: 'failed',
        finishedAt: new Date(),
        payload: redacted(row.payload),
        lastError: row.lastError ?? `The worker running it stopped ${row.maxAttempts} times (lease expired).`,
      });
      log.error({ jobId: row.jobId, type: row.type }, 'job failed: its workers kept stopping');
      return;
    }
    const abort = new AbortController();
    let leaseLost = false;
    const heartbeat = setInterval(
      () =>
        void renew(row)
          .then((ok) => {
            if (!ok && !leaseLost) {
              leaseLost = true;
              abort.abort(new LeaseLostError(row.jobId));
            }
          })
          .catch((err: unknown) => log.warn({ err, jobId: row.jobId }, 'job lease renewal failed')),
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    heartbeat.unref();
    const job: Job = {
      id: row.jobId,
      tenantId: row.tenantId,
      type: row.type,
      key: row.key,
      payload: row.payload,
      attempt: row.attempts,
      maxAttempts: row.maxAttempts,
      ctx: systemContext(
        {
          tenantId: row.tenantId,
          productStoreId: row.context.productStoreId,
          hostName: row.context.hostName,
          origin: row.context.origin,
          viaDevAlias: row.context.viaDevAlias,
        },
        `job:${row.type}`,
        row.jobId,
      ),
    };
    const tools: JobTools = {
      signal: abort.signal,
      async progress(p) {
        if (!(await renew(row, p))) {
          leaseLost = true;
          abort.abort(new LeaseLostError(row.jobId));
          throw new LeaseLostError(row.jobId);
        }
      },
    };
    running.set(row.jobId, abort);
    try {
      const run = () => type.handler(job as never, tools);
      const result = await (deps.inStore ? deps.inStore(row.tenantId, run) : run());
      await finish(row, {
        status: 'succeeded',
        finishedAt: new Date(),
        result: result ?? null,
        payload: redacted(row.payload),
        lastError: null,
      });
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
      if (leaseLost) {
        log.warn({ jobId: row.jobId, type: row.type }, 'job stopped: another worker took it over');
      } else if (deps.stopping() && abort.signal.aborted) {
        // Shutdown is not the job's fault: it goes back to the queue without using up an attempt.
        await finish(row, { status: 'pending', attempts: row.attempts - 1, runAt: new Date(), lastError: message });
      } else if (row.attempts >= row.maxAttempts) {
        await finish(row, {
          status: 'failed',
          finishedAt: new Date(),
          payload: redacted(row.payload),
          lastError: message,
        });
        log.error({ err, jobId: row.jobId, type: row.type, attempts: row.attempts }, 'job failed');
      } else {
        const delay = backoff(row.attempts);
        await finish(row, { status: 'pending', runAt: new Date(Date.now() + delay), lastError: message });
        log.warn({ err, jobId: row.jobId, type: row.type, attempt: row.attempts, retryInMs: delay }, 'job will retry');
      }
    } finally {
      clearInterval(heartbeat);
      running.delete(row.jobId);
    }
  }

  return { execute };
}
