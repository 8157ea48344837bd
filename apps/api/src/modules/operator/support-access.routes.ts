import {
  dataEnvelope,
  supportAccessStateSchema,
  supportGrantCreateSchema,
  supportSessionInfoSchema,
} from '@app/contracts';
import { z } from 'zod';
import { redirectAnswer } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import { sessionCookie } from '../auth/index';
import { SUPPORT_ENTER_PATH, type SupportAccess } from './support-access.service';

const tags = ['support access'];
const ownerOnly =
  'The store owner only, in their own session (role admin; staff and a support session get 403, a visitor 401).';

/** The owner's consent to the platform's support (store host), and the operator's way in. */
export async function supportAccessRoutes(app: App, { support }: { support: SupportAccess }) {
  app.get(
    '/api/tenant/support-access',
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: "The platform's support access to this store: the live grant, if any",
        description: ownerOnly,
        response: { 200: dataEnvelope(supportAccessStateSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: { grant: await support.state(req.ctx) } };
    },
  );

  app.post(
    '/api/tenant/support-access',
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: "Grant the platform's support access for 1 to 72 hours (replaces a live grant)",
        description: `${ownerOnly} Recorded in the store's audit log.`,
        body: supportGrantCreateSchema,
        response: { 200: dataEnvelope(supportAccessStateSchema), ...changeErrors },
      },
    },
    async (req) => ({ data: { grant: await support.grant(req.ctx, req.body.hours) } }),
  );

  app.delete(
    '/api/tenant/support-access',
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: "Revoke the platform's support access at once; open support sessions end",
        description: `${ownerOnly} Recorded in the store's audit log. Without a live grant, nothing changes.`,
        body: z.strictObject({}).nullish(),
        response: { 200: dataEnvelope(supportAccessStateSchema), ...changeErrors },
      },
    },
    async (req) => {
      await support.revoke(req.ctx);
      return { data: { grant: null } };
    },
  );

  app.get(
    '/api/tenant/support-access/session',
    {
      config: { permission: 'staff' },
      schema: {
        tags,
        summary: 'In a support session: which operator, until when (the dashboard banner); else null',
        description: 'Any staff member of the store.',
        response: { 200: dataEnvelope(supportSessionInfoSchema.nullable()), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await support.sessionInfo(req.ctx) };
    },
  );

  app.get(
    SUPPORT_ENTER_PATH,
    {
      schema: {
        tags,
        summary: "The operator's one-time support link: signs the browser in as support and opens the dashboard",
        description:
          'Made by POST /platform-api/stores/{tenantId}/support-session; works once, within 60 seconds, on this ' +
          "store's host, while the owner's grant is live. Answers 303 to /manage-store with the session cookie.",
        querystring: z.object({ ticket: z.string().min(1).max(100) }),
        response: {
          303: redirectAnswer('To the dashboard, signed in as support.'),
          ...changeErrors,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const done = await support.enter(req.ctx, req.query.ticket);
      if (!done.ok) return sendRefusal(reply, done);
      reply.header('set-cookie', sessionCookie(done.value.token, done.value.expiresAt, req.protocol === 'https'));
      return reply.code(303).header('location', '/manage-store').send(null);
    },
  );
}
