/** The jobs table's statements whose shape matters (the claim, the prune, a keyed insert), apart from the runner's loop. */
import { type Db, schema } from '@app/db';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { JobRow, Tx } from './job-model';

const j = schema.jobs;

/**
 * Jobs of a suspended store wait (decision 099): nothing of the store runs until it is resumed, and
 * then everything that came due runs. Mail is the exception: the owner's mail about the suspension
 * and receipts of orders placed before it still go out. One primary-key probe per candidate row.
 */
const RUNNABLE_STORE = sql`(jobs.type = 'mail.send' OR NOT EXISTS (
      SELECT 1 FROM store_lifecycle sl WHERE sl.tenant_id = jobs.tenant_id AND sl.state = 'suspended'))`;

/**
 * The rule above for one database. On the home database its own `store_lifecycle` decides. On
 * another (decision 123) the stores suspended at home are named instead: a store's state is a
 * platform row, written at home, and the copy a moved store took along is as old as the move.
 */
export function runnableStore(suspendedAtHome?: readonly string[]): SQL {
  if (!suspendedAtHome) return RUNNABLE_STORE;
  return sql`(jobs.type = 'mail.send' OR NOT (jobs.tenant_id = ANY(${sql.param(suspendedAtHome)}::text[])))`;
}

/**
 * The statement that claims one due job (or one whose worker's lease ran out) of a type this process can run.
 *
 * Exactly one, whatever the plan: the job is chosen by a subquery in WHERE that refers to nothing
 * outside it, which PostgreSQL runs once per statement (an InitPlan) before the update reads a row.
 * The row is named by its `ctid`, which the subquery has locked: a TID scan in every plan, where
 * a plan made for an empty table would scan the whole table for a key on every poll.
 * It used to be a `LIMIT 1 ... FOR UPDATE SKIP LOCKED` subquery in FROM, joined to `jobs`: planned
 * while the table looked empty (every fresh start; PGlite keeps its statistics), the join scanned
 * the jobs outside and ran the subquery again for each one, and each run skipped the rows this
 * statement had just updated and locked the next due job, so one claim marked every due job
 * `running` while the runner ran only the first; the rest waited out their lease and lost an
 * attempt (999 of 1,000 stores' sweeps).
 *
 * Fair between kinds: each claim prefers the next registered type in turn, else takes the oldest
 * due job of any type, so a mail due behind a thousand sweeps (or a sweep behind a newsletter's
 * thousands of mails) waits a few claims, not the whole queue.
 */
export function claimStatement(
  types: string[],
  preferred: string,
  workerId: string,
  leaseMs: number,
  runnable: SQL = RUNNABLE_STORE,
): SQL {
  return sql`
  UPDATE jobs SET
    status = 'running',
    attempts = jobs.attempts + 1,
    locked_by = ${workerId},
    lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
    started_at = coalesce(jobs.started_at, now()),
    updated_at = now()
  WHERE ctid = (
    SELECT ctid FROM jobs
    WHERE type IN (${sql.join(
      types.map((t) => sql`${t}`),
      sql`, `,
    )})
      AND ((status = 'pending' AND run_at <= now()) OR (status = 'running' AND lease_until < now()))
      AND ${runnable}
    ORDER BY type = ${preferred} DESC, run_at
    LIMIT 1
    FOR UPDATE SKIP LOCKED
  )
  RETURNING *`;
}

/**
 * The statement that deletes jobs finished longer ago than the retention (failed ones after four times as long), a
 * batch a statement. `ctid` names the rows the batch's subquery locked,
 * found by a TID scan and chosen once per statement, as the claim's job is.
 */
export function pruneStatement(retentionDays: number, pruneBatch: number): SQL {
  return sql`
  DELETE FROM jobs WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM jobs
    WHERE (status = 'succeeded' AND finished_at < now() - make_interval(days => ${retentionDays}))
       OR (status = 'failed' AND finished_at < now() - make_interval(days => ${retentionDays * 4}))
    LIMIT ${pruneBatch}
    FOR UPDATE SKIP LOCKED
  ))
  RETURNING 1`;
}

/** Inserts a job row; with a key, at most one pending or running job holds it (the winner's job is answered). */
export async function insertJobRow(q: Db | Tx, values: typeof j.$inferInsert): Promise<JobRow> {
  const key = values.key;
  if (!key) {
    const [row] = await q.insert(j).values(values).returning();
    return row as JobRow;
  }
  // The partial unique index decides between concurrent enqueues; the loser reads the winner's job.
  // If that job finished in between, the key is free again and the insert is tried once more.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await q
      .insert(j)
      .values(values)
      .onConflictDoNothing({
        target: [j.tenantId, j.type, j.key],
        where: sql`key IS NOT NULL AND status IN ('pending', 'running')`,
      })
      .returning();
    if (row) return row;
    const [existing] = await q
      .select()
      .from(j)
      .where(
        and(
          eq(j.tenantId, values.tenantId),
          eq(j.type, values.type),
          eq(j.key, key),
          inArray(j.status, ['pending', 'running']),
        ),
      );
    if (existing) return existing;
  }
  throw new Error(`Could not enqueue job ${values.type}/${key}: its key kept changing hands.`);
}
