import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { crc32, invalid, isObject, missing, paypalId, type StandInApp } from './paypal-stand-in-shared';
import type { StandInState } from './paypal-stand-in-state';
import type { StandInAmount, WebhookDelivery, WebhookEvent, WebhookInput } from './paypal-stand-in-types';

// The PayPal stand-in's webhooks (paypal-stand-in.ts): the event envelope, its signature, delivery and
// redelivery, the ones it sends by itself, and verify-webhook-signature. The events themselves are built
// beside what they describe: captures in paypal-stand-in-orders.ts, refunds in paypal-stand-in-refunds.ts,
// sellers in paypal-stand-in-partner.ts.

const sign = (s: StandInState, transmissionId: string, time: string, hookId: string, rawBody: string) =>
  createHmac('sha256', s.signingKey)
    .update(`${transmissionId}|${time}|${hookId}|${crc32(rawBody)}`)
    .digest('base64');

/** An amount as an event's summary says it: "12.50 USD". */
export const money = (a: StandInAmount) => `${a.value} ${a.currency_code}`;

export async function post(
  s: StandInState,
  targetUrl: string,
  headers: Record<string, string>,
  rawBody: string,
  event: WebhookEvent,
) {
  let status = 0;
  let responseBody = '';
  try {
    const res = await fetch(targetUrl, {
      method: 'POST',
      headers,
      body: rawBody,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    status = res.status;
    responseBody = await res.text().catch(() => '');
  } catch (e) {
    responseBody = e instanceof Error ? `${e.name}: ${e.message}` : 'unreachable';
  }
  const delivery: WebhookDelivery = { targetUrl, status, responseBody, event, headers, rawBody };
  s.webhookDeliveries.push(delivery);
  return delivery;
}

/** Builds PayPal's event envelope, signs it and POSTs it; `forge` sends a wrong signature. */
export function deliverWebhook(s: StandInState, targetUrl: string, input: WebhookInput, o: { forge?: boolean } = {}) {
  const id = `WH-${paypalId(17)}-${paypalId(17)}`;
  const event: WebhookEvent = {
    id,
    event_version: '1.0',
    create_time: new Date().toISOString(),
    resource_type: input.resource_type,
    event_type: input.event_type,
    summary: input.summary ?? input.event_type,
    resource: input.resource,
    links: [
      { href: `${s.url}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' },
      { href: `${s.url}/v1/notifications/webhooks-events/${id}/resend`, rel: 'resend', method: 'POST' },
    ],
  };
  const rawBody = JSON.stringify(event);
  const transmissionId = randomUUID();
  const time = new Date().toISOString();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'PayPal/AUHD-214.0-58844133',
    'paypal-transmission-id': transmissionId,
    'paypal-transmission-time': time,
    'paypal-transmission-sig': o.forge
      ? randomBytes(32).toString('base64')
      : sign(s, transmissionId, time, s.webhookId, rawBody),
    'paypal-cert-url': `${s.url}${s.certUrlPath}`,
    'paypal-auth-algo': 'SHA256withRSA',
  };
  return post(s, targetUrl, headers, rawBody, event);
}

/** A webhook the stand-in sends by itself, to the platform's webhook URL when one is set. */
export function autoWebhook(s: StandInState, input: WebhookInput) {
  const target = s.webhookUrl;
  if (!target) return;
  // After the answer in progress has gone out, as PayPal's notifications come on their own.
  const p = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => deliverWebhook(s, target, input))
    .finally(() => s.inFlight.delete(p));
  s.inFlight.add(p);
}

/** Resolves once every webhook the stand-in sent by itself has been answered. */
export async function settleWebhooks(s: StandInState) {
  while (s.inFlight.size > 0) await Promise.allSettled([...s.inFlight]);
}

const WEBHOOK_FIELDS = [
  'auth_algo',
  'cert_url',
  'transmission_id',
  'transmission_sig',
  'transmission_time',
  'webhook_id',
] as const;

/** POST /v1/notifications/verify-webhook-signature's verification_status for this body. */
export function verifyWebhook(s: StandInState, body: unknown, app: StandInApp): 'SUCCESS' | 'FAILURE' {
  if (!isObject(body)) throw invalid('/', 'INVALID_PARAMETER_SYNTAX', 'The request body must be a JSON object.');
  for (const field of WEBHOOK_FIELDS) {
    if (body[field] === undefined || body[field] === '') throw missing(`/${field}`);
    if (typeof body[field] !== 'string') {
      throw invalid(
        `/${field}`,
        'INVALID_PARAMETER_SYNTAX',
        'The value of a field does not conform to the expected format.',
      );
    }
  }
  if (body.webhook_event === undefined) throw missing('/webhook_event');
  if (!isObject(body.webhook_event)) {
    throw invalid('/webhook_event', 'INVALID_PARAMETER_SYNTAX', 'webhook_event is the event object.');
  }
  const b = body as Record<(typeof WEBHOOK_FIELDS)[number], string>;
  // The certificate must be PayPal's own (here: the stand-in's), as PayPal checks the cert URL's origin.
  if (!app.platform || b.webhook_id !== s.webhookId || b.auth_algo !== 'SHA256withRSA') return 'FAILURE';
  if (b.cert_url !== `${s.url}${s.certUrlPath}`) return 'FAILURE';
  const expected = Buffer.from(
    sign(s, b.transmission_id, b.transmission_time, b.webhook_id, JSON.stringify(body.webhook_event)),
  );
  const given = Buffer.from(b.transmission_sig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? 'SUCCESS' : 'FAILURE';
}
