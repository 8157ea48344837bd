import {
  cardCreateSchema,
  cardEditSchema,
  dataEnvelope,
  errorEnvelopeSchema,
  paymentMethodQuerySchema,
  savedCardSchema,
} from '@app/contracts';
import { z } from 'zod';
import { requireSignedIn } from '../../../lib/access';
import type { App } from '../../../lib/app-types';
import { tenantErrors } from '../../../lib/app-types';
import { sendRefusal } from '../../../plugins/errors';
import type { CardsService } from './cards.service';

const BASE = '/skulocity/api/v1/ecommerce/profile';
const errors = { ...tenantErrors, 401: errorEnvelopeSchema } as const;

/** Saved cards of the signed-in shopper (the clients' API names create and edit; list and delete are ours). */
export async function cardsRoutes(app: App, { cards }: { cards: CardsService }) {
  app.get(
    `${BASE}/creditCards`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['account'],
        summary: "The signed-in shopper's saved cards (brand, last four, expiry; never the number)",
        response: { 200: dataEnvelope(z.array(savedCardSchema)), ...errors },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      reply.header('cache-control', 'private, no-store');
      return { data: await cards.list(req.ctx, user.userId) };
    },
  );

  app.post(
    `${BASE}/createCreditCard`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['account'],
        summary: 'Saves a card, tokenised by the payment provider',
        description:
          'The number and CVC go to the provider and are neither stored nor logged. With the built-in test ' +
          'provider, 4242 4242 4242 4242 succeeds and 4000 0000 0000 0002 is declined (422).',
        body: cardCreateSchema,
        response: { 200: dataEnvelope(savedCardSchema), ...errors, 422: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const saved = await cards.create(req.ctx, user.userId, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: 'Card saved.' };
    },
  );

  app.put(
    `${BASE}/editCreditCard`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['account'],
        summary: "Changes a saved card's expiry, name or billing address",
        body: cardEditSchema,
        response: { 200: dataEnvelope(savedCardSchema), ...errors },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const saved = await cards.edit(req.ctx, user.userId, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: 'Card saved.' };
    },
  );

  app.delete(
    `${BASE}/deleteCreditCard`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['account'],
        summary: 'Removes a saved card',
        querystring: paymentMethodQuerySchema,
        response: { 200: dataEnvelope(z.object({ removed: z.literal(true) })), ...errors },
      },
    },
    async (req) => {
      const user = requireSignedIn(req.ctx);
      await cards.remove(req.ctx, user.userId, req.query.paymentMethodId);
      return { data: { removed: true as const }, message: 'Card removed.' };
    },
  );
}
