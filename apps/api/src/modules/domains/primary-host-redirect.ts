import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DomainsService } from './domains.service';

/**
 * Paths that stay on whatever host they were asked on: the API (clients hold a host), the dashboard
 * (its session cookie is the host's own, and the owner must reach it on the platform's subdomain when
 * a domain's DNS breaks), the platform's and the proxy's own paths.
 */
const STAYS = /^\/(api|skulocity|platform-api|manage-store|internal|dev|\.well-known)(\/|$)|^\/(healthz|readyz)$/;

/**
 * A store with a primary domain answers every other host of it with a 301 to the same path there
 * (decision 121): shoppers, links and search engines end on one host. Only page reads (GET, HEAD):
 * a form posted to the old host is not turned into a GET. Registered after the request context.
 */
async function primaryHostRedirectPlugin(
  app: FastifyInstance,
  opts: { domains: DomainsService; linkOrigin: (host: string) => string },
) {
  app.addHook('onRequest', async (req, reply) => {
    const ctx = req.tenantCtx;
    if (!ctx || (req.method !== 'GET' && req.method !== 'HEAD')) return;
    if (STAYS.test(req.url)) return;
    const to = await opts.domains.redirectFor(ctx, ctx.hostName);
    if (!to) return;
    reply.header('cache-control', 'public, max-age=300');
    return reply.redirect(`${opts.linkOrigin(to)}${req.url}`, 301);
  });
}

export const primaryHostRedirect = fp(primaryHostRedirectPlugin, { name: 'primary-host-redirect' });
