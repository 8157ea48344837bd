import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { paypalAmountMinor, paypalAmountValue } from './paypal-client';
import {
  approve,
  CANCEL_URL,
  CLIENT_ID,
  CLIENT_SECRET,
  client,
  order,
  paypal,
  RETURN_URL,
  rejection,
  sent,
  usePayPalStandIn,
} from './paypal-client-test-setup';

usePayPalStandIn();

describe('PayPal client: create, approve, capture', () => {
  it('takes a USD payment: decimal amount out, the same minor units back', async () => {
    const from = paypal.requests.length;
    const pp = client();
    const input = order(12_345, 'USD');
    const created = await pp.createOrder(input);

    expect(created.status).toBe('PAYER_ACTION_REQUIRED');
    expect(created.approveUrl).toBe(`${paypal.url}/checkoutnow?token=${created.id}`);
    const [create] = sent(from, '/v2/checkout/orders', 'POST');
    expect(create!.headers['content-type']).toBe('application/json');
    expect(create!.body).toEqual({
      intent: 'CAPTURE',
      purchase_units: [{ reference_id: input.referenceId, amount: { currency_code: 'USD', value: '123.45' } }],
      payment_source: {
        paypal: {
          experience_context: {
            return_url: RETURN_URL,
            cancel_url: CANCEL_URL,
            brand_name: 'Lighting Store',
            user_action: 'PAY_NOW',
            shipping_preference: 'NO_SHIPPING',
          },
        },
      },
    });

    const back = await approve(created.approveUrl);
    expect(`${back.origin}${back.pathname}`).toBe('https://lighting.shop.test/checkout/paypal/return');
    expect(back.searchParams.get('cart')).toBe('c-1');
    expect(back.searchParams.get('token')).toBe(created.id);
    expect(back.searchParams.get('PayerID')).toMatch(/^[A-Z0-9]{13}$/);

    expect(await pp.getOrder(created.id)).toEqual({
      id: created.id,
      status: 'APPROVED',
      amountMinor: 12_345,
      currency: 'USD',
      referenceId: input.referenceId,
      // An own-app order: the payee is the app's own merchant.
      payeeMerchantId: paypal.partnerId,
    });

    const captured = await pp.captureOrder(created.id, randomUUID());
    expect(captured).toEqual({
      ok: true,
      captureId: paypal.orders.get(created.id)!.capture!.id,
      status: 'COMPLETED',
      amountMinor: 12_345,
      currency: 'USD',
      referenceId: input.referenceId,
    });
    expect((await pp.getOrder(created.id)).status).toBe('COMPLETED');
  });

  it('takes a JPY payment: no decimals either way', async () => {
    const from = paypal.requests.length;
    const pp = client();
    const input = order(1_500, 'JPY');
    const created = await pp.createOrder(input);
    const [create] = sent(from, '/v2/checkout/orders', 'POST');
    expect((create!.body as { purchase_units: { amount: unknown }[] }).purchase_units[0]!.amount).toEqual({
      currency_code: 'JPY',
      value: '1500',
    });
    await approve(created.approveUrl);
    const captured = await pp.captureOrder(created.id, randomUUID());
    expect(captured).toMatchObject({ ok: true, status: 'COMPLETED', amountMinor: 1_500, currency: 'JPY' });
  });

  it('sends TWD in whole dollars, as PayPal requires, though our minor units are cents', async () => {
    const pp = client();
    const created = await pp.createOrder(order(10_000, 'TWD'));
    expect(paypal.orders.get(created.id)!.amount).toEqual({ currency_code: 'TWD', value: '100' });
    await approve(created.approveUrl);
    expect(await pp.captureOrder(created.id, randomUUID())).toMatchObject({ ok: true, amountMinor: 10_000 });
    // A fraction PayPal cannot take is refused before anything is sent.
    await expect(pp.createOrder(order(10_050, 'TWD'))).rejects.toThrow(RangeError);
  });

  it('converts amounts exactly, with each currency’s digits', () => {
    expect(paypalAmountValue(1, 'USD')).toBe('0.01');
    expect(paypalAmountValue(1_999, 'EUR')).toBe('19.99');
    expect(paypalAmountValue(7, 'JPY')).toBe('7');
    expect(paypalAmountMinor('0.29', 'USD')).toBe(29);
    expect(paypalAmountMinor('1234567.89', 'USD')).toBe(123_456_789);
    expect(paypalAmountMinor('10', 'USD')).toBe(1_000);
    expect(paypalAmountMinor('10.5', 'USD')).toBe(1_050);
    expect(paypalAmountMinor('1500', 'JPY')).toBe(1_500);
    expect(paypalAmountMinor('15.5', 'JPY')).toBeUndefined();
    expect(paypalAmountMinor('1.001', 'USD')).toBeUndefined();
    expect(paypalAmountMinor('-1.00', 'USD')).toBeUndefined();
    expect(() => paypalAmountValue(0, 'USD')).toThrow(RangeError);
    expect(() => paypalAmountValue(1.5, 'USD')).toThrow(RangeError);
  });

  it('sends the PayPal-Request-Id it is given on create and on capture', async () => {
    const from = paypal.requests.length;
    const pp = client();
    const createId = randomUUID();
    const captureId = randomUUID();
    const created = await pp.createOrder(order(4_200, 'USD', createId));
    await approve(created.approveUrl);
    await pp.captureOrder(created.id, captureId);

    expect(sent(from, '/v2/checkout/orders', 'POST').map((r) => r.headers['paypal-request-id'])).toEqual([createId]);
    expect(sent(from, `/v2/checkout/orders/${created.id}/capture`).map((r) => r.headers['paypal-request-id'])).toEqual([
      captureId,
    ]);
  });

  it('creates one PayPal order for a repeated PayPal-Request-Id (201, then 200)', async () => {
    const from = paypal.requests.length;
    const pp = client();
    const input = order(990, 'USD');
    const first = await pp.createOrder(input);
    const again = await pp.createOrder(input);

    expect(again).toEqual(first);
    expect([...paypal.orders.values()].filter((o) => o.referenceId === input.referenceId)).toHaveLength(1);
    expect(sent(from, '/v2/checkout/orders', 'POST').map((r) => r.status)).toEqual([201, 200]);
  });

  it('does not capture an order the buyer has not approved', async () => {
    const pp = client();
    const created = await pp.createOrder(order(2_500, 'USD'));
    const result = await pp.captureOrder(created.id, randomUUID());

    expect(result).toMatchObject({ ok: false, reason: 'not_approved', issue: 'ORDER_NOT_APPROVED' });
    expect(result.ok === false && result.debugId).toMatch(/^[0-9a-f]{13}$/);
    expect(paypal.orders.get(created.id)!.status).toBe('PAYER_ACTION_REQUIRED');
  });

  it('leaves the order unapproved when the buyer cancels on PayPal', async () => {
    const pp = client();
    const created = await pp.createOrder(order(2_500, 'USD'));
    const res = await fetch(`${created.approveUrl}&cancel=1`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CANCEL_URL);
    expect(back.searchParams.get('token')).toBe(created.id);
    expect(back.searchParams.has('PayerID')).toBe(false);
    expect((await pp.captureOrder(created.id, randomUUID())).ok).toBe(false);
  });

  it('reports a declined funding source, and the order can still be captured after', async () => {
    const pp = client();
    const created = await pp.createOrder(order(6_000, 'USD'));
    await approve(created.approveUrl);
    paypal.declineNextCapture();

    const declined = await pp.captureOrder(created.id, randomUUID());
    expect(declined).toMatchObject({ ok: false, reason: 'declined', issue: 'INSTRUMENT_DECLINED' });
    expect(declined.ok === false && declined.message).toMatch(/declined/);
    expect(paypal.orders.get(created.id)!.capture).toBeUndefined();

    expect(await pp.captureOrder(created.id, randomUUID())).toMatchObject({ ok: true, amountMinor: 6_000 });
  });

  it('reports a capture PayPal answered with status DECLINED as declined', async () => {
    const pp = client();
    const created = await pp.createOrder(order(6_100, 'USD'));
    await approve(created.approveUrl);
    paypal.declineNextCapture('capture');

    expect(await pp.captureOrder(created.id, randomUUID())).toMatchObject({ ok: false, reason: 'declined' });
    expect(paypal.orders.get(created.id)!.capture!.status).toBe('DECLINED');
  });

  it('replays a capture for the same PayPal-Request-Id and refuses a second capture under a new one', async () => {
    const pp = client();
    const created = await pp.createOrder(order(3_300, 'USD'));
    await approve(created.approveUrl);
    const captureRequestId = randomUUID();
    const first = await pp.captureOrder(created.id, captureRequestId);
    const replay = await pp.captureOrder(created.id, captureRequestId);
    const second = await pp.captureOrder(created.id, randomUUID());

    expect(first.ok).toBe(true);
    expect(replay).toEqual(first);
    expect(second).toMatchObject({ ok: false, reason: 'already_captured', issue: 'ORDER_ALREADY_CAPTURED' });
  });

  it('reports an unknown order as not found', async () => {
    const pp = client();
    expect(await pp.captureOrder('0NOSUCHORDER0000', randomUUID())).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
    const err = await rejection(pp.getOrder('0NOSUCHORDER0000'));
    expect(err.statusCode).toBe(404);
  });
});

describe('PayPal stand-in: as strict as PayPal', () => {
  const token = async () => {
    const res = await fetch(`${paypal.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 32_400 });
    expect(Object.keys(body).sort()).toEqual(['access_token', 'app_id', 'expires_in', 'nonce', 'scope', 'token_type']);
    return body.access_token as string;
  };
  const create = async (bearer: string | undefined, amount: unknown) =>
    fetch(`${paypal.url}/v2/checkout/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify({ intent: 'CAPTURE', purchase_units: [{ amount }] }),
    });

  it('refuses API calls without a valid bearer token', async () => {
    const res = await create(undefined, { currency_code: 'USD', value: '1.00' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ name: 'AUTHENTICATION_FAILURE' });
  });

  it('refuses amounts PayPal refuses, with PayPal’s error names and issues', async () => {
    const bearer = await token();
    const cases: [unknown, number, string, string][] = [
      [{ currency_code: 'USD', value: 12.5 }, 400, 'INVALID_REQUEST', 'INVALID_PARAMETER_SYNTAX'],
      [{ currency_code: 'USD', value: '1.234' }, 422, 'UNPROCESSABLE_ENTITY', 'DECIMAL_PRECISION'],
      [{ currency_code: 'JPY', value: '1500.00' }, 422, 'UNPROCESSABLE_ENTITY', 'DECIMALS_NOT_SUPPORTED'],
      [{ currency_code: 'KWD', value: '1.000' }, 422, 'UNPROCESSABLE_ENTITY', 'CURRENCY_NOT_SUPPORTED'],
      [{ currency_code: 'USD', value: '0.00' }, 422, 'UNPROCESSABLE_ENTITY', 'CANNOT_BE_ZERO_OR_NEGATIVE'],
      [{ value: '1.00' }, 400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER'],
    ];
    for (const [amount, status, name, issue] of cases) {
      const res = await create(bearer, amount);
      expect(res.status, JSON.stringify(amount)).toBe(status);
      const body = (await res.json()) as { name: string; debug_id: string; details: { issue: string }[] };
      expect(body.name).toBe(name);
      expect(body.details[0]!.issue).toBe(issue);
      expect(body.debug_id).toMatch(/^[0-9a-f]{13}$/);
    }
  });
});
