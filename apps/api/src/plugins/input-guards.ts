import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { bodyHasControlCharacter, urlHasControlCharacter } from '../lib/control-characters';
import { sendError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers people with HTML: it runs these checks itself and renders its own refusal. */
    page?: boolean;
  }
}

export const CONTROL_CHARACTER_MESSAGE = 'The request contains a control character, which no field accepts.';

function refuse(reply: FastifyReply) {
  return sendError(reply, 400, 'VALIDATION_FAILED', CONTROL_CHARACTER_MESSAGE);
}

/**
 * One check for every text that enters the API: the address (path and query) and the
 * parsed body (JSON, form fields) before any schema. A schema written tomorrow cannot forget it.
 */
async function inputGuards(app: FastifyInstance) {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.routeOptions.config?.page) return;
    if (urlHasControlCharacter(req.url)) return refuse(reply);
  });
  app.addHook('preValidation', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.routeOptions.config?.page) return;
    if (req.body !== undefined && bodyHasControlCharacter(req.body)) return refuse(reply);
  });
}

export default fp(inputGuards, { name: 'input-guards' });
