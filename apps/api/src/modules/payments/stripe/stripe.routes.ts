import { dataEnvelope, errorEnvelopeSchema, stripeAccountSchema, stripeConnectSchema } from '@app/contracts';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import { sendRefusal } from '../../../plugins/errors';
import type { StripeService } from './stripe.service';

const PATH = '/skulocity/api/v1/admin/stripe';
const tags = ['payments'];
const noStore = { 'cache-control': 'private, no-store' };

/** The store's own Stripe account (decision 118): read, connect, disconnect. The payments permission. */
export async function stripeRoutes(app: App, { stripe }: { stripe: StripeService }) {
  app.get(
    PATH,
    {
      config: { permission: 'payments' },
      schema: {
        tags,
        summary: "The store's Stripe account",
        description:
          'Whether Stripe is connected, with the key as a hint (sk_test_…abcd): the secret key and the webhook ' +
          'signing secret are never returned. testCardsOffered: whether checkout still offers the built-in test provider.',
        response: { 200: dataEnvelope(stripeAccountSchema), ...changeErrors },
      },
    },
    async (_req, reply) => {
      reply.headers(noStore);
      return { data: await stripe.view(_req.ctx) };
    },
  );

  app.put(
    PATH,
    {
      config: { permission: 'payments' },
      schema: {
        tags,
        summary: "Connects the store's Stripe account (or replaces its keys)",
        description:
          'The secret key is checked with Stripe (GET /v1/account) before anything is saved: 422 naming secretKey when ' +
          'Stripe refuses it, 502 when Stripe cannot be reached; nothing is saved either way. Both secrets are stored ' +
          'sealed and never shown again. Audited.',
        body: stripeConnectSchema,
        response: { 200: dataEnvelope(stripeAccountSchema), ...changeErrors, 502: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const saved = await stripe.connect(req.ctx, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: 'Stripe is connected.' };
    },
  );

  app.delete(
    PATH,
    {
      config: { permission: 'payments' },
      schema: {
        tags,
        summary: "Disconnects the store's Stripe account",
        description:
          'The keys are forgotten and checkout stops offering Stripe; paid orders keep their references. Audited.',
        response: { 200: dataEnvelope(stripeAccountSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await stripe.disconnect(req.ctx), message: 'Stripe is disconnected.' };
    },
  );
}
