import { type Db, schema } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';

const pc = schema.promoCodes;
const pr = schema.promoRedemptions;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type PromoRow = typeof pc.$inferSelect;

/**
 * A code's uses as an order takes and gives them back. Promotions owns the codes and their
 * redemptions; checkout, which places and undoes orders, writes them only through these, in its
 * own transaction.
 */

/**
 * Counts one use of a code, in the caller's transaction, and returns the code as it was before
 * this use (null: no such code) for the caller to check. The row lock of the update serialises uses
 * of one code, so usage limits hold under concurrency; a caller that refuses the use undoes its
 * transaction, and the count with it.
 */
export async function takePromoUse(tx: Db | Tx, ctx: TenantContext, code: string): Promise<PromoRow | null> {
  const [row] = await tx
    .update(pc)
    .set({ timesUsed: sql`${pc.timesUsed} + 1` })
    .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)))
    .returning();
  return row ? { ...row, timesUsed: row.timesUsed - 1 } : null;
}

/** Records who used a code for which order (a code's per-customer limit counts these). */
export async function recordPromoRedemption(
  tx: Db | Tx,
  ctx: TenantContext,
  r: { orderId: string; code: string; customerKey: string },
): Promise<void> {
  await tx.insert(pr).values({ tenantId: ctx.tenantId, orderId: r.orderId, code: r.code, customerKey: r.customerKey });
}

/** Gives back the code uses of an order that was removed or cancelled before it was paid. */
export async function givePromoUsesBack(tx: Tx, ctx: TenantContext, orderId: string): Promise<void> {
  const removed = await tx
    .delete(pr)
    .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.orderId, orderId)))
    .returning({ code: pr.code });
  for (const r of removed) {
    await tx
      .update(pc)
      .set({ timesUsed: sql`greatest(${pc.timesUsed} - 1, 0)` })
      .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, r.code)));
  }
}
