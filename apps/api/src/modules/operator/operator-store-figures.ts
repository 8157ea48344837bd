// The console's figures: the 30-day orders and sales per store that the stores list shows and sorts
// by (kept in operator_store_figures, recomputed at most every few minutes), and the platform's
// figures per day. Separate from the list and the actions: summing every store's orders is its own
// concern, with its own cache and its own reads of the databases moved stores live on.
import { type PlatformFigures, STORE_STATES, type StoreState } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { count, type SQL, sql } from 'drizzle-orm';
import type { StoreDatabases } from '../../lib/store-databases';

/** The 30-day figures the list sorts by are recomputed when older than this. */
export const STORE_FIGURES_MAX_AGE_MS = 5 * 60_000;

/** Orders that count as sales: paid ones (every status but placed and cancelled), as the dashboard counts. */
export const PAID = sql`status NOT IN ('placed', 'cancelled')`;

/** The rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
export const rowsOf = async <T>(db: Db, q: SQL): Promise<T[]> =>
  ((await db.execute(q)) as unknown as { rows: T[] }).rows;

/**
 * The 30-day figures the stores list reads, and the time they were computed: one set per process,
 * refreshed behind the list once older than STORE_FIGURES_MAX_AGE_MS.
 */
export function createStoreFigures(db: Db, stores: Pick<StoreDatabases, 'movedStores' | 'get'>) {
  let figuresAt: Date | null = null;
  let refreshing: Promise<void> | null = null;

  /** Every store's 30-day figures, in one statement when every store is on the home database. */
  async function refreshFigures() {
    const everyStore = sql`
      INSERT INTO operator_store_figures (tenant_id, orders_30d, sales_30d, currency, computed_at)
      SELECT t.tenant_id, coalesce(o.n, 0), coalesce(o.s, 0), coalesce(ps.currency_uom_id, 'USD'), now()
      FROM tenants t
      LEFT JOIN LATERAL (
        SELECT currency_uom_id FROM product_stores p WHERE p.tenant_id = t.tenant_id
        ORDER BY p.product_store_id LIMIT 1
      ) ps ON true
      LEFT JOIN (
        SELECT tenant_id, currency, count(*)::int AS n, sum(grand_total)::bigint AS s
        FROM orders WHERE placed_at >= now() - interval '30 days' AND ${PAID}
        GROUP BY tenant_id, currency
      ) o ON o.tenant_id = t.tenant_id AND o.currency = ps.currency_uom_id
      ON CONFLICT (tenant_id) DO UPDATE SET orders_30d = excluded.orders_30d, sales_30d = excluded.sales_30d,
        currency = excluded.currency, computed_at = excluded.computed_at`;
    const elsewhere = await movedStoresFigures();
    if (!elsewhere.length) await db.execute(everyStore);
    else {
      // A moved store's orders are on its own database (decision 123), and the home database may
      // still hold the copy it left: its figures are summed there and written over the home
      // statement's, in the same transaction, so no list reads the one without the other.
      await db.transaction(async (tx) => {
        await tx.execute(everyStore);
        await tx.execute(sql`
          UPDATE operator_store_figures f SET orders_30d = v.n, sales_30d = v.s
          FROM jsonb_to_recordset(${JSON.stringify(elsewhere)}::jsonb) AS v(tenant_id text, n int, s bigint)
          WHERE f.tenant_id = v.tenant_id`);
      });
    }
    figuresAt = new Date();
  }

  /** The 30-day figures of the stores living on a database other than home, from each database. */
  async function movedStoresFigures(): Promise<Array<{ tenant_id: string; n: number; s: string }>> {
    const out: Array<{ tenant_id: string; n: number; s: string }> = [];
    for (const [name, there] of stores.movedStores()) {
      const other = stores.get(name);
      if (!other) continue;
      const sums = await rowsOf<{ tenant_id: string; n: number; s: string }>(
        other.db,
        sql`SELECT o.tenant_id, count(*)::int AS n, sum(o.grand_total)::bigint::text AS s
            FROM orders o
            JOIN LATERAL (
              SELECT currency_uom_id FROM product_stores p WHERE p.tenant_id = o.tenant_id
              ORDER BY p.product_store_id LIMIT 1
            ) ps ON ps.currency_uom_id = o.currency
            WHERE o.tenant_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(there)}::jsonb))
              AND o.placed_at >= now() - interval '30 days' AND ${PAID}
            GROUP BY o.tenant_id`,
      );
      const byTenant = new Map(sums.map((r) => [r.tenant_id, r]));
      for (const tenantId of there) out.push(byTenant.get(tenantId) ?? { tenant_id: tenantId, n: 0, s: '0' });
    }
    return out;
  }

  /**
   * The 30-day figures as of at most 5 minutes ago, give or take one refresh: once some exist (this
   * process's, or another's in the table) a stale set is answered while a refresh runs behind it, so
   * no operator waits for the sum of every store's orders; only the very first list waits for it.
   */
  async function freshFigures() {
    if (!figuresAt) {
      const [row] = await rowsOf<{ at: string | null }>(
        db,
        sql`SELECT max(computed_at)::text AS at FROM operator_store_figures`,
      );
      if (row?.at) figuresAt = new Date(row.at);
    }
    if (figuresAt && Date.now() - figuresAt.getTime() < STORE_FIGURES_MAX_AGE_MS) return;
    const stale = figuresAt !== null;
    refreshing ??= refreshFigures().finally(() => {
      refreshing = null;
    });
    if (!stale) await refreshing;
    else refreshing.catch(() => {}); // a failed refresh is retried by the next list
  }

  return { refresh: refreshFigures, fresh: freshFigures, at: (): Date | null => figuresAt };
}

export type StoreFigures = ReturnType<typeof createStoreFigures>;

/** Stores by state, and per UTC day: sign-ups (stores created), paid orders and their sales. */
export async function platformFigures(db: Db, days: number): Promise<PlatformFigures> {
  const byState = await rowsOf<{ state: string; n: number }>(
    db,
    sql`
    SELECT coalesce(l.state, 'active') AS state, count(*)::int AS n
    FROM tenants t LEFT JOIN store_lifecycle l ON l.tenant_id = t.tenant_id GROUP BY 1`,
  );
  const storesByState = Object.fromEntries(STORE_STATES.map((s) => [s, 0])) as Record<StoreState, number>;
  for (const r of byState) storesByState[r.state as StoreState] = Number(r.n);
  // Midnight UTC of the range's first day, whatever the database session's time zone.
  const from = sql`(((now() AT TIME ZONE 'UTC')::date - ${days - 1}::int)::timestamp AT TIME ZONE 'UTC')`;
  const signups = await rowsOf<{ day: string; n: number }>(
    db,
    sql`
    SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS n FROM tenants
    WHERE created_at >= ${from} GROUP BY 1`,
  );
  const orders = await rowsOf<{ day: string; currency: string; n: number; s: string }>(
    db,
    sql`
    SELECT (placed_at AT TIME ZONE 'UTC')::date::text AS day, currency, count(*)::int AS n,
      sum(grand_total)::bigint AS s
    FROM orders WHERE placed_at >= ${from} AND ${PAID} GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const today = new Date();
  const perDay: PlatformFigures['perDay'] = [];
  const index = new Map<string, PlatformFigures['perDay'][number]>();
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i))
      .toISOString()
      .slice(0, 10);
    const entry = { day, signups: 0, orders: 0, sales: [] as { amount: number; currency: string }[] };
    perDay.push(entry);
    index.set(day, entry);
  }
  for (const r of signups) {
    const e = index.get(r.day);
    if (e) e.signups = Number(r.n);
  }
  for (const r of orders) {
    const e = index.get(r.day);
    if (!e) continue;
    e.orders += Number(r.n);
    e.sales.push({ amount: Number(r.s), currency: r.currency });
  }
  const total = await db.select({ n: count() }).from(schema.tenants);
  return { days, storesByState, totalStores: total[0]?.n ?? 0, perDay };
}
