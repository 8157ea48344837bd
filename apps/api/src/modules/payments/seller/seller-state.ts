import type { SellerReason, SellerStatus } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { eq } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';

const s = schema.paypalSellers;
const h = schema.paypalSellerHistory;

/**
 * A store's PayPal onboarding as a transitions table (decision 049): the owner starts it (pending),
 * PayPal's merchant-integrations answer or a webhook settles it (connected, or action_needed with
 * what is missing), the owner or PayPal (consent revoked) ends it. A state may move to itself: a
 * fresh referral while pending, a re-check that finds other reasons.
 */
export const SELLER_TRANSITIONS: Record<SellerStatus, readonly SellerStatus[]> = {
  not_started: ['pending', 'action_needed', 'connected'],
  pending: ['pending', 'action_needed', 'connected', 'not_started'],
  action_needed: ['pending', 'action_needed', 'connected', 'disconnected'],
  connected: ['connected', 'action_needed', 'disconnected'],
  disconnected: ['pending', 'action_needed', 'connected'],
};

export type SellerRow = typeof s.$inferSelect;

export interface SellerChange {
  merchantId?: string | null;
  reasons?: readonly SellerReason[];
  actionUrl?: string | null;
  referralCreatedAt?: Date | null;
  paymentsReceivable?: boolean | null;
  primaryEmailConfirmed?: boolean | null;
  primaryEmail?: string | null;
  environment?: 'sandbox' | 'live' | null;
  checkedAt?: Date | null;
  /** Who moved it when it was not the request's actor: PayPal's webhook, a job. */
  actor?: { kind: 'paypal' | 'system'; id?: string };
  note?: string;
}

export type SellerTransitionResult =
  | { ok: true; seller: SellerRow; from: SellerStatus }
  | { ok: false; code: 'INVALID_TRANSITION'; from: SellerStatus; to: SellerStatus; message: string };

/** The store's tracking id at PayPal: the store itself, so PayPal's answer names it. */
export const trackingIdFor = (tenantId: string) => tenantId;

/** The seller row, created as not_started on first use, locked for the rest of the transaction. */
export async function lockSeller(tx: Tx, tenantId: string): Promise<SellerRow> {
  await tx
    .insert(s)
    .values({ tenantId, trackingId: trackingIdFor(tenantId) })
    .onConflictDoNothing();
  const [row] = await tx.select().from(s).where(eq(s.tenantId, tenantId)).for('update');
  return row!;
}

/**
 * THE writer of paypal_sellers.status: checks the table under the row lock, writes the row and its
 * history. A refused move is a typed result (a route answers 409 with `message`).
 */
export async function transitionSeller(
  tx: Tx,
  ctx: RequestContext,
  to: SellerStatus,
  change: SellerChange = {},
): Promise<SellerTransitionResult> {
  const row = await lockSeller(tx, ctx.tenantId);
  const from = row.status as SellerStatus;
  if (!SELLER_TRANSITIONS[from].includes(to)) {
    return {
      ok: false,
      code: 'INVALID_TRANSITION',
      from,
      to,
      message: `The PayPal connection is ${from.replace('_', ' ')}; it cannot become ${to.replace('_', ' ')}.`,
    };
  }
  const now = new Date();
  const { actor, note, reasons, ...fields } = change;
  const [seller] = await tx
    .update(s)
    .set({
      ...fields,
      status: to,
      ...(reasons !== undefined ? { reasons: [...reasons] } : to === 'connected' ? { reasons: [] } : {}),
      ...(to === 'connected' && from !== 'connected' ? { connectedAt: now } : {}),
      ...(to === 'disconnected' ? { connectedAt: null } : {}),
      updatedAt: now,
    })
    .where(eq(s.tenantId, ctx.tenantId))
    .returning();
  const by =
    actor ??
    (ctx.actor.kind === 'staff' || ctx.actor.kind === 'shopper'
      ? { kind: 'owner', id: ctx.actor.userId }
      : { kind: 'system', id: ctx.actor.kind === 'system' ? ctx.actor.name : undefined });
  await tx.insert(h).values({
    tenantId: ctx.tenantId,
    fromStatus: from,
    toStatus: to,
    merchantId: seller!.merchantId,
    reasons: seller!.reasons,
    actorKind: by.kind,
    actorId: by.id ?? null,
    note: note ?? null,
  });
  return { ok: true, seller: seller!, from };
}
