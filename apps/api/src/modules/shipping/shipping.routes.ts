import {
  dataEnvelope,
  shippingDraftInputSchema,
  shippingDraftViewSchema,
  shippingMethodInputSchema,
  shippingMethodParamsSchema,
  shippingMethodViewSchema,
  shippingPreviewInputSchema,
  shippingPreviewSchema,
  shippingSettingsSchema,
  shippingZoneInputSchema,
  shippingZoneParamsSchema,
  shippingZoneViewSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import { sendRefusal } from '../../plugins/errors';
import type { ShippingService } from './shipping.service';

const noStore = { 'cache-control': 'private, no-store' };
const P = '/api/v1/shipping';
const config = { permission: 'settings' } as const;

/**
 * The owner's shipping zones and methods (the settings permission, as the store's other settings).
 * Every write takes effect at checkout at once, in every process.
 */
export async function shippingRoutes(app: App, { shipping }: { shipping: ShippingService }) {
  // Another store's zone is a 404 before its body is judged.
  const zoneFirst = async (req: { ctx: Parameters<ShippingService['getZone']>[0]; params: unknown }) => {
    await shipping.getZone(req.ctx, (req.params as { zoneId: string }).zoneId);
  };

  app.get(
    `${P}/zones`,
    {
      config,
      schema: {
        tags: ['shipping'],
        summary: "The store's shipping zones, each with its methods",
        response: { 200: dataEnvelope(shippingSettingsSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await shipping.list(req.ctx) };
    },
  );

  app.post(
    `${P}/zones`,
    {
      config,
      schema: {
        tags: ['shipping'],
        summary: 'Add a shipping zone (with its methods, when given)',
        description:
          'countries are geo ids (USA, CAN); states (US_CA) narrow the zone to those states of their country; ' +
          'restOfWorld: every country no other zone names (one such zone a store). At most 50 zones, 20 methods a ' +
          'zone, 20 bands a method, bands ascending by upTo; amounts in minor units. 422 names the field refused.',
        body: shippingZoneInputSchema,
        response: { 201: dataEnvelope(shippingZoneViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const created = await shipping.createZone(req.ctx, req.body);
      if (!created.ok) return sendRefusal(reply.headers(noStore), created);
      reply.headers(noStore).code(201);
      return { data: created.value };
    },
  );

  app.get(
    `${P}/zones/:zoneId`,
    {
      config,
      schema: {
        tags: ['shipping'],
        summary: 'One shipping zone with its methods',
        params: shippingZoneParamsSchema,
        response: { 200: dataEnvelope(shippingZoneViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await shipping.getZone(req.ctx, req.params.zoneId) };
    },
  );

  app.put(
    `${P}/zones/:zoneId`,
    {
      config,
      preValidation: zoneFirst,
      schema: {
        tags: ['shipping'],
        summary: "Replace a zone's name and places, and with `methods` its methods",
        description:
          'What the zone GET answers can be sent back as it is. With `methods`, the zone keeps exactly those: ' +
          'a methodId it has is updated, a method without one is added, the others are deleted. Without ' +
          '`methods` its methods stay as they are.',
        params: shippingZoneParamsSchema,
        body: shippingZoneInputSchema,
        response: { 200: dataEnvelope(shippingZoneViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const updated = await shipping.updateZone(req.ctx, req.params.zoneId, req.body);
      if (!updated.ok) return sendRefusal(reply, updated);
      return { data: updated.value };
    },
  );

  app.delete(
    `${P}/zones/:zoneId`,
    {
      config,
      schema: {
        tags: ['shipping'],
        summary: 'Delete a zone and its methods (orders keep the method and price they were placed with)',
        params: shippingZoneParamsSchema,
        response: {
          200: dataEnvelope(z.object({ zoneId: z.string(), deleted: z.literal(true) })),
          ...changeErrors,
        },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await shipping.deleteZone(req.ctx, req.params.zoneId) };
    },
  );

  app.post(
    `${P}/zones/:zoneId/methods`,
    {
      config,
      preValidation: zoneFirst,
      schema: {
        tags: ['shipping'],
        summary: 'Add a method to a zone',
        description:
          'kind flat: flatRate; weight: bands by grams; subtotal: bands by the discounted subtotal; pickup: free, ' +
          'the description says where. freeAbove: free from this discounted subtotal on.',
        params: shippingZoneParamsSchema,
        body: shippingMethodInputSchema,
        response: { 201: dataEnvelope(shippingMethodViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const created = await shipping.createMethod(req.ctx, req.params.zoneId, req.body);
      if (!created.ok) return sendRefusal(reply.headers(noStore), created);
      reply.headers(noStore).code(201);
      return { data: created.value };
    },
  );

  app.put(
    `${P}/zones/:zoneId/methods/:methodId`,
    {
      config,
      preValidation: zoneFirst,
      schema: {
        tags: ['shipping'],
        summary: 'Replace a method (its read, with methodId and zoneId as read, can be sent back)',
        params: shippingMethodParamsSchema,
        body: shippingMethodInputSchema,
        response: { 200: dataEnvelope(shippingMethodViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const updated = await shipping.updateMethod(req.ctx, req.params.zoneId, req.params.methodId, req.body);
      if (!updated.ok) return sendRefusal(reply, updated);
      return { data: updated.value };
    },
  );

  app.delete(
    `${P}/zones/:zoneId/methods/:methodId`,
    {
      config,
      schema: {
        tags: ['shipping'],
        summary: 'Delete a method',
        params: shippingMethodParamsSchema,
        response: {
          200: dataEnvelope(z.object({ methodId: z.string(), deleted: z.literal(true) })),
          ...changeErrors,
        },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await shipping.deleteMethod(req.ctx, req.params.zoneId, req.params.methodId) };
    },
  );

  app.get(
    `${P}/draft`,
    {
      config,
      schema: {
        tags: ['shipping'],
        summary: "The unpublished shipping draft's zones (404 while there is none)",
        description:
          'Shoppers pay by the live zones until the draft is published with POST /api/v1/drafts/shipping/store/publish ' +
          '(DELETE /api/v1/drafts/shipping/store discards it).',
        response: { 200: dataEnvelope(shippingDraftViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const draft = await shipping.draft(req.ctx);
      if (!draft) throw AppError.notFound('There is no unpublished shipping draft.');
      return { data: draft };
    },
  );

  app.put(
    `${P}/draft`,
    {
      config,
      schema: {
        tags: ['shipping'],
        summary: 'Save every zone and method as a draft that shoppers do not see until it is published',
        description:
          'The zones as GET zones (or GET draft) answers them, changed: a zoneId or methodId the draft has keeps ' +
          'it, one left out is new, a zone or method not sent is deleted from the draft. The same rules as the ' +
          'direct writes (422 names the field); a publish after a direct change to the live zones is refused (409).',
        body: shippingDraftInputSchema,
        response: { 200: dataEnvelope(shippingDraftViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const saved = await shipping.saveDraft(req.ctx, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      const draft = await shipping.draft(req.ctx);
      if (!draft) throw AppError.conflict('The draft was published or discarded meanwhile.');
      return { data: draft };
    },
  );

  app.post(
    `${P}/preview`,
    {
      config,
      schema: {
        tags: ['shipping'],
        summary: 'What a shopper would pay: the rates for a discounted subtotal, a weight and an address',
        body: shippingPreviewInputSchema,
        response: { 200: dataEnvelope(shippingPreviewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await shipping.preview(req.ctx, req.body) };
    },
  );
}
