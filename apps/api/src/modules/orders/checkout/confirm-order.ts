import type { Cart, Order } from '@app/contracts';
import { formatMoney, orderLineVariantText } from '@app/contracts/client';
import type { Db } from '@app/db';
import type { TenantContext } from '../../../lib/context';
import { Refused, refuse } from '../../../lib/result';
import { cartEmptiedAlong } from '../../cart/index';
import { storeIdentity } from '../../store/index';
import { transitionOrder } from '../order-transition';
import type { Amount, Buyer, CheckoutDeps } from './checkout-types';
import type { Payer } from './payers';
import { acting, orderLineOf, type Placed } from './reserve-order';

/** Step 3 of checkout, confirm, and the receipt it sends. */
export function createConfirmation(
  db: Db,
  deps: Pick<CheckoutDeps, 'orders' | 'mailer' | 'log' | 'events' | 'linkOrigin'>,
) {
  /**
   * Step 3: confirm. The order is paid and the cart is emptied; the receipt is mailed. `written`:
   * the order's row and first history row as reserve wrote them, and the cart's lines, when this
   * request placed the order, so the answer is built from what it wrote instead of read again
   * (decision 058: no statement reads back what this request has just written).
   *
   * One statement, with no transaction around it (decision 064): the change to paid, its history
   * row, the cart emptied and the receipt's mail job, the last three only when the change happened.
   * So the receipt exists if and only if the order is paid.
   */
  async function confirm(
    ctx: TenantContext,
    buyer: Buyer,
    orderId: string,
    payer: Payer,
    q: Amount,
    paid: Awaited<ReturnType<Payer['take']>>,
    cartId: string | null,
    written?: Placed & { lines: Cart['lines'] },
  ): Promise<Order> {
    const set = { paymentRef: paid.ref, paymentLabel: paid.label, capturedAmount: q.total };
    // As reserve wrote them, with the product link and picture the cart showed.
    const lines = written?.lines.map((l, i) => ({ ...orderLineOf(l, i), slug: l.slug, imageUrl: l.imageUrl }));
    // The receipt is written before the statement that enqueues it, from the order as it will be
    // once paid: what a receipt shows (lines, totals, the payment's label) is all known by now.
    let receipt: ReturnType<typeof receiptOf> | null = null;
    if (written && lines) {
      const store = await storeIdentity(db, ctx);
      // A receipt that cannot be written (a template's bug) never undoes a paid order: logged, not sent.
      try {
        const paidOrder = await deps.orders.placed(ctx, orderId, !buyer.userId, {
          row: { ...written.row, ...set, status: 'paid' },
          history: [written.entry],
          lines,
        });
        receipt = store ? receiptOf(store, paidOrder) : null;
      } catch (err) {
        deps.log.error({ err, orderId }, 'order mail not sent');
      }
    }
    const confirmed = await transitionOrder(db, acting(ctx), orderId, 'paid', {
      from: 'placed',
      note: `Payment received (${paid.note})`,
      set,
      alongside: (changed) => [
        // The cart emptied and its promo code dropped, by the cart's own statements.
        ...(cartId ? cartEmptiedAlong(ctx, cartId, changed) : []),
        ...(receipt ? [deps.mailer.sendWhere(ctx, receipt, changed)] : []),
      ],
    });
    // This request placed the order: the answer is built from what it wrote (no read).
    const answer =
      confirmed.ok && written && lines
        ? await deps.orders.placed(ctx, orderId, !buyer.userId, {
            row: confirmed.order,
            history: [written.entry, confirmed.entry],
            lines,
          })
        : undefined;
    if (!confirmed.ok) {
      // This checkout outlived the sweep's threshold and the sweep decided first. If it found the
      // payment, the order is paid and mailed already; if it cancelled the order (and gave the stock
      // back), the money just taken must go back too.
      if (confirmed.from !== 'paid') {
        const refunded = await payer.giveBack(paid.ref, q).catch(() => false);
        if (!refunded) {
          deps.log.error(
            { orderId, paymentRef: paid.ref, provider: payer.providerId },
            'payment taken for an order the sweep had cancelled; refund it by hand',
          );
        }
        // The order is gone (cancelled by the sweep): a refusal the shopper acts on by ordering again.
        throw new Refused(
          refuse(
            409,
            'CONFLICT',
            refunded
              ? 'Your order timed out before the payment went through, and the payment has been refunded. Please place it again.'
              : 'Your order timed out before the payment went through. The store will refund the payment; please place the order again.',
          ),
        );
      }
      return deps.orders.placed(ctx, orderId, !buyer.userId);
    }

    deps.events.emit('order.transitioned', { tenantId: ctx.tenantId, orderId, from: 'placed', to: 'paid' });
    if (answer) {
      if (receipt) deps.mailer.committed(); // the receipt enqueued with the change goes now, not at the next poll
      return answer;
    }
    const order = await deps.orders.placed(ctx, orderId, !buyer.userId);
    // A mail outage never fails a paid order.
    await sendConfirmation(ctx, order).catch((err: unknown) => deps.log.error({ err, orderId }, 'order mail not sent'));
    return order;
  }

  /** The receipt by email: lines, totals and, for a guest, the signed link to the order. */
  async function sendConfirmation(ctx: TenantContext, order: Order) {
    const store = await storeIdentity(db, ctx);
    if (!store) return;
    await deps.mailer.send(ctx, receiptOf(store, order));
  }

  function receiptOf(store: { host: string; name: string }, order: Order) {
    // Links go to the store's canonical host from the database, never the request's Host.
    const key = order.accessKey ? `&key=${encodeURIComponent(order.accessKey)}` : '';
    const link = `${deps.linkOrigin(store.host)}/order?orderId=${encodeURIComponent(order.orderId)}${key}`;
    const money = (n: number) => formatMoney(n, order.currency);
    return {
      to: order.email,
      subject: `Your ${store.name} order ${order.orderId}`,
      text: [
        `Thank you for your order at ${store.name}.`,
        '',
        `Order ${order.orderId}`,
        ...order.lines.map((l) => {
          // "Brass / Large · SKU" and the configuration's choices, in brackets after the name.
          const about = [orderLineVariantText(l), l.optionsText].filter(Boolean).join('; ');
          return `${l.quantity} x ${l.productName}${about ? ` (${about})` : ''}: ${money(l.lineTotal)}`;
        }),
        '',
        `Subtotal: ${money(order.subtotal)}`,
        ...(order.discount ? [`Discount (${order.promoCode}): -${money(order.discount)}`] : []),
        `Shipping (${order.shippingMethod}): ${money(order.shipping)}`,
        `Tax: ${money(order.tax)}`,
        `Total: ${money(order.total)}`,
        `Paid with: ${order.payment}`,
        '',
        `See your order: ${link}`,
      ].join('\n'),
    };
  }

  return { confirm, sendConfirmation };
}
