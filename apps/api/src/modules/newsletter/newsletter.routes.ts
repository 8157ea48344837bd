import { Readable } from 'node:stream';
import {
  dataEnvelope,
  errorEnvelopeSchema,
  NEWSLETTER_PAGE_MAX,
  newsletterSubscribersPageSchema,
  newsletterSubscribersQuerySchema,
  newsletterSubscribeSchema,
  newsletterTokenSchema,
} from '@app/contracts';
import { z } from 'zod';
import { CSV, fileAnswer } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import { refuse } from '../../lib/result';
import { sendRefusal } from '../../plugins/errors';
import type { NewsletterService } from './newsletter.service';

/** A confirmation or unsubscribe link that is used, expired or of another store: the API's 404. */
const invalidLink = () =>
  refuse(404, 'NOT_FOUND', 'This link is not valid any more. Links work once, on the store that sent them.');

export async function newsletterRoutes(app: App, { newsletter }: { newsletter: NewsletterService }) {
  app.post(
    '/api/v1/newsletter/subscribe',
    {
      schema: {
        tags: ['store'],
        summary: "Asks for the store's newsletter (double opt-in)",
        description:
          'Mails a confirmation link; only confirmed addresses receive the newsletter. The answer is the same ' +
          'whether or not the address is already subscribed. At most 10 requests per client address per 10 ' +
          'minutes and 3 per email address per hour.',
        body: newsletterSubscribeSchema,
        response: { 200: dataEnvelope(z.object({ message: z.string() })), ...tenantErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const r = await newsletter.subscribe(req.ctx, req.body.email, req.ip);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value, message: r.value.message };
    },
  );

  app.post(
    '/api/v1/newsletter/confirm',
    {
      schema: {
        tags: ['store'],
        summary: 'Confirms a subscription with the token of the confirmation mail (works once)',
        body: newsletterTokenSchema,
        response: { 200: dataEnvelope(z.object({ email: z.string() })), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const result = await newsletter.confirm(req.ctx, req.body.token);
      if (!result.ok) return sendRefusal(reply, invalidLink());
      return { data: { email: result.email }, message: 'Your subscription is confirmed.' };
    },
  );

  app.post(
    '/api/v1/newsletter/unsubscribe',
    {
      schema: {
        tags: ['store'],
        summary: 'Unsubscribes with the signed token of any newsletter mail (no login)',
        body: newsletterTokenSchema,
        response: { 200: dataEnvelope(z.object({ email: z.string() })), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const result = await newsletter.unsubscribe(req.ctx, req.body.token);
      if (!result.ok) return sendRefusal(reply, invalidLink());
      return { data: { email: result.email }, message: 'You are unsubscribed.' };
    },
  );

  app.get(
    '/api/v1/newsletter/subscribers',
    {
      config: { permission: 'customers' },
      schema: {
        tags: ['store'],
        summary: "The store's newsletter subscribers, newest first",
        description:
          `Filter by status (pending, confirmed, unsubscribed). Pages of limit subscribers (at most ${NEWSLETTER_PAGE_MAX}); ` +
          'pass nextCursor as cursor for the next page. Needs the customers permission.',
        querystring: newsletterSubscribersQuerySchema,
        response: { 200: dataEnvelope(newsletterSubscribersPageSchema), ...tenantErrors, 401: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await newsletter.list(req.ctx, req.query) };
    },
  );

  app.get(
    '/api/v1/newsletter/subscribers.csv',
    {
      config: { permission: 'customers' },
      schema: {
        tags: ['store'],
        summary: "The store's newsletter subscribers as CSV (streamed)",
        description:
          'Columns email, status, subscribed_at, confirmed_at, unsubscribed_at; optional status filter. Cells a ' +
          'spreadsheet would run as a formula start with a single quote. Needs the customers permission.',
        querystring: newsletterSubscribersQuerySchema.pick({ status: true }),
        response: {
          200: fileAnswer('The subscribers as CSV (attachment)', CSV),
          ...tenantErrors,
          401: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="newsletter-subscribers.csv"')
        .header('cache-control', 'private, no-store')
        .send(Readable.from(newsletter.csv(req.ctx, req.query.status)) as never),
  );
}
