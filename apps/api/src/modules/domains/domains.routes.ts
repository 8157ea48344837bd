import {
  dataEnvelope,
  domainInputSchema,
  domainParamsSchema,
  domainsOverviewSchema,
  errorEnvelopeSchema,
  primaryHostInputSchema,
  storeDomainSchema,
  tlsAskQuerySchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import { sendRefusal } from '../../plugins/errors';
import type { DomainsService } from './domains.service';

const WHO = 'The owner and staff with the settings permission; a visitor gets 401, other staff 403.';

/** The path Caddy's on-demand TLS asks (deploy/Caddyfile); the proxy answers 404 for it from outside. */
export const TLS_ASK_PATH = '/internal/tls/ask';

/** A store's own domains (decision 121). */
export async function domainsRoutes(app: App, { domains }: { domains: DomainsService }) {
  app.get(
    '/api/v1/domains',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['domains'],
        summary: "The store's domains, the DNS records each needs, and its primary host",
        description: WHO,
        response: { 200: dataEnvelope(domainsOverviewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await domains.overview(req.ctx) };
    },
  );

  app.post(
    '/api/v1/domains',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['domains'],
        summary: 'Add a domain: it is pending until its DNS records are found',
        description: `${WHO} Answers the TXT record and the CNAME (a subdomain) or A record (an apex; and AAAA when the platform has IPv6) to create; a check runs at once. An apex brings its www host along (listed by GET), proven by the apex's TXT record. A domain this store has, one that serves a store, or one another store has verified is 409; the platform's own domain is 422.`,
        body: domainInputSchema,
        response: { 201: dataEnvelope(storeDomainSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const added = await domains.add(req.ctx, req.body);
      if (!added.ok) return sendRefusal(reply, added);
      return reply.code(201).header('cache-control', 'private, no-store').send({ data: added.value.domain });
    },
  );

  app.post(
    '/api/v1/domains/:domain/check',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['domains'],
        summary: 'Check the domain in DNS again',
        description: `${WHO} The domain is pending until the check has run (a job, within seconds); an active domain stays active while it is checked (after fixing a record the daily check found gone). Another store's or an unknown domain 404.`,
        params: domainParamsSchema,
        response: { 202: dataEnvelope(storeDomainSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const queued = await domains.recheck(req.ctx, req.params.domain);
      if (!queued.ok) return sendRefusal(reply, queued);
      return reply.code(202).header('cache-control', 'private, no-store').send({ data: queued.value });
    },
  );

  app.delete(
    '/api/v1/domains/:domain',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['domains'],
        summary: 'Remove a domain: it stops serving the store',
        description: `${WHO} The primary domain is 409 (make another host primary first); another store's or an unknown domain 404.`,
        params: domainParamsSchema,
        response: { 200: dataEnvelope(z.object({ domain: z.string() })), ...changeErrors },
      },
    },
    async (req, reply) => {
      const gone = await domains.remove(req.ctx, req.params.domain);
      if (!gone.ok) return sendRefusal(reply, gone);
      reply.header('cache-control', 'private, no-store');
      return { data: gone.value };
    },
  );

  app.put(
    '/api/v1/domains/primary',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['domains'],
        summary: "Make one of the store's hosts primary: the others answer 301 to it",
        description: `${WHO} The host must serve the store (its platform subdomain or an active domain), else 422. Canonical links, sitemaps, feeds, mail and PayPal return URLs use it from then on.`,
        body: primaryHostInputSchema,
        response: { 200: dataEnvelope(z.object({ primaryHost: z.string() })), ...changeErrors },
      },
    },
    async (req, reply) => {
      const set = await domains.setPrimary(req.ctx, req.body.host);
      if (!set.ok) return sendRefusal(reply, set);
      reply.header('cache-control', 'private, no-store');
      return { data: { primaryHost: set.value } };
    },
  );

  app.get(
    TLS_ASK_PATH,
    {
      config: { tenant: false },
      schema: {
        tags: ['domains'],
        summary: "The proxy's question before it gets a certificate for a domain",
        description:
          "Caddy's on-demand TLS `ask` (deploy/Caddyfile): 200 for an active domain of an active store, 404 for any other name. The proxy refuses this path from outside.",
        querystring: tlsAskQuerySchema,
        response: { 200: z.object({ allowed: z.literal(true) }), 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      if (!(await domains.allowsCertificate(req.query.domain)))
        throw new AppError(404, 'NOT_FOUND', 'No active store has this domain.');
      return { allowed: true as const };
    },
  );
}
