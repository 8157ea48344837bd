import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Access, accessRefusal, requireSignedIn } from '../lib/access';
import { type Actor, hasPermission, type RequestContext, signedInUser, type TenantContext } from '../lib/context';
import { previewRequested } from '../lib/preview';
import type { Csrf } from '../modules/auth/index';
import { assertSameOrigin, CSRF_HEADER, csrfBinding, csrfRefused } from '../modules/auth/index';

declare module 'fastify' {
  interface FastifyRequest {
    /** The store and who acts; set for every route bound to a tenant. */
    ctx: RequestContext;
  }
  interface FastifyContextConfig {
    /**
     * An owner route: who may call it (a permission, or any staff member). Checked before the body
     * is read; a visitor gets 401, a shopper or staff without the permission 403.
     */
    permission?: Access;
    /**
     * A shopper's own route (addresses, cards, wishlist, profile): any signed-in account. Checked
     * before the body is read, like `permission`: a visitor gets 401 whatever the body.
     */
    signedIn?: true;
    /**
     * Changes sent with the session cookie need this browser's CSRF token. `origin-only` is for the
     * calls that open or end a session or only read (login, sign-up, logout, profile view): the
     * same-origin check still applies.
     */
    csrf?: 'origin-only';
  }
}

/** One row of the owner-route table (decision 016): which permission a route needs. */
export interface OwnerRoute {
  method: string;
  url: string;
  permission: Access;
}

export interface RequestContextOptions {
  resolveActor(tenant: TenantContext, headers: IncomingHttpHeaders): Promise<Actor>;
  csrf: Csrf;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the RequestContext once per request (after tenancy has bound the host), then applies the
 * two rules every route shares: the owner-route permission of the route's config, and the CSRF rule
 * for changes. Handlers read `req.ctx` and nothing else about who acts.
 */
async function requestContextPlugin(app: FastifyInstance, opts: RequestContextOptions) {
  const ownerRoutes: OwnerRoute[] = [];
  app.decorate('ownerRoutes', ownerRoutes);
  app.decorateRequest('ctx', null as unknown as RequestContext);

  app.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    if (!permission) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') ownerRoutes.push({ method, url: route.url, permission });
    }
  });

  app.addHook('onRequest', async (req) => {
    if (!req.tenantCtx) return;
    req.ctx = await resolveRequestContext(req.tenantCtx, req, opts.resolveActor);
    const config = req.routeOptions.config ?? {};
    if (config.permission) {
      const refusal = accessRefusal(req.ctx, config.permission);
      if (refusal) throw refusal;
    }
    if (config.signedIn) requireSignedIn(req.ctx);
    if (SAFE_METHODS.has(req.method)) return;
    // A bearer token is never sent by a browser on its own, so it needs no CSRF defence; a cookie
    // is, so a change riding on one must come from this store, with the session's token.
    const user = signedInUser(req.ctx);
    if (user?.session.via === 'bearer') return;
    assertSameOrigin(req.method, req.headers, req.ctx.origin);
    if (user && config.csrf !== 'origin-only') {
      if (!opts.csrf.valid(req.ctx.tenantId, csrfBinding(req.headers), req.headers[CSRF_HEADER])) throw csrfRefused();
    }
  });
}

/** The context of one request to a known store: for API routes here, and for pages. */
export async function resolveRequestContext(
  tenant: TenantContext,
  req: { id: string; ip: string | null; headers: IncomingHttpHeaders },
  resolveActor: RequestContextOptions['resolveActor'],
): Promise<RequestContext> {
  const actor = await resolveActor(tenant, req.headers);
  const ctx: RequestContext = { ...tenant, actor, requestId: req.id, ip: req.ip };
  // The preview cookie is a wish, not a right: it counts only for someone who may edit settings.
  if (previewRequested(req.headers) && hasPermission(ctx, 'settings')) ctx.preview = true;
  return ctx;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every owner route and the permission it needs (decision 016; the access tests walk it). */
    ownerRoutes: OwnerRoute[];
  }
}

export default fp(requestContextPlugin, { name: 'request-context', dependencies: ['tenancy'] });
