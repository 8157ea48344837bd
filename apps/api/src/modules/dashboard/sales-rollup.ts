import { orderStatuses } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';

/**
 * Keeps a store's daily sales rollups (schema/sales-rollup.ts) exact before the home reads them.
 *
 * Every change that can move a figure sets `orders.updated_at` (transitionOrder, refunds, checkout's
 * insert), so the days to rebuild are the UTC days of the orders updated since the last read. Each
 * such day is rebuilt whole from its orders (delete, then insert the day's aggregates), so a rebuild
 * is idempotent and a missed or repeated event cannot skew a figure: there is no event at all, and
 * checkout writes nothing more per order. The first read builds every day once.
 *
 * The watermark trails the database clock by OVERLAP: an order written by a transaction that
 * commits a little after a read (its updated_at earlier than the read) is picked up by the next one.
 * A per-store advisory lock makes concurrent readers rebuild one after the other.
 */
const OVERLAP = '5 minutes';
/** Past this many changed days, one pass over the whole store is cheaper than a range per day. */
const MAX_DAYS_BY_RANGE = 200;

/**
 * An order counts as a sale once it was paid: every status but `placed` (awaiting payment) and
 * `cancelled` (never paid). Refunded orders stay counted: these are gross sales (decisions 021, 048).
 */
export const SOLD_STATUSES = orderStatuses.filter((s) => s !== 'placed' && s !== 'cancelled');

/** A text[] literal, each element quoted (keys are emails and ids: any character may occur). */
const textArray = (items: string[]) =>
  `{${items.map((i) => `"${i.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

const o = schema.orders;
type Rows<T> = { rows: T[] };
const soldList = sql.join(
  SOLD_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);
const dayOf = sql`(${o.placedAt} AT TIME ZONE 'UTC')::date`;
const keyOf = sql`coalesce(${o.userId}, lower(${o.email}))`;

export async function refreshSalesRollup(db: Db, tenantId: string): Promise<{ days: number }> {
  return db.transaction(async (tx) => {
    const run = async <T>(q: SQL) => ((await tx.execute(q)) as unknown as Rows<T>).rows;
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sales-rollup:${tenantId}`}))`);
    const [state] = await run<{ read_up_to: string | null; now: string }>(sql`
      SELECT (SELECT read_up_to FROM sales_rollup_state WHERE tenant_id = ${tenantId})::text AS read_up_to,
             now()::text AS now`);
    const since = state?.read_up_to ?? null;
    const changed = since
      ? (
          await run<{ day: string }>(sql`
            SELECT DISTINCT (placed_at AT TIME ZONE 'UTC')::date::text AS day FROM orders
             WHERE tenant_id = ${tenantId} AND updated_at >= ${since}::timestamptz - ${OVERLAP}::interval`)
        ).map((r) => r.day)
      : null;
    if (changed && changed.length === 0) {
      await tx.execute(
        sql`UPDATE sales_rollup_state SET read_up_to = ${state?.now}::timestamptz WHERE tenant_id = ${tenantId}`,
      );
      return { days: 0 };
    }
    // null: every day of the store (the first build, or too many days changed for ranges to pay).
    const days = changed && changed.length <= MAX_DAYS_BY_RANGE ? changed : null;
    const where = days
      ? sql`${o.tenantId} = ${tenantId} AND (${sql.join(
          days.map(
            (d) =>
              sql`(${o.placedAt} >= ${`${d}T00:00:00Z`}::timestamptz AND ${o.placedAt} < ${`${d}T00:00:00Z`}::timestamptz + interval '1 day')`,
          ),
          sql` OR `,
        )})`
      : sql`${o.tenantId} = ${tenantId}`;
    const inDays = days ? sql`AND day = ANY(${`{${days.join(',')}}`}::date[])` : sql``;
    // The customers of the rebuilt days, before and after: their first days may move.
    const before = await run<{ currency: string; customer_key: string }>(sql`
      SELECT DISTINCT currency, customer_key FROM customer_sales_daily WHERE tenant_id = ${tenantId} ${inDays}`);
    for (const table of ['sales_daily', 'product_sales_daily', 'customer_sales_daily']) {
      await tx.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE tenant_id = ${tenantId} ${inDays}`);
    }
    const sold = sql`${where} AND ${o.status} IN (${soldList})`;
    await tx.execute(sql`
      INSERT INTO sales_daily (tenant_id, currency, day, orders, sales, refunded)
      SELECT ${tenantId}, ${o.currency}, ${dayOf}, count(*), sum(${o.grandTotal}), sum(${o.refundedAmount})
        FROM ${o} WHERE ${sold} GROUP BY ${o.currency}, ${dayOf}`);
    await tx.execute(sql`
      INSERT INTO product_sales_daily (tenant_id, currency, day, product_id, product_name, units, revenue)
      SELECT ${tenantId}, ${o.currency}, ${dayOf}, l.product_id, max(l.product_name), sum(l.quantity), sum(l.line_total)
        FROM ${o} JOIN order_lines l ON l.tenant_id = ${o.tenantId} AND l.order_id = ${o.orderId}
       WHERE ${sold} GROUP BY ${o.currency}, ${dayOf}, l.product_id`);
    const after = await run<{ currency: string; customer_key: string }>(sql`
      INSERT INTO customer_sales_daily (tenant_id, currency, day, customer_key)
      SELECT DISTINCT ${tenantId}, ${o.currency}, ${dayOf}, ${keyOf} FROM ${o} WHERE ${sold}
      RETURNING currency, customer_key`);
    // First days: recomputed for the customers those days touched (all of them on a first build).
    const touched = new Map<string, { currency: string; key: string }>();
    for (const r of [...before, ...after])
      touched.set(`${r.currency}\0${r.customer_key}`, { currency: r.currency, key: r.customer_key });
    if (touched.size > 0) {
      const pairs = [...touched.values()];
      const currencies = textArray(pairs.map((p) => p.currency));
      const keys = textArray(pairs.map((p) => p.key));
      const who = sql`(currency, customer_key) IN (SELECT * FROM unnest(${currencies}::text[], ${keys}::text[]))`;
      if (days) await tx.execute(sql`DELETE FROM customer_first_orders WHERE tenant_id = ${tenantId} AND ${who}`);
      else await tx.execute(sql`DELETE FROM customer_first_orders WHERE tenant_id = ${tenantId}`);
      await tx.execute(sql`
        INSERT INTO customer_first_orders (tenant_id, currency, customer_key, first_day)
        SELECT ${tenantId}, currency, customer_key, min(day) FROM customer_sales_daily
         WHERE tenant_id = ${tenantId} ${days ? sql`AND ${who}` : sql``}
         GROUP BY currency, customer_key`);
    }
    await tx.execute(sql`
      INSERT INTO sales_rollup_state (tenant_id, read_up_to) VALUES (${tenantId}, ${state?.now}::timestamptz)
      ON CONFLICT (tenant_id) DO UPDATE SET read_up_to = excluded.read_up_to`);
    return { days: days ? days.length : -1 };
  });
}
