import { errorEnvelopeSchema } from '@app/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { App } from '../../../lib/app-types';
import { type PayPalWebhookService, envelopeSchema as webhookEventSchema } from './paypal-webhooks.service';

/** PayPal's events are small (a capture is about 2 KB); anything near this is not PayPal's. */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;
export const PAYPAL_WEBHOOK_PATH = '/api/paypal/webhooks';
const noStore = { 'cache-control': 'private, no-store' };

/**
 * PayPal's webhook endpoint (decision 053), a platform route: PayPal calls one URL for every store,
 * from no store's host, with no session, so neither tenancy nor the request context (with its CSRF
 * rule) applies; the signature is its only credential.
 */
export async function paypalWebhookRoutes(app: App, { webhooks }: { webhooks: PayPalWebhookService }) {
  await app.register(async (plain) => {
    const scoped = plain.withTypeProvider<ZodTypeProvider>();
    // The body as sent (PayPal's signature is over the exact bytes), parsed by the service; JSON only.
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
      (_req, body, done) => done(null, body),
    );
    scoped.post(
      PAYPAL_WEBHOOK_PATH,
      {
        config: { tenant: false },
        bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
        schema: {
          tags: ['payments'],
          summary: "PayPal's webhook events (captures, refunds, seller onboarding), for every store",
          description:
            "Verified through PayPal's verify-webhook-signature with PAYPAL_WEBHOOK_ID; the paypal-cert-url must be on " +
            "PayPal's hosts. Applied once per event id: a repeat answers 200 and changes nothing. 400: headers missing " +
            'or malformed; 401: not verified; 5xx: not applied, PayPal retries.',
          documentedBody: {
            description:
              "PayPal's event as PayPal sent it (the signature covers these exact bytes); other fields are kept. " +
              'Headers paypal-transmission-id, paypal-transmission-time, paypal-transmission-sig, paypal-cert-url ' +
              'and paypal-auth-algo are required.',
            content: { 'application/json': webhookEventSchema.loose() },
          },
          response: {
            200: z.object({ eventId: z.string(), outcome: z.string() }),
            400: errorEnvelopeSchema,
            401: errorEnvelopeSchema,
            413: errorEnvelopeSchema,
            415: errorEnvelopeSchema,
            502: errorEnvelopeSchema,
            503: errorEnvelopeSchema,
          },
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return webhooks.receive(req.headers, typeof req.body === 'string' ? req.body : '', req.id);
      },
    );
  });
}
