/** What a PayPal webhook delivery is made of: the envelope and resource shapes, the transmission's limits, the refusals. */
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { AppError } from '../../../lib/errors';

/** What the endpoint answers PayPal, and what the event row records. */
export type WebhookOutcome = 'applied' | 'ignored' | 'flagged' | 'duplicate';

/**
 * How old a transmission may be. PayPal retries a delivery that was not answered 2xx for up to
 * three days (and an operator can resend an event from the dashboard), and PayPal's own verify call
 * checks the signature, not the age: a tighter window would refuse PayPal's own late retries, while
 * the replay that matters (the same event again) is stopped by the event id, not by the clock.
 * Four days covers the retries with a day to spare; the future side allows for clock skew only.
 */
export const TRANSMISSION_MAX_AGE_MS = 4 * 24 * 60 * 60_000;
export const TRANSMISSION_MAX_SKEW_MS = 10 * 60_000;

export const PAYPAL_HOSTS = /(^|\.)paypal\.com$/i;

export const header = (h: IncomingHttpHeaders, name: string, max: number) => {
  const v = h[name];
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  return s && s.length <= max ? s : undefined;
};

/** A PayPal webhook event as this service reads it (the route documents its body with it). */
export const envelopeSchema = z.object({
  id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  resource_type: z.string().max(100).optional(),
  resource: z.record(z.string(), z.unknown()),
});
export type Envelope = z.infer<typeof envelopeSchema>;

export const amountSchema = z.object({ currency_code: z.string().length(3), value: z.string().max(32) });
export const linksSchema = z.array(z.object({ href: z.string().max(2000), rel: z.string().max(40) })).optional();
export const captureSchema = z.object({
  id: z.string().min(1).max(64),
  amount: amountSchema,
  custom_id: z.string().max(127).optional(),
  payee: z.object({ merchant_id: z.string().max(64).optional() }).optional(),
  supplementary_data: z
    .object({ related_ids: z.object({ order_id: z.string().max(64).optional() }).optional() })
    .optional(),
  links: linksSchema,
});
export const refundSchema = z.object({
  id: z.string().min(1).max(64),
  amount: amountSchema,
  custom_id: z.string().max(127).optional(),
  payer: z.object({ merchant_id: z.string().max(64).optional() }).optional(),
  links: linksSchema,
});
export const merchantSchema = z.object({
  merchant_id: z.string().min(1).max(64),
  tracking_id: z.string().max(127).optional(),
});

/** The id at the end of a HATEOAS link of `rel` whose path is under `prefix` (`/v2/payments/captures/`). */
export function linkedId(links: z.infer<typeof linksSchema>, rel: string, prefix: string): string | undefined {
  for (const l of links ?? []) {
    if (l.rel !== rel) continue;
    try {
      const path = new URL(l.href).pathname;
      if (path.startsWith(prefix)) {
        const id = path.slice(prefix.length);
        if (/^[A-Za-z0-9_-]{1,64}$/.test(id)) return id;
      }
    } catch {
      // not a URL: no id
    }
  }
  return undefined;
}

/** A refusal PayPal should try again later (5xx: PayPal retries); nothing was recorded. */
export const retryLater = (message: string) =>
  new AppError(503, 'UNAVAILABLE', message, undefined, { 'retry-after': '120' });

export const unverified = (message: string) => new AppError(401, 'UNAUTHENTICATED', message);

export interface Applied {
  tenantId: string | null;
  outcome: Exclude<WebhookOutcome, 'duplicate'>;
  detail: string;
  /** Work after the commit (a receipt mail). */
  after?: () => Promise<void>;
}
