import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors';
import { type StripeStandIn, startStripeStandIn } from '../../../test/stripe-stand-in';
import { createStripeClient, signStripePayload, verifyStripeSignature } from './stripe-client';

// The Stripe client against the local stand-in: real HTTP, Stripe's documented paths, auth, errors
// and idempotency; nothing mocked.
const KEY = 'sk_test_clientundertest4242';
const WHSEC = 'whsec_clientundertest';
let stripe: StripeStandIn;
const client = (secretKey = KEY, timeoutMs?: number) =>
  createStripeClient({ baseUrl: stripe.url, secretKey, ...(timeoutMs ? { timeoutMs } : {}) });
const session = (orderId = 'ORD-1', amountMinor = 12_345) => ({
  orderId,
  amountMinor,
  currency: 'USD',
  description: `Order ${orderId}`,
  successUrl: 'http://lighting.localhost/checkout/stripe/return?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: `http://lighting.localhost/checkout/stripe/cancel?order=${orderId}`,
});

beforeAll(async () => {
  stripe = await startStripeStandIn({ accounts: [{ secretKey: KEY, webhookSecret: WHSEC }], webhooks: false });
});
afterAll(async () => {
  await stripe.close();
});
beforeEach(() => {
  stripe.requests.length = 0;
});

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('authentication', () => {
  it('a key Stripe knows is accepted; an unknown key is invalid_key, with the key sent as a Bearer token', async () => {
    expect(await client().retrieveAccount()).toMatchObject({ ok: true, livemode: false });
    expect(await client('sk_test_nobodyknowsthis').retrieveAccount()).toMatchObject({
      ok: false,
      reason: 'invalid_key',
    });
    expect(stripe.requests.map((r) => [r.path, r.status])).toEqual([
      ['/v1/account', 200],
      ['/v1/account', 401],
    ]);
  });

  it('the stand-in answers a request without a key with Stripe’s 401 error object', async () => {
    const res = await fetch(`${stripe.url}/v1/account`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatchObject({ type: 'invalid_request_error' });
  });
});

describe('Checkout Sessions', () => {
  it('creates a payment-mode session for the order, form-encoded, with the order as reference and metadata', async () => {
    const s = await client().createCheckoutSession(session('ORD-A'), 'checkout:key-a-0001');
    expect(s).toMatchObject({ status: 'open', payment_status: 'unpaid', amount_total: 12_345, currency: 'usd' });
    expect(s.client_reference_id).toBe('ORD-A');
    expect(s.metadata).toEqual({ order_id: 'ORD-A' });
    expect(s.url).toBe(`${stripe.url}/pay/${s.id}`);
    const sent = stripe.requests.at(-1);
    expect(sent?.idempotencyKey).toBe('checkout:key-a-0001');
    expect(sent?.body).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '12345',
      'line_items[0][price_data][currency]': 'usd',
      'payment_intent_data[metadata][order_id]': 'ORD-A',
      success_url: 'http://lighting.localhost/checkout/stripe/return?session_id={CHECKOUT_SESSION_ID}',
    });
    // Paid on the hosted page: Stripe says so when asked.
    stripe.pay(s.id);
    expect(await client().retrieveCheckoutSession(s.id)).toMatchObject({ payment_status: 'paid', status: 'complete' });
    expect(await client().retrieveCheckoutSession('cs_test_unknown00')).toBeNull();
  });

  it('the same Idempotency-Key with the same parameters answers the same session; other parameters are an idempotency_error', async () => {
    const first = await client().createCheckoutSession(session('ORD-B'), 'checkout:key-b-0001');
    const again = await client().createCheckoutSession(session('ORD-B'), 'checkout:key-b-0001');
    expect(again.id).toBe(first.id);
    const err = await rejection(client().createCheckoutSession(session('ORD-B', 999), 'checkout:key-b-0001'));
    expect(err.statusCode).toBe(502);
    expect(stripe.requests.at(-1)?.status).toBe(400);
    const res = await fetch(`${stripe.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'idempotency-key': 'checkout:key-b-0001',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'mode=payment',
    });
    expect((await res.json()).error.type).toBe('idempotency_error');
  });

  it('a 500 or a dropped connection is retried once with the same Idempotency-Key: one session', async () => {
    stripe.fault({ path: /^\/v1\/checkout\/sessions$/, times: 1, status: 500 });
    const s = await client().createCheckoutSession(session('ORD-C'), 'checkout:key-c-0001');
    const posts = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
    expect(posts.map((r) => [r.status, r.idempotencyKey])).toEqual([
      [500, 'checkout:key-c-0001'],
      [200, 'checkout:key-c-0001'],
    ]);
    stripe.fault({ path: /^\/v1\/checkout\/sessions$/, times: 1, drop: true });
    expect((await client().createCheckoutSession(session('ORD-C'), 'checkout:key-c-0001')).id).toBe(s.id);
  });

  it('Stripe down (twice 503) or hanging past the timeout is a 502 that names no key', async () => {
    stripe.fault({ path: /^\/v1\/account$/, times: 2, status: 503 });
    const down = await rejection(client().retrieveAccount());
    expect(down.statusCode).toBe(502);
    expect(down.message).not.toContain(KEY);
    stripe.fault({ path: /^\/v1\/account$/, times: 2, hangMs: 400 });
    const slow = await rejection(client(KEY, 150).retrieveAccount());
    expect(slow.statusCode).toBe(502);
  });
});

describe('refunds', () => {
  it('partial refunds add up to the payment and no further; the same key refunds once', async () => {
    const s = await client().createCheckoutSession(session('ORD-R', 10_000), 'checkout:key-r-0001');
    stripe.pay(s.id);
    const pi = s.payment_intent as string;
    const r1 = await client().createRefund({ paymentIntent: pi, amountMinor: 3_000, orderId: 'ORD-R' }, 'refund-1');
    const again = await client().createRefund({ paymentIntent: pi, amountMinor: 3_000, orderId: 'ORD-R' }, 'refund-1');
    expect(r1.ok && again.ok && again.refundId === r1.refundId).toBe(true);
    expect(
      await client().createRefund({ paymentIntent: pi, amountMinor: 7_000, orderId: 'ORD-R' }, 'refund-2'),
    ).toMatchObject({ ok: true });
    expect(stripe.intent(pi)?.refunded).toBe(10_000);
    expect(
      await client().createRefund({ paymentIntent: pi, amountMinor: 1, orderId: 'ORD-R' }, 'refund-3'),
    ).toMatchObject({
      ok: false,
      reason: 'exceeds_charge',
    });
    expect(
      await client().createRefund({ paymentIntent: 'pi_nope', amountMinor: 1, orderId: 'ORD-R' }, 'refund-4'),
    ).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
  });
});

describe('webhook signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', data: { object: {} } });
  const now = Math.floor(Date.now() / 1000);
  it('accepts Stripe’s signature within five minutes; refuses another secret, a changed body and an old timestamp', () => {
    expect(verifyStripeSignature(body, signStripePayload(body, WHSEC, now), WHSEC, now)).toEqual({ ok: true });
    expect(verifyStripeSignature(body, signStripePayload(body, 'whsec_forger', now), WHSEC, now)).toMatchObject({
      reason: 'mismatch',
    });
    expect(verifyStripeSignature(`${body} `, signStripePayload(body, WHSEC, now), WHSEC, now)).toMatchObject({
      reason: 'mismatch',
    });
    expect(verifyStripeSignature(body, signStripePayload(body, WHSEC, now - 301), WHSEC, now)).toMatchObject({
      reason: 'stale',
    });
    expect(verifyStripeSignature(body, undefined, WHSEC, now)).toMatchObject({ reason: 'malformed' });
    expect(verifyStripeSignature(body, 'v1=abc', WHSEC, now)).toMatchObject({ reason: 'malformed' });
  });
});
