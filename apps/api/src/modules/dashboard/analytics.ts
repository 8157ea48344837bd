import {
  type Analytics,
  type AnalyticsQuery,
  type AnalyticsRange,
  type ComparedFigure,
  RANGE_LABELS,
  type SalesPoint,
  TOP_PRODUCTS_LIMIT,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import { refreshSalesRollup, SOLD_STATUSES } from './sales-rollup';

export { SOLD_STATUSES };

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
 * The home's figures from the daily rollups (sales-rollup.ts), brought up to date first: a range
 * reads one row per day (and per product or customer of those days), never the orders themselves.
 * Only "Today"'s hourly chart reads the day's paid orders, through `orders_status_placed_idx`.
 */
export function createAnalytics(db: Db) {
  const run = async <T>(q: SQL) => ((await db.execute(q)) as unknown as Rows<T>).rows;
  const day = (iso: string) => iso.slice(0, 10);
  const daysIn = (table: string, tenantId: string, currency: string, from: string, to: string, column = 'day') =>
    sql`${sql.identifier(table)}.tenant_id = ${tenantId} AND ${sql.identifier(table)}.currency = ${currency}
        AND ${sql.identifier(table)}.${sql.identifier(column)} >= ${day(from)}::date
        AND ${sql.identifier(table)}.${sql.identifier(column)} < ${day(to)}::date`;

  async function totals(tenantId: string, currency: string, r: AnalyticsRange) {
    const inCurrent = sql`day >= ${day(r.from)}::date`;
    const [row] = await run<{
      sales: string;
      orders: string;
      prev_sales: string;
      prev_orders: string;
      refunded: string;
    }>(
      sql`SELECT coalesce(sum(sales) FILTER (WHERE ${inCurrent}), 0) AS sales,
                 coalesce(sum(orders) FILTER (WHERE ${inCurrent}), 0) AS orders,
                 coalesce(sum(refunded) FILTER (WHERE ${inCurrent}), 0) AS refunded,
                 coalesce(sum(sales) FILTER (WHERE NOT ${inCurrent}), 0) AS prev_sales,
                 coalesce(sum(orders) FILTER (WHERE NOT ${inCurrent}), 0) AS prev_orders
            FROM sales_daily WHERE ${daysIn('sales_daily', tenantId, currency, r.previousFrom, r.to)}`,
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
   * how many had one before `from`: all of the period's customers but those whose first day is in it.
   */
  async function returning(tenantId: string, currency: string, from: string, to: string) {
    const [row] = await run<{ customers: string; fresh: string }>(sql`
      SELECT (SELECT count(DISTINCT customer_key) FROM customer_sales_daily
               WHERE ${daysIn('customer_sales_daily', tenantId, currency, from, to)}) AS customers,
             (SELECT count(*) FROM customer_first_orders
               WHERE ${daysIn('customer_first_orders', tenantId, currency, from, to, 'first_day')}) AS fresh`);
    const customers = Number(row?.customers ?? 0);
    return customers === 0 ? 0 : (customers - Number(row?.fresh ?? 0)) / customers;
  }

  async function series(tenantId: string, currency: string, r: AnalyticsRange): Promise<SalesPoint[]> {
    const size = r.bucket === 'hour' ? HOUR_MS : r.bucket === 'day' ? DAY_MS : 7 * DAY_MS;
    const rows =
      r.bucket === 'hour'
        ? await run<{ b: number; orders: string; sales: string }>(sql`
            SELECT floor(extract(epoch FROM ${o.placedAt} - ${ts(r.from)}) * 1000 / ${size})::int AS b,
                   count(*) AS orders, coalesce(sum(${o.grandTotal}), 0) AS sales
              FROM ${o}
             WHERE ${o.tenantId} = ${tenantId} AND ${o.status} IN (${soldList}) AND ${o.currency} = ${currency}
               AND ${o.placedAt} >= ${ts(r.from)} AND ${o.placedAt} < ${ts(r.to)}
             GROUP BY 1`)
        : await run<{ b: number; orders: string; sales: string }>(sql`
            SELECT ((day - ${day(r.from)}::date) / ${size / DAY_MS})::int AS b,
                   sum(orders) AS orders, sum(sales) AS sales
              FROM sales_daily WHERE ${daysIn('sales_daily', tenantId, currency, r.from, r.to)}
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
    // Ranked on the rollup first; today's names are looked up for the few that are shown.
    const rows = await run<{ product_id: string; product_name: string; units: string; revenue: string }>(sql`
      SELECT t.product_id, coalesce(${p.productName}, t.product_name) AS product_name, t.units, t.revenue
        FROM (SELECT product_id, max(product_name) AS product_name, sum(units) AS units, sum(revenue) AS revenue
                FROM product_sales_daily WHERE ${daysIn('product_sales_daily', tenantId, currency, r.from, r.to)}
               GROUP BY product_id
               ORDER BY revenue DESC, units DESC, product_id
               LIMIT ${TOP_PRODUCTS_LIMIT}) t
        LEFT JOIN ${p} ON ${p.tenantId} = ${tenantId} AND ${p.productId} = t.product_id
       ORDER BY t.revenue DESC, t.units DESC, t.product_id`);
    return rows.map((x) => ({
      productId: x.product_id,
      productName: x.product_name,
      units: Number(x.units),
      revenue: Number(x.revenue),
    }));
  }

  return {
    async figures(tenantId: string, currency: string, r: AnalyticsRange): Promise<Analytics> {
      await refreshSalesRollup(db, tenantId);
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
