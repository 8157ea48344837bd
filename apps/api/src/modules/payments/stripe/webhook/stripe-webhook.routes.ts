import { errorEnvelopeSchema } from '@app/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { App } from '../../../../lib/app-types';
import type { StripeWebhookService } from './stripe-webhook.service';

/** Stripe's events are a few KB; anything near this is not Stripe's. */
export const STRIPE_WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';
const noStore = { 'cache-control': 'private, no-store' };

/**
 * The endpoint a store's owner registers at Stripe: https://<store host>/api/stripe/webhook. Stripe
 * calls it with no session, so neither the request context (its CSRF rule) nor the store's access
 * gate applies: the route finds the store by Host itself and the signature is its only credential.
 */
export async function stripeWebhookRoutes(app: App, { webhooks }: { webhooks: StripeWebhookService }) {
  await app.register(async (plain) => {
    const scoped = plain.withTypeProvider<ZodTypeProvider>();
    // The body as sent: the signature is over the exact bytes.
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT_BYTES },
      (_req, body, done) => done(null, body),
    );
    scoped.post(
      STRIPE_WEBHOOK_PATH,
      {
        config: { tenant: false },
        bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT_BYTES,
        schema: {
          tags: ['payments'],
          summary:
            "Stripe's webhook events for the store of the host (checkout.session.completed, payment_intent.succeeded)",
          description:
            'Verified with the Stripe-Signature header (t=…,v1=…: HMAC-SHA256 of "t.body" under the endpoint secret the ' +
            'owner saved), t within 5 minutes. The order is confirmed only after asking Stripe about the session. Each ' +
            'event id is applied once: a repeat answers 200 with outcome "duplicate". 400: signature missing, wrong or ' +
            'stale, or the store has no Stripe webhook secret; 404: unknown host; 5xx: not applied, Stripe retries.',
          documentedBody: {
            description: "Stripe's event object as Stripe sent it (the signature covers these exact bytes).",
            content: {
              'application/json': z
                .object({
                  id: z.string(),
                  type: z.string(),
                  data: z.object({ object: z.record(z.string(), z.unknown()) }),
                })
                .loose(),
            },
          },
          response: {
            200: z.object({ eventId: z.string(), outcome: z.string() }),
            400: errorEnvelopeSchema,
            404: errorEnvelopeSchema,
            413: errorEnvelopeSchema,
            415: errorEnvelopeSchema,
            502: errorEnvelopeSchema,
            503: errorEnvelopeSchema,
          },
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return webhooks.receive(req, typeof req.body === 'string' ? req.body : '');
      },
    );
  });
}
