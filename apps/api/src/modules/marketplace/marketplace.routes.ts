import {
  bonanzaConnectBodySchema,
  dataEnvelope,
  errorEnvelopeSchema,
  marketplaceStateSchema,
  marketplaceTenantBodySchema,
  tenantIdQuerySchema,
} from '@app/contracts';
import { z } from 'zod';
import { fileAnswer, XML } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { changeErrors, tenantErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import { FEED_PATH, type MarketplaceService } from './marketplace.service';

/**
 * The owner's marketplace connection (the catalog permission, like the dashboard's "Marketplace
 * connect" item) and each store's product feed, which the marketplace fetches without signing in.
 */
export async function marketplaceRoutes(app: App, { marketplace }: { marketplace: MarketplaceService }) {
  const stateResponse = { 200: dataEnvelope(marketplaceStateSchema), ...changeErrors };

  app.get(
    '/api/marketplace/bonanza/fetch',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['marketplace'],
        summary: "The store's Bonanza connection (never its token) and its product feed",
        querystring: tenantIdQuerySchema,
        response: { 200: dataEnvelope(marketplaceStateSchema), ...tenantErrors, 401: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await marketplace.state(req.ctx, req.query.tenantId) };
    },
  );

  app.post(
    '/api/marketplace/bonanza/connect',
    {
      config: { permission: 'catalog' },
      // What the fetch answers may be sent back (its connection flattened, its read-only parts as read).
      preValidation: async (req) => {
        req.body = (await marketplace.writeBackBody(req.ctx, req.body)) as typeof req.body;
      },
      schema: {
        tags: ['marketplace'],
        summary: 'Connect the store to Bonanza, or change the connection',
        description:
          'A full replace of accountEmail and boothName; the token is stored sealed and never returned; an empty or ' +
          "absent token keeps the stored one. The fetch's data may be sent back: accountEmail and boothName are taken " +
          'from its connection, whose status, tokenSet, tokenMask, connectedAt, updatedAt and the feed are read-only ' +
          '(taken as read, else 400 naming the field). The same connection again writes nothing. ' +
          'Answers the new state. The catalog permission; another tenant is 404.',
        body: bonanzaConnectBodySchema,
        response: stateResponse,
      },
    },
    async (req, reply) => {
      const { tenantId, ...input } = req.body;
      await marketplace.connect(req.ctx, tenantId, { ...input, token: input.token ?? '' });
      reply.header('cache-control', 'private, no-store');
      return { data: await marketplace.state(req.ctx, tenantId) };
    },
  );

  app.post(
    '/api/marketplace/bonanza/disconnect',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['marketplace'],
        summary: 'Disconnect the store from Bonanza: the token is erased, the feed URL answers 404',
        body: marketplaceTenantBodySchema,
        response: stateResponse,
      },
    },
    async (req, reply) => {
      const done = await marketplace.disconnect(req.ctx, req.body.tenantId);
      if (!done.ok) return sendRefusal(reply, done);
      reply.header('cache-control', 'private, no-store');
      return { data: await marketplace.state(req.ctx, req.body.tenantId) };
    },
  );

  app.post(
    '/api/marketplace/feed/regenerate',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['marketplace'],
        summary: 'A new product feed URL; the old one stops working',
        body: marketplaceTenantBodySchema,
        response: stateResponse,
      },
    },
    async (req, reply) => {
      await marketplace.regenerateFeedUrl(req.ctx, req.body.tenantId);
      reply.header('cache-control', 'private, no-store');
      return { data: await marketplace.state(req.ctx, req.body.tenantId) };
    },
  );

  app.get(
    `${FEED_PATH}/:file`,
    {
      schema: {
        tags: ['marketplace'],
        summary: "The store's product feed (Google Merchant Center RSS 2.0), at its unguessable URL",
        description:
          'Active, in-stock products of a public store connected to a marketplace. ' +
          'ETag and Last-Modified; If-None-Match (or If-Modified-Since) answers 304. Any wrong token, a private or unconnected store: 404.',
        params: z.object({ file: z.string().max(80) }),
        response: {
          200: fileAnswer('The feed (RSS 2.0)', XML),
          304: z.void().describe('Not modified since the ETag or date sent'),
          404: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const answer = await marketplace.feed(req.ctx, req.params.file, {
        ifNoneMatch: req.headers['if-none-match'],
        ifModifiedSince: req.headers['if-modified-since'],
        userAgent: req.headers['user-agent'],
      });
      reply
        .header('etag', answer.etag)
        .header('last-modified', answer.lastModified.toUTCString())
        // The URL is the secret: no shared cache keeps the feed, a fetcher revalidates with its ETag.
        .header('cache-control', 'private, no-cache')
        .header('x-robots-tag', 'noindex');
      if (answer.status === 304) return reply.code(304).send();
      reply.header('content-type', 'application/xml; charset=utf-8');
      // A stream is sent as it is read (no serializer runs on it): the type says what it carries.
      return reply.send(answer.body as unknown as string);
    },
  );
}
