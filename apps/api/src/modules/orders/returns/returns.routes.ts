import {
  createReturnSchema,
  createRmaReturnSchema,
  dataEnvelope,
  RETURN_REASONS,
  returnRequestSchema,
} from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import { signedInUser } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { sendRefusal } from '../../../plugins/errors';
import type { ReturnAsker, ReturnsService } from './returns.service';

const BASE = '/skulocity/api/v1';
const errors = changeErrors;

const RULES =
  "Only the order's owner, signed in, or a guest sending the order's signed link as `key`; anyone else gets 404. " +
  'The order must be delivered or completed (422 NOT_RETURNABLE). A line is never asked back more often than it ' +
  'was bought, counting requests that were not rejected or cancelled (409 RETURN_QUANTITY_EXCEEDED; 422 when ' +
  `more than was bought at all). Reasons: ${RETURN_REASONS.join(', ')}. A confirmation is emailed.`;

/** Who asks: nobody signed in and no link is a 401, so a guest knows to log in or use their link. */
function askerOf(req: FastifyRequest, key: string | undefined): ReturnAsker {
  const user = signedInUser(req.ctx);
  if (!user && !key) {
    throw new AppError(
      401,
      'UNAUTHENTICATED',
      'Please log in to request a return, or open the order from the link in its email.',
    );
  }
  return { userId: user?.userId ?? null, key };
}

/** Return requests, paths as the existing clients call them. */
export async function returnsRoutes(app: App, { returns }: { returns: ReturnsService }) {
  app.post(
    `${BASE}/ecommerce/createreturns`,
    {
      schema: {
        tags: ['orders'],
        summary: 'Requests a return of chosen lines of a delivered order',
        description: `Lines by \`lineNo\` (or \`productId\` when the order has it on one line) with a quantity. ${RULES}`,
        body: createReturnSchema,
        response: { 200: dataEnvelope(returnRequestSchema), ...errors },
      },
    },
    async (req, reply) => {
      const who = askerOf(req, req.body.key);
      const created = await returns.create(req.ctx, who, req.body);
      if (!created.ok) return sendRefusal(reply, created);
      return { data: created.value, message: 'Your return request has been sent.' };
    },
  );

  app.post(
    `${BASE}/ecommerce/createRmaReturn`,
    {
      schema: {
        tags: ['orders'],
        summary: 'Requests a return (RMA) of everything of a delivered order that can still be returned',
        description: `Every line with the quantity not yet in a return request; 409 when nothing is left. ${RULES}`,
        body: createRmaReturnSchema,
        response: { 200: dataEnvelope(returnRequestSchema), ...errors },
      },
    },
    async (req, reply) => {
      const who = askerOf(req, req.body.key);
      const created = await returns.createRma(req.ctx, who, req.body);
      if (!created.ok) return sendRefusal(reply, created);
      return { data: created.value, message: 'Your return request has been sent.' };
    },
  );
}
