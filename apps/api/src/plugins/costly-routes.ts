import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import { KeyedLimiter } from '../lib/keyed-limiter';

/** Kinds of expensive work; each has its own per-store limit. */
export const COST_CLASSES = ['pdf', 'search', 'upload'] as const;
export type CostClass = (typeof COST_CLASSES)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * An expensive route: each store may run only a few of this kind at once, with a small queue;
     * past that the caller gets 429 with Retry-After, so one store's flood cannot slow the others.
     */
    costly?: CostClass;
  }
}

export interface CostlyRoutesOptions {
  limits: Record<CostClass, { concurrency: number; queue: number }>;
  /** What Retry-After says: a refused request is worth trying again this soon. */
  retryAfterSeconds?: number;
}

/**
 * One mechanism for every expensive route: `config: { costly: 'pdf' }` on the route is all a new
 * heavy route adds. The store's slot is taken in an `onRequest` hook that runs right after tenancy
 * has bound the host and before the request context looks up the session (so this plugin is
 * registered between the two): a flooded request waits, or is refused with 429, before it costs a
 * session read, body parsing or validation. The slot is given back once, when the response has
 * been sent (`onResponse`, which also follows an error) or the client has gone (`onRequestAbort`,
 * and the response's `close` as a backstop).
 */
async function costlyRoutes(app: FastifyInstance, opts: CostlyRoutesOptions) {
  const limiters = Object.fromEntries(
    COST_CLASSES.map((c) => [c, new KeyedLimiter(opts.limits[c].concurrency, opts.limits[c].queue)]),
  ) as Record<CostClass, KeyedLimiter>;
  const retryAfter = String(opts.retryAfterSeconds ?? 1);
  app.decorate('costlyLimiters', limiters);
  app.decorateRequest('costlySlot', null);

  app.addHook('onRequest', async (req, reply) => {
    const kind = req.routeOptions.config?.costly;
    if (!kind) return;
    // Per tenant: the account that pays for the stores is the unit of fairness.
    const key = req.tenantCtx?.tenantId ?? req.hostname;
    const slot: CostlySlot = { release: null, ended: false };
    req.costlySlot = slot;
    const release = await limiters[kind].acquire(key);
    if (!release) {
      throw new AppError(
        429,
        'RATE_LIMITED',
        'This store is handling many requests of this kind right now. Please try again in a moment.',
        undefined,
        { 'retry-after': retryAfter },
      );
    }
    slot.release = release;
    // The client went away while this request waited in the queue: hand the slot on at once.
    if (slot.ended) release();
    else reply.raw.once('close', () => endSlot(req));
  });
  app.addHook('onResponse', async (req) => endSlot(req));
  app.addHook('onRequestAbort', async (req) => endSlot(req));
}

interface CostlySlot {
  /** Gives the store's slot back (idempotent); null while the request still waits for it. */
  release: (() => void) | null;
  /** The response was sent or the client went away. */
  ended: boolean;
}

function endSlot(req: FastifyRequest) {
  const slot = req.costlySlot;
  if (!slot) return;
  slot.ended = true;
  slot.release?.();
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The store's slot of a costly route, held from `onRequest` until the response ends. */
    costlySlot: CostlySlot | null;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-store limiters of the costly routes (tests look at their load). */
    costlyLimiters: Record<CostClass, KeyedLimiter>;
  }
}

export default fp(costlyRoutes, { name: 'costly-routes', dependencies: ['tenancy'] });
