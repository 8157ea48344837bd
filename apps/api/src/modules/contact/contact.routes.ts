import { contactRequestSchema, dataEnvelope, errorEnvelopeSchema } from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { ContactService } from './contact.service';

export async function contactRoutes(app: App, { contact }: { contact: ContactService }) {
  app.post(
    '/api/v1/store/contact',
    {
      schema: {
        tags: ['store'],
        summary: 'Sends a message to the store (the /contact form)',
        description: 'Kept for the store and mailed to its address. At most 5 messages per sender per 10 minutes.',
        body: contactRequestSchema,
        response: {
          200: dataEnvelope(z.object({ messageId: z.string() })),
          ...tenantErrors,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const sent = await contact.submit(req.ctx, req.body, req.ip);
      if (!sent.ok) return sendRefusal(reply, sent);
      return { data: sent.value, message: 'Thanks for your message. The store will reply by email.' };
    },
  );
}
