import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../lib/errors';

/**
 * A client of Stripe's API v1 on plain fetch, for one store's secret key: the account check, Checkout
 * Sessions, refunds (decision 118). Requests are form-encoded with `Authorization: Bearer <key>`;
 * every POST carries an Idempotency-Key, so a retry after a lost answer (one, at once) creates
 * nothing twice. Failures a person can act on come back typed; an unreachable or broken Stripe is
 * an AppError 502 that names nothing of Stripe's internals. The key never goes into an error or a log.
 */

export interface StripeClientConfig {
  baseUrl: string;
  secretKey: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Stripe's error object, `{ error: { type, code, message, param } }`. */
export interface StripeError {
  type: string;
  code?: string;
  message?: string;
  param?: string;
  decline_code?: string;
}

export interface CheckoutSession {
  id: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  payment_intent: string | null;
  amount_total: number | null;
  currency: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
}

export interface CreateSessionInput {
  orderId: string;
  amountMinor: number;
  currency: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  email?: string;
}

export type AccountResult =
  | { ok: true; id: string; livemode: boolean }
  | { ok: false; reason: 'invalid_key'; message: string };

export type StripeRefundResult =
  | { ok: true; refundId: string; status: string }
  | { ok: false; reason: 'exceeds_charge' | 'not_found' | 'declined'; message: string };

const UNAVAILABLE = 'Stripe is not available right now. Please try again in a moment or choose another way to pay.';

/** Stripe's form encoding: nested objects and arrays as `a[b][0][c]=v`. */
export function formEncode(value: Record<string, unknown>): string {
  const pairs: string[] = [];
  const walk = (prefix: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) walk(`${prefix}[${i}]`, item);
    } else if (typeof v === 'object') {
      for (const [k, inner] of Object.entries(v as Record<string, unknown>))
        walk(prefix ? `${prefix}[${k}]` : k, inner);
    } else pairs.push(`${encodeURIComponent(prefix)}=${encodeURIComponent(String(v))}`);
  };
  walk('', value);
  return pairs.join('&');
}

/** What the Payments page shows of a key: its kind and last four, never the rest. */
export function keyHint(secretKey: string): string {
  const prefix = secretKey.startsWith('sk_live_') ? 'sk_live_' : secretKey.startsWith('rk_') ? 'rk_' : 'sk_test_';
  return `${prefix}…${secretKey.slice(-4)}`;
}

export function createStripeClient(config: StripeClientConfig) {
  const fetchImpl = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 15_000;
  const base = config.baseUrl.replace(/\/$/, '');

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const headers: Record<string, string> = { authorization: `Bearer ${config.secretKey}` };
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const once = async () => {
      const res = await fetchImpl(`${base}${path}`, {
        method,
        headers,
        ...(body ? { body: formEncode(body) } : {}),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      return { status: res.status, json };
    };
    // One retry, at once, of a request lost on the way or answered 5xx: a POST is safe to repeat
    // because it carries the same Idempotency-Key (Stripe answers the first result), a GET anyway.
    const retriable = method === 'GET' || Boolean(idempotencyKey);
    let answer: { status: number; json: Record<string, unknown> } | null = null;
    for (let attempt = 0; attempt < (retriable ? 2 : 1); attempt++) {
      try {
        answer = await once();
        if (answer.status < 500) break;
      } catch {
        answer = null;
      }
    }
    if (!answer || answer.status >= 500 || answer.status === 429) throw new AppError(502, 'UNAVAILABLE', UNAVAILABLE);
    return answer;
  }

  const errorOf = (json: Record<string, unknown>): StripeError =>
    (json.error as StripeError | undefined) ?? { type: 'api_error' };

  /** Anything but a 2xx we cannot act on: a 502, logged by the caller's error handler without the key. */
  const broken = (status: number, err: StripeError) =>
    new AppError(
      502,
      'UNAVAILABLE',
      `${UNAVAILABLE} (Stripe answered ${status} ${err.type}${err.code ? `/${err.code}` : ''})`,
    );

  return {
    /** GET /v1/account: a key Stripe refuses (401 authentication_error) is `invalid_key`. */
    async retrieveAccount(): Promise<AccountResult> {
      const { status, json } = await call('GET', '/v1/account');
      if (status === 401 || status === 403) {
        return { ok: false, reason: 'invalid_key', message: 'Stripe did not accept this secret key.' };
      }
      if (status !== 200 || typeof json.id !== 'string') throw broken(status, errorOf(json));
      return { ok: true, id: json.id, livemode: json.livemode === true };
    },

    /** POST /v1/checkout/sessions in payment mode for one order's total, under the order's key. */
    async createCheckoutSession(input: CreateSessionInput, idempotencyKey: string): Promise<CheckoutSession> {
      const { status, json } = await call(
        'POST',
        '/v1/checkout/sessions',
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency.toLowerCase(),
                unit_amount: input.amountMinor,
                product_data: { name: input.description },
              },
            },
          ],
          client_reference_id: input.orderId,
          metadata: { order_id: input.orderId },
          payment_intent_data: { metadata: { order_id: input.orderId } },
          customer_email: input.email,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        idempotencyKey,
      );
      if (status !== 200) throw broken(status, errorOf(json));
      return json as unknown as CheckoutSession;
    },

    /** GET /v1/checkout/sessions/:id; null when Stripe does not know it. */
    async retrieveCheckoutSession(sessionId: string): Promise<CheckoutSession | null> {
      const { status, json } = await call('GET', `/v1/checkout/sessions/${encodeURIComponent(sessionId)}`);
      if (status === 404) return null;
      if (status !== 200) throw broken(status, errorOf(json));
      return json as unknown as CheckoutSession;
    },

    /**
     * POST /v1/checkout/sessions/:id/expire: the hosted page stops taking payment. Stripe expires only
     * an open session and answers 400 for one that is complete or already expired: `not_open`, for
     * the caller to ask what it became.
     */
    async expireCheckoutSession(sessionId: string): Promise<{ ok: true } | { ok: false; reason: 'not_open' }> {
      const { status, json } = await call(
        'POST',
        `/v1/checkout/sessions/${encodeURIComponent(sessionId)}/expire`,
        {},
        `expire:${sessionId}`,
      );
      if (status === 200) return { ok: true };
      if (status === 400 || status === 404) return { ok: false, reason: 'not_open' };
      throw broken(status, errorOf(json));
    },

    /** POST /v1/refunds of part or all of a payment intent, our refund's id as the Idempotency-Key. */
    async createRefund(
      input: { paymentIntent: string; amountMinor: number; orderId: string },
      idempotencyKey: string,
    ): Promise<StripeRefundResult> {
      const { status, json } = await call(
        'POST',
        '/v1/refunds',
        { payment_intent: input.paymentIntent, amount: input.amountMinor, metadata: { order_id: input.orderId } },
        idempotencyKey,
      );
      if (status === 200) return { ok: true, refundId: String(json.id), status: String(json.status) };
      const err = errorOf(json);
      if (status === 404 || err.code === 'resource_missing') {
        return { ok: false, reason: 'not_found', message: 'Stripe does not know the payment to refund.' };
      }
      if (err.code === 'charge_already_refunded' || err.code === 'amount_too_large') {
        return { ok: false, reason: 'exceeds_charge', message: 'The refund is more than what is left of the payment.' };
      }
      if (status === 400 || status === 402) {
        return { ok: false, reason: 'declined', message: err.message ?? 'Stripe refused the refund.' };
      }
      throw broken(status, err);
    },
  };
}

export type StripeClient = ReturnType<typeof createStripeClient>;

/** Stripe's default tolerance for a webhook's timestamp: older deliveries are refused as replays. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type SignatureCheck = { ok: true } | { ok: false; reason: 'malformed' | 'mismatch' | 'stale' };

/**
 * Checks a Stripe-Signature header (`t=<unix>,v1=<hex>[,v1=…]`): HMAC-SHA256 of `<t>.<raw body>`
 * under the endpoint's signing secret, compared in constant time with each v1, and `t` within the
 * tolerance of now (either way: a clock far ahead is as suspect as a replay).
 */
export function verifyStripeSignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): SignatureCheck {
  if (!header) return { ok: false, reason: 'malformed' };
  const parts = header.split(',').map((p) => p.trim().split('=') as [string, string | undefined]);
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v as string);
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const match = signatures.some((s) => {
    if (!/^[0-9a-f]{64}$/.test(s)) return false;
    return timingSafeEqual(Buffer.from(s, 'hex'), expected);
  });
  if (!match) return { ok: false, reason: 'mismatch' };
  if (Math.abs(nowSeconds - Number(t)) > toleranceSeconds) return { ok: false, reason: 'stale' };
  return { ok: true };
}

/** The header Stripe sends for a payload (the stand-in and tests sign with it). */
export function signStripePayload(rawBody: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}
