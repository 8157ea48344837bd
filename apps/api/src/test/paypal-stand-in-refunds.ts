import { validateAmount } from './paypal-stand-in-orders';
import {
  denied,
  invalid,
  isObject,
  PAYPAL_CURRENCY_DIGITS,
  PayPalError,
  paypalId,
  type StandInApp,
  unprocessable,
} from './paypal-stand-in-shared';
import type { StandInState } from './paypal-stand-in-state';
import type { StandInAmount, StandInRefund, StandInSeller, WebhookInput } from './paypal-stand-in-types';
import { autoWebhook, money } from './paypal-stand-in-webhooks';

// Refunds of captures in the PayPal stand-in (paypal-stand-in.ts), PayPal's Payments v2 API:
// POST /v2/payments/captures/{id}/refund, its answer and the PAYMENT.CAPTURE.REFUNDED event.

export function refundBody(s: StandInState, r: StandInRefund) {
  return {
    id: r.id,
    status: r.status,
    links: [
      { href: `${s.url}/v2/payments/refunds/${r.id}`, rel: 'self', method: 'GET' },
      { href: `${s.url}/v2/payments/captures/${r.captureId}`, rel: 'up', method: 'GET' },
    ],
  };
}

/** Minor units of an amount the stand-in itself validated. */
const minor = (a: StandInAmount) => Math.round(Number(a.value) * 10 ** (PAYPAL_CURRENCY_DIGITS[a.currency_code] ?? 2));

/** A full refund without an amount, or a partial one; never more than is left of the capture. */
export function refund(
  s: StandInState,
  captureId: string,
  body: unknown,
  app: StandInApp,
  seller: StandInSeller | undefined,
): StandInRefund {
  const order = [...s.orders.values()].find((o) => o.capture?.id === captureId && o.clientId === app.clientId);
  const captured = order?.capture;
  if (!order || !captured || captured.status !== 'COMPLETED') {
    throw new PayPalError(404, 'RESOURCE_NOT_FOUND', [
      {
        issue: 'INVALID_RESOURCE_ID',
        description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
        location: 'path',
      },
    ]);
  }
  // The seller's money: a platform refunds it only acting for that seller.
  if (order.payeeMerchantId !== app.merchantId && seller?.merchantId !== order.payeeMerchantId) throw denied();
  if (seller && seller.merchantId !== order.payeeMerchantId) throw denied();
  if (body !== undefined && !isObject(body)) {
    throw invalid('/', 'INVALID_PARAMETER_SYNTAX', 'The request body must be a JSON object.');
  }
  const refused = s.refuseNext;
  s.refuseNext = undefined;
  if (refused) throw unprocessable(refused, 'The refund was refused.');
  const already = s.refunds.filter((r) => r.captureId === captureId).reduce((sum, r) => sum + minor(r.amount), 0);
  const total = minor(captured.amount);
  if (already >= total) throw unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.');
  let amount: StandInAmount;
  if (body?.amount === undefined) {
    const digits = PAYPAL_CURRENCY_DIGITS[captured.amount.currency_code] ?? 2;
    amount = {
      currency_code: captured.amount.currency_code,
      value: ((total - already) / 10 ** digits).toFixed(digits),
    };
  } else {
    amount = validateAmount(body.amount, '');
    if (amount.currency_code !== captured.amount.currency_code) {
      throw unprocessable(
        'REFUND_CURRENCY_MISMATCH',
        'Refund must be in the same currency as the capture.',
        '/amount/currency_code',
      );
    }
    if (already + minor(amount) > total) {
      throw unprocessable(
        'REFUND_AMOUNT_EXCEEDED',
        'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
      );
    }
  }
  const made: StandInRefund = {
    id: paypalId(17),
    captureId,
    status: 'COMPLETED',
    amount,
    createTime: new Date().toISOString(),
    ...(typeof body?.note_to_payer === 'string' ? { noteToPayer: body.note_to_payer } : {}),
    ...(typeof body?.invoice_id === 'string' ? { invoiceId: body.invoice_id } : {}),
  };
  s.refunds.push(made);
  if (order.clientId === s.platformApp.clientId) autoWebhook(s, refundEvent(s, made.id));
  return made;
}

export function refundEvent(s: StandInState, refundId: string): WebhookInput {
  const r = s.refunds.find((x) => x.id === refundId);
  if (!r) throw new Error(`The stand-in has no refund ${refundId}.`);
  const order = [...s.orders.values()].find((o) => o.capture?.id === r.captureId);
  const invoiceId = r.invoiceId ?? order?.invoiceId;
  return {
    event_type: 'PAYMENT.CAPTURE.REFUNDED',
    resource_type: 'refund',
    summary: `A ${money(r.amount)} capture payment was refunded`,
    resource: {
      id: r.id,
      status: r.status,
      amount: r.amount,
      ...(invoiceId ? { invoice_id: invoiceId } : {}),
      ...(order?.customId ? { custom_id: order.customId } : {}),
      ...(r.noteToPayer ? { note_to_payer: r.noteToPayer } : {}),
      ...(order ? { payer: { merchant_id: order.payeeMerchantId } } : {}),
      create_time: r.createTime,
      update_time: r.createTime,
      links: [
        { href: `${s.url}/v2/payments/refunds/${r.id}`, rel: 'self', method: 'GET' },
        { href: `${s.url}/v2/payments/captures/${r.captureId}`, rel: 'up', method: 'GET' },
      ],
    },
  };
}
