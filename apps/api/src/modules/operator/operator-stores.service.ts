import {
  canTransitionStore,
  OPERATOR_STORE_ACTIONS,
  type OperatorActionResult,
  type OperatorCreateStore,
  type OperatorCreateStoreResult,
  type OperatorStoreAction,
  type OperatorStoreDetail,
  type OperatorStorePage,
  type OperatorStoreQuery,
  type OperatorStoreRow,
  type PlatformFigures,
  PURGE_RETENTION_DAYS,
  STORE_STATES,
  type StoreState,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import { systemContext, type TenantContext } from '../../lib/context';
import { decodeKeysetCursor, encodeKeysetCursor, type KeyType } from '../../lib/keyset-cursor';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import { HOME_DATABASE, type StoreDatabases } from '../../lib/store-databases';
import type { AuditService } from '../audit/index';
import type { AuthService } from '../auth/index';
import type { CancelRequestService } from '../cancel-request/index';
import type { Provisioner } from '../signup/index';
import type { StoreArchive } from '../store-archive/index';
import type { StoreLifecycleService } from '../store-lifecycle/index';
import { lifecycleActor, type OperatorRequest } from './operator-principal';
import type { PlatformAudit } from './platform-audit.service';

/** The 30-day figures the list sorts by are recomputed when older than this. */
export const STORE_FIGURES_MAX_AGE_MS = 5 * 60_000;

/** Orders that count as sales: paid ones (every status but placed and cancelled), as the dashboard counts. */
const PAID = sql`status NOT IN ('placed', 'cancelled')`;

const SORT_KEYS: Record<OperatorStoreQuery['sort'], { expr: SQL; type: KeyType }> = {
  created: { expr: sql`t.created_at`, type: 'timestamptz' },
  orders30d: { expr: sql`coalesce(f.orders_30d, 0)`, type: 'integer' },
  sales30d: { expr: sql`coalesce(f.sales_30d, 0)`, type: 'bigint' },
};

/** The rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
const rowsOf = async <T>(db: Db, q: SQL): Promise<T[]> => ((await db.execute(q)) as unknown as { rows: T[] }).rows;

const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

export type StoreActionRefusal = Refusal<'INVALID_TRANSITION' | 'NOT_FOUND' | 'CONFLICT' | 'RATE_LIMITED'>;

export interface OperatorStoresDeps {
  audit: PlatformAudit;
  storeAudit: AuditService;
  /** Reads of a store's own rows go to the database it lives on (decision 123). */
  stores: Pick<StoreDatabases, 'within' | 'placementOf' | 'movedStores' | 'get'>;
  storeLifecycle: StoreLifecycleService;
  cancelRequests?: CancelRequestService;
  /** Sign-up's provisioning, when that module runs: the operator opens stores for merchants with it. */
  provisionStore?: Provisioner['provisionStore'];
  auth: AuthService;
  /**
   * The store's archive, when that module runs: a purge erases the store's rows, files and caches
   * everywhere (decision 122), not only its state.
   */
  storeArchive?: StoreArchive;
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
 * decision, the owner's account mail), and the platform's figures.
 */
export function createOperatorStores(db: Db, deps: OperatorStoresDeps) {
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

  /** The 30-day figures of the stores living on a database other than home, from each database. */
  async function movedStoresFigures(): Promise<Array<{ tenant_id: string; n: number; s: string }>> {
    const out: Array<{ tenant_id: string; n: number; s: string }> = [];
    for (const [name, there] of deps.stores.movedStores()) {
      const other = deps.stores.get(name);
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

  /** Which actions the store's state (and its cancel request) allow now. */
  function allowedActions(
    state: StoreState,
    since: string | null,
    cancelRequested: boolean,
    hasOwner: boolean,
  ): OperatorStoreAction[] {
    return OPERATOR_STORE_ACTIONS.filter((a) => {
      switch (a) {
        case 'suspend':
          return canTransitionStore(state, 'suspended');
        case 'resume':
          return state === 'suspended';
        case 'approve-cancel':
        case 'decline-cancel':
          return cancelRequested && (state === 'active' || state === 'suspended');
        case 'close':
          return canTransitionStore(state, 'closed');
        case 'purge':
          return state === 'closed' && purgeAllowedFrom(state, since) !== null && purgeDue(since);
        case 'resend-invitation':
          return hasOwner && (state === 'active' || state === 'provisioning' || state === 'suspended');
      }
      return false;
    });
  }

  function purgeAllowedFrom(state: StoreState, since: string | null): string | null {
    if (state !== 'closed' || !since) return null;
    return new Date(new Date(since).getTime() + PURGE_RETENTION_DAYS * 86_400_000).toISOString();
  }
  const purgeDue = (since: string | null) =>
    since !== null && new Date(since).getTime() + PURGE_RETENTION_DAYS * 86_400_000 <= Date.now();

  async function cancelRequestOf(tenantId: string) {
    const [row] = await db.select().from(schema.cancelRequests).where(eq(schema.cancelRequests.tenantId, tenantId));
    return row ?? null;
  }

  return {
    refreshFigures,

    async list(query: OperatorStoreQuery): Promise<OperatorStorePage> {
      await freshFigures();
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
        figuresAt: figuresAt?.toISOString() ?? null,
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

    /**
     * One action on a store, with the operator's reason: recorded in the store's lifecycle history
     * (state changes) and in the platform's audit log (every action).
     */
    async act(
      req: OperatorRequest,
      tenantId: string,
      action: OperatorStoreAction,
      reason: string,
    ): Promise<Result<OperatorActionResult, StoreActionRefusal>> {
      const actor = lifecycleActor(req.principal);
      const opts = { requestId: req.requestId };
      const current = await deps.storeLifecycle.lifecycle(tenantId);
      const [tenant] = await db
        .select({ id: schema.tenants.tenantId })
        .from(schema.tenants)
        .where(eq(schema.tenants.tenantId, tenantId));
      if (!tenant) return refuse(404, 'NOT_FOUND', `Store ${tenantId.slice(0, 64)} was not found.`);
      let message: string;
      switch (action) {
        case 'suspend':
        case 'resume':
        case 'close':
        case 'purge': {
          const to: StoreState =
            action === 'suspend'
              ? 'suspended'
              : action === 'resume'
                ? 'active'
                : action === 'close'
                  ? 'closed'
                  : 'purged';
          if (action === 'resume' && current.state !== 'suspended') {
            return refuse(409, 'INVALID_TRANSITION', `The store is ${current.state}; only a suspended store resumes.`);
          }
          if (action === 'purge' && current.state === 'closed' && !purgeDue(current.since)) {
            return refuse(
              409,
              'INVALID_TRANSITION',
              `A closed store is kept ${PURGE_RETENTION_DAYS} days before it can be purged (from ${purgeAllowedFrom(current.state, current.since)}).`,
            );
          }
          // A purge that stopped half-way (the state moved, the erasing failed) is finished by asking
          // again: erasing is idempotent, and the state has nowhere further to go.
          const again = action === 'purge' && current.state === 'purged' && Boolean(deps.storeArchive);
          const expect = { ...opts, expect: current.state };
          const done = again
            ? ok({ at: current.since ? new Date(current.since) : new Date() })
            : action === 'close' && deps.cancelRequests
              ? await deps.cancelRequests.closeStoreNow(actor, tenantId, reason, expect)
              : await deps.storeLifecycle.transition(actor, tenantId, to, reason, expect);
          if (!done.ok) return done;
          message = `The store is now ${to}.`;
          if (action === 'purge' && deps.storeArchive) {
            // The state first (the store stops answering at once), then every row, file and cache.
            const purged = await deps.storeArchive.purgeStore(tenantId);
            const rows = Object.values(purged.deleted).reduce((a, b) => a + b, 0);
            await deps.audit.record(db, req, {
              action: 'store.purge',
              tenantId,
              reason,
              details: { from: current.state, rowsDeleted: rows },
            });
            return ok({
              action,
              lifecycle: { tenantId, state: 'purged', since: done.value.at.toISOString(), closesAt: null },
              message: `The store is purged: ${rows} rows, its files and its caches are erased.`,
            });
          }
          break;
        }
        case 'approve-cancel': {
          if (!deps.cancelRequests) return refuse(409, 'CONFLICT', 'Cancel requests are not available here.');
          const done = await deps.cancelRequests.approveCancelRequest(actor, tenantId, reason, opts);
          if (!done.ok) return done;
          message = `The cancel request is approved; the store closes on ${done.value.closesAt.slice(0, 10)}.`;
          break;
        }
        case 'decline-cancel': {
          if (!deps.cancelRequests) return refuse(409, 'CONFLICT', 'Cancel requests are not available here.');
          const done = await deps.cancelRequests.declineCancelRequest(actor, tenantId, reason, opts);
          if (!done.ok) return done;
          message = 'The cancel request is declined; the owner has been told why.';
          break;
        }
        case 'resend-invitation': {
          const ownerRow = await owner(tenantId);
          const ctx = await tenantContext(tenantId);
          if (!ownerRow || !ctx) return refuse(404, 'NOT_FOUND', 'This store has no owner account to invite.');
          if (!['active', 'provisioning', 'suspended'].includes(current.state)) {
            return refuse(409, 'INVALID_TRANSITION', `The store is ${current.state}; its owner cannot be invited.`);
          }
          // Not confirmed yet: a fresh confirmation link. Confirmed: a link to choose a password.
          const sent = ownerRow.emailConfirmedAt
            ? await deps.auth.forgotPassword(ctx, ownerRow.email, { ip: req.ip })
            : await deps.auth.resendConfirmation(ctx, ownerRow.email, { ip: req.ip });
          if (!sent.ok) return sent;
          message = `A new invitation was mailed to ${ownerRow.email}.`;
          break;
        }
      }
      await deps.audit.record(db, req, {
        action: `store.${action}`,
        tenantId,
        reason,
        details: { from: current.state },
      });
      return ok({ action, lifecycle: await deps.storeLifecycle.lifecycle(tenantId), message });
    },

    /**
     * Opens a store for a merchant through sign-up's provisioning (one transaction, no half store),
     * then mails its owner a link to choose a password. The subdomain names the request: a retry
     * of the same one answers the store the first opened.
     */
    async createStore(
      req: OperatorRequest,
      input: OperatorCreateStore,
    ): Promise<Result<OperatorCreateStoreResult, Refusal>> {
      if (!deps.provisionStore) return refuse(409, 'CONFLICT', 'Opening stores is not available on this server.');
      const made = await deps.provisionStore({
        storeName: input.storeName,
        subdomain: input.subdomain,
        owner: {
          email: input.ownerEmail,
          passwordHash: null,
          ...(input.ownerFirstName ? { firstName: input.ownerFirstName } : {}),
        },
        template: input.template,
        starter: input.content,
        actor: lifecycleActor(req.principal),
        reason: input.reason,
        idempotencyKey: `operator:${input.subdomain}`,
      });
      if (!made.ok) return made;
      const store = made.value;
      let invitationSent = false;
      if (store.created) {
        const ctx = await tenantContext(store.tenantId);
        const sent = ctx ? await deps.auth.forgotPassword(ctx, input.ownerEmail, { ip: req.ip }) : null;
        invitationSent = Boolean(sent?.ok);
        await deps.audit.record(db, req, {
          action: 'store.create',
          tenantId: store.tenantId,
          reason: input.reason,
          details: { host: store.host, ownerEmail: input.ownerEmail, template: input.template, content: input.content },
        });
      }
      return ok({ tenantId: store.tenantId, host: store.host, invitationSent });
    },

    /** Stores by state, and per UTC day: sign-ups (stores created), paid orders and their sales. */
    async figures(days: number): Promise<PlatformFigures> {
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
    },
  };
}

export type OperatorStores = ReturnType<typeof createOperatorStores>;
