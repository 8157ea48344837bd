import {
  type Analytics,
  type AnalyticsQuery,
  type AnalyticsRange,
  type ComparedFigure,
  orderStatuses,
  RANGE_LABELS,
  type SalesPoint,
  TOP_PRODUCTS_LIMIT,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';

/**
 * An order counts as a sale once it was paid: every status but `placed` (awaiting payment) and
 * `cancelled` (never paid). Refunded orders stay counted: these are gross sales (decisions 021, 048).
 */
export const SOLD_STATUSES = orderStatuses.filter((s) => s !== 'placed' && s !== 'cancelled');
const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;

/** The start of `now`'s UTC calendar day. A store time zone would replace UTC here (decision 021). */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

const fmtDay = (d: Date) =>
  d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The query's range as whole UTC days, `to` exclusive, and the period of equal length just before it.
 * "Today" is compared with yesterday, "Last 7 days" with the 7 days before, "This month" with as many
 * days before the 1st (decision 048).
 */
export function resolveRange(query: AnalyticsQuery, now: Date): AnalyticsRange {
  const today = startOfUtcDay(now);
  const tomorrow = new Date(today.getTime() + DAY_MS);
  let from: Date;
  let to = tomorrow;
  switch (query.range) {
    case 'today':
      from = today;
      break;
    case '7d':
      from = new Date(today.getTime() - 6 * DAY_MS);
      break;
    case '90d':
      from = new Date(today.getTime() - 89 * DAY_MS);
      break;
    case 'month':
      from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
      break;
    case 'custom':
      // The schema has checked both are present, real, in order and at most a year apart.
      from = new Date(`${query.from}T00:00:00Z`);
      to = new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS);
      break;
    default:
      from = new Date(today.getTime() - 29 * DAY_MS);
  }
  const days = Math.round((to.getTime() - from.getTime()) / DAY_MS);
  const previousFrom = new Date(from.getTime() - days * DAY_MS);
  const label =
    query.range === 'custom'
      ? days === 1
        ? fmtDay(from)
        : `${fmtDay(from)} – ${fmtDay(new Date(to.getTime() - DAY_MS))}`
      : RANGE_LABELS[query.range];
  return {
    preset: query.range,
    label,
    from: from.toISOString(),
    to: to.toISOString(),
    days,
    previousFrom: previousFrom.toISOString(),
    previousTo: from.toISOString(),
    bucket: days === 1 ? 'hour' : days <= 90 ? 'day' : 'week',
  };
}

/** Percent change from `previous` to `value`, one decimal; null when there is nothing to compare with. */
export function compared(value: number, previous: number): ComparedFigure {
  return {
    value,
    previous,
    change: previous === 0 ? null : Math.round(((value - previous) / previous) * 1000) / 10,
  };
}

const o = schema.orders;
const p = schema.products;

type Rows<T> = { rows: T[] };
const ts = (iso: string) => sql`${iso}::timestamptz`;
const soldList = sql.join(
  SOLD_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);

/**
 * The home's figures by aggregate queries over `orders` and `order_lines`, never loading orders:
 * each reads only the range's paid orders through `orders_status_placed_idx` (one range scan per
 * paid status), and the returning-customer rate probes `orders_customer_key_idx` once per customer.
 */
export function createAnalytics(db: Db) {
  const run = async <T>(q: SQL) => ((await db.execute(q)) as unknown as Rows<T>).rows;

  /** The paid orders of a store in one currency placed in [from, to). */
  const paidIn = (tenantId: string, currency: string, from: string, to: string) => sql`
    ${o.tenantId} = ${tenantId} AND ${o.status} IN (${soldList}) AND ${o.currency} = ${currency}
    AND ${o.placedAt} >= ${ts(from)} AND ${o.placedAt} < ${ts(to)}`;

  async function totals(tenantId: string, currency: string, r: AnalyticsRange) {
    const inCurrent = sql`${o.placedAt} >= ${ts(r.from)}`;
    const [row] = await run<{
      sales: string;
      orders: string;
      prev_sales: string;
      prev_orders: string;
      refunded: string;
    }>(
      sql`SELECT coalesce(sum(${o.grandTotal}) FILTER (WHERE ${inCurrent}), 0) AS sales,
                 count(*) FILTER (WHERE ${inCurrent}) AS orders,
                 coalesce(sum(${o.refundedAmount}) FILTER (WHERE ${inCurrent}), 0) AS refunded,
                 coalesce(sum(${o.grandTotal}) FILTER (WHERE NOT ${inCurrent}), 0) AS prev_sales,
                 count(*) FILTER (WHERE NOT ${inCurrent}) AS prev_orders
            FROM ${o} WHERE ${paidIn(tenantId, currency, r.previousFrom, r.to)}`,
    );
    // Sums of integers come back as numeric text: exact, and far inside Number's safe range.
    return {
      sales: Number(row?.sales ?? 0),
      orders: Number(row?.orders ?? 0),
      refunded: Number(row?.refunded ?? 0),
      prevSales: Number(row?.prev_sales ?? 0),
      prevOrders: Number(row?.prev_orders ?? 0),
    };
  }

  /**
   * Of the customers with a paid order in [from, to) (an account, else the email in lower case),
   * how many had a paid order before `from`.
   */
  async function returning(tenantId: string, currency: string, from: string, to: string) {
    const key = sql`coalesce(${o.userId}, lower(${o.email}))`;
    const [row] = await run<{ customers: string; returning: string }>(sql`
      WITH c AS (SELECT DISTINCT ${key} AS k FROM ${o} WHERE ${paidIn(tenantId, currency, from, to)})
      SELECT count(*) AS customers,
             count(*) FILTER (WHERE EXISTS (
               SELECT 1 FROM orders b
                WHERE b.tenant_id = ${tenantId} AND coalesce(b.user_id, lower(b.email)) = c.k
                  AND b.placed_at < ${ts(from)} AND b.status IN (${soldList}) AND b.currency = ${currency})) AS returning
        FROM c`);
    const customers = Number(row?.customers ?? 0);
    return customers === 0 ? 0 : Number(row?.returning ?? 0) / customers;
  }

  async function series(tenantId: string, currency: string, r: AnalyticsRange): Promise<SalesPoint[]> {
    const size = r.bucket === 'hour' ? HOUR_MS : r.bucket === 'day' ? DAY_MS : 7 * DAY_MS;
    const rows = await run<{ b: number; orders: string; sales: string }>(sql`
      SELECT floor(extract(epoch FROM ${o.placedAt} - ${ts(r.from)}) * 1000 / ${size})::int AS b,
             count(*) AS orders, coalesce(sum(${o.grandTotal}), 0) AS sales
        FROM ${o} WHERE ${paidIn(tenantId, currency, r.from, r.to)}
       GROUP BY 1`);
    const byBucket = new Map(rows.map((x) => [Number(x.b), x]));
    const start = Date.parse(r.from);
    const end = Date.parse(r.to);
    const points: SalesPoint[] = [];
    for (let i = 0; start + i * size < end; i++) {
      const hit = byBucket.get(i);
      points.push({
        start: new Date(start + i * size).toISOString(),
        orders: Number(hit?.orders ?? 0),
        sales: Number(hit?.sales ?? 0),
      });
    }
    return points;
  }

  async function topProducts(tenantId: string, currency: string, r: AnalyticsRange) {
    // The lines are read per order of the range (OFFSET 0 keeps the subquery a nested loop over the
    // order_lines key) instead of a hash join that would read every line the store ever sold.
    const rows = await run<{ product_id: string; product_name: string; units: string; revenue: string }>(sql`
      SELECT l.product_id, coalesce(max(${p.productName}), max(l.product_name)) AS product_name,
             sum(l.quantity) AS units, sum(l.line_total) AS revenue
        FROM ${o}
        CROSS JOIN LATERAL (
          SELECT x.product_id, x.product_name, x.quantity, x.line_total FROM order_lines x
           WHERE x.tenant_id = ${o.tenantId} AND x.order_id = ${o.orderId} OFFSET 0) l
        LEFT JOIN ${p} ON ${p.tenantId} = ${tenantId} AND ${p.productId} = l.product_id
       WHERE ${paidIn(tenantId, currency, r.from, r.to)}
       GROUP BY l.product_id
       ORDER BY revenue DESC, units DESC, l.product_id
       LIMIT ${TOP_PRODUCTS_LIMIT}`);
    return rows.map((x) => ({
      productId: x.product_id,
      productName: x.product_name,
      units: Number(x.units),
      revenue: Number(x.revenue),
    }));
  }

  return {
    async figures(tenantId: string, currency: string, r: AnalyticsRange): Promise<Analytics> {
      const [t, rate, prevRate, points, top] = await Promise.all([
        totals(tenantId, currency, r),
        returning(tenantId, currency, r.from, r.to),
        returning(tenantId, currency, r.previousFrom, r.previousTo),
        series(tenantId, currency, r),
        topProducts(tenantId, currency, r),
      ]);
      const aov = t.orders === 0 ? 0 : Math.round(t.sales / t.orders);
      const prevAov = t.prevOrders === 0 ? 0 : Math.round(t.prevSales / t.prevOrders);
      return {
        sales: compared(t.sales, t.prevSales),
        orders: compared(t.orders, t.prevOrders),
        averageOrderValue: compared(aov, prevAov),
        returningCustomerRate: compared(Math.round(rate * 1000) / 1000, Math.round(prevRate * 1000) / 1000),
        refunded: t.refunded,
        series: points,
        topProducts: top,
      };
    },
  };
}
