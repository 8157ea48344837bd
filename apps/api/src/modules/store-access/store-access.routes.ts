import {
  accessModeRequestSchema,
  accessModeStateSchema,
  accountDecisionParamsSchema,
  accountRequestSchema,
  accountStandingSchema,
  CUSTOMER_INVITATION_INVALID_MESSAGE,
  customerAcceptRequestSchema,
  customerInvitationIdParamsSchema,
  customerInvitationPreviewSchema,
  customerInvitationSchema,
  customerInvitationTokenQuerySchema,
  customerInviteRequestSchema,
  dataEnvelope,
  errorEnvelopeSchema,
  storeAccessSettingsSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import { sendRefusal } from '../../plugins/errors';
import type { StoreAccessService } from './store-access.service';

const OWNER_ONLY =
  'The store owner only: a visitor gets 401, a shopper and staff (even with the settings permission) 403.';

/** The store's access mode, the accounts waiting for approval and customer invitations (decision 105). */
export async function storeAccessRoutes(app: App, { access }: { access: StoreAccessService }) {
  app.get(
    '/api/v1/store-access/settings',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store-access'],
        summary:
          "The store's access mode, the accounts waiting for approval (or declined) and the customer invitations out",
        description:
          'The owner and staff with the settings permission; `canManage` says whether the reader may change them.',
        response: { 200: dataEnvelope(storeAccessSettingsSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await access.settings(req.ctx) };
    },
  );

  app.put(
    '/api/v1/store-access/mode',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store-access'],
        summary: 'Set who can see the store: public, login_required, approved_only or invitation_only',
        description: `${OWNER_ONLY} Applies to every store of the tenant at once, in every process (caches are dropped). Setting the mode the store has records nothing.`,
        body: accessModeRequestSchema,
        response: { 200: dataEnvelope(accessModeStateSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await access.setMode(req.ctx, req.body.accessMode) };
    },
  );

  app.post(
    '/api/v1/store-access/requests/:userId/:decision',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store-access'],
        summary: 'Approve or decline an account waiting for approval; the person is emailed the answer',
        description: `${OWNER_ONLY} A declined account may still be approved; deciding what is already decided is 409; another store's account, staff or nobody is 404.`,
        params: accountDecisionParamsSchema,
        response: {
          200: dataEnvelope(
            z.union([accountRequestSchema, z.object({ userId: z.string(), status: z.literal('approved') })]),
          ),
          ...changeErrors,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const decided = await access.decide(req.ctx, req.params.userId, req.params.decision);
      if (!decided.ok) return sendRefusal(reply, decided);
      return { data: decided.value };
    },
  );

  app.post(
    '/api/v1/store-access/invitations',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store-access'],
        summary: 'Invite a customer by email; the mail links to a page that sets their password',
        description: `${OWNER_ONLY} An email with an approved account, or on the staff, answers 409; an earlier invitation to it stops working.`,
        body: customerInviteRequestSchema,
        response: { 201: dataEnvelope(customerInvitationSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const sent = await access.invite(req.ctx, req.body);
      if (!sent.ok) return sendRefusal(reply, sent);
      return reply.code(201).header('cache-control', 'private, no-store').send({ data: sent.value });
    },
  );

  app.delete(
    '/api/v1/store-access/invitations/:invitationId',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store-access'],
        summary: 'Revoke a customer invitation that was not accepted yet: its link stops working',
        description: `${OWNER_ONLY} Another store's, an accepted or a revoked invitation is 404.`,
        params: customerInvitationIdParamsSchema,
        response: {
          200: dataEnvelope(z.object({ invitationId: z.string(), revoked: z.literal(true) })),
          ...changeErrors,
        },
      },
    },
    async (req) => {
      await access.revokeInvitation(req.ctx, req.params.invitationId);
      return { data: { invitationId: req.params.invitationId, revoked: true as const } };
    },
  );

  app.get(
    '/api/v1/store-access/invitation',
    {
      schema: {
        tags: ['store-access'],
        summary: 'What a customer invitation link is for (email, store); 404 when it no longer works',
        querystring: customerInvitationTokenQuerySchema,
        response: {
          200: dataEnvelope(customerInvitationPreviewSchema),
          400: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const data = await access.preview(req.ctx, req.query.token);
      if (!data) throw AppError.notFound(CUSTOMER_INVITATION_INVALID_MESSAGE);
      return { data };
    },
  );

  app.post(
    '/api/v1/store-access/invitation/accept',
    {
      // Opens no session and needs none: the link's token is the proof (like a password reset).
      config: { csrf: 'origin-only' },
      schema: {
        tags: ['store-access'],
        summary: 'Accept a customer invitation: set the password of an approved customer account',
        body: customerAcceptRequestSchema,
        response: { 200: dataEnvelope(z.object({ email: z.string() })), 400: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const accepted = await access.accept(req.ctx, req.body);
      if (!accepted.ok) return sendRefusal(reply, accepted);
      return { data: accepted.value };
    },
  );

  app.get(
    '/api/v1/store-access/standing',
    {
      schema: {
        tags: ['store-access'],
        summary: "Where the request's account stands with the store: its access mode and the account's approval",
        description: 'Open to everyone, so an account waiting for approval can show where it stands.',
        response: { 200: dataEnvelope(accountStandingSchema) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await access.standing(req.ctx) };
    },
  );
}
