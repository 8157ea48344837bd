import { dataEnvelope, errorEnvelopeSchema, payPalCheckoutSchema } from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../../../lib/app-types';
import { changeErrors } from '../../../../lib/app-types';
import { sendRefusal } from '../../../../plugins/errors';
import type { CheckoutService } from '../../../orders/index';

const BASE = '/skulocity/api/v1/public/ecommerce';
const noStore = { 'cache-control': 'private, no-store' };

const landingSchema = z.union([
  z.object({ paid: z.literal(true), orderId: z.string(), guest: z.boolean(), accessKey: z.string().nullable() }),
  z.object({ paid: z.literal(false), reason: z.enum(['unpaid', 'cancelled']) }),
]);

/** Checkout through the store's Stripe account, for API clients (the checkout page uses the same service). */
export async function stripeCheckoutRoutes(app: App, { checkout }: { checkout: CheckoutService }) {
  app.post(
    `${BASE}/createStripeSession`,
    {
      schema: {
        tags: ['checkout'],
        summary: "Starts paying by card through the store's Stripe account: reserves the order, answers Stripe's page",
        description:
          'Takes the checkout without the payment. The order is reserved (stock, promo use) and a Stripe Checkout ' +
          'Session made for its total; the shopper pays on its url and Stripe sends them back to ' +
          '/checkout/stripe/return (or /checkout/stripe/cancel, which releases the reservation). The Idempotency-Key ' +
          'is the order’s and Stripe’s: a retry answers the same session. 409 when the store has no Stripe account.',
        headers: z.object({ 'idempotency-key': z.string().min(8).max(100) }).passthrough(),
        body: payPalCheckoutSchema,
        response: {
          200: dataEnvelope(z.object({ url: z.string(), orderId: z.string() })),
          ...changeErrors,
          502: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const started = await checkout.startStripe(req.ctx, req.body, {
        returnOrigin: `${req.protocol}://${req.host}`,
        requestKey: String(req.headers['idempotency-key']),
      });
      if (!started.ok) return sendRefusal(reply, started);
      return { data: started.value };
    },
  );

  app.post(
    `${BASE}/stripeReturn`,
    {
      schema: {
        tags: ['checkout'],
        summary: "Back from Stripe's page: the order, confirmed if Stripe says the session is paid",
        description:
          'Asks Stripe about the session (GET /v1/checkout/sessions/:id). Paid: the order is confirmed (once, ' +
          'whether the webhook came first or not). Not paid: the order stays reserved. 404 for a session of another shopper.',
        body: z.strictObject({ sessionId: z.string().regex(/^cs_(test|live)_[A-Za-z0-9]{8,200}$/) }),
        response: { 200: dataEnvelope(landingSchema), ...changeErrors, 502: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const r = await checkout.stripeReturn(req.ctx, req.body.sessionId);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value };
    },
  );

  app.post(
    `${BASE}/stripeCancel`,
    {
      schema: {
        tags: ['checkout'],
        summary: "Left Stripe's page without paying: the reservation is released",
        description:
          'Stripe is asked first: a session paid meanwhile confirms the order instead. 404 for an order of another shopper.',
        body: z.strictObject({ orderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }),
        response: { 200: dataEnvelope(landingSchema), ...changeErrors, 502: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const r = await checkout.stripeCancel(req.ctx, req.body.orderId);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value };
    },
  );
}
