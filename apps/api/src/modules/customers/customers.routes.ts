import { Readable } from 'node:stream';
import {
  CUSTOMER_LIST_PAGE_MAX,
  type CustomerRef,
  customerDetailSchema,
  customerListFilterSchema,
  customerListPageSchema,
  customerListQuerySchema,
  customerNoteRequestSchema,
  customerNoteSchema,
  dataEnvelope,
  errorEnvelopeSchema,
} from '@app/contracts';
import { z } from 'zod';
import { CSV, fileAnswer } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { changeErrors, tenantErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { CustomersService } from './customers.service';

const owner = { ...tenantErrors, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };
const tags = ['customers'];
const userParams = z.object({ userId: z.string().min(1).max(100) });
const guestParams = z.object({
  email: z.string().trim().min(3).max(320).includes('@', { message: 'email is not an email address' }),
});
const noteParams = z.object({ noteId: z.string().min(1).max(64) });

/**
 * The dashboard's customers (decision 045): accounts under /customers/{userId},
 * guests under /customers/guest/{email}. The customers permission.
 */
export async function customersRoutes(app: App, { customers }: { customers: CustomersService }) {
  app.get(
    '/api/v1/customers',
    {
      config: { permission: 'customers' },
      schema: {
        tags,
        summary: "The store's customers: shopper accounts and guests who ordered",
        description:
          'q: part of a name or email. orders yes|no, type account|guest, since_from/since_to (YYYY-MM-DD, the day ' +
          'the account was made or the guest first ordered). sort last_order (newest first), amount_spent (highest ' +
          `first: captured minus refunded) or name. Pages of at most ${CUSTOMER_LIST_PAGE_MAX}; pass nextCursor as cursor.`,
        querystring: customerListQuerySchema,
        response: { 200: dataEnvelope(customerListPageSchema), ...owner },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await customers.list(req.ctx, req.query) };
    },
  );

  app.get(
    '/api/v1/customers/export.csv',
    {
      config: { permission: 'customers' },
      schema: {
        tags,
        summary: 'The (filtered) customers list as CSV, streamed',
        description: 'The same filters and sort as the list. UTF-8 with a BOM; amounts as decimals.',
        querystring: customerListFilterSchema,
        response: { 200: fileAnswer('The customers as CSV (attachment)', CSV), ...owner },
      },
    },
    async (req, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="customers-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(customers.exportCsv(req.ctx, req.query)) as never);
    },
  );

  // The same three reads and writes for an account and for a guest.
  const variants: { prefix: string; params: z.ZodObject; ref: (p: Record<string, string>) => CustomerRef }[] = [
    { prefix: '/api/v1/customers/guest/:email', params: guestParams, ref: (p) => ({ email: p.email as string }) },
    { prefix: '/api/v1/customers/:userId', params: userParams, ref: (p) => ({ userId: p.userId as string }) },
  ];
  for (const v of variants) {
    app.get(
      v.prefix,
      {
        config: { permission: 'customers' },
        schema: {
          tags,
          summary: 'A customer: orders, lifetime value, addresses and staff notes',
          params: v.params,
          response: { 200: dataEnvelope(customerDetailSchema), ...owner },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'private, no-store');
        return { data: await customers.detail(req.ctx, v.ref(req.params as Record<string, string>)) };
      },
    );

    app.post(
      `${v.prefix}/notes`,
      {
        config: { permission: 'customers' },
        schema: {
          tags,
          summary: 'Adds a staff note to a customer (audited)',
          params: v.params,
          body: customerNoteRequestSchema,
          response: { 201: dataEnvelope(customerNoteSchema), ...changeErrors },
        },
      },
      async (req, reply) => {
        const note = await customers.addNote(req.ctx, v.ref(req.params as Record<string, string>), req.body);
        return reply.code(201).send({ data: note });
      },
    );

    app.delete(
      `${v.prefix}/notes/:noteId`,
      {
        config: { permission: 'customers' },
        schema: {
          tags,
          summary: 'Deletes a staff note of a customer (audited)',
          params: v.params.extend(noteParams.shape),
          response: { 204: z.null(), ...changeErrors },
        },
      },
      async (req, reply) => {
        const p = req.params as Record<string, string>;
        await customers.deleteNote(req.ctx, v.ref(p), p.noteId as string);
        return reply.code(204).send(null);
      },
    );
  }

  app.post(
    '/api/v1/customers/:userId/password-reset',
    {
      config: { permission: 'customers' },
      schema: {
        tags,
        summary: "Mails the account a password-reset link (the auth module's flow and limits; audited)",
        params: userParams,
        response: { 200: dataEnvelope(z.object({ email: z.string() })), ...changeErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const sent = await customers.sendPasswordReset(req.ctx, req.params.userId);
      if (!sent.ok) return sendRefusal(reply, sent);
      return { data: sent.value };
    },
  );
}
