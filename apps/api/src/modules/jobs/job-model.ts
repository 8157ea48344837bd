import { type Db, schema } from '@app/db';
import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext, TenantContext } from '../../lib/context';

export const j = schema.jobs;
export const js = schema.jobSchedules;

/** A transaction of the one database type, for enqueuing in the caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type JobRow = typeof j.$inferSelect;

export type JobStatus = JobRow['status'];
export type JobProgress = schema.JobProgress;

/** A job as a handler sees it: its store (as a system context), its payload and which attempt this is. */
export interface Job<P = unknown> {
  id: string;
  tenantId: string;
  type: string;
  key: string | null;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** The job's store, acting as the platform (`system`, named `job:<type>`). */
  ctx: RequestContext;
}

export interface JobTools {
  /**
   * Stores how far the job is, for a page to show; also renews the lease. Throws `LeaseLostError`
   * when another worker has taken the job over (this one was too slow): the handler must stop.
   */
  progress(p: JobProgress): Promise<void>;
  /** Aborted when the app shuts down or the lease is lost; long handlers should stop at the next step. */
  signal: AbortSignal;
}

/** Returns the job's result (stored as JSON); throws to fail the attempt. */
export type JobHandler<P = unknown> = (job: Job<P>, tools: JobTools) => Promise<unknown>;

export interface RegisterOptions<P> {
  /** Attempts before the job is marked failed; default 5. */
  maxAttempts?: number;
  /**
   * What of the payload to keep once the job has finished (succeeded or failed): mail bodies carry
   * reset links and order keys, which must not stay readable in the table. Default: all of it.
   */
  redact?: (payload: P) => unknown;
}

export interface RecurringOptions {
  /** Every day at this time, UTC ("03:00"). */
  dailyAtUtc: string;
  /** Also run this long after a process starts (null: only on the schedule). */
  startupDelayMs: number | null;
  payload?: unknown;
  /**
   * Only the stores for which this condition holds, a condition on `product_stores` (read at home when
   * the schedule runs). Without it every store gets the job. A schedule that has nothing to do in most
   * stores (the domains' re-check: most stores have no domain of their own) names the ones it serves,
   * so that thousands of stores do not mean thousands of empty jobs every day.
   */
  stores?: () => SQL;
}

export interface EnqueueInput<P = unknown> {
  type: string;
  payload: P;
  /**
   * Idempotency: while a job of this type and key is pending or running in the store, enqueuing again
   * returns that job instead of adding one. Once it has finished, the key is free again.
   */
  key?: string;
  /** Not before this time; default now. */
  runAt?: Date;
  /** Overrides the type's maxAttempts. */
  maxAttempts?: number;
}

/** What a page may show of a job (the payload stays in the table: it may hold what only the handler needs). */
export interface JobView {
  id: string;
  type: string;
  key: string | null;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  progress: JobProgress | null;
  result: unknown;
  error: string | null;
  runAt: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The part of a job every progress view shows: where it is, how far, and its result once it succeeded. */
export interface JobProgressView<R> {
  jobId: string;
  status: JobStatus;
  done: number;
  total: number;
  startedAt: string | null;
  finishedAt: string | null;
  /** The handler's result, once the job succeeded; null before and after a failure. */
  result: R | null;
}

/**
 * A job as a progress view (a store's export, a store's move): the one mapping from a job to what a
 * page or the operator's API shows of it; each caller adds the fields of its own result.
 */
export function jobProgressView<R>(j: JobView): JobProgressView<R> {
  return {
    jobId: j.id,
    status: j.status,
    done: j.progress?.done ?? 0,
    total: j.progress?.total ?? 0,
    startedAt: j.startedAt,
    finishedAt: j.finishedAt,
    result: j.status === 'succeeded' ? ((j.result as R | null) ?? null) : null,
  };
}

export class LeaseLostError extends Error {
  constructor(readonly jobId: string) {
    super(`Job ${jobId} was taken over by another worker after its lease ran out.`);
    this.name = 'LeaseLostError';
  }
}

export interface JobRunnerOptions {
  log: FastifyBaseLogger;
  /** How often an idle worker looks for due jobs; default 1000 ms. Enqueues in this process wake it at once. */
  pollMs?: number;
  /** How long a claim holds without a heartbeat; a dead worker's jobs run again after it. Default 60 s. */
  leaseMs?: number;
  /** First retry after this long, doubling each attempt up to retryMaxMs; defaults 10 s and 30 min. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Jobs run at once by this process; default 2, so one long job does not hold up mail. */
  concurrency?: number;
  /** How often this process checks the recurring schedules; default 30 s. */
  scheduleCheckMs?: number;
  /** On stop, running jobs get this long to finish before they are asked to stop; default 5 s. */
  stopGraceMs?: number;
  /** scheme://host[:port] of a store's canonical host, for the context of scheduled jobs. */
  linkOrigin: (canonicalHost: string) => string;
  /** Names this process in `locked_by`; default host:pid:random. */
  workerId?: string;
  /**
   * Finished jobs are deleted this many days after they finished (JOB_RETENTION_DAYS); failed ones
   * are kept four times as long, since their error is what an operator looks for. Default 7.
   */
  retentionDays?: number;
  /** How often this process prunes finished jobs; default hourly (and once shortly after start). */
  pruneEveryMs?: number;
  /** Rows deleted per statement when pruning, so claims on the one PGlite connection slip in between. */
  pruneBatch?: number;
  /**
   * Runs a handler in its store's context, so the store's queries go to the database holding it
   * (decision 123); the runner's own statements use the handle it was built with.
   */
  inStore?: <T>(tenantId: string, work: () => Promise<T>) => Promise<T>;
  /**
   * Every database holding a `jobs` table to claim from, the runner's own handle first (decision 123:
   * a job enqueued in a store's transaction is written on the store's database). Read at each claim,
   * so a database added later is claimed from too. By default the runner's handle alone.
   */
  databases?: () => readonly Db[];
}

export const toView = (r: JobRow): JobView => ({
  id: r.jobId,
  type: r.type,
  key: r.key,
  status: r.status,
  attempts: r.attempts,
  maxAttempts: r.maxAttempts,
  progress: r.progress ?? null,
  result: r.result ?? null,
  error: r.lastError,
  runAt: r.runAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
  startedAt: r.startedAt?.toISOString() ?? null,
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

/** The next time of day `hh:mm` UTC strictly after `now`. */
export function nextDailyRun(dailyAtUtc: string, now: Date): Date {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(dailyAtUtc);
  if (!m) throw new RangeError(`A daily time is HH:MM (UTC), got "${dailyAtUtc}".`);
  const at = new Date(now);
  at.setUTCHours(Number(m[1]), Number(m[2]), 0, 0);
  if (at <= now) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

export const enqueuedBy = (ctx: TenantContext | RequestContext): string => {
  if (!('actor' in ctx)) return 'unknown';
  const a = ctx.actor;
  if (a.kind === 'guest') return 'guest';
  if (a.kind === 'system') return `system:${a.name}`;
  return `${a.kind}:${a.userId}`;
};

/** Rows pg and PGlite hand back for raw SQL carry snake_case names and, from PGlite, Date values. */
export function rowFromSql(r: Record<string, unknown>): JobRow {
  const date = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));
  return {
    tenantId: r.tenant_id as string,
    jobId: r.job_id as string,
    type: r.type as string,
    key: (r.key as string | null) ?? null,
    status: r.status as JobStatus,
    payload: r.payload,
    context: r.context as schema.JobContext,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    runAt: date(r.run_at) as Date,
    lockedBy: (r.locked_by as string | null) ?? null,
    leaseUntil: date(r.lease_until),
    progress: (r.progress as JobProgress | null) ?? null,
    result: r.result ?? null,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: date(r.created_at) as Date,
    startedAt: date(r.started_at),
    finishedAt: date(r.finished_at),
    updatedAt: date(r.updated_at) as Date,
  };
}

export const rowsOf = (res: unknown) => (res as { rows: Record<string, unknown>[] }).rows;

/** What a job keeps of the context it was enqueued in: its handler runs in a context made of it. */
export function jobContext(ctx: TenantContext | RequestContext) {
  return {
    productStoreId: ctx.productStoreId,
    hostName: ctx.hostName,
    origin: ctx.origin,
    viaDevAlias: ctx.viaDevAlias,
    requestId: 'requestId' in ctx ? ctx.requestId : '',
    enqueuedBy: enqueuedBy(ctx),
  };
}
