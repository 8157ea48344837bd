import {
  accessSettingsSchema,
  dataEnvelope,
  errorEnvelopeSchema,
  INVITATION_INVALID_MESSAGE,
  staffAcceptRequestSchema,
  staffInvitationIdParamsSchema,
  staffInvitationPreviewSchema,
  staffInvitationSchema,
  staffInvitationTokenQuerySchema,
  staffInviteRequestSchema,
  staffMemberSchema,
  staffUpdateRequestSchema,
  staffUserIdParamsSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import { sendRefusal } from '../../plugins/errors';
import type { StaffService } from './staff.service';

const OWNER_ONLY =
  'The store owner only: a visitor gets 401, a shopper and staff (even with the settings permission) 403.';

/** The store's staff and their invitations (decision 027), in the style of the clients' paths. */
export async function staffRoutes(app: App, { staff }: { staff: StaffService }) {
  app.get(
    '/api/v1/staff/fetch',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['staff'],
        summary: "The access settings: the store's visibility, its staff and the invitations waiting",
        description:
          'The owner and staff with the settings permission; `canManage` says whether the reader may change them.',
        response: { 200: dataEnvelope(accessSettingsSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await staff.settings(req.ctx) };
    },
  );

  app.post(
    '/api/v1/staff/invite',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['staff'],
        summary: 'Invite a staff member by email, with permissions; the mail links to a set-password page',
        description: `${OWNER_ONLY} An email already on the staff answers 409; an earlier invitation to it stops working.`,
        body: staffInviteRequestSchema,
        response: { 201: dataEnvelope(staffInvitationSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const sent = await staff.invite(req.ctx, req.body);
      if (!sent.ok) return sendRefusal(reply, sent);
      return reply.code(201).header('cache-control', 'private, no-store').send({ data: sent.value });
    },
  );

  app.put(
    '/api/v1/staff/update/:userId',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['staff'],
        summary: "Change a staff member's permissions",
        description: `${OWNER_ONLY} The owner's own access cannot be changed (422); another store's user is 404.`,
        params: staffUserIdParamsSchema,
        body: staffUpdateRequestSchema,
        response: { 200: dataEnvelope(staffMemberSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const member = await staff.updatePermissions(req.ctx, req.params.userId, req.body.permissions);
      if (!member.ok) return sendRefusal(reply, member);
      return { data: member.value };
    },
  );

  app.delete(
    '/api/v1/staff/remove/:userId',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['staff'],
        summary: "Remove a staff member: their access and sessions end at once (the account stays a customer's)",
        description: `${OWNER_ONLY} The owner cannot be removed (422); another store's user is 404.`,
        params: staffUserIdParamsSchema,
        response: { 200: dataEnvelope(z.object({ userId: z.string(), removed: z.literal(true) })), ...changeErrors },
      },
    },
    async (req, reply) => {
      const removed = await staff.remove(req.ctx, req.params.userId);
      if (!removed.ok) return sendRefusal(reply, removed);
      return { data: { userId: req.params.userId, removed: true as const } };
    },
  );

  app.delete(
    '/api/v1/staff/invitation/:invitationId',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['staff'],
        summary: 'Revoke an invitation that was not accepted yet: its link stops working',
        description: `${OWNER_ONLY} Another store's, an accepted or a revoked invitation is 404.`,
        params: staffInvitationIdParamsSchema,
        response: {
          200: dataEnvelope(z.object({ invitationId: z.string(), revoked: z.literal(true) })),
          ...changeErrors,
        },
      },
    },
    async (req) => {
      await staff.revokeInvitation(req.ctx, req.params.invitationId);
      return { data: { invitationId: req.params.invitationId, revoked: true as const } };
    },
  );

  app.get(
    '/api/v1/staff/invitation',
    {
      schema: {
        tags: ['staff'],
        summary: 'What an invitation link is for (email, store, permissions); 404 when it no longer works',
        querystring: staffInvitationTokenQuerySchema,
        response: {
          200: dataEnvelope(staffInvitationPreviewSchema),
          400: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const data = await staff.preview(req.ctx, req.query.token);
      if (!data) throw AppError.notFound(INVITATION_INVALID_MESSAGE);
      return { data };
    },
  );

  app.post(
    '/api/v1/staff/invitation/accept',
    {
      // Opens no session and needs none: the link's token is the proof (like a password reset).
      config: { csrf: 'origin-only' },
      schema: {
        tags: ['staff'],
        summary: "Accept an invitation: set the password; the account becomes staff with the invitation's permissions",
        body: staffAcceptRequestSchema,
        response: { 200: dataEnvelope(z.object({ email: z.string() })), 400: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const accepted = await staff.accept(req.ctx, req.body);
      if (!accepted.ok) return sendRefusal(reply, accepted);
      return { data: accepted.value };
    },
  );
}
