import { randomUUID } from 'node:crypto';
import {
  type CustomerAddress,
  type CustomerDetail,
  type CustomerListFilter,
  type CustomerListPage,
  type CustomerListQuery,
  type CustomerNoteRequest,
  type CustomerRef,
  type CustomerRow,
  type OrderStatus,
  paymentStatusOf,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { stringify } from 'csv-stringify/sync';
import { and, eq, sql } from 'drizzle-orm';
import type { RateLimitedRefusal } from '../../lib/attempts';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { ok, type Result } from '../../lib/result';
import type { AuditService } from '../audit/index';
import type { AuthService } from '../auth/index';
import { customerKeyOf, encodeCursor, filterWhere, keyset } from './customers.query';

/** Rows read per query by the export: memory stays flat whatever the number of customers. */
const EXPORT_BATCH = 500;
/** Orders shown on a customer's page (the count says how many there are). */
const PAGE_ORDERS = 100;
const PAGE_ADDRESSES = 20;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown) => (r as Rows<T>).rows;
const iso = (v: string | Date) => new Date(v).toISOString();
const isoOrNull = (v: string | Date | null) => (v == null ? null : iso(v));

interface SummaryRow {
  customer_key: string;
  user_id: string | null;
  email: string;
  name: string;
  order_count: number;
  paid_order_count: number;
  amount_spent: string | number;
  first_order_at: string | Date | null;
  last_order_at: string | Date | null;
  customer_since: string | Date;
  k: string;
}

const SUMMARY_COLUMNS = sql`c.customer_key, c.user_id, c.email, c.name, c.order_count, c.paid_order_count,
  c.amount_spent, c.first_order_at, c.last_order_at, c.customer_since`;

function toRow(r: SummaryRow): CustomerRow {
  return {
    userId: r.user_id,
    email: r.email,
    name: r.name,
    type: r.user_id ? 'account' : 'guest',
    orderCount: Number(r.order_count),
    amountSpent: Number(r.amount_spent),
    lastOrderAt: isoOrNull(r.last_order_at),
    since: iso(r.customer_since),
  };
}

/** Minor units as a plain decimal for the CSV (12.50), two places: the store's currencies all have two. */
const decimal = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;

export const CUSTOMER_CSV_COLUMNS = [
  'name',
  'email',
  'type',
  'orders',
  'amount_spent',
  'currency',
  'last_order_at',
  'customer_since',
] as const;

export function createCustomersService(db: Db, deps: { audit: AuditService; auth: AuthService }) {
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

  async function page(ctx: TenantContext, query: CustomerListQuery): Promise<SummaryRow[]> {
    const k = keyset(query);
    const base = filterWhere(ctx.tenantId, query);
    return rowsOf<SummaryRow>(
      await db.execute(sql`
        SELECT ${SUMMARY_COLUMNS}, ${k.keyText} AS k FROM customer_summaries c
        WHERE ${k.after ? sql`${base} AND ${k.after}` : base}
        ORDER BY ${k.orderBy} LIMIT ${query.limit + 1}`),
    );
  }

  /** The summary row of a customer as the URLs name it; null when the store has no such customer. */
  async function summaryOf(ctx: TenantContext, ref: CustomerRef): Promise<SummaryRow | null> {
    const rows = rowsOf<SummaryRow>(
      await db.execute(sql`
        SELECT ${SUMMARY_COLUMNS}, '' AS k FROM customer_summaries c
        WHERE c.tenant_id = ${ctx.tenantId} AND c.customer_key = ${customerKeyOf(ref)}`),
    );
    return rows[0] ?? null;
  }

  async function require(ctx: TenantContext, ref: CustomerRef): Promise<SummaryRow> {
    const row = await summaryOf(ctx, ref);
    if (!row) throw AppError.notFound('No such customer in this store.');
    return row;
  }

  /** The orders of a customer: the account's, and guest orders placed with its email. */
  function ordersWhere(ctx: TenantContext, row: SummaryRow) {
    return row.user_id
      ? sql`o.tenant_id = ${ctx.tenantId} AND (o.user_id = ${row.user_id}
          OR (o.user_id IS NULL AND lower(o.email) = ${row.email}))`
      : sql`o.tenant_id = ${ctx.tenantId} AND o.user_id IS NULL AND lower(o.email) = ${row.email}`;
  }

  function actorName(ctx: RequestContext): { id: string | null; name: string } {
    const a = ctx.actor;
    if (a.kind === 'staff' || a.kind === 'shopper') return { id: a.userId, name: a.firstName || a.userLoginId };
    return { id: null, name: a.kind === 'system' ? a.name : 'guest' };
  }

  return {
    currency,

    async list(ctx: TenantContext, query: CustomerListQuery): Promise<CustomerListPage> {
      const [rows, cur] = await Promise.all([page(ctx, query), currency(ctx)]);
      const more = rows.length > query.limit;
      const shown = more ? rows.slice(0, query.limit) : rows;
      const last = shown.at(-1);
      return {
        rows: shown.map(toRow),
        nextCursor: more && last ? encodeCursor({ sort: query.sort, key: last.k, id: last.customer_key }) : null,
        currency: cur,
      };
    },

    /** The (filtered) list as CSV with a UTF-8 BOM, EXPORT_BATCH rows per query (never all in memory). */
    async *exportCsv(ctx: TenantContext, filter: CustomerListFilter): AsyncGenerator<string> {
      const cur = await currency(ctx);
      yield `\uFEFF${stringify([[...CUSTOMER_CSV_COLUMNS]])}`;
      let cursor: string | undefined;
      for (;;) {
        const rows = await page(ctx, { ...filter, cursor, limit: EXPORT_BATCH - 1 });
        if (!rows.length) return;
        yield stringify(
          rows.map((r) => {
            const c = toRow(r);
            return [
              c.name,
              c.email,
              c.type,
              String(c.orderCount),
              decimal(c.amountSpent),
              cur,
              c.lastOrderAt ?? '',
              c.since,
            ];
          }),
        );
        if (rows.length < EXPORT_BATCH) return;
        const last = rows.at(-1) as SummaryRow;
        cursor = encodeCursor({ sort: filter.sort, key: last.k, id: last.customer_key });
      }
    },

    async detail(ctx: TenantContext, ref: CustomerRef): Promise<CustomerDetail> {
      const row = await require(ctx, ref);
      const where = ordersWhere(ctx, row);
      const [orders, shipTos, book, notes, cur] = await Promise.all([
        db.execute(sql`
          SELECT o.order_id, o.placed_at, o.status, o.grand_total, o.captured_amount, o.refunded_amount
          FROM orders o WHERE ${where} ORDER BY o.placed_at DESC, o.order_id DESC LIMIT ${PAGE_ORDERS}`),
        db.execute(sql`
          SELECT DISTINCT ON (lower(o.ship_to->>'address1'), o.ship_to->>'postalCode', o.ship_to->>'countryGeoId')
            o.ship_to AS a, o.placed_at
          FROM orders o WHERE ${where}
          ORDER BY lower(o.ship_to->>'address1'), o.ship_to->>'postalCode', o.ship_to->>'countryGeoId', o.placed_at DESC
          LIMIT ${PAGE_ADDRESSES}`),
        row.user_id
          ? db
              .select()
              .from(schema.postalAddresses)
              .where(
                and(eq(schema.postalAddresses.tenantId, ctx.tenantId), eq(schema.postalAddresses.userId, row.user_id)),
              )
              .limit(PAGE_ADDRESSES)
          : Promise.resolve([]),
        db
          .select()
          .from(schema.customerNotes)
          .where(
            and(
              eq(schema.customerNotes.tenantId, ctx.tenantId),
              eq(schema.customerNotes.customerKey, row.customer_key),
            ),
          )
          .orderBy(sql`${schema.customerNotes.createdAt} DESC`)
          .limit(200),
        currency(ctx),
      ]);
      const addresses: CustomerAddress[] = book.map((a) => ({
        source: 'address_book',
        toName: a.toName,
        address1: a.address1,
        address2: a.address2,
        city: a.city,
        postalCode: a.postalCode,
        countryGeoId: a.countryGeoId,
        stateProvinceGeoId: a.stateProvinceGeoId,
      }));
      const same = (x: CustomerAddress, y: CustomerAddress) =>
        x.address1.toLowerCase() === y.address1.toLowerCase() &&
        x.postalCode === y.postalCode &&
        x.countryGeoId === y.countryGeoId;
      for (const r of rowsOf<{ a: Record<string, string | null> }>(shipTos)) {
        const addr: CustomerAddress = {
          source: 'order',
          toName: r.a.toName ?? '',
          address1: r.a.address1 ?? '',
          address2: r.a.address2 ?? null,
          city: r.a.city ?? '',
          postalCode: r.a.postalCode ?? '',
          countryGeoId: r.a.countryGeoId ?? '',
          stateProvinceGeoId: r.a.stateProvinceGeoId ?? null,
        };
        if (!addresses.some((x) => same(x, addr))) addresses.push(addr);
      }
      const lifetimeValue = Number(row.amount_spent);
      const paid = Number(row.paid_order_count);
      return {
        userId: row.user_id,
        email: row.email,
        name: row.name,
        type: row.user_id ? 'account' : 'guest',
        since: iso(row.customer_since),
        currency: cur,
        orderCount: Number(row.order_count),
        lifetimeValue,
        averageOrder: paid ? Math.round(lifetimeValue / paid) : 0,
        firstOrderAt: isoOrNull(row.first_order_at),
        lastOrderAt: isoOrNull(row.last_order_at),
        orders: rowsOf<{
          order_id: string;
          placed_at: string | Date;
          status: OrderStatus;
          grand_total: number;
          captured_amount: number;
          refunded_amount: number;
        }>(orders).map((o) => ({
          orderId: o.order_id,
          placedAt: iso(o.placed_at),
          status: o.status,
          grandTotal: Number(o.grand_total),
          capturedAmount: Number(o.captured_amount),
          refundedAmount: Number(o.refunded_amount),
          paymentStatus: paymentStatusOf({
            status: o.status,
            capturedAmount: Number(o.captured_amount),
            refundedAmount: Number(o.refunded_amount),
          }),
        })),
        addresses,
        notes: notes.map((n) => ({
          noteId: n.noteId,
          note: n.note,
          authorName: n.authorName,
          createdAt: iso(n.createdAt),
        })),
      };
    },

    /** A staff note on a customer; audited in the note's own transaction. */
    async addNote(ctx: RequestContext, ref: CustomerRef, input: CustomerNoteRequest) {
      const row = await require(ctx, ref);
      const author = actorName(ctx);
      const noteId = randomUUID();
      return db.transaction(async (tx) => {
        const [note] = await tx
          .insert(schema.customerNotes)
          .values({
            tenantId: ctx.tenantId,
            noteId,
            customerKey: row.customer_key,
            note: input.note,
            authorId: author.id,
            authorName: author.name,
          })
          .returning();
        await deps.audit.record(tx, ctx, {
          entity: 'customer.note',
          entityId: noteId,
          action: 'create',
          after: { customer: row.customer_key, note: input.note },
        });
        const n = note as typeof schema.customerNotes.$inferSelect;
        return { noteId: n.noteId, note: n.note, authorName: n.authorName, createdAt: iso(n.createdAt) };
      });
    },

    /** Deletes a note of this customer (another customer's or store's note is not found). */
    async deleteNote(ctx: RequestContext, ref: CustomerRef, noteId: string): Promise<void> {
      const row = await require(ctx, ref);
      await db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(schema.customerNotes)
          .where(
            and(
              eq(schema.customerNotes.tenantId, ctx.tenantId),
              eq(schema.customerNotes.customerKey, row.customer_key),
              eq(schema.customerNotes.noteId, noteId),
            ),
          )
          .returning();
        if (!gone) throw AppError.notFound('No such note on this customer.');
        await deps.audit.record(tx, ctx, {
          entity: 'customer.note',
          entityId: noteId,
          action: 'delete',
          before: { customer: row.customer_key, note: gone.note },
        });
      });
    },

    /**
     * Mails the account a password-reset link through the auth module's own flow (its single-use
     * link and its per-account and per-address limits: 429 past them), then audits who asked.
     */
    async sendPasswordReset(
      ctx: RequestContext,
      userId: string,
    ): Promise<Result<{ email: string }, RateLimitedRefusal>> {
      const row = await require(ctx, { userId });
      const sent = await deps.auth.forgotPassword(ctx, row.email, { ip: ctx.ip });
      if (!sent.ok) return sent;
      await db.transaction((tx) =>
        deps.audit.record(tx, ctx, {
          entity: 'customer',
          entityId: row.customer_key,
          action: 'password-reset',
          after: { email: row.email },
        }),
      );
      return ok({ email: row.email });
    },

    /** The plan of a page's query (EXPLAIN), for the benchmark: a missing index shows as a Seq Scan. */
    async explain(ctx: TenantContext, query: CustomerListQuery): Promise<string[]> {
      const k = keyset(query);
      const base = filterWhere(ctx.tenantId, query);
      const plan = rowsOf<{ 'QUERY PLAN': string }>(
        await db.execute(sql`EXPLAIN SELECT c.customer_key FROM customer_summaries c
          WHERE ${k.after ? sql`${base} AND ${k.after}` : base} ORDER BY ${k.orderBy} LIMIT ${query.limit + 1}`),
      );
      return plan.map((r) => r['QUERY PLAN']);
    },
  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
