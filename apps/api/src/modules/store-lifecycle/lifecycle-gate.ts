import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { apiRefusal } from './lifecycle-rules';

/**
 * The API's side of a store's state (decision 099): before any handler or read cache runs, a
 * request to a store that is not active is refused as its state says (lifecycle-rules.ts). Registered
 * after the request context, whose actor and store state it reads, and before the private-store
 * check, so a suspended private store answers "suspended", not "private".
 */
async function storeLifecycleGatePlugin(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.ctx) return;
    const refusal = apiRefusal(req.ctx, req.method, req.routeOptions.url ?? '');
    if (!refusal) return;
    // Not kept by any cache: the answer changes when the store is resumed.
    reply.header('cache-control', 'no-store');
    throw refusal;
  });
}

export const storeLifecycleGate = fp(storeLifecycleGatePlugin, {
  name: 'store-lifecycle-gate',
  dependencies: ['request-context'],
});
