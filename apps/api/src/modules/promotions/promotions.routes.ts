import {
  dataEnvelope,
  promoCodeCreateSchema,
  promoCodeDetailSchema,
  promoCodeFieldsSchema,
  promoCodeListQuerySchema,
  promoCodeListSchema,
  promoCodeParamsSchema,
  promoCodeViewSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { PromotionsService } from './promotions.service';

const noStore = { 'cache-control': 'private, no-store' };
const P = '/api/v1/promo-codes';
const one = { 200: dataEnvelope(promoCodeViewSchema), ...changeErrors };

/**
 * The owner's promo codes (the existing clients call no paths for them, so they sit beside the
 * other owner routes under /api/v1). Each needs the orders permission (decision 041): codes change
 * what orders cost.
 */
export async function promotionsRoutes(app: App, { promotions }: { promotions: PromotionsService }) {
  app.get(
    P,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: "The store's promo codes, newest first; filter by status",
        querystring: promoCodeListQuerySchema,
        response: { 200: dataEnvelope(promoCodeListSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await promotions.list(req.ctx, req.query) };
    },
  );

  app.get(
    `${P}/:code`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'One promo code, with the orders that used it (newest first) and the discount each got',
        params: promoCodeParamsSchema,
        response: { 200: dataEnvelope(promoCodeDetailSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await promotions.get(req.ctx, req.params.code) };
    },
  );

  app.post(
    P,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Create a promo code',
        description:
          'The code is stored upper-cased; 409 naming `code` when the store has it already. value: a percentage ' +
          '(1-100) for kind percent, minor units for kind amount; minSubtotal in minor units; startsAt before endsAt.',
        body: promoCodeCreateSchema,
        response: { 201: dataEnvelope(promoCodeViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const created = await promotions.create(req.ctx, req.body);
      if (!created.ok) return sendRefusal(reply.headers(noStore), created);
      reply.headers(noStore).code(201);
      return { data: created.value };
    },
  );

  app.put(
    `${P}/:code`,
    {
      config: { permission: 'orders' },
      // 404 before the body is judged; the read (one code, or the GET's data) may be written back.
      preValidation: async (req) => {
        const { code } = req.params as { code: string };
        req.body = (await promotions.writeBackBody(req.ctx, code, req.body)) as typeof req.body;
      },
      schema: {
        tags: ['orders'],
        summary: "Change a promo code's rules (the code itself never changes)",
        description:
          "A patch: rules left out keep their values. The read may be sent back (one code, or the GET's data with " +
          'its redemptions): code, timesUsed, status, summary, currency, createdAt, updatedAt and redemptions are ' +
          'read-only (taken as read, else 400 naming the field). A write that changes nothing writes nothing.',
        params: promoCodeParamsSchema,
        body: promoCodeFieldsSchema,
        response: one,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await promotions.update(req.ctx, req.params.code, req.body) };
    },
  );

  for (const intent of ['activate', 'deactivate'] as const) {
    app.post(
      `${P}/:code/${intent}`,
      {
        config: { permission: 'orders' },
        schema: {
          tags: ['orders'],
          summary:
            intent === 'activate'
              ? 'Let shoppers use a promo code again'
              : 'Stop a promo code: carts holding it lose it, orders placed with it keep it',
          params: promoCodeParamsSchema,
          response: one,
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return { data: await promotions[intent](req.ctx, req.params.code) };
      },
    );
  }

  app.delete(
    `${P}/:code`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Delete a promo code no order used',
        description: 'A code an order used is refused with 409: deactivate it instead (its redemptions are history).',
        params: promoCodeParamsSchema,
        response: {
          200: dataEnvelope(z.object({ code: z.string(), deleted: z.literal(true) })),
          ...changeErrors,
        },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const removed = await promotions.remove(req.ctx, req.params.code);
      if (!removed.ok) return sendRefusal(reply, removed);
      return { data: removed.value };
    },
  );
}
