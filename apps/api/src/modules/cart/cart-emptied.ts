import { schema } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';

const c = schema.carts;
const cl = schema.cartLines;

/**
 * The statements that empty a cart whose order is paid: its lines go and its promo code is dropped,
 * each only when `when` holds. They are returned, not run, so checkout can write them inside its one
 * confirm statement with the order's change to paid (decision 064): the cart is emptied if and only
 * if the order was paid. The cart owns its tables; this is how another module empties one.
 */
export function cartEmptiedAlong(ctx: TenantContext, cartId: string, when: SQL): SQL[] {
  return [
    sql`DELETE FROM ${cl} WHERE ${cl.tenantId} = ${ctx.tenantId} AND ${cl.cartId} = ${cartId} AND ${when}`,
    sql`UPDATE ${c} SET promo_code = NULL, updated_at = now()
      WHERE ${c.tenantId} = ${ctx.tenantId} AND ${c.cartId} = ${cartId} AND ${when}`,
  ];
}
