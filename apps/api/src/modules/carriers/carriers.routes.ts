import {
  carrierAccountSchema,
  carrierConnectSchema,
  carrierParamsSchema,
  carrierSettingsSchema,
  dataEnvelope,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { CarriersService } from './carriers.service';

const BASE = '/api/v1/admin/carriers';
const tags = ['carriers'];
const noStore = { 'cache-control': 'private, no-store' };
const one = { 200: dataEnvelope(carrierAccountSchema), ...changeErrors };

/**
 * A store's UPS and FedEx accounts (decision 117), on the settings permission. The client secret is
 * write-only: no answer carries it, and the account number shows by its last four characters.
 */
export async function carrierRoutes(app: App, { carriers }: { carriers: CarriersService }) {
  app.get(
    BASE,
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: "The store's carrier accounts (UPS, FedEx): connected or not, services offered, markup, box",
        response: { 200: dataEnvelope(z.array(carrierAccountSchema)), ...changeErrors },
      },
    },
    async (_req, reply) => {
      reply.headers(noStore);
      return { data: await carriers.list(_req.ctx) };
    },
  );

  app.post(
    `${BASE}/:carrier/connect`,
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: 'Connects a carrier account, or replaces its credentials',
        description:
          'The carrier is asked for an OAuth token with the client id and secret before anything is saved: 422 ' +
          'naming clientSecret when it refuses them, 409 UNAVAILABLE (Retry-After) when it cannot be reached. A new account offers the ' +
          "carrier's ground service until services are picked. The secret is never answered.",
        params: carrierParamsSchema,
        body: carrierConnectSchema,
        response: one,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const saved = await carriers.connect(req.ctx, req.params.carrier, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: `${saved.value.name} connected.` };
    },
  );

  app.patch(
    `${BASE}/:carrier`,
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: 'Changes the services offered, the markup and the box of a connected carrier',
        description:
          'A patch. services: the carrier\'s service codes (UPS "03", FedEx "FEDEX_GROUND"); markupKind none, ' +
          'percent (markupValue whole percent, at most 200) or fixed (markupValue in minor units); box in whole ' +
          'inches. 404 when the carrier is not connected.',
        params: carrierParamsSchema,
        body: carrierSettingsSchema,
        response: one,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const saved = await carriers.update(req.ctx, req.params.carrier, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: `${saved.value.name} settings saved.` };
    },
  );

  app.delete(
    `${BASE}/:carrier`,
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: 'Disconnects a carrier account (its credentials are deleted; checkout stops listing its rates)',
        params: carrierParamsSchema,
        response: one,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const gone = await carriers.disconnect(req.ctx, req.params.carrier);
      if (!gone.ok) return sendRefusal(reply, gone);
      return { data: gone.value, message: `${gone.value.name} disconnected.` };
    },
  );
}
