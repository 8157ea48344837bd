import {
  dataEnvelope,
  draftPathSchema,
  draftPublishedSchema,
  draftPublishInputSchema,
  draftRestorePathSchema,
  draftStatusSchema,
  errorEnvelopeSchema,
  previewSwitchSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors, tenantErrors } from '../../lib/app-types';
import { previewCookie } from '../../lib/preview';
import { sendRefusal } from '../../plugins/errors';
import { draftStatus } from './draft-status';
import type { DraftsService } from './drafts.service';

/**
 * The draft routes every kind shares (decision 032): status with history, publish, discard,
 * restore, and the owner's preview switch. Saving a draft is the kind's own route (the store
 * detail update, the CMS update, ...), because only the kind knows its payload.
 */
export async function draftsRoutes(app: App, { drafts }: { drafts: DraftsService }) {
  const ownerErrors = { ...tenantErrors, 401: errorEnvelopeSchema };

  app.get(
    '/api/v1/drafts/:kind/:key',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Whether a thing has unpublished changes, and its published versions',
        params: draftPathSchema,
        response: { 200: dataEnvelope(draftStatusSchema), ...ownerErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await draftStatus(drafts, req.ctx, req.params.kind, req.params.key) };
    },
  );

  app.post(
    '/api/v1/drafts/:kind/:key/publish',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Publish the draft: shoppers see it at once, and it is kept as a new version',
        description:
          'With `seen` (the draft.updatedAt the status answered), a draft saved again since is refused with 409 ' +
          'rather than published unseen.',
        params: draftPathSchema,
        body: draftPublishInputSchema,
        response: { 200: dataEnvelope(draftPublishedSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const published = await drafts.publish(req.ctx, drafts.kind(req.params.kind), req.params.key, {
        seen: req.body?.seen,
      });
      if (!published.ok) return sendRefusal(reply, published);
      return { data: published.value };
    },
  );

  app.delete(
    '/api/v1/drafts/:kind/:key',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Discard the unpublished changes',
        params: draftPathSchema,
        response: { 204: z.null(), ...changeErrors },
      },
    },
    async (req, reply) => {
      await drafts.discard(req.ctx, drafts.kind(req.params.kind), req.params.key);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/drafts/:kind/:key/versions/:version/restore',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Bring a published version back as the draft (publish it to make it live again)',
        params: draftRestorePathSchema,
        response: { 200: dataEnvelope(draftStatusSchema), ...changeErrors },
      },
    },
    async (req) => {
      const { kind, key, version } = req.params;
      await drafts.restore(req.ctx, drafts.kind(kind), key, version);
      return { data: await draftStatus(drafts, req.ctx, kind, key) };
    },
  );

  app.post(
    '/api/v1/store/preview',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: "Turn the owner's storefront preview of drafts on or off (a cookie for this browser)",
        body: previewSwitchSchema,
        response: { 200: dataEnvelope(previewSwitchSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('set-cookie', previewCookie(req.body.on, req.protocol === 'https'));
      return { data: { on: req.body.on } };
    },
  );
}
