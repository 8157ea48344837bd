import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { type PayPalStandIn, type StandInRequest, startPayPalStandIn } from '../../test/paypal-stand-in';
import { createPayPalClient, type PayPalClient, paypalAmountMinor, paypalAmountValue } from './paypal-client';

// The client runs against the stand-in over loopback: real HTTP, PayPal's shapes, nothing mocked.
const CLIENT_ID = 'client-under-test';
const CLIENT_SECRET = 'secret-that-must-never-leak';
const RETURN_URL = 'https://lighting.shop.test/checkout/paypal/return?cart=c-1';
const CANCEL_URL = 'https://lighting.shop.test/checkout/paypal/cancel';

let paypal: PayPalStandIn;
beforeAll(async () => {
  paypal = await startPayPalStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
});
afterAll(async () => {
  await paypal.close();
});

const client = (overrides: { baseUrl?: string; clientSecret?: string } = {}): PayPalClient =>
  createPayPalClient({ baseUrl: paypal.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...overrides });

const order = (amountMinor: number, currency: string, requestId = randomUUID()) => ({
  amountMinor,
  currency,
  referenceId: `order-${randomUUID().slice(0, 8)}`,
  requestId,
  returnUrl: RETURN_URL,
  cancelUrl: CANCEL_URL,
  brandName: 'Lighting Store',
});

/** The requests made from `from` on, to one path. */
const sent = (from: number, path: string | RegExp, method?: string): StandInRequest[] =>
  paypal.requests
    .slice(from)
    .filter(
      (r) =>
        (typeof path === 'string' ? r.path === path : path.test(r.path)) &&
        (method === undefined || r.method === method),
    );

/** What the buyer's browser does on PayPal: open the payer-action link, come back on a 302. */
async function approve(approveUrl: string): Promise<URL> {
  const res = await fetch(approveUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('PayPal client: access token', () => {
  it('fetches one token with Basic credentials and reuses it for every call', async () => {
    const from = paypal.requests.length;
    const pp = client();
    const a = await pp.createOrder(order(1000, 'USD'));
    await pp.createOrder(order(2000, 'USD'));
    await pp.getOrder(a.id);

    const tokenCalls = sent(from, '/v1/oauth2/token');
    expect(tokenCalls).toHaveLength(1);
    const [call] = tokenCalls;
    expect(call!.method).toBe('POST');
    expect(call!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    );
    expect(call!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(call!.body).toEqual({ grant_type: 'client_credentials' });

    const apiCalls = sent(from, /^\/v2\//);
    expect(apiCalls).toHaveLength(3);
    const bearers = new Set(apiCalls.map((r) => r.headers.authorization));
    expect(bearers.size).toBe(1);
    expect([...bearers][0]).toMatch(/^Bearer A21AA\S+$/);
  });

  it('shares one token request between calls made at the same time', async () => {
    const from = paypal.requests.length;
    const pp = client();
    await Promise.all([
      pp.createOrder(order(100, 'USD')),
      pp.createOrder(order(200, 'USD')),
      pp.createOrder(order(300, 'USD')),
    ]);
    expect(sent(from, '/v1/oauth2/token')).toHaveLength(1);
    expect(sent(from, '/v2/checkout/orders')).toHaveLength(3);
  });

  it('fetches a fresh token before the old one runs out, without waiting for a 401', async () => {
    const shortLived = await startPayPalStandIn({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      tokenTtlSeconds: 1,
    });
    try {
      const pp = createPayPalClient({ baseUrl: shortLived.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
      const created = await pp.createOrder(order(500, 'USD'));
      await new Promise((r) => setTimeout(r, 1_000));
      await pp.getOrder(created.id);
      expect(shortLived.requests.filter((r) => r.path === '/v1/oauth2/token')).toHaveLength(2);
      expect(shortLived.requests.filter((r) => r.status === 401)).toEqual([]);
    } finally {
      await shortLived.close();
    }
  });

  it('drops a token PayPal no longer accepts and retries once with a new one', async () => {
    const pp = client();
    const created = await pp.createOrder(order(750, 'USD'));
    paypal.revokeTokens();
    const from = paypal.requests.length;

    const got = await pp.getOrder(created.id);

    expect(got.id).toBe(created.id);
    expect(sent(from, '/v1/oauth2/token')).toHaveLength(1);
    expect(sent(from, `/v2/checkout/orders/${created.id}`).map((r) => r.status)).toEqual([401, 200]);
  });

  it('gives up after one retry when fresh tokens are refused too, and names no token or secret', async () => {
    // Tokens that expire on issue: every API call is answered 401.
    const broken = await startPayPalStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenTtlSeconds: 0 });
    try {
      const pp = createPayPalClient({ baseUrl: broken.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
      const err = await rejection(pp.createOrder(order(500, 'USD')));
      expect(err.statusCode).toBe(502);
      expect(broken.requests.filter((r) => r.path === '/v1/oauth2/token')).toHaveLength(2);
      expect(broken.requests.filter((r) => r.path === '/v2/checkout/orders').map((r) => r.status)).toEqual([401, 401]);
      const tokens = broken.requests.flatMap((r) =>
        r.headers.authorization?.startsWith('Bearer ') ? [r.headers.authorization.slice(7)] : [],
      );
      expect(tokens).toHaveLength(2);
      const text = `${err.message} ${JSON.stringify(err.errors)} ${String(err.cause)}`;
      for (const t of tokens) expect(text).not.toContain(t);
      expect(text).not.toContain(CLIENT_SECRET);
    } finally {
      await broken.close();
    }
  });

  it('turns wrong credentials into a 502 AppError that does not repeat the secret', async () => {
    const from = paypal.requests.length;
    const err = await rejection(client({ clientSecret: 'wrong-secret-value' }).createOrder(order(1000, 'USD')));
    expect(err.statusCode).toBe(502);
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).toMatch(/PayPal is not available/);
    for (const text of [err.message, ...err.errors, String(err.cause)]) {
      expect(text).not.toContain('wrong-secret-value');
      expect(text).not.toContain(Buffer.from(`${CLIENT_ID}:wrong-secret-value`).toString('base64'));
    }
    // The operator's log learns why (through the cause); the shopper does not.
    expect(String(err.cause)).toContain('invalid_client');
    expect(err.message).not.toContain('invalid_client');
    expect(sent(from, '/v1/oauth2/token').map((r) => r.status)).toEqual([401]);
    expect(sent(from, /^\/v2\//)).toEqual([]);
  });
});

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

describe('PayPal client: PayPal unavailable', () => {
  it('turns a PayPal 5xx into a 502 AppError that names none of PayPal’s internals', async () => {
    const pp = client();
    await pp.createOrder(order(100, 'USD')); // token in hand, so the failure hits the API call
    paypal.failNextRequest(500);
    const from = paypal.requests.length;
    const err = await rejection(pp.createOrder(order(100, 'USD')));

    expect(err.statusCode).toBe(502);
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).not.toMatch(/INTERNAL_SERVER_ERROR|debug|500/);
    const [failed] = sent(from, '/v2/checkout/orders');
    expect(failed!.status).toBe(500);
    // The debug id PayPal support asks for is kept for the log.
    expect(String(err.cause)).toMatch(/HTTP 500, INTERNAL_SERVER_ERROR, debug_id [0-9a-f]{13}/);
  });

  it('turns a refused connection into a 502 AppError', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const spare = createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    const { port } = spare.address() as AddressInfo;
    await new Promise((r) => spare.close(r));

    const err = await rejection(client({ baseUrl: `http://127.0.0.1:${port}` }).createOrder(order(100, 'USD')));
    expect(err.statusCode).toBe(502);
    expect(err.message).toMatch(/PayPal is not available/);
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

describe('PayPal client: partner (platform) calls', () => {
  const BN_CODE = 'PLATFORM_SP_PPCP';
  const partner = () =>
    createPayPalClient({
      baseUrl: paypal.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      partnerAttributionId: BN_CODE,
    });
  const RETURN = 'https://platform.test/manage-store/settings/payments/paypal/return';

  /** The seller agrees on PayPal's sign-up page; returns the merchant id PayPal hands back. */
  async function signUp(actionUrl: string): Promise<string> {
    const page = await fetch(actionUrl);
    expect(page.status).toBe(200);
    const res = await fetch(actionUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `referralToken=${encodeURIComponent(new URL(actionUrl).searchParams.get('referralToken')!)}`,
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!).searchParams.get('merchantIdInPayPal')!;
  }

  /** Every error text an operator or a shopper could see. */
  const errorText = (err: AppError) => `${err.message} ${JSON.stringify(err.errors)} ${String(err.cause)}`;

  it('creates a partner referral as documented and sends the attribution id on every call', async () => {
    const from = paypal.requests.length;
    const pp = partner();
    const made = await pp.createPartnerReferral({
      trackingId: 'tenant-ref-1',
      returnUrl: RETURN,
      email: 'owner@lighting.test',
      requestId: randomUUID(),
    });
    expect(made.referralId).toBeTruthy();
    expect(made.actionUrl).toMatch(new RegExp(`^${paypal.url}/bizsignup/partner/entry\\?referralToken=`));
    const [call] = sent(from, '/v2/customer/partner-referrals', 'POST');
    expect(call!.body).toEqual({
      email: 'owner@lighting.test',
      tracking_id: 'tenant-ref-1',
      operations: [
        {
          operation: 'API_INTEGRATION',
          api_integration_preference: {
            rest_api_integration: {
              integration_method: 'PAYPAL',
              integration_type: 'THIRD_PARTY',
              third_party_details: { features: ['PAYMENT', 'REFUND'] },
            },
          },
        },
      ],
      products: ['EXPRESS_CHECKOUT'],
      legal_consents: [{ type: 'SHARE_DATA_CONSENT', granted: true }],
      partner_config_override: { return_url: RETURN },
    });

    const merchantId = await signUp(made.actionUrl);
    expect(await pp.findMerchantByTrackingId(paypal.partnerId, 'tenant-ref-1')).toEqual({ merchantId });
    expect(await pp.getMerchantIntegration(paypal.partnerId, merchantId)).toEqual({
      merchantId,
      trackingId: 'tenant-ref-1',
      paymentsReceivable: true,
      primaryEmailConfirmed: true,
      primaryEmail: 'owner@lighting.test',
      legalName: expect.any(String),
      oauthIntegrations: [
        {
          integrationType: 'OAUTH_THIRD_PARTY',
          partnerClientId: CLIENT_ID,
          scopes: expect.arrayContaining(['https://uri.paypal.com/services/payments/refund']),
        },
      ],
      products: [{ name: 'EXPRESS_CHECKOUT', vettingStatus: 'SUBSCRIBED' }],
      capabilities: expect.arrayContaining([{ name: 'PAYPAL_CHECKOUT', status: 'ACTIVE' }]),
    });

    const calls = paypal.requests.slice(from).filter((r) => !r.path.startsWith('/bizsignup'));
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const r of calls) expect(r.headers['paypal-partner-attribution-id'], r.path).toBe(BN_CODE);
  });

  it('reads a limited seller, a revoked consent, and null for an unknown seller or tracking id', async () => {
    const pp = partner();
    const limited = paypal.addSeller({ trackingId: 'tenant-ref-2', paymentsReceivable: false, emailConfirmed: false });
    const got = await pp.getMerchantIntegration(paypal.partnerId, limited);
    expect(got).toMatchObject({ paymentsReceivable: false, primaryEmailConfirmed: false });
    paypal.revokeConsent(limited);
    expect((await pp.getMerchantIntegration(paypal.partnerId, limited))!.oauthIntegrations).toEqual([]);
    expect(await pp.getMerchantIntegration(paypal.partnerId, 'NOSUCHSELLER1')).toBeNull();
    expect(await pp.getMerchantIntegration('OTHERPARTNER1', limited)).toBeNull();
    expect(await pp.findMerchantByTrackingId(paypal.partnerId, 'nobody-signed-up')).toBeNull();
  });

  it('turns a refused referral into a 502 that names neither secret nor token', async () => {
    const pp = partner();
    const err = await rejection(pp.createPartnerReferral({ trackingId: 'x'.repeat(128), returnUrl: RETURN }));
    expect(err.statusCode).toBe(502);
    expect(String(err.cause)).toContain('INVALID_REQUEST');
    const text = errorText(err);
    expect(text).not.toContain(CLIENT_SECRET);
    for (const r of paypal.requests) {
      const auth = r.headers.authorization;
      if (auth?.startsWith('Bearer ')) expect(text).not.toContain(auth.slice(7));
    }

    // A store's own app is no partner.
    paypal.addApp({ clientId: 'store-app-ref', clientSecret: 'store-app-secret' });
    const store = createPayPalClient({
      baseUrl: paypal.url,
      clientId: 'store-app-ref',
      clientSecret: 'store-app-secret',
    });
    const denied = await rejection(store.getMerchantIntegration(paypal.partnerId, 'ANYSELLER0001'));
    expect(denied.statusCode).toBe(502);
    expect(String(denied.cause)).toContain('PERMISSION_DENIED');
    expect(errorText(denied)).not.toContain('store-app-secret');
  });

  it('takes a payment for a seller (payee, custom_id, invoice_id) and refunds it only on their behalf', async () => {
    const pp = partner();
    const seller = paypal.addSeller({ trackingId: 'tenant-pay' });
    const other = paypal.addSeller({ trackingId: 'tenant-pay-other' });
    const from = paypal.requests.length;
    const created = await pp.createOrder({
      ...order(4_200, 'USD'),
      payeeMerchantId: seller,
      customId: 'tenant-pay',
      invoiceId: 'order-77',
    });
    const [create] = sent(from, '/v2/checkout/orders', 'POST');
    expect((create!.body as { purchase_units: unknown[] }).purchase_units[0]).toMatchObject({
      payee: { merchant_id: seller },
      custom_id: 'tenant-pay',
      invoice_id: 'order-77',
    });
    await approve(created.approveUrl);

    const viewFrom = paypal.requests.length;
    const got = await pp.getOrder(created.id, { onBehalfOf: seller });
    expect(got).toMatchObject({ id: created.id, status: 'APPROVED', payeeMerchantId: seller, customId: 'tenant-pay' });
    const [view] = sent(viewFrom, `/v2/checkout/orders/${created.id}`, 'GET');
    const [head, claims, signature] = view!.headers['paypal-auth-assertion']!.split('.');
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toEqual({ alg: 'none' });
    expect(JSON.parse(Buffer.from(claims!, 'base64url').toString())).toEqual({ iss: CLIENT_ID, payer_id: seller });
    expect(signature).toBe('');
    expect(pp.clientId).toBe(CLIENT_ID);

    // The platform created the order naming the payee: it captures without acting for the seller.
    const captured = await pp.captureOrder(created.id, randomUUID());
    expect(captured.ok).toBe(true);
    const captureId = captured.ok ? captured.captureId : '';
    const capCall = sent(viewFrom, `/v2/checkout/orders/${created.id}/capture`, 'POST')[0]!;
    expect(capCall.headers['paypal-auth-assertion']).toBeUndefined();

    const refund = { amountMinor: 1_000, currency: 'USD' };
    const without = await pp.refundCapture(captureId, { ...refund, requestId: randomUUID() });
    expect(without).toMatchObject({ ok: false, reason: 'declined' });
    const wrong = await pp.refundCapture(captureId, { ...refund, requestId: randomUUID(), onBehalfOf: other });
    expect(wrong).toMatchObject({ ok: false, reason: 'declined' });
    const ok = await pp.refundCapture(captureId, { ...refund, requestId: randomUUID(), onBehalfOf: seller });
    expect(ok).toEqual({ ok: true, refundId: expect.any(String) });

    // Another seller's assertion reaches none of this seller's orders.
    const err = await rejection(pp.getOrder(created.id, { onBehalfOf: other }));
    expect(err.statusCode).toBe(502);
    expect(String(err.cause)).toContain('PERMISSION_DENIED');
  });

  it('refuses an order for a seller who has not consented, saying why in the cause only', async () => {
    const pp = partner();
    const seller = paypal.addSeller({ trackingId: 'tenant-nc', consent: false });
    const err = await rejection(pp.createOrder({ ...order(1_000, 'USD'), payeeMerchantId: seller }));
    expect(err.statusCode).toBe(502);
    expect(String(err.cause)).toContain('PAYEE_NOT_CONSENTED');
    expect(err.message).not.toContain('PAYEE');
    expect(errorText(err)).not.toContain(CLIENT_SECRET);
  });

  it('verifies a webhook PayPal sent, and not a forged or edited one', async () => {
    const got: string[] = [];
    const receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => {
        raw += c.toString('utf8');
      });
      req.on('end', () => {
        got.push(raw);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const seller = paypal.addSeller({ trackingId: 'tenant-hook' });
      const pp = partner();
      const input = (d: { headers: Record<string, string> }, event: unknown) => ({
        authAlgo: d.headers['paypal-auth-algo']!,
        certUrl: d.headers['paypal-cert-url']!,
        transmissionId: d.headers['paypal-transmission-id']!,
        transmissionSig: d.headers['paypal-transmission-sig']!,
        transmissionTime: d.headers['paypal-transmission-time']!,
        webhookId: paypal.webhookId,
        event,
      });
      const real = await paypal.deliverWebhook(target, paypal.onboardingCompletedEvent(seller));
      const event = JSON.parse(got.at(-1)!);
      expect(await pp.verifyWebhookSignature(input(real, event))).toBe(true);
      expect(await pp.verifyWebhookSignature(input(real, { ...event, event_type: 'PAYMENT.CAPTURE.COMPLETED' }))).toBe(
        false,
      );
      expect(await pp.verifyWebhookSignature({ ...input(real, event), webhookId: 'WH-SOMEONE-ELSE' })).toBe(false);
      expect(await pp.verifyWebhookSignature({ ...input(real, event), transmissionSig: '' })).toBe(false);
      const forged = await paypal.deliverWebhook(target, paypal.onboardingCompletedEvent(seller), { forge: true });
      expect(await pp.verifyWebhookSignature(input(forged, JSON.parse(got.at(-1)!)))).toBe(false);
    } finally {
      await new Promise<void>((r) => {
        receiver.close(() => r());
        receiver.closeAllConnections();
      });
    }
  });
});
