import type { CustomerListFilter, CustomerListQuery, CustomerRef, CustomerSort } from '@app/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { decodeKeysetCursor, encodeKeysetCursor, type KeyType } from '../../lib/keyset-cursor';

/**
 * The SQL of the customers list over customer_summaries (alias c), shared by the page and the export
 * so both select the same customers (decision 045). Each sort has its index (migration 0030).
 */

/** The summary row's key: `u:<userId>` for an account, `g:<lower email>` for a guest. */
export function customerKeyOf(ref: CustomerRef): string {
  return 'userId' in ref ? `u:${ref.userId}` : `g:${ref.email.toLowerCase()}`;
}

/** Each sort's column, direction and the type its cursor value is cast back to. */
const SORTS: Record<CustomerSort, { col: SQL; type: KeyType; dir: 'asc' | 'desc' }> = {
  last_order: { col: sql`coalesce(c.last_order_at, '-infinity'::timestamptz)`, type: 'timestamptz', dir: 'desc' },
  amount_spent: { col: sql`c.amount_spent`, type: 'bigint', dir: 'desc' },
  name: { col: sql`lower(c.name)`, type: 'text', dir: 'asc' },
};

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export function filterWhere(tenantId: string, f: CustomerListFilter): SQL {
  const parts: SQL[] = [sql`c.tenant_id = ${tenantId}`];
  if (f.orders === 'yes') parts.push(sql`c.order_count > 0`);
  else if (f.orders === 'no') parts.push(sql`c.order_count = 0`);
  if (f.type === 'account') parts.push(sql`c.user_id IS NOT NULL`);
  else if (f.type === 'guest') parts.push(sql`c.user_id IS NULL`);
  if (f.since_from) parts.push(sql`c.customer_since >= ${`${f.since_from}T00:00:00Z`}::timestamptz`);
  if (f.since_to) {
    parts.push(sql`c.customer_since < (${`${f.since_to}T00:00:00Z`}::timestamptz + interval '1 day')`);
  }
  if (f.q) {
    // The same expression as the trigram index: part of the name or of the email, any case.
    parts.push(sql`lower(c.name || ' ' || c.email) LIKE ${`%${likeEscape(f.q.toLowerCase())}%`}`);
  }
  return sql.join(parts, sql` AND `);
}

export interface Cursor {
  sort: CustomerSort;
  key: string;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return encodeKeysetCursor([c.sort], c.key, c.id);
}

export function decodeCursor(text: string, sort: CustomerSort): Cursor {
  const c = decodeKeysetCursor(text, [sort], SORTS[sort].type, 400);
  return { sort, key: c.key, id: c.id };
}

/** ORDER BY, the keyset condition after a cursor, and the sort key as text (for the next cursor). */
export function keyset(query: Pick<CustomerListQuery, 'sort' | 'cursor'>) {
  const { col, type, dir } = SORTS[query.sort];
  const d = dir === 'asc' ? sql`ASC` : sql`DESC`;
  // Ties on the sort value are broken by the key in the same direction: no row twice, none skipped.
  const orderBy = sql`${col} ${d}, c.customer_key ${d}`;
  let after: SQL | null = null;
  if (query.cursor) {
    const c = decodeCursor(query.cursor, query.sort);
    after =
      dir === 'asc'
        ? sql`(${col}, c.customer_key) > (${c.key}::${sql.raw(type)}, ${c.id})`
        : sql`(${col}, c.customer_key) < (${c.key}::${sql.raw(type)}, ${c.id})`;
  }
  return { orderBy, after, keyText: sql`${col}::text` };
}
