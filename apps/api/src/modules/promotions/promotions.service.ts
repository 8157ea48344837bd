import {
  orderHref,
  PROMO_CODE_PATTERN,
  PROMO_CODES_PAGE_SIZE,
  PROMO_USAGE_LIST_SIZE,
  type PromoCodeCreate,
  type PromoCodeDetail,
  type PromoCodeFields,
  type PromoCodeList,
  type PromoCodeListQuery,
  type PromoCodeView,
  type PromoStatus,
  promoDiscountSummary,
  promoStatusOf,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, count, desc, eq, gt, isNotNull, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { isCursorTime } from '../../lib/keyset-cursor';
import { type Ok, ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import { isPlainObject, takeReadOnly, unchanged } from '../../lib/write-back';
import type { AuditService } from '../audit/index';
import { storeIdentity } from '../store/index';

const pc = schema.promoCodes;
const pr = schema.promoRedemptions;
const o = schema.orders;

type Row = typeof pc.$inferSelect;

/** Creating a code: the store has one by that name, in any case (decision 088), on the `code` field. */
export type CreatePromoRefusal = Refusal<'CONFLICT'>;
/** Deleting a code: an order used it; it can be deactivated instead. */
export type RemovePromoRefusal = Refusal<'CONFLICT'>;

export interface PromotionsDeps {
  audit: Pick<AuditService, 'record'>;
}

/**
 * No event is emitted on a write: nothing holds promo codes in memory. The cart reads the code's
 * row on every pricing and checkout re-reads it under its row lock when the order is placed
 * (decision 046), so a change is seen at once everywhere.
 */

function encode(parts: (string | number)[]) {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}
function decodeCursor(cursor: string): [string, string] {
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (
      Array.isArray(parts) &&
      parts.length === 2 &&
      typeof parts[0] === 'string' &&
      typeof parts[1] === 'string' &&
      isCursorTime(parts[0])
    ) {
      return [parts[0], parts[1]];
    }
  } catch {
    // falls through to the refusal
  }
  throw AppError.field(400, 'BAD_REQUEST', 'cursor', 'not a cursor of this list; start again without it.');
}

/** A code from an address: any case; one that cannot be a code is simply not found. */
function normalisedCode(code: string): string {
  const c = code.trim();
  if (!PROMO_CODE_PATTERN.test(c)) throw AppError.notFound('There is no such promo code in this store.');
  return c.toUpperCase();
}

/** The SQL twin of promoStatusOf (contracts), for the list's status filter; tested to agree. */
function statusCondition(status: PromoStatus, now: Date): SQL {
  const started = or(isNull(pc.startsAt), lte(pc.startsAt, now)) as SQL;
  const notEnded = or(isNull(pc.endsAt), gt(pc.endsAt, now)) as SQL;
  const usedUp = and(isNotNull(pc.usageLimit), sql`${pc.timesUsed} >= ${pc.usageLimit}`) as SQL;
  switch (status) {
    case 'inactive':
      return eq(pc.active, false);
    case 'scheduled':
      return and(eq(pc.active, true), gt(pc.startsAt, now)) as SQL;
    case 'expired':
      return and(eq(pc.active, true), started, lte(pc.endsAt, now)) as SQL;
    case 'used_up':
      return and(eq(pc.active, true), started, notEnded, usedUp) as SQL;
    case 'active':
      return and(
        eq(pc.active, true),
        started,
        notEnded,
        or(isNull(pc.usageLimit), sql`${pc.timesUsed} < ${pc.usageLimit}`),
      ) as SQL;
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function view(row: Row, currency: string, now: Date): PromoCodeView {
  return {
    code: row.code,
    kind: row.kind,
    value: row.value,
    description: row.description,
    minSubtotal: row.minSubtotal,
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
    usageLimit: row.usageLimit,
    perCustomerLimit: row.perCustomerLimit,
    timesUsed: row.timesUsed,
    active: row.active,
    status: promoStatusOf(row, now),
    summary: promoDiscountSummary(row, currency),
    currency,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a code: its rules, dates as text. */
function audited(row: Row) {
  return {
    kind: row.kind,
    value: row.value,
    description: row.description,
    minSubtotal: row.minSubtotal,
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
    usageLimit: row.usageLimit,
    perCustomerLimit: row.perCustomerLimit,
    active: row.active,
  };
}

/** A code's rules as its read answers them: what the write takes. */
const RULE_FIELDS = [
  'kind',
  'value',
  'description',
  'minSubtotal',
  'startsAt',
  'endsAt',
  'usageLimit',
  'perCustomerLimit',
  'active',
] as const;
/** What the read answers beside the rules: no write changes these (taken as read, else 400). */
const VIEW_READ_ONLY = ['code', 'timesUsed', 'status', 'summary', 'currency', 'createdAt', 'updatedAt'] as const;

function columns(fields: PromoCodeFields) {
  return {
    kind: fields.kind,
    value: fields.value,
    description: fields.description,
    minSubtotal: fields.minSubtotal,
    startsAt: fields.startsAt ? new Date(fields.startsAt) : null,
    endsAt: fields.endsAt ? new Date(fields.endsAt) : null,
    usageLimit: fields.usageLimit,
    perCustomerLimit: fields.perCustomerLimit,
    active: fields.active,
  };
}

/**
 * The store's promo codes: the same columns the cart's evaluatePromo and
 * checkout's reserve read, written by the dashboard. Every function needs the orders permission
 * (decision 041); every write is audited as `promo_code` in its own transaction.
 */
export function createPromotionsService(db: Db, deps: PromotionsDeps) {
  async function currencyOf(ctx: RequestContext) {
    return (await storeIdentity(db, ctx))?.currency ?? 'USD';
  }

  /** Times written from here have milliseconds only, as the list's cursor carries them. */
  const nowMs = () => new Date();

  async function lockedRow(tx: Parameters<Parameters<Db['transaction']>[0]>[0], ctx: RequestContext, code: string) {
    const [row] = await tx
      .select()
      .from(pc)
      .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)))
      .for('update');
    if (!row) throw AppError.notFound('There is no such promo code in this store.');
    return row;
  }

  async function setActive(ctx: RequestContext, rawCode: string, active: boolean): Promise<PromoCodeView> {
    requireAccess(ctx, 'orders');
    const code = normalisedCode(rawCode);
    const currency = await currencyOf(ctx);
    const row = await db.transaction(async (tx) => {
      const before = await lockedRow(tx, ctx, code);
      if (before.active === active) return before;
      const [after] = await tx
        .update(pc)
        .set({ active, updatedAt: nowMs() })
        .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)))
        .returning();
      await deps.audit.record(tx, ctx, {
        entity: 'promo_code',
        entityId: code,
        action: active ? 'activate' : 'deactivate',
        before: { active: before.active },
        after: { active },
      });
      return after as Row;
    });
    return view(row, currency, new Date());
  }

  return {
    async list(ctx: RequestContext, query: PromoCodeListQuery = {}): Promise<PromoCodeList> {
      requireAccess(ctx, 'orders');
      const limit = query.limit ?? PROMO_CODES_PAGE_SIZE;
      const now = new Date();
      const where: (SQL | undefined)[] = [eq(pc.tenantId, ctx.tenantId)];
      if (query.status) where.push(statusCondition(query.status, now));
      if (query.cursor) {
        const [at, code] = decodeCursor(query.cursor);
        const d = new Date(at);
        where.push(or(lt(pc.createdAt, d), and(eq(pc.createdAt, d), gt(pc.code, code))));
      }
      const [rows, currency] = await Promise.all([
        db
          .select()
          .from(pc)
          .where(and(...where))
          .orderBy(desc(pc.createdAt), asc(pc.code))
          .limit(limit + 1),
        currencyOf(ctx),
      ]);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        items: page.map((r) => view(r, currency, now)),
        nextCursor: rows.length > limit && last ? encode([last.createdAt.toISOString(), last.code]) : null,
      };
    },

    /** One code with the orders that used it, newest first, and what it took off each. */
    async get(ctx: RequestContext, rawCode: string): Promise<PromoCodeDetail> {
      requireAccess(ctx, 'orders');
      const code = normalisedCode(rawCode);
      const [[row], currency, redemptions] = await Promise.all([
        db
          .select()
          .from(pc)
          .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code))),
        currencyOf(ctx),
        db
          .select({
            orderId: pr.orderId,
            usedAt: pr.createdAt,
            email: o.email,
            orderStatus: o.status,
            discount: o.discount,
            grandTotal: o.grandTotal,
            currency: o.currency,
          })
          .from(pr)
          .innerJoin(o, and(eq(o.tenantId, pr.tenantId), eq(o.orderId, pr.orderId)))
          .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.code, code)))
          .orderBy(desc(pr.createdAt), desc(pr.orderId))
          .limit(PROMO_USAGE_LIST_SIZE),
      ]);
      if (!row) throw AppError.notFound('There is no such promo code in this store.');
      return {
        code: view(row, currency, new Date()),
        redemptions: redemptions.map((r) => ({
          orderId: r.orderId,
          orderHref: orderHref(r.orderId),
          usedAt: r.usedAt.toISOString(),
          email: r.email,
          orderStatus: r.orderStatus,
          discount: r.discount,
          grandTotal: r.grandTotal,
          currency: r.currency,
        })),
      };
    },

    /** A new code; 409 naming `code` when the store has one by that name (any case). */
    async create(ctx: RequestContext, input: PromoCodeCreate): Promise<Result<PromoCodeView, CreatePromoRefusal>> {
      requireAccess(ctx, 'orders');
      const currency = await currencyOf(ctx);
      const at = nowMs();
      return returnRefusals<Ok<PromoCodeView>, CreatePromoRefusal>(async () => {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(pc)
            .values({ tenantId: ctx.tenantId, code: input.code, ...columns(input), createdAt: at, updatedAt: at })
            .onConflictDoNothing()
            .returning();
          if (!created) {
            throw new Refused(refuseField(409, 'CONFLICT', 'code', `${input.code} already exists in this store.`));
          }
          await deps.audit.record(tx, ctx, {
            entity: 'promo_code',
            entityId: created.code,
            action: 'create',
            after: audited(created),
          });
          return created;
        });
        return ok(view(row, currency, new Date()));
      });
    },

    /** A code's rules, all of them (the code itself never changes: orders name it). */
    /**
     * The update's body as a patch over the code's rules: the rules it names over
     * the current ones. It may be the read: one code (the list's item, or the GET's `data.code`) or
     * the GET's whole `data` ({code, redemptions}); the read-only fields are taken when equal to the
     * read, else a 400 names them. Unknown fields stay, for the strict schema to refuse. 404 first.
     */
    async writeBackBody(ctx: RequestContext, rawCode: string, body: unknown): Promise<unknown> {
      const current = await this.get(ctx, rawCode);
      if (!isPlainObject(body)) return body;
      let flat: Record<string, unknown> = body;
      if (isPlainObject(body.code)) {
        const { code: inner, ...outer } = takeReadOnly(body, current, ['redemptions']);
        flat = { ...(inner as Record<string, unknown>), ...outer };
      }
      const rest = takeReadOnly(flat, current.code, VIEW_READ_ONLY);
      const out: Record<string, unknown> = {};
      for (const k of RULE_FIELDS) out[k] = current.code[k];
      return { ...out, ...rest };
    },

    /** Writes the code's rules; rules equal to the stored ones write nothing (no audit entry). */
    async update(ctx: RequestContext, rawCode: string, fields: PromoCodeFields): Promise<PromoCodeView> {
      requireAccess(ctx, 'orders');
      const code = normalisedCode(rawCode);
      const currency = await currencyOf(ctx);
      const row = await db.transaction(async (tx) => {
        const before = await lockedRow(tx, ctx, code);
        const next = columns(fields);
        const had = Object.fromEntries(Object.keys(next).map((k) => [k, before[k as keyof typeof next]]));
        if (unchanged(next, had)) return before;
        const [after] = await tx
          .update(pc)
          .set({ ...next, updatedAt: nowMs() })
          .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)))
          .returning();
        await deps.audit.record(tx, ctx, {
          entity: 'promo_code',
          entityId: code,
          action: 'update',
          before: audited(before),
          after: audited(after as Row),
        });
        return after as Row;
      });
      return view(row, currency, new Date());
    },

    activate: (ctx: RequestContext, code: string) => setActive(ctx, code, true),
    deactivate: (ctx: RequestContext, code: string) => setActive(ctx, code, false),

    /**
     * Deletes a code no order ever used. A used one is refused (409): its redemptions are the
     * orders' history and the per-customer limits count them; it can be deactivated instead.
     * The row lock orders this against checkout, which raises times_used under the same lock.
     */
    async remove(
      ctx: RequestContext,
      rawCode: string,
    ): Promise<Result<{ code: string; deleted: true }, RemovePromoRefusal>> {
      requireAccess(ctx, 'orders');
      const code = normalisedCode(rawCode);
      return returnRefusals<Ok<{ code: string; deleted: true }>, RemovePromoRefusal>(async () => {
        await db.transaction(async (tx) => {
          const before = await lockedRow(tx, ctx, code);
          const [{ n } = { n: 0 }] = await tx
            .select({ n: count() })
            .from(pr)
            .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.code, code)));
          const used = Math.max(n, before.timesUsed);
          if (used > 0) {
            throw new Refused(
              refuse(
                409,
                'CONFLICT',
                `${code} was used by ${used === 1 ? 'an order' : `${used} orders`}: deactivate it instead; its orders keep it.`,
              ),
            );
          }
          await tx.delete(pc).where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)));
          await deps.audit.record(tx, ctx, {
            entity: 'promo_code',
            entityId: code,
            action: 'delete',
            before: audited(before),
          });
        });
        return ok({ code, deleted: true as const });
      });
    },
  };
}

export type PromotionsService = ReturnType<typeof createPromotionsService>;
