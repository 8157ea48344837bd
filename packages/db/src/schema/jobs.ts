import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/** What a job knows of the store it runs for, and who asked for it (decision 017). */
export interface JobContext {
  productStoreId: string;
  hostName: string;
  origin: string;
  viaDevAlias: boolean;
  /** The request that enqueued it, or the schedule's name. */
  requestId: string;
  /** `shopper:<userId>`, `staff:<userId>`, `guest`, `system:<name>`. */
  enqueuedBy: string;
}

export interface JobProgress {
  done: number;
  total: number;
  errors?: string[];
}

/**
 * Long work as database-backed jobs (decision 017): a worker claims a due job with
 * `FOR UPDATE SKIP LOCKED` and holds it under a lease; a worker that dies lets the lease run out and
 * another takes the job again. `key` makes an enqueue idempotent while a job of that key is pending or
 * running (a partial unique index, so concurrent enqueues cannot both insert).
 */
export const jobs = pgTable(
  'jobs',
  {
    tenantId: text('tenant_id').notNull(),
    jobId: text('job_id').notNull(),
    type: text('type').notNull(),
    key: text('key'),
    status: text('status', { enum: ['pending', 'running', 'succeeded', 'failed'] }).notNull(),
    payload: jsonb('payload').$type<unknown>().notNull(),
    context: jsonb('context').$type<JobContext>().notNull(),
    /** Attempts started so far, the running one included; the fencing token of a claim. */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    progress: jsonb('progress').$type<JobProgress>(),
    result: jsonb('result').$type<unknown>(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.jobId] }),
    uniqueIndex('jobs_key_uq')
      .on(t.tenantId, t.type, t.key)
      .where(sql`${t.key} IS NOT NULL AND ${t.status} IN ('pending', 'running')`),
    index('jobs_tenant_created_idx').on(t.tenantId, t.createdAt),
    // A page showing the latest job of a type (the sitemap's generation) among a store's many mails.
    index('jobs_tenant_type_created_idx').on(t.tenantId, t.type, t.createdAt),
    // The worker's poll serves every store at once, so these two lead with what it filters on, not
    // the tenant (decision 017: the one exception to tenant-first indexes).
    index('jobs_due_idx').on(t.runAt).where(sql`${t.status} = 'pending'`),
    index('jobs_lease_idx').on(t.leaseUntil).where(sql`${t.status} = 'running'`),
    check('jobs_attempts_ck', sql`${t.attempts} >= 0 AND ${t.maxAttempts} >= 1`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/**
 * Recurring jobs of the platform (the nightly sweep of stuck orders, ...): one row per schedule. The
 * process whose `UPDATE ... WHERE next_run_at <= now()` moves `next_run_at` on is the one that enqueues
 * that run, so several app processes never start the same run twice. Not tenant-owned: a run enqueues
 * one job per store.
 */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
