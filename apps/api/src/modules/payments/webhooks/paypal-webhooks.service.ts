import type { IncomingHttpHeaders } from 'node:http';
import { formatMoney } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type RequestContext, systemContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import type { Refusal } from '../../../lib/result';
import {
  type CheckoutService,
  flagPayPalCheckout,
  mailPaidReceipt,
  markPaidByPayPal,
  type OrdersService,
  recordOrderEvent,
} from '../../orders/index';
import type { NewPaymentIssue, PaymentIssuesService } from '../issues/index';
import { paypalAmountMinor } from '../paypal/index';
import { type PaymentAccounts, transitionSeller } from '../seller/index';
import {
  type Applied,
  captureSchema,
  type Envelope,
  envelopeSchema,
  header,
  linkedId,
  merchantSchema,
  PAYPAL_HOSTS,
  refundSchema,
  retryLater,
  TRANSMISSION_MAX_AGE_MS,
  TRANSMISSION_MAX_SKEW_MS,
  unverified,
  type WebhookOutcome,
} from './webhook-envelope';

export {
  envelopeSchema,
  TRANSMISSION_MAX_AGE_MS,
  TRANSMISSION_MAX_SKEW_MS,
  type WebhookOutcome,
} from './webhook-envelope';

const we = schema.paypalWebhookEvents;
const o = schema.orders;
const ppc = schema.paypalCheckouts;
const refunds = schema.orderRefunds;
const sellers = schema.paypalSellers;

/** The onboarding helper's confirmation (modules of the seller onboarding), as the webhook uses it. */
export interface SellerOnboardingConfirmer {
  confirm(
    ctx: RequestContext,
    input: { merchantId: string; actor: { kind: 'paypal'; id?: string } },
  ): Promise<{ ok: true } | Refusal>;
}

export interface PayPalWebhookDeps {
  paymentAccounts: Pick<PaymentAccounts, 'platform'>;
  /** PAYPAL_WEBHOOK_ID: the webhook PayPal signs for; without it nothing can be verified. */
  webhookId: string | undefined;
  /** PAYPAL_BASE_URL: a stand-in's own certificate URL is accepted only when it is not PayPal. */
  platformBaseUrl: string | undefined;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  issues: PaymentIssuesService;
  orders: OrdersService;
  checkout: CheckoutService;
  log: FastifyBaseLogger;
  linkOrigin: (host: string) => string;
  /** The seller onboarding service, once built (it lands in its own module); read on each event. */
  onboarding: () => SellerOnboardingConfirmer | undefined;
  /**
   * Runs the event's effects in the store's context, so its queries and transaction reach the
   * database the store lives on (decision 123). Absent: one database.
   */
  inStore?: <T>(tenantId: string, work: () => Promise<T>) => Promise<T>;
  /** The databases stores were moved to, searched for a seller after the home database. */
  movedDatabases?: () => Db[];
  /**
   * A placed order younger than this is still in its own checkout, which captures and confirms it:
   * the webhook asks PayPal to come back later rather than race it (checkout's in-doubt time).
   */
  checkoutGraceMs?: number;
}

/**
 * PayPal's webhooks for the whole platform (decision 053): checks that PayPal sent
 * the event (verify-webhook-signature with PAYPAL_WEBHOOK_ID, the certificate URL on PayPal's hosts),
 * applies it once by its event id in the transaction of its effects, and maps it to its store through
 * `custom_id` (the tenant id on every order) or the seller's merchant or tracking id.
 */
export function createPayPalWebhookService(db: Db, deps: PayPalWebhookDeps) {
  const grace = deps.checkoutGraceMs ?? 2 * 60_000;
  const log = deps.log;
  const inStore = deps.inStore ?? (<T>(_tenantId: string, work: () => Promise<T>) => work());

  /** Whether a certificate URL may be handed to PayPal's verify call at all. */
  function certUrlAllowed(certUrl: string): boolean {
    let url: URL;
    try {
      url = new URL(certUrl);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    if (url.protocol === 'https:' && PAYPAL_HOSTS.test(url.hostname)) return true;
    // A stand-in of PayPal (tests, local tries) serves its own certificates; never when the
    // platform speaks to PayPal itself.
    if (!deps.platformBaseUrl) return false;
    const base = new URL(deps.platformBaseUrl);
    return !PAYPAL_HOSTS.test(base.hostname) && url.origin === base.origin;
  }

  /** Checks the transmission and the signature; the parsed event when PayPal sent it. */
  async function verify(headers: IncomingHttpHeaders, rawBody: string, requestId: string): Promise<Envelope> {
    const refuse = (why: string, err: AppError) => {
      // Never the body: it is unverified input and may hold personal data.
      log.warn(
        { requestId, transmissionId: header(headers, 'paypal-transmission-id', 100), why },
        'PayPal webhook refused',
      );
      return err;
    };
    const platform = deps.paymentAccounts.platform;
    if (!platform || !deps.webhookId) {
      throw refuse('no webhook configured', unverified('This platform does not take PayPal webhooks.'));
    }
    const authAlgo = header(headers, 'paypal-auth-algo', 100);
    const certUrl = header(headers, 'paypal-cert-url', 500);
    const transmissionId = header(headers, 'paypal-transmission-id', 100);
    const transmissionSig = header(headers, 'paypal-transmission-sig', 1000);
    const transmissionTime = header(headers, 'paypal-transmission-time', 100);
    if (!authAlgo || !certUrl || !transmissionId || !transmissionSig || !transmissionTime) {
      throw refuse(
        'headers missing',
        AppError.badRequest(
          'A PayPal webhook needs the headers paypal-auth-algo, paypal-cert-url, paypal-transmission-id, paypal-transmission-sig and paypal-transmission-time.',
        ),
      );
    }
    if (!certUrlAllowed(certUrl)) {
      throw refuse('certificate URL not PayPal', unverified("The certificate URL is not on PayPal's hosts."));
    }
    const sent = Date.parse(transmissionTime);
    const now = Date.now();
    if (Number.isNaN(sent) || sent < now - TRANSMISSION_MAX_AGE_MS || sent > now + TRANSMISSION_MAX_SKEW_MS) {
      throw refuse(
        'transmission time out of range',
        AppError.badRequest('paypal-transmission-time is not a time of the last four days.'),
      );
    }
    let event: unknown;
    try {
      event = JSON.parse(rawBody);
    } catch {
      throw refuse('not JSON', AppError.badRequest('The request body is not valid JSON.'));
    }
    const parsed = envelopeSchema.safeParse(event);
    if (!parsed.success) throw refuse('not an event', AppError.badRequest('The body is not a PayPal event.'));
    const ok = await platform.verifyWebhookSignature({
      authAlgo,
      certUrl,
      transmissionId,
      transmissionSig,
      transmissionTime,
      webhookId: deps.webhookId,
      event,
    });
    if (!ok) throw refuse('signature not verified', unverified('PayPal did not confirm this webhook.'));
    return parsed.data;
  }

  /** A context for the store the event concerns, as a job has: the platform acts, for PayPal. */
  async function storeContext(tenantId: string, requestId: string): Promise<RequestContext | null> {
    const [store] = await db
      .select({ productStoreId: schema.productStores.productStoreId, host: schema.productStores.canonicalHost })
      .from(schema.productStores)
      .where(eq(schema.productStores.tenantId, tenantId))
      .orderBy(asc(schema.productStores.productStoreId))
      .limit(1);
    if (!store) return null;
    return systemContext(
      {
        tenantId,
        productStoreId: store.productStoreId,
        hostName: store.host,
        origin: deps.linkOrigin(store.host),
        viaDevAlias: false,
      },
      'paypal-webhook',
      requestId,
    );
  }

  /** The store of a seller PayPal names, connected or on its way. */
  async function sellerStore(by: { merchantId?: string | undefined; trackingId?: string | undefined }) {
    for (const q of [db, ...(deps.movedDatabases?.() ?? [])]) {
      const found = await sellerStoreIn(q, by);
      if (found) return found;
    }
    return null;
  }

  async function sellerStoreIn(q: Db, by: { merchantId?: string | undefined; trackingId?: string | undefined }) {
    if (by.trackingId) {
      const [row] = await q
        .select({ tenantId: sellers.tenantId })
        .from(sellers)
        .where(eq(sellers.trackingId, by.trackingId));
      if (row) return row.tenantId;
    }
    if (by.merchantId) {
      const [row] = await q
        .select({ tenantId: sellers.tenantId })
        .from(sellers)
        .where(and(eq(sellers.merchantId, by.merchantId), ne(sellers.status, 'disconnected')));
      if (row) return row.tenantId;
    }
    return null;
  }

  /** The store of a payment: the tenant id the order carried as custom_id, else the payee seller's. */
  async function paymentStore(customId: string | undefined, merchantId: string | undefined) {
    if (customId) {
      const [t] = await db
        .select({ tenantId: schema.tenants.tenantId })
        .from(schema.tenants)
        .where(eq(schema.tenants.tenantId, customId));
      if (t) return t.tenantId;
    }
    return sellerStore({ merchantId });
  }

  /**
   * Claims the event id and applies it in one transaction: a repeat finds the id and changes
   * nothing; a failure rolls the claim back with the effects, so PayPal's retry applies it.
   */
  async function once(event: Envelope, transmissionTime: Date, apply: (tx: Tx) => Promise<Applied>) {
    const result = await deps.events.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(we)
        .values({
          eventId: event.id,
          eventType: event.event_type,
          resourceId: typeof event.resource.id === 'string' ? event.resource.id.slice(0, 64) : null,
          outcome: 'applied',
          transmissionTime,
        })
        .onConflictDoNothing()
        .returning({ eventId: we.eventId });
      if (!claimed) return null;
      const applied = await apply(tx);
      await tx
        .update(we)
        .set({ tenantId: applied.tenantId, outcome: applied.outcome, detail: applied.detail.slice(0, 500) })
        .where(eq(we.eventId, event.id));
      return applied;
    });
    if (!result) return 'duplicate' as const;
    await result.after?.();
    return result;
  }

  const ignored = (tenantId: string | null, detail: string): Applied => ({ tenantId, outcome: 'ignored', detail });

  /** The order a capture or refund belongs to, by PayPal order id, then by capture id. */
  async function orderOf(tx: Tx, tenantId: string, paypalOrderId: string | undefined, captureId: string) {
    if (paypalOrderId) {
      const [byKey] = await tx
        .select()
        .from(o)
        .where(and(eq(o.tenantId, tenantId), eq(o.idempotencyKey, `paypal:${paypalOrderId}`)));
      if (byKey) return byKey;
      const [checkout] = await tx
        .select({ orderId: ppc.orderId })
        .from(ppc)
        .where(and(eq(ppc.tenantId, tenantId), eq(ppc.paypalOrderId, paypalOrderId)));
      if (checkout?.orderId) {
        const [row] = await tx
          .select()
          .from(o)
          .where(and(eq(o.tenantId, tenantId), eq(o.orderId, checkout.orderId)));
        if (row) return row;
      }
    }
    const [byRef] = await tx
      .select()
      .from(o)
      .where(and(eq(o.tenantId, tenantId), eq(o.paymentRef, captureId)));
    return byRef ?? null;
  }

  async function onCapture(event: Envelope, requestId: string, transmissionTime: Date) {
    const r = captureSchema.safeParse(event.resource);
    if (!r.success) return once(event, transmissionTime, async () => ignored(null, 'capture not understood'));
    const capture = r.data;
    const tenantId = await paymentStore(capture.custom_id, capture.payee?.merchant_id);
    const ctx = tenantId ? await storeContext(tenantId, requestId) : null;
    if (!ctx) {
      // Not ours to show anyone: no store of this platform made it. Logged for the operator.
      log.warn({ eventId: event.id, captureId: capture.id }, 'PayPal capture of no store of this platform');
      return once(event, transmissionTime, async () => ignored(null, 'no store of this platform'));
    }
    // The store's rows (its orders, its seller) are on the database it lives on (decision 123).
    return inStore(ctx.tenantId, async () => {
      const paypalOrderId =
        capture.supplementary_data?.related_ids?.order_id ?? linkedId(capture.links, 'up', '/v2/checkout/orders/');
      const currency = capture.amount.currency_code;
      const amount = paypalAmountMinor(capture.amount.value, currency) ?? null;
      const shown = amount === null ? `${capture.amount.value} ${currency}` : formatMoney(amount, currency);
      const base = { paypalOrderId: paypalOrderId ?? null, captureId: capture.id, amount, currency };

      return once(event, transmissionTime, async (tx): Promise<Applied> => {
        const order = await orderOf(tx, ctx.tenantId, paypalOrderId, capture.id);
        const flag = async (issue: NewPaymentIssue, detail: string): Promise<Applied> => {
          await deps.issues.raise(tx, ctx, issue);
          return { tenantId: ctx.tenantId, outcome: 'flagged', detail };
        };
        const fresh = order && order.status === 'placed' && Date.now() - order.placedAt.getTime() < grace;

        if (event.event_type !== 'PAYMENT.CAPTURE.COMPLETED') {
          // Denied or reversed: no money, or money taken back. Only an order of ours needs a word.
          if (!order) return ignored(ctx.tenantId, 'no order: nothing to show');
          if (fresh) throw retryLater('The order is still in its checkout; try again later.');
          const reversed = event.event_type === 'PAYMENT.CAPTURE.REVERSED';
          const message = reversed
            ? `PayPal took back the payment of ${shown} for order ${order.orderId} (a reversal or chargeback). Check before you ship.`
            : `PayPal denied the payment of ${shown} for order ${order.orderId}. Check before you ship.`;
          await recordOrderEvent(tx, ctx, order.orderId, {
            kind: 'payment',
            message,
            data: { captureId: capture.id, eventType: event.event_type },
          });
          return flag({ ...base, kind: 'capture_denied', orderId: order.orderId, message }, 'capture denied');
        }

        if (!order) {
          // Money at PayPal with no order here (the shopper never came back, the order was removed):
          // the owner must see it. The checkout it started from is flagged, not left to expire.
          const flagged = paypalOrderId ? await flagPayPalCheckout(tx, ctx, paypalOrderId) : false;
          return flag(
            {
              ...base,
              kind: 'capture_without_order',
              message: `PayPal took ${shown} but there is no order for it${flagged ? ' (the shopper did not come back from PayPal)' : ''}. Refund it in PayPal or contact the buyer.`,
            },
            'capture without order',
          );
        }
        if (order.status === 'placed') {
          if (amount !== order.grandTotal || currency !== order.currency) {
            return flag(
              {
                ...base,
                kind: 'amount_mismatch',
                orderId: order.orderId,
                message: `PayPal took ${shown} for order ${order.orderId}, whose total is ${formatMoney(order.grandTotal, order.currency)}. Settle the difference in PayPal.`,
              },
              'amount differs from the order',
            );
          }
          if (fresh) throw retryLater('The order is still in its checkout; try again later.');
          const paid = await markPaidByPayPal(tx, ctx, {
            orderId: order.orderId,
            paypalOrderId: paypalOrderId ?? '',
            captureId: capture.id,
            amountMinor: amount,
            reason: `PayPal reported the payment (webhook PAYMENT.CAPTURE.COMPLETED, capture ${capture.id})`,
          });
          if (!paid) return ignored(ctx.tenantId, 'order no longer placed');
          deps.events.emitAfterCommit(tx, 'order.transitioned', {
            tenantId: ctx.tenantId,
            orderId: order.orderId,
            from: 'placed',
            to: 'paid',
          });
          return {
            tenantId: ctx.tenantId,
            outcome: 'applied',
            detail: `order ${order.orderId} paid`,
            after: () => mailPaidReceipt(deps, ctx, order),
          };
        }
        if (order.paymentRef === capture.id) {
          if (order.capturedAmount !== amount) {
            return flag(
              {
                ...base,
                kind: 'amount_mismatch',
                orderId: order.orderId,
                message: `PayPal reports ${shown} for order ${order.orderId}, which recorded ${formatMoney(order.capturedAmount, order.currency)}.`,
              },
              'amount differs from the order',
            );
          }
          return { tenantId: ctx.tenantId, outcome: 'applied', detail: `order ${order.orderId} already paid` };
        }
        // The order was cancelled before the money came, or was paid by another capture.
        return flag(
          {
            ...base,
            kind: 'capture_without_order',
            orderId: order.orderId,
            message:
              order.status === 'cancelled'
                ? `PayPal took ${shown} for order ${order.orderId}, which had been cancelled. Refund it in PayPal or contact the buyer.`
                : `PayPal took a second payment of ${shown} for order ${order.orderId}. Refund it in PayPal.`,
          },
          'capture without a live order',
        );
      });
    });
  }

  async function onRefund(event: Envelope, requestId: string, transmissionTime: Date) {
    const r = refundSchema.safeParse(event.resource);
    const captureId = r.success ? linkedId(r.data.links, 'up', '/v2/payments/captures/') : undefined;
    if (!r.success || !captureId) {
      return once(event, transmissionTime, async () => ignored(null, 'refund not understood'));
    }
    const refund = r.data;
    const tenantId = await paymentStore(refund.custom_id, refund.payer?.merchant_id);
    const ctx = tenantId ? await storeContext(tenantId, requestId) : null;
    if (!ctx) {
      log.warn({ eventId: event.id, refundId: refund.id }, 'PayPal refund of no store of this platform');
      return once(event, transmissionTime, async () => ignored(null, 'no store of this platform'));
    }
    // The store's rows (its orders, its seller) are on the database it lives on (decision 123).
    return inStore(ctx.tenantId, async () => {
      const currency = refund.amount.currency_code;
      const amount = paypalAmountMinor(refund.amount.value, currency) ?? null;
      const shown = amount === null ? `${refund.amount.value} ${currency}` : formatMoney(amount, currency);
      return once(event, transmissionTime, async (tx): Promise<Applied> => {
        const order = await orderOf(tx, ctx.tenantId, undefined, captureId);
        if (order) {
          // Ours when the refunds module made it: settled with PayPal's id, or still being asked
          // (PayPal's event can come before its answer to the refund call).
          const known = await tx
            .select({ providerRef: refunds.providerRef, status: refunds.status, amount: refunds.amount })
            .from(refunds)
            .where(and(eq(refunds.tenantId, ctx.tenantId), eq(refunds.orderId, order.orderId)));
          if (
            known.some((k) => k.providerRef === refund.id) ||
            known.some((k) => k.status === 'pending' && k.providerRef === null && k.amount === amount)
          ) {
            return { tenantId: ctx.tenantId, outcome: 'applied', detail: `refund of order ${order.orderId} known` };
          }
        }
        // Made at PayPal directly: the store's books (refunded amount) are the refunds module's; the
        // owner is told, and records it there if it should count.
        const message = order
          ? `A refund of ${shown} for order ${order.orderId} was made in PayPal, not in the store. The order does not show it as refunded.`
          : `A refund of ${shown} was made in PayPal for a payment with no order here.`;
        if (order) {
          await recordOrderEvent(tx, ctx, order.orderId, {
            kind: 'refund',
            message,
            data: { refundId: refund.id, captureId },
          });
        }
        await deps.issues.raise(tx, ctx, {
          kind: 'refund_unknown',
          captureId,
          orderId: order?.orderId ?? null,
          amount,
          currency,
          message,
        });
        return { tenantId: ctx.tenantId, outcome: 'flagged', detail: 'refund made outside the store' };
      });
    });
  }

  async function onOnboarded(event: Envelope, requestId: string, transmissionTime: Date) {
    const r = merchantSchema.safeParse(event.resource);
    if (!r.success) return once(event, transmissionTime, async () => ignored(null, 'onboarding not understood'));
    const tenantId = await sellerStore({ trackingId: r.data.tracking_id, merchantId: r.data.merchant_id });
    const ctx = tenantId ? await storeContext(tenantId, requestId) : null;
    if (!ctx) {
      log.warn({ eventId: event.id, merchantId: r.data.merchant_id }, 'PayPal onboarding of no store of this platform');
      return once(event, transmissionTime, async () => ignored(null, 'no store started this sign-up'));
    }
    // The store's rows (its orders, its seller) are on the database it lives on (decision 123).
    return inStore(ctx.tenantId, async () => {
      const onboarding = deps.onboarding();
      if (!onboarding) throw retryLater('Seller onboarding is not available yet; try again later.');
      const [seen] = await db.select({ id: we.eventId }).from(we).where(eq(we.eventId, event.id));
      if (seen) return 'duplicate' as const;
      // The event is a hint, as the return URL is: the onboarding service asks PayPal's
      // merchant-integrations before it connects anything, so running it twice does no harm.
      const confirmed = await onboarding.confirm(ctx, {
        merchantId: r.data.merchant_id,
        actor: { kind: 'paypal', id: event.id },
      });
      // Refused (no partner set-up, the seller's state moved meanwhile): the event is not recorded and
      // PayPal is answered with the refusal's status, so it delivers the event again later.
      if (!confirmed.ok) throw new AppError(confirmed.status, confirmed.code, confirmed.message);
      return once(event, transmissionTime, async () => ({
        tenantId: ctx.tenantId,
        outcome: 'applied',
        detail: 'seller status checked with PayPal',
      }));
    });
  }

  async function onConsentRevoked(event: Envelope, requestId: string, transmissionTime: Date) {
    const r = merchantSchema.safeParse(event.resource);
    if (!r.success) return once(event, transmissionTime, async () => ignored(null, 'revocation not understood'));
    const merchantId = r.data.merchant_id;
    const tenantId = await sellerStore({ merchantId });
    const ctx = tenantId ? await storeContext(tenantId, requestId) : null;
    if (!ctx) {
      log.warn({ eventId: event.id, merchantId }, 'PayPal consent revoked by a seller of no store here');
      return once(event, transmissionTime, async () => ignored(null, 'no store has this seller'));
    }
    // The store's rows (its orders, its seller) are on the database it lives on (decision 123).
    return inStore(ctx.tenantId, async () => {
      return once(event, transmissionTime, async (tx): Promise<Applied> => {
        const [seller] = await tx
          .select({ status: sellers.status, merchantId: sellers.merchantId })
          .from(sellers)
          .where(eq(sellers.tenantId, ctx.tenantId))
          .for('update');
        if (!seller || seller.merchantId !== merchantId || seller.status === 'disconnected') {
          return ignored(ctx.tenantId, 'seller not connected');
        }
        const moved = await transitionSeller(tx, ctx, 'action_needed', {
          reasons: ['CONSENT_REVOKED'],
          actor: { kind: 'paypal', id: event.id },
          note: 'PayPal: the seller withdrew the permissions (MERCHANT.PARTNER-CONSENT.REVOKED)',
        });
        if (!moved.ok) return ignored(ctx.tenantId, moved.message);
        // Checkout stops offering PayPal at once, in every process.
        deps.events.emitAfterCommit(tx, 'payments.changed', { tenantId: ctx.tenantId });
        return { tenantId: ctx.tenantId, outcome: 'applied', detail: 'seller needs to connect again' };
      });
    });
  }

  return {
    /** Verifies and applies one delivery; throws the refusal (4xx) or a failure PayPal retries (5xx). */
    async receive(
      headers: IncomingHttpHeaders,
      rawBody: string,
      requestId: string,
    ): Promise<{ eventId: string; outcome: WebhookOutcome }> {
      const event = await verify(headers, rawBody, requestId);
      const transmissionTime = new Date(header(headers, 'paypal-transmission-time', 100) ?? '');
      let result: Applied | 'duplicate';
      switch (event.event_type) {
        case 'PAYMENT.CAPTURE.COMPLETED':
        case 'PAYMENT.CAPTURE.DENIED':
        case 'PAYMENT.CAPTURE.REVERSED':
          result = await onCapture(event, requestId, transmissionTime);
          break;
        case 'PAYMENT.CAPTURE.REFUNDED':
          result = await onRefund(event, requestId, transmissionTime);
          break;
        case 'MERCHANT.ONBOARDING.COMPLETED':
          result = await onOnboarded(event, requestId, transmissionTime);
          break;
        case 'MERCHANT.PARTNER-CONSENT.REVOKED':
          result = await onConsentRevoked(event, requestId, transmissionTime);
          break;
        default:
          // Subscribed to more than we act on: recorded, so the log says it came.
          result = await once(event, transmissionTime, async () => ignored(null, 'event type not handled'));
      }
      const outcome = result === 'duplicate' ? 'duplicate' : result.outcome;
      log.info({ requestId, eventId: event.id, eventType: event.event_type, outcome }, 'PayPal webhook');
      return { eventId: event.id, outcome };
    },
  };
}

export type PayPalWebhookService = ReturnType<typeof createPayPalWebhookService>;
