import type { Db } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import { ident, rowsOf, type TenantTable } from '../store-archive/index';

/**
 * Rows of one store copied from one PostgreSQL database to another, whatever the table (decision
 * 123). The source answers rows as JSON; the target takes them through `json_populate_recordset`,
 * which reads every value with its column's own input function, so each arrives exactly as it left.
 *
 * The target writes with `session_replication_role = replica`, as logical replication does: its
 * triggers (the customer summaries, the audit log's guard) and foreign-key checks stay quiet, so rows
 * may arrive in any order and derived rows arrive as the source has them rather than computed
 * again. That setting needs a superuser (or, on PostgreSQL 15+, a role granted SET on it).
 */

const PAGE = 500;

const list = (names: readonly string[]) =>
  sql.join(
    names.map((n) => ident(n)),
    sql`, `,
  );

/** Columns written on the target: generated ones are computed there. */
const writable = (t: TenantTable) => t.columns.filter((c) => !c.generated).map((c) => c.name);

/** One page of the store's rows after `after` (the last row of the previous page, as JSON), in key order. */
export async function readPage(
  source: Db,
  t: TenantTable,
  tenantId: string,
  after: string | null,
): Promise<{ json: string; count: number; last: string | null }> {
  const pk = list(t.primaryKey);
  const cols = list(writable(t));
  const past = after
    ? sql`AND (${pk}) > (SELECT ${pk} FROM json_populate_record(NULL::${ident(t.name)}, ${after}::json))`
    : sql``;
  const [r] = await rowsOf<{ json: string | null; count: number; last: string | null }>(
    source,
    sql`WITH page AS (
          SELECT ${cols} FROM ${ident(t.name)} WHERE tenant_id = ${tenantId} ${past} ORDER BY ${pk} LIMIT ${PAGE}
        )
        SELECT json_agg(page)::text AS json, count(*)::int AS count,
               (SELECT row_to_json(l)::text FROM (SELECT * FROM page ORDER BY ${pk} DESC LIMIT 1) l) AS last
        FROM page`,
  );
  return { json: r?.json ?? '[]', count: r?.count ?? 0, last: r?.last ?? null };
}

/** The source's current rows for these keys (a JSON array of `{ column: value }` keys). */
export async function readKeys(source: Db, t: TenantTable, keys: string): Promise<string> {
  const pk = list(t.primaryKey);
  const [r] = await rowsOf<{ json: string | null }>(
    source,
    sql`SELECT json_agg(r)::text AS json FROM (
          SELECT ${list(writable(t))} FROM ${ident(t.name)}
          WHERE (${pk}) IN (SELECT ${pk} FROM json_populate_recordset(NULL::${ident(t.name)}, ${keys}::json))
        ) r`,
  );
  return r?.json ?? '[]';
}

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Runs `work` in one transaction of the target with its triggers and foreign-key checks quiet. */
export async function asReplica<T>(target: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return target.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    return work(tx);
  });
}

/**
 * Writes rows (a JSON array) into the target: new keys inserted, known keys overwritten. `keepExisting`
 * leaves a row the target already has as it is (the platform's own rows, whose home copy is the truth).
 */
export async function upsertRows(tx: Tx, t: TenantTable, json: string, keepExisting = false): Promise<void> {
  const cols = writable(t);
  const rest = cols.filter((c) => !t.primaryKey.includes(c));
  const overriding = t.columns.some((c) => c.identityAlways) ? sql`OVERRIDING SYSTEM VALUE` : sql``;
  const onConflict: SQL =
    keepExisting || rest.length === 0
      ? sql`ON CONFLICT (${list(t.primaryKey)}) DO NOTHING`
      : sql`ON CONFLICT (${list(t.primaryKey)}) DO UPDATE SET ${sql.join(
          rest.map((c) => sql`${ident(c)} = EXCLUDED.${ident(c)}`),
          sql`, `,
        )}`;
  await tx.execute(
    sql`INSERT INTO ${ident(t.name)} (${list(cols)}) ${overriding}
        SELECT ${list(cols)} FROM json_populate_recordset(NULL::${ident(t.name)}, ${json}::json) ${onConflict}`,
  );
}

/** Deletes the target's rows with these keys (a JSON array of keys). */
export async function deleteKeys(tx: Tx, t: TenantTable, keys: string): Promise<void> {
  const pk = list(t.primaryKey);
  await tx.execute(
    sql`DELETE FROM ${ident(t.name)}
        WHERE (${pk}) IN (SELECT ${pk} FROM json_populate_recordset(NULL::${ident(t.name)}, ${keys}::json))`,
  );
}

/** Moves every sequence the copied tables draw from past the source's value, so new ids never collide. */
export async function alignSequences(source: Db, target: Db, tables: readonly TenantTable[]): Promise<void> {
  const seqs = new Set(tables.flatMap((t) => t.columns.map((c) => c.sequence).filter((s): s is string => !!s)));
  for (const seq of seqs) {
    const [s] = await rowsOf<{ v: string }>(source, sql`SELECT last_value::text AS v FROM ${sql.raw(seq)}`);
    if (!s) continue;
    await target.execute(
      sql`SELECT setval(${seq}::regclass, GREATEST(${s.v}::bigint, (SELECT last_value FROM ${sql.raw(seq)})))`,
    );
  }
}
