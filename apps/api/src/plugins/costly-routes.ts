import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import { KeyedLimiter } from '../lib/keyed-limiter';

/** Kinds of expensive work; each has its own per-store limit. */
export const COST_CLASSES = ['pdf', 'search'] as const;
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
 * heavy route adds. The handler is wrapped rather than guarded by a pair of hooks, so the slot is
 * given back exactly when the work ends, whatever way it ends (answer, error, client gone).
 */
async function costlyRoutes(app: FastifyInstance, opts: CostlyRoutesOptions) {
  const limiters = Object.fromEntries(
    COST_CLASSES.map((c) => [c, new KeyedLimiter(opts.limits[c].concurrency, opts.limits[c].queue)]),
  ) as Record<CostClass, KeyedLimiter>;
  const retryAfter = String(opts.retryAfterSeconds ?? 1);
  app.decorate('costlyLimiters', limiters);

  app.addHook('onRoute', (route) => {
    const kind = route.config?.costly;
    if (!kind) return;
    const limiter = limiters[kind];
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function limited(this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      // Per tenant: the account that pays for the stores is the unit of fairness (DESIGN.md section 3).
      const key = req.ctx?.tenantId ?? req.hostname;
      const done = await limiter.run(key, () => handler.call(this, req, reply));
      if (done) return done.value;
      throw new AppError(
        429,
        'RATE_LIMITED',
        'This store is handling many requests of this kind right now. Please try again in a moment.',
        undefined,
        { 'retry-after': retryAfter },
      );
    };
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-store limiters of the costly routes (tests look at their load). */
    costlyLimiters: Record<CostClass, KeyedLimiter>;
  }
}

export default fp(costlyRoutes, { name: 'costly-routes' });
