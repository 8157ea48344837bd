import {
  decimalAmount,
  ORDER_LIST_FILTER_KEYS,
  ORDER_LIST_LINES,
  ORDER_VIEWS_PER_STAFF,
  type OrderListFilter,
  type OrderListPage,
  type OrderListQuery,
  type OrderListRow,
  type OrderStatus,
  type OrderView,
  type OrderViewCreate,
  orderListFilterSchema,
  PAYMENT_STATUS_LABELS,
  paymentStatusOf,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { stringify } from 'csv-stringify/sync';
import { and, asc, eq, sql } from 'drizzle-orm';
import { type RequestContext, signedInUser, type TenantContext } from '../../../lib/context';
import { AppError, isUniqueViolation } from '../../../lib/errors';
import { ok, type Refusal, Refused, type Result, refuseField, returnRefusals } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import {
  encodeCursor,
  filterWhere,
  keyset,
  nameMatchSql,
  type ResolvedFilter,
  readTotals,
  searchText,
} from './order-list.query';

/** Rows read per query by the export: memory stays flat whatever the number of orders. */
const EXPORT_BATCH = 500;

export const ORDER_CSV_COLUMNS = [
  'order_id',
  'placed_at',
  'status',
  'payment_status',
  'customer_name',
  'email',
  'items',
  'subtotal',
  'discount',
  'shipping',
  'tax',
  'total',
  'refunded',
  'currency',
  'shipping_method',
  'ship_to_city',
  'ship_to_country',
  // Added last (decision 112), so files read by column position keep their columns: one entry per
  // order line, in line order, joined by ' | ', so the n-th title and the n-th SKU are one line's.
  'variant_titles',
  'skus',
] as const;

/** Between the entries of one order's lines in the export's variant_titles and skus cells. */
export const LINE_SEPARATOR = ' | ';

/**
 * One cell of an order's line entries: each entry's backslashes and "|" escaped with a backslash, joined by
 * LINE_SEPARATOR, so a title or SKU holding " | " is still one entry when read back (a value label is
 * free text; a SKU imported or written before the SKU rule may hold anything).
 */
export function joinLineEntries(entries: readonly string[]): string {
  return entries.map((e) => e.replace(/[\\|]/g, (c) => `\\${c}`)).join(LINE_SEPARATOR);
}

/** The entries of a cell written by joinLineEntries, unescaped: the n-th is the order's n-th line's. */
export function splitLineEntries(cell: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i] as string;
    if (c === '\\' && i + 1 < cell.length) {
      cur += cell[++i];
    } else if (cell.startsWith(LINE_SEPARATOR, i)) {
      out.push(cur);
      cur = '';
      i += LINE_SEPARATOR.length - 1;
    } else cur += c;
  }
  out.push(cur);
  return out;
}

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown) => (r as Rows<T>).rows;

interface OrderRow {
  order_id: string;
  placed_at: string | Date;
  status: OrderStatus;
  user_id: string | null;
  email: string;
  customer_name: string | null;
  /** The lines as [quantity, product name, variant title, sku], in line order. */
  line_info: { n: number | string | null; lines: [number, string, string, string | null][] | null } | null;
  subtotal: number;
  discount: number;
  shipping_total: number;
  tax_total: number;
  grand_total: number;
  captured_amount: number;
  refunded_amount: number;
  currency: string;
  shipping_method_name: string;
  ship_city: string | null;
  ship_country: string | null;
  k: string;
}

/**
 * The columns of a row: the account's name if the order has one, else the ship-to name; the units
 * ordered and the lines with their variants (decision 112) from the order's lines, in one probe of
 * their primary key per row.
 */
const ROW_COLUMNS = sql`o.order_id, o.placed_at, o.status, o.user_id, o.email,
  coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), o.ship_to->>'toName') AS customer_name,
  (SELECT json_build_object('n', sum(l.quantity),
      'lines', json_agg(json_build_array(l.quantity, l.product_name, l.variant_title, l.sku) ORDER BY l.line_no))
    FROM order_lines l WHERE l.tenant_id = o.tenant_id AND l.order_id = o.order_id) AS line_info,
  o.subtotal, o.discount, o.shipping_total, o.tax_total, o.grand_total, o.captured_amount, o.refunded_amount,
  o.currency, o.shipping_method_name, o.ship_to->>'city' AS ship_city, o.ship_to->>'countryGeoId' AS ship_country`;
const FROM = sql`orders o LEFT JOIN users u ON u.tenant_id = o.tenant_id AND u.user_id = o.user_id`;

const iso = (v: string | Date) => new Date(v).toISOString();

/** A row's lines with their variants, in line order. */
function linesOf(r: OrderRow) {
  return (r.line_info?.lines ?? []).map(([quantity, productName, variantTitle, sku]) => ({
    productName,
    variantTitle,
    sku,
    quantity: Number(quantity),
  }));
}

/** A filter as stored in a view and compared with the page's: only the keys that are set. */
export function canonicalFilter(f: OrderListFilter): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of ORDER_LIST_FILTER_KEYS) {
    const v = f[k];
    if (v === undefined || (Array.isArray(v) && !v.length)) continue;
    if (k === 'sort' && v === 'newest') continue;
    out[k] = Array.isArray(v) ? [...v].sort() : String(v);
  }
  return out;
}

/** Why a saved view is refused: the staff member keeps the most views allowed, or one of that name. */
export type SaveViewRefusal = Refusal<'CONFLICT'>;

export function createOrderListService(db: Db, deps: { audit: AuditService }) {
  async function currency(ctx: TenantContext): Promise<string> {
    const [row] = await db
      .select({ c: schema.productStores.currencyUomId })
      .from(schema.productStores)
      .where(
        and(
          eq(schema.productStores.tenantId, ctx.tenantId),
          eq(schema.productStores.productStoreId, ctx.productStoreId),
        ),
      );
    return row?.c ?? 'USD';
  }

  /** Reads the amounts in the store's currency (400 naming the field) and finds the named accounts. */
  async function resolve(ctx: TenantContext, f: OrderListFilter): Promise<ResolvedFilter> {
    // The amounts are read in the store's currency; the dates are checked either way.
    const amounts = f.totalMin !== undefined || f.totalMax !== undefined;
    const totals = readTotals(f, amounts ? await currency(ctx) : 'USD');
    const q = searchText(f.q);
    const nameUserIds =
      q && !q.includes('@')
        ? rowsOf<{ user_id: string }>(await db.execute(nameMatchSql(ctx.tenantId, q))).map((r) => r.user_id)
        : [];
    return { ...f, ...totals, nameUserIds };
  }

  function toRow(r: OrderRow): OrderListRow {
    const capturedAmount = Number(r.captured_amount);
    const refundedAmount = Number(r.refunded_amount);
    const lines = linesOf(r);
    return {
      orderId: r.order_id,
      placedAt: iso(r.placed_at),
      status: r.status,
      paymentStatus: paymentStatusOf({ status: r.status, capturedAmount, refundedAmount }),
      customerName: r.customer_name ?? '',
      email: r.email,
      userId: r.user_id,
      items: Number(r.line_info?.n ?? 0),
      grandTotal: Number(r.grand_total),
      refundedAmount,
      currency: r.currency,
      lines: lines.slice(0, ORDER_LIST_LINES),
      moreLines: Math.max(0, lines.length - ORDER_LIST_LINES),
    };
  }

  async function readPage(ctx: TenantContext, f: ResolvedFilter, cursor: string | undefined, limit: number) {
    const k = keyset(f.sort, cursor);
    const base = filterWhere(ctx.tenantId, f);
    const rows = rowsOf<OrderRow>(
      await db.execute(sql`
        SELECT ${ROW_COLUMNS}, ${k.keyText} AS k
        FROM ${FROM}
        WHERE ${k.after ? sql`${base} AND ${k.after}` : base}
        ORDER BY ${k.orderBy} LIMIT ${limit + 1}`),
    );
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    if (k.reversed) page.reverse();
    return { page, more, reversed: k.reversed };
  }

  async function list(ctx: TenantContext, query: OrderListQuery): Promise<OrderListPage> {
    const f = await resolve(ctx, query);
    const { page, more, reversed } = await readPage(ctx, f, query.cursor, query.limit);
    const first = page[0];
    const last = page.at(-1);
    const cursorOf = (r: OrderRow | undefined, way: 'next' | 'prev') =>
      r ? encodeCursor({ sort: f.sort, way, key: r.k, id: r.order_id }) : null;
    // Reading forwards: more rows means a next page, a cursor means a page before. Backwards: the
    // other way round (the page we came from is after this one).
    const hasNext = reversed ? true : more;
    const hasPrev = reversed ? more : Boolean(query.cursor);
    return {
      rows: page.map(toRow),
      nextCursor: hasNext ? cursorOf(last, 'next') : null,
      prevCursor: hasPrev ? cursorOf(first, 'prev') : null,
    };
  }

  /**
   * The (filtered) list as CSV, with a UTF-8 BOM so spreadsheets read it as UTF-8. Read and written
   * EXPORT_BATCH rows at a time by keyset: the whole list is never in memory. Amounts are decimals in
   * the order's currency. Call `resolve` first (a bad amount is a 400 before the stream starts).
   */
  async function* exportCsv(ctx: TenantContext, f: ResolvedFilter): AsyncGenerator<string> {
    yield `\uFEFF${stringify([[...ORDER_CSV_COLUMNS]])}`;
    let cursor: string | undefined;
    for (;;) {
      const { page, more } = await readPage(ctx, f, cursor, EXPORT_BATCH);
      if (page.length) {
        yield stringify(
          page.map((r) => {
            const row = toRow(r);
            const lines = linesOf(r);
            const money = (v: number) => decimalAmount(Number(v), r.currency);
            return [
              r.order_id,
              row.placedAt,
              r.status,
              PAYMENT_STATUS_LABELS[row.paymentStatus],
              row.customerName,
              r.email,
              row.items,
              money(r.subtotal),
              money(r.discount),
              money(r.shipping_total),
              money(r.tax_total),
              money(r.grand_total),
              money(r.refunded_amount),
              r.currency,
              r.shipping_method_name,
              r.ship_city ?? '',
              r.ship_country ?? '',
              joinLineEntries(lines.map((l) => l.variantTitle)),
              joinLineEntries(lines.map((l) => l.sku ?? '')),
            ];
          }),
        );
      }
      const last = page.at(-1);
      if (!more || !last) return;
      cursor = encodeCursor({ sort: f.sort, way: 'next', key: last.k, id: last.order_id });
    }
  }

  function staffId(ctx: RequestContext): string {
    const user = signedInUser(ctx);
    if (user?.kind !== 'staff') throw AppError.forbidden('Saved views belong to staff members.');
    return user.userId;
  }

  const v = schema.orderViews;
  const viewOf = (r: typeof v.$inferSelect): OrderView => {
    // A view saved under an older version of the filters keeps what it still can.
    const parsed = orderListFilterSchema.safeParse(r.filters);
    return {
      viewId: r.viewId,
      name: r.name,
      filters: parsed.success ? parsed.data : orderListFilterSchema.parse({}),
      createdAt: iso(r.createdAt),
    };
  };

  return {
    list,
    resolve,
    exportCsv,
    currency,

    /** Whether the store has any order at all (the empty state says which emptiness it is). */
    async hasOrders(ctx: TenantContext): Promise<boolean> {
      const rows = rowsOf<{ one: number }>(
        await db.execute(sql`SELECT 1 AS one FROM orders WHERE tenant_id = ${ctx.tenantId} LIMIT 1`),
      );
      return rows.length > 0;
    },

    /** The plan of a page's query (EXPLAIN), for the benchmark: a missing index shows as a Seq Scan. */
    async explain(ctx: TenantContext, query: OrderListQuery, analyze = false): Promise<string[]> {
      const f = await resolve(ctx, query);
      const k = keyset(f.sort, query.cursor);
      const base = filterWhere(ctx.tenantId, f);
      const plan = rowsOf<{ 'QUERY PLAN': string }>(
        await db.execute(
          sql`EXPLAIN ${analyze ? sql`(ANALYZE, COSTS OFF)` : sql``} SELECT ${ROW_COLUMNS} FROM ${FROM}
            WHERE ${k.after ? sql`${base} AND ${k.after}` : base} ORDER BY ${k.orderBy} LIMIT ${query.limit + 1}`,
        ),
      );
      return plan.map((r) => r['QUERY PLAN']);
    },

    /** The staff member's saved views, oldest first (the order of the tabs). */
    async views(ctx: RequestContext): Promise<OrderView[]> {
      const userId = staffId(ctx);
      const rows = await db
        .select()
        .from(v)
        .where(and(eq(v.tenantId, ctx.tenantId), eq(v.userId, userId)))
        .orderBy(asc(v.createdAt), asc(v.viewId))
        .limit(ORDER_VIEWS_PER_STAFF);
      return rows.map(viewOf);
    },

    /**
     * Saves filters under a name for the staff member; audited. Refused (409 CONFLICT on `name`)
     * when they have the most views one may keep, or one with this name already.
     */
    async createView(ctx: RequestContext, input: OrderViewCreate): Promise<Result<OrderView, SaveViewRefusal>> {
      const userId = staffId(ctx);
      // A view whose amounts cannot be read would fail every time it is opened: refuse it now.
      await resolve(ctx, input.filters);
      const filters = canonicalFilter(input.filters);
      try {
        return await returnRefusals<Result<OrderView, SaveViewRefusal>, SaveViewRefusal>(async () =>
          ok(
            await db.transaction(async (tx) => {
              // Counted under the staff member's row lock: two saves at once cannot pass the limit together.
              await tx.execute(
                sql`SELECT 1 FROM users WHERE tenant_id = ${ctx.tenantId} AND user_id = ${userId} FOR UPDATE`,
              );
              const [count] = rowsOf<{ n: number | string }>(
                await tx.execute(
                  sql`SELECT count(*) AS n FROM order_views WHERE tenant_id = ${ctx.tenantId} AND user_id = ${userId}`,
                ),
              );
              if (Number(count?.n ?? 0) >= ORDER_VIEWS_PER_STAFF) {
                throw new Refused(
                  refuseField(
                    409,
                    'CONFLICT',
                    'name',
                    `you already have ${ORDER_VIEWS_PER_STAFF} saved views; delete one first`,
                  ),
                );
              }
              const viewId = `OV-${crypto.randomUUID()}`;
              const [row] = await tx
                .insert(v)
                .values({ tenantId: ctx.tenantId, viewId, userId, name: input.name, filters })
                .returning();
              await deps.audit.record(tx, ctx, {
                entity: 'order.view',
                entityId: viewId,
                action: 'create',
                after: { name: input.name, filters },
              });
              return viewOf(row as typeof v.$inferSelect);
            }),
          ),
        );
      } catch (err) {
        if (isUniqueViolation(err)) {
          return refuseField(409, 'CONFLICT', 'name', 'you already have a view with this name');
        }
        throw err;
      }
    },

    /** Deletes one of the staff member's views (another's, or another store's, is not found); audited. */
    async deleteView(ctx: RequestContext, viewId: string): Promise<void> {
      const userId = staffId(ctx);
      await db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(v)
          .where(and(eq(v.tenantId, ctx.tenantId), eq(v.userId, userId), eq(v.viewId, viewId)))
          .returning();
        if (!gone) throw AppError.notFound('No such saved view.');
        await deps.audit.record(tx, ctx, {
          entity: 'order.view',
          entityId: viewId,
          action: 'delete',
          before: { name: gone.name, filters: gone.filters },
        });
      });
    },
  };
}

export type OrderListService = ReturnType<typeof createOrderListService>;
