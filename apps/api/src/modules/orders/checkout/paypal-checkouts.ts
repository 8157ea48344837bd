import { schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';

const ppc = schema.paypalCheckouts;

/**
 * Flags the PayPal checkout a payment came from when PayPal reports money for it and no order here
 * exists (the shopper never came back from PayPal): the checkout is closed as `flagged`, in the
 * caller's transaction, so housekeeping does not later close it as abandoned. Checkout owns the
 * `paypal_checkouts` table; PayPal's webhooks (modules/payments) reach it through this function.
 * True when a checkout was flagged.
 */
export async function flagPayPalCheckout(tx: Tx, ctx: TenantContext, paypalOrderId: string): Promise<boolean> {
  const flagged = await tx
    .update(ppc)
    .set({ status: 'flagged', closedAt: new Date() })
    .where(and(eq(ppc.tenantId, ctx.tenantId), eq(ppc.paypalOrderId, paypalOrderId)))
    .returning({ id: ppc.paypalOrderId });
  return flagged.length > 0;
}
