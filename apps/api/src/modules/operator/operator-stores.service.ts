import type {
  OperatorStoreDetail,
  OperatorStorePage,
  OperatorStoreQuery,
  OperatorStoreRow,
  StoreState,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { systemContext, type TenantContext } from '../../lib/context';
import { decodeKeysetCursor, encodeKeysetCursor, type KeyType } from '../../lib/keyset-cursor';
import { HOME_DATABASE, type StoreDatabases } from '../../lib/store-databases';
import type { AuditService } from '../audit/index';
import { allowedActions, createStoreActions, purgeAllowedFrom, type StoreActionsDeps } from './operator-store-actions';
import { createStoreFigures, PAID, platformFigures, rowsOf } from './operator-store-figures';

const SORT_KEYS: Record<OperatorStoreQuery['sort'], { expr: SQL; type: KeyType }> = {
  created: { expr: sql`t.created_at`, type: 'timestamptz' },
  orders30d: { expr: sql`coalesce(f.orders_30d, 0)`, type: 'integer' },
  sales30d: { expr: sql`coalesce(f.sales_30d, 0)`, type: 'bigint' },
};

const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What the console's service needs: the actions' (operator-store-actions.ts), and the reads'. */
export interface OperatorStoresDeps extends StoreActionsDeps {
  storeAudit: AuditService;
  /** Reads of a store's own rows go to the database it lives on (decision 123). */
  stores: Pick<StoreDatabases, 'within' | 'placementOf' | 'movedStores' | 'get'>;
  /** The owner's live support grant, for the store's page. */
  supportGrant(tenantId: string): Promise<OperatorStoreDetail['supportAccess']>;
}

interface ListRow extends Record<string, unknown> {
  tenant_id: string;
  name: string;
  created_at: string | Date;
  host: string | null;
  currency: string | null;
  state: string;
  owner_email: string | null;
  orders_30d: number | string;
  sales_30d: number | string;
  sort_key: string;
}

/**
 * What the console reads and does across stores (decision 101): the stores list, a store's page,
 * the actions on a store (each through its owner: the lifecycle's transition, the cancel request's
 * decision, the owner's account mail), and the platform's figures. The list and the page are here;
 * the figures are in operator-store-figures.ts, the actions in operator-store-actions.ts.
 */
export function createOperatorStores(db: Db, deps: OperatorStoresDeps) {
  const storeFigures = createStoreFigures(db, deps.stores);

  /** The moved stores whose owner's email matches the search, looked up on each store's database. */
  async function movedOwnersLike(like: string): Promise<string[]> {
    const found: string[] = [];
    for (const [name, there] of deps.stores.movedStores()) {
      const other = deps.stores.get(name);
      if (!other) continue;
      const rows = await rowsOf<{ tenant_id: string }>(
        other.db,
        sql`SELECT DISTINCT tenant_id FROM users
            WHERE role = 'admin' AND email LIKE ${like}
              AND tenant_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(there)}::jsonb))`,
      );
      found.push(...rows.map((r) => r.tenant_id));
    }
    return found;
  }

  /** The owners' emails of those of `tenantIds` living on another database: one query per database. */
  async function ownerEmailsElsewhere(tenantIds: string[]): Promise<Map<string, string>> {
    const wanted = new Set(tenantIds);
    const out = new Map<string, string>();
    for (const [name, there] of deps.stores.movedStores()) {
      const ids = there.filter((id) => wanted.has(id));
      const other = deps.stores.get(name);
      if (!ids.length || !other) continue;
      const rows = await rowsOf<{ tenant_id: string; email: string }>(
        other.db,
        sql`SELECT DISTINCT ON (tenant_id) tenant_id, email FROM users
            WHERE role = 'admin' AND tenant_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
            ORDER BY tenant_id, created_at, user_id`,
      );
      for (const r of rows) out.set(r.tenant_id, r.email);
    }
    return out;
  }

  async function tenantContext(tenantId: string): Promise<TenantContext | null> {
    const [store] = await db
      .select({ productStoreId: schema.productStores.productStoreId, host: schema.productStores.canonicalHost })
      .from(schema.productStores)
      .where(eq(schema.productStores.tenantId, tenantId))
      .orderBy(asc(schema.productStores.productStoreId))
      .limit(1);
    if (!store) return null;
    return { tenantId, productStoreId: store.productStoreId, hostName: store.host, viaDevAlias: false, origin: '' };
  }

  async function owner(tenantId: string) {
    const [row] = await deps.stores.within(tenantId, () =>
      db
        .select()
        .from(schema.users)
        .where(and(eq(schema.users.tenantId, tenantId), eq(schema.users.role, 'admin')))
        .orderBy(asc(schema.users.createdAt), asc(schema.users.userId))
        .limit(1),
    );
    return row ?? null;
  }

  async function cancelRequestOf(tenantId: string) {
    const [row] = await db.select().from(schema.cancelRequests).where(eq(schema.cancelRequests.tenantId, tenantId));
    return row ?? null;
  }

  const actions = createStoreActions(db, deps, { owner, tenantContext });

  return {
    refreshFigures: storeFigures.refresh,

    async list(query: OperatorStoreQuery): Promise<OperatorStorePage> {
      await storeFigures.fresh();
      const { expr, type } = SORT_KEYS[query.sort];
      const where = [sql`true`];
      if (query.state) where.push(sql`coalesce(l.state, 'active') = ${query.state}`);
      const q = query.q?.trim().toLowerCase();
      if (q) {
        const like = `%${likeEscape(q)}%`;
        const moved = await movedOwnersLike(like);
        where.push(sql`(
          lower(t.name) LIKE ${like}
          OR lower(t.tenant_id) = ${q}
          OR EXISTS (SELECT 1 FROM store_hosts h WHERE h.tenant_id = t.tenant_id AND h.host_name LIKE ${like})
          OR EXISTS (SELECT 1 FROM users u WHERE u.tenant_id = t.tenant_id AND u.role = 'admin' AND u.email LIKE ${like})
          ${moved.length ? sql`OR t.tenant_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(moved)}::jsonb))` : sql``}
        )`);
      }
      if (query.cursor) {
        const c = decodeKeysetCursor(query.cursor, [query.sort], type, 64);
        const cast = sql.raw(type);
        where.push(sql`(${expr}, t.tenant_id) < (${c.key}::${cast}, ${c.id})`);
      }
      const limit = query.limit;
      // The page's ids first, from the narrow join the sort and filters need (the created sort walks
      // tenants_created_idx); the host and the owner are looked up for those rows only.
      const result = await rowsOf<ListRow>(
        db,
        sql`
        WITH page AS (
          SELECT t.tenant_id, t.name, t.created_at, coalesce(l.state, 'active') AS state,
            coalesce(f.orders_30d, 0) AS orders_30d, coalesce(f.sales_30d, 0) AS sales_30d,
            (${expr})::text AS sort_key, ${expr} AS k
          FROM tenants t
          LEFT JOIN store_lifecycle l ON l.tenant_id = t.tenant_id
          LEFT JOIN operator_store_figures f ON f.tenant_id = t.tenant_id
          WHERE ${sql.join(where, sql` AND `)}
          ORDER BY ${expr} DESC, t.tenant_id DESC
          LIMIT ${limit + 1}
        )
        SELECT page.*, ps.canonical_host AS host, ps.currency_uom_id AS currency, ow.email AS owner_email
        FROM page
        LEFT JOIN LATERAL (
          SELECT canonical_host, currency_uom_id FROM product_stores p WHERE p.tenant_id = page.tenant_id
          ORDER BY p.product_store_id LIMIT 1
        ) ps ON true
        LEFT JOIN LATERAL (
          SELECT email FROM users u WHERE u.tenant_id = page.tenant_id AND u.role = 'admin'
          ORDER BY u.created_at, u.user_id LIMIT 1
        ) ow ON true
        ORDER BY page.k DESC, page.tenant_id DESC`,
      );
      const rows = result;
      const page = rows.slice(0, limit);
      // The owner of a store living on another database is read there (decision 123).
      const movedOwners = await ownerEmailsElsewhere(page.map((r) => r.tenant_id));
      for (const r of page) {
        if (deps.stores.placementOf(r.tenant_id) !== HOME_DATABASE)
          r.owner_email = movedOwners.get(r.tenant_id) ?? null;
      }
      const last = page[page.length - 1];
      return {
        stores: page.map(
          (r): OperatorStoreRow => ({
            tenantId: r.tenant_id,
            name: r.name,
            host: r.host,
            ownerEmail: r.owner_email,
            state: r.state as StoreState,
            createdAt: new Date(r.created_at).toISOString(),
            orders30d: Number(r.orders_30d),
            sales30d: { amount: Number(r.sales_30d), currency: r.currency ?? 'USD' },
          }),
        ),
        nextCursor:
          rows.length > limit && last ? encodeKeysetCursor([query.sort], last.sort_key, last.tenant_id) : null,
        figuresAt: storeFigures.at()?.toISOString() ?? null,
      };
    },

    async detail(tenantId: string): Promise<OperatorStoreDetail | null> {
      const [tenant] = await db.select().from(schema.tenants).where(eq(schema.tenants.tenantId, tenantId));
      if (!tenant) return null;
      const byTenant = <T extends { tenantId: unknown }>(table: T) => eq(table.tenantId as never, tenantId);
      const [stores, hosts, ownerRow, lifecycle, history, cancel, support] = await Promise.all([
        // The store's own rows (its row, owner, counts, sales) are read where it lives; its hosts, state
        // and cancel request are the platform's, at home (decision 123).
        deps.stores.within(tenantId, () =>
          db
            .select()
            .from(schema.productStores)
            .where(byTenant(schema.productStores))
            .orderBy(asc(schema.productStores.productStoreId)),
        ),
        db.select().from(schema.storeHosts).where(byTenant(schema.storeHosts)).orderBy(asc(schema.storeHosts.hostName)),
        owner(tenantId),
        deps.storeLifecycle.lifecycle(tenantId),
        deps.storeLifecycle.history(tenantId),
        cancelRequestOf(tenantId),
        deps.supportGrant(tenantId),
      ]);
      const counted = await deps.stores.within(tenantId, () =>
        rowsOf<{
          products: number;
          orders: number;
          customers: number;
          staff: number;
          last_order: string | null;
          last_audit: string | null;
          last_session: string | null;
        }>(
          db,
          sql`SELECT
          (SELECT count(*)::int FROM products WHERE tenant_id = ${tenantId}) AS products,
          (SELECT count(*)::int FROM orders WHERE tenant_id = ${tenantId}) AS orders,
          (SELECT count(*)::int FROM users WHERE tenant_id = ${tenantId} AND role = 'shopper') AS customers,
          (SELECT count(*)::int FROM users WHERE tenant_id = ${tenantId} AND role = 'staff') AS staff,
          (SELECT max(placed_at)::text FROM orders WHERE tenant_id = ${tenantId}) AS last_order,
          (SELECT max(created_at)::text FROM audit_log WHERE tenant_id = ${tenantId}) AS last_audit,
          (SELECT max(created_at)::text FROM sessions WHERE tenant_id = ${tenantId}) AS last_session`,
        ),
      );
      const sales = await deps.stores.within(tenantId, () =>
        rowsOf<{ currency: string; n: number; s: string }>(
          db,
          sql`
          SELECT currency, count(*)::int AS n, sum(grand_total)::bigint AS s FROM orders
          WHERE tenant_id = ${tenantId} AND placed_at >= now() - interval '30 days' AND ${PAID}
          GROUP BY currency ORDER BY currency`,
        ),
      );
      const c = counted[0];
      const times = [c?.last_order, c?.last_audit, c?.last_session]
        .filter((v): v is string => Boolean(v))
        .map((v) => new Date(v).getTime());
      const requested = cancel?.status === 'requested';
      return {
        tenantId,
        name: tenant.name,
        createdAt: tenant.createdAt.toISOString(),
        lifecycle,
        history: [...history].reverse(),
        stores: stores.map((s) => ({
          productStoreId: s.productStoreId,
          storeName: s.storeName,
          currency: s.currencyUomId,
          canonicalHost: s.canonicalHost,
        })),
        hosts: hosts.map((h) => ({ hostName: h.hostName, productStoreId: h.productStoreId })),
        owner: ownerRow && {
          userId: ownerRow.userId,
          email: ownerRow.email,
          firstName: ownerRow.firstName,
          lastName: ownerRow.lastName,
          emailConfirmed: ownerRow.emailConfirmedAt !== null,
        },
        counts: {
          products: c?.products ?? 0,
          orders: c?.orders ?? 0,
          customers: c?.customers ?? 0,
          staff: c?.staff ?? 0,
          orders30d: sales.reduce((n, r) => n + Number(r.n), 0),
          sales30d: sales.map((r) => ({ amount: Number(r.s), currency: r.currency })),
        },
        lastActivityAt: times.length ? new Date(Math.max(...times)).toISOString() : null,
        cancelRequest:
          cancel && cancel.status !== 'none'
            ? {
                status: cancel.status,
                reason: cancel.reason,
                requestedAt: cancel.requestedAt?.toISOString() ?? null,
              }
            : null,
        supportAccess: support,
        actions: allowedActions(lifecycle.state, lifecycle.since, requested, ownerRow !== null),
        purgeAllowedFrom: purgeAllowedFrom(lifecycle.state, lifecycle.since),
      };
    },

    /** The store's own audit log, as its owner reads it (the operator reads as the platform). */
    async storeAudit(tenantId: string, query: { cursor?: string; limit: number }) {
      const tenant = await tenantContext(tenantId);
      if (!tenant) return null;
      return deps.stores.within(tenantId, () =>
        deps.storeAudit.list(systemContext(tenant, 'platform-operator'), query),
      );
    },

    act: actions.act,
    createStore: actions.createStore,

    /** Stores by state, and per UTC day: sign-ups (stores created), paid orders and their sales. */
    figures: (days: number) => platformFigures(db, days),
  };
}

export type OperatorStores = ReturnType<typeof createOperatorStores>;
