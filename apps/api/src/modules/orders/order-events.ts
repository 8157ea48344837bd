import { randomUUID } from 'node:crypto';
import type { OrderEventKind } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import type { RequestContext } from '../../lib/context';
import { historyActor } from './order-transition';

export interface OrderEventInput {
  kind: OrderEventKind;
  /** One line for the timeline: "Shipping confirmation sent to ada@example.com". */
  message: string;
  data?: Record<string, unknown>;
  /** Also shown on the shopper's order page (a shipment, a refund); notes never are. */
  visibleToShopper?: boolean;
}

/**
 * Adds an entry to an order's timeline, in the transaction of the change it tells of (a mail queued,
 * a refund settled, a note written): the entry exists exactly when the change does. Status changes
 * are not written here: `transitionOrder` keeps them in order_status_history, and the timeline
 * reads both.
 */
export async function recordOrderEvent(tx: Tx, ctx: RequestContext, orderId: string, input: OrderEventInput) {
  const a = ctx.actor;
  const [row] = await tx
    .insert(schema.orderEvents)
    .values({
      tenantId: ctx.tenantId,
      eventId: randomUUID(),
      orderId,
      kind: input.kind,
      message: input.message,
      data: input.data ?? null,
      visibleToShopper: input.visibleToShopper ?? false,
      ...historyActor(ctx),
      actorName: a.kind === 'staff' || a.kind === 'shopper' ? a.firstName : null,
    })
    .returning();
  return row as typeof schema.orderEvents.$inferSelect;
}
