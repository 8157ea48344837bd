import {
  FULFILMENT_STATUSES,
  type OrderListFilter,
  type OrderListSort,
  type OrderStatus,
  type PaymentStatus,
  parseDecimalMoney,
} from '@app/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { AppError } from '../../../lib/errors';
import { decodeKeysetCursor, encodeKeysetCursor, type KeyType } from '../../../lib/keyset-cursor';

/**
 * The SQL of the orders list, shared by the page, the API and the export so that they always select
 * the same orders (decision 042). Every path is served by an index of migration 0033 (EXPLAIN in the
 * benchmark bench/orders-list-bench.ts).
 */

/** A filter with its amounts read in the store's currency and the account names matched. */
export interface ResolvedFilter extends OrderListFilter {
  totalMinMinor?: number;
  totalMaxMinor?: number;
  /** Accounts whose name contains the search: their orders match by user id (orders_user_idx). */
  nameUserIds?: string[];
}

/** Accounts matched by a name search that the list looks for orders of: more is no longer a search. */
export const NAME_MATCH_MAX = 500;

/** "12.50" in the store's currency -> 1250; a 400 naming the field otherwise. */
export function readTotals(f: OrderListFilter, currency: string): { totalMinMinor?: number; totalMaxMinor?: number } {
  const read = (field: 'totalMin' | 'totalMax') => {
    const text = f[field];
    if (text === undefined) return undefined;
    const parsed = parseDecimalMoney(text, currency);
    if (!parsed.ok) throw AppError.field(400, 'VALIDATION_FAILED', field, parsed.message);
    return parsed.minor;
  };
  const totalMinMinor = read('totalMin');
  const totalMaxMinor = read('totalMax');
  if (totalMinMinor !== undefined && totalMaxMinor !== undefined && totalMaxMinor < totalMinMinor) {
    throw AppError.field(400, 'VALIDATION_FAILED', 'totalMax', 'must not be below the minimum total');
  }
  if (f.from && f.to && f.to < f.from) {
    throw AppError.field(400, 'VALIDATION_FAILED', 'to', 'must not be before the from date');
  }
  return { totalMinMinor, totalMaxMinor };
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The payment statuses of contracts' paymentStatusOf, as conditions on the order's columns. */
export function paymentWhere(p: PaymentStatus): SQL {
  switch (p) {
    case 'pending':
      return sql`(o.captured_amount = 0 AND o.status = 'placed')`;
    case 'voided':
      return sql`(o.captured_amount = 0 AND o.status <> 'placed')`;
    case 'paid':
      return sql`(o.captured_amount > 0 AND o.refunded_amount = 0)`;
    case 'partially_refunded':
      return sql`(o.captured_amount > 0 AND o.refunded_amount > 0 AND o.refunded_amount < o.captured_amount)`;
    case 'refunded':
      return sql`(o.captured_amount > 0 AND o.refunded_amount >= o.captured_amount)`;
  }
}

/** The search text as the list matches it: lower case, trimmed. */
export const searchText = (q: string | undefined) => (q ?? '').trim().toLowerCase();

/**
 * The WHERE of a filter, for the table alias `o` (orders). Search: the order id or the email by
 * their beginning (exact ids and emails included), the ship-to name by its beginning or, from three
 * characters, any part of it (trigram index), and the orders of accounts whose name matched
 * (`nameUserIds`, looked up first). Each arm names the tenant so each can use its own index.
 */
export function filterWhere(tenantId: string, f: ResolvedFilter): SQL {
  const parts: SQL[] = [sql`o.tenant_id = ${tenantId}`];
  const statuses = new Set<OrderStatus>(f.status ?? []);
  if (f.fulfilment) {
    const allowed = FULFILMENT_STATUSES[f.fulfilment];
    if (statuses.size) {
      for (const s of [...statuses]) if (!allowed.includes(s)) statuses.delete(s);
      // Nothing is both: say so instead of dropping a filter.
      if (!statuses.size) parts.push(sql`false`);
    } else for (const s of allowed) statuses.add(s);
  }
  if (statuses.size) parts.push(sql`o.status IN ${[...statuses]}`);
  if (f.payment) parts.push(paymentWhere(f.payment));
  if (f.from) parts.push(sql`o.placed_at >= ${`${f.from}T00:00:00Z`}::timestamptz`);
  if (f.to) parts.push(sql`o.placed_at < (${`${f.to}T00:00:00Z`}::timestamptz + interval '1 day')`);
  if (f.totalMinMinor !== undefined) parts.push(sql`o.grand_total >= ${f.totalMinMinor}`);
  if (f.totalMaxMinor !== undefined) parts.push(sql`o.grand_total <= ${f.totalMaxMinor}`);
  const q = searchText(f.q);
  if (q) {
    const prefix = `${likeEscape(q)}%`;
    const t = sql`o.tenant_id = ${tenantId}`;
    const arms: SQL[] = [sql`(${t} AND lower(o.email) LIKE ${prefix})`];
    // An "@" is only ever in an email: the other arms could not match, so they are not asked.
    if (!q.includes('@')) {
      arms.push(sql`(${t} AND lower(o.order_id) LIKE ${prefix})`);
      arms.push(sql`(${t} AND lower(o.ship_to->>'toName') LIKE ${prefix})`);
      if (q.length >= 3) arms.push(sql`lower(o.ship_to->>'toName') LIKE ${`%${likeEscape(q)}%`}`);
      if (f.nameUserIds?.length) arms.push(sql`(${t} AND o.user_id IN ${f.nameUserIds})`);
    }
    parts.push(sql`(${sql.join(arms, sql` OR `)})`);
  }
  return sql.join(parts, sql` AND `);
}

/** The accounts of the store whose name contains the search (from three characters) or begins with it. */
export function nameMatchSql(tenantId: string, q: string): SQL {
  const pattern = q.length >= 3 ? `%${likeEscape(q)}%` : `${likeEscape(q)}%`;
  return sql`SELECT u.user_id FROM users u
    WHERE u.tenant_id = ${tenantId} AND lower(u.first_name || ' ' || u.last_name) LIKE ${pattern}
    LIMIT ${NAME_MATCH_MAX}`;
}

const SORTS: Record<OrderListSort, { col: SQL; type: KeyType; dir: 'asc' | 'desc' }> = {
  newest: { col: sql`o.placed_at`, type: 'timestamptz', dir: 'desc' },
  oldest: { col: sql`o.placed_at`, type: 'timestamptz', dir: 'asc' },
  'total-high': { col: sql`o.grand_total`, type: 'integer', dir: 'desc' },
  'total-low': { col: sql`o.grand_total`, type: 'integer', dir: 'asc' },
};

/** A page boundary: after the last row shown (next) or before the first one (previous). */
export interface Cursor {
  sort: OrderListSort;
  way: 'next' | 'prev';
  key: string;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return encodeKeysetCursor([c.sort, c.way], c.key, c.id);
}

export function decodeCursor(text: string, sort: OrderListSort): Cursor {
  const c = decodeKeysetCursor(text, [sort, ['next', 'prev']], SORTS[sort].type, 100);
  return { sort, way: c.tags[1] as Cursor['way'], key: c.key, id: c.id };
}

/**
 * ORDER BY and the keyset condition of a page. Ties on the sort value are broken by order_id in the
 * same direction, so no order shows twice nor is skipped. A "previous" page reads backwards from
 * its cursor (the reversed order, then the rows turned round: `reversed`).
 */
export function keyset(
  sort: OrderListSort,
  cursorText: string | undefined,
): { orderBy: SQL; after: SQL | null; keyText: SQL; reversed: boolean } {
  const { col, type, dir } = SORTS[sort];
  const c = cursorText ? decodeCursor(cursorText, sort) : null;
  const reversed = c?.way === 'prev';
  const readDir = reversed ? (dir === 'asc' ? 'desc' : 'asc') : dir;
  const d = readDir === 'asc' ? sql`ASC` : sql`DESC`;
  const orderBy = sql`${col} ${d}, o.order_id ${d}`;
  let after: SQL | null = null;
  if (c) {
    // Timestamps and totals are compared as their own type: the cursor keeps them as text, exactly.
    after =
      readDir === 'asc'
        ? sql`(${col}, o.order_id) > (${c.key}::${sql.raw(type)}, ${c.id})`
        : sql`(${col}, o.order_id) < (${c.key}::${sql.raw(type)}, ${c.id})`;
  }
  return { orderBy, after, keyText: sql`${col}::text`, reversed };
}
