import {
  dataEnvelope,
  messageIdParamsSchema,
  messageListQuerySchema,
  messagePageSchema,
  messageReplySchema,
  messageThreadSchema,
} from '@app/contracts';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { ContactInboxService } from './contact-inbox.service';

const noStore = { 'cache-control': 'private, no-store' };
const M = '/api/v1/messages';

/** The store's inbox of contact messages (decision 047). Each needs the customers permission. */
export async function contactInboxRoutes(app: App, { inbox }: { inbox: ContactInboxService }) {
  app.get(
    M,
    {
      config: { permission: 'customers' },
      schema: {
        tags: ['store'],
        summary: 'Contact messages, newest first: folder inbox (default) or archived; search q; keyset cursor',
        querystring: messageListQuerySchema,
        response: { 200: dataEnvelope(messagePageSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await inbox.list(req.ctx, req.query) };
    },
  );

  app.get(
    `${M}/:messageId`,
    {
      config: { permission: 'customers' },
      schema: {
        tags: ['store'],
        summary: 'One message with the replies sent; opening an unread message marks it read',
        params: messageIdParamsSchema,
        response: { 200: dataEnvelope(messageThreadSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await inbox.open(req.ctx, req.params.messageId) };
    },
  );

  app.post(
    `${M}/:messageId/reply`,
    {
      config: { permission: 'customers' },
      schema: {
        tags: ['store'],
        summary: "Reply by email (Reply-To the store's contact address, the message quoted); kept in the thread",
        params: messageIdParamsSchema,
        body: messageReplySchema,
        response: { 200: dataEnvelope(messageThreadSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const sent = await inbox.reply(req.ctx, req.params.messageId, req.body.text);
      if (!sent.ok) return sendRefusal(reply, sent);
      return { data: sent.value };
    },
  );

  for (const [action, summary] of [
    ['archive', 'Move the message to the archive'],
    ['unarchive', 'Move the message back to the inbox'],
    ['unread', 'Mark the message unread'],
  ] as const) {
    app.post(
      `${M}/:messageId/${action}`,
      {
        config: { permission: 'customers' },
        schema: {
          tags: ['store'],
          summary,
          params: messageIdParamsSchema,
          response: { 200: dataEnvelope(messageThreadSchema), ...changeErrors },
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        const id = req.params.messageId;
        const data =
          action === 'archive'
            ? await inbox.archive(req.ctx, id)
            : action === 'unarchive'
              ? await inbox.unarchive(req.ctx, id)
              : await inbox.markUnread(req.ctx, id);
        return { data };
      },
    );
  }
}
