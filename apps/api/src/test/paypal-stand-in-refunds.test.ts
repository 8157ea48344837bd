import { describe, expect, it } from 'vitest';
import { refund } from './paypal-stand-in-refunds';
import { PayPalError, type StandInApp } from './paypal-stand-in-shared';
import { createStandInState, type StandInState } from './paypal-stand-in-state';
import type { StandInAmount, StandInSeller } from './paypal-stand-in-types';

// The stand-in's refund rules, called alone on a state without a server: what is left of a capture
// decides what a refund may take, as PayPal's Payments v2 API does. The shop's refund tests rely on them.

const APP = { clientId: 'platform-app', clientSecret: 'platform-secret' };

/** A state holding one completed capture of `amount`, made by the platform's app for `payee`. */
function withCapture(amount: StandInAmount, payee?: string): { s: StandInState; app: StandInApp; captureId: string } {
  const s = createStandInState(APP);
  const now = new Date().toISOString();
  s.orders.set('ORDER1', {
    id: 'ORDER1',
    clientId: APP.clientId,
    payeeMerchantId: payee ?? s.partnerId,
    intent: 'CAPTURE',
    status: 'COMPLETED',
    referenceId: 'default',
    amount,
    approvalRel: 'approve',
    payerId: 'PAYER1',
    capture: { id: 'CAPTURE1', status: 'COMPLETED', amount, final_capture: true, create_time: now },
    createTime: now,
    updateTime: now,
  });
  return { s, app: s.platformApp, captureId: 'CAPTURE1' };
}

/** The PayPal issue a refund is refused with. */
function refusal(run: () => unknown): { status: number; issue: string | undefined } {
  try {
    run();
  } catch (e) {
    if (e instanceof PayPalError) return { status: e.status, issue: e.details[0]?.issue };
    throw e;
  }
  throw new Error('The refund was made.');
}

describe('PayPal stand-in: refunds of a capture', () => {
  it('takes what is left of the capture when no amount is given, in the currency’s digits', () => {
    const { s, app, captureId } = withCapture({ currency_code: 'USD', value: '30.00' });
    expect(refund(s, captureId, { amount: { currency_code: 'USD', value: '12.50' } }, app, undefined).amount).toEqual({
      currency_code: 'USD',
      value: '12.50',
    });
    expect(refund(s, captureId, undefined, app, undefined).amount).toEqual({ currency_code: 'USD', value: '17.50' });

    const yen = withCapture({ currency_code: 'JPY', value: '1500' });
    expect(refund(yen.s, yen.captureId, undefined, yen.app, undefined).amount).toEqual({
      currency_code: 'JPY',
      value: '1500',
    });
  });

  it('refuses more than is left, another currency, and any refund once the capture is fully refunded', () => {
    const { s, app, captureId } = withCapture({ currency_code: 'EUR', value: '10.00' });
    refund(s, captureId, { amount: { currency_code: 'EUR', value: '9.99' } }, app, undefined);
    expect(
      refusal(() => refund(s, captureId, { amount: { currency_code: 'EUR', value: '0.02' } }, app, undefined)),
    ).toEqual({ status: 422, issue: 'REFUND_AMOUNT_EXCEEDED' });
    expect(
      refusal(() => refund(s, captureId, { amount: { currency_code: 'USD', value: '0.01' } }, app, undefined)),
    ).toEqual({ status: 422, issue: 'REFUND_CURRENCY_MISMATCH' });
    refund(s, captureId, { amount: { currency_code: 'EUR', value: '0.01' } }, app, undefined);
    expect(refusal(() => refund(s, captureId, undefined, app, undefined))).toEqual({
      status: 422,
      issue: 'CAPTURE_FULLY_REFUNDED',
    });
    expect(s.refunds.map((r) => r.amount.value)).toEqual(['9.99', '0.01']);
  });

  it('refunds a seller’s capture only acting for that seller, and refuses the next one when told to', () => {
    const seller = { merchantId: 'SELLER1' } as StandInSeller;
    const other = { merchantId: 'SELLER2' } as StandInSeller;
    const { s, app, captureId } = withCapture({ currency_code: 'USD', value: '5.00' }, seller.merchantId);
    expect(refusal(() => refund(s, captureId, undefined, app, undefined)).status).toBe(403);
    expect(refusal(() => refund(s, captureId, undefined, app, other)).status).toBe(403);
    s.refuseNext = 'TRANSACTION_REFUSED';
    expect(refusal(() => refund(s, captureId, undefined, app, seller))).toEqual({
      status: 422,
      issue: 'TRANSACTION_REFUSED',
    });
    expect(refund(s, captureId, undefined, app, seller).amount.value).toBe('5.00');
    expect(refusal(() => refund(s, 'UNKNOWN', undefined, app, seller)).status).toBe(404);
  });
});
