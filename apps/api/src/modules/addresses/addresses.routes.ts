import {
  addressInputSchema,
  addressSchema,
  addressUpdateSchema,
  contactMechQuerySchema,
  dataEnvelope,
  errorEnvelopeSchema,
} from '@app/contracts';
import { z } from 'zod';
import { requireSignedIn } from '../../lib/access';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { AddressesService } from './addresses.service';

const BASE = '/skulocity/api/v1';
const errors = { ...tenantErrors, 401: errorEnvelopeSchema } as const;

/** The signed-in shopper's postal addresses; paths (and their spelling) as the existing clients call them. */
export async function addressesRoutes(app: App, { addresses }: { addresses: AddressesService }) {
  const path = `${BASE}/parties/contect/postaladdress`;

  app.get(
    path,
    {
      config: { signedIn: true },
      schema: {
        tags: ['account'],
        summary: "The signed-in shopper's addresses, default shipping first",
        response: { 200: dataEnvelope(z.array(addressSchema)), ...errors },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      reply.header('cache-control', 'private, no-store');
      return { data: await addresses.list(req.ctx, user.userId) };
    },
  );

  app.post(
    path,
    {
      config: { signedIn: true },
      schema: {
        tags: ['account'],
        summary: 'Adds an address',
        description:
          'Country and region from GET /public/ecommerce/countries; a region is required where the country has ' +
          'them. The postal code must have the country’s form. The first address is the default for shipping and ' +
          'billing. At most 20 addresses (409).',
        body: addressInputSchema,
        response: { 200: dataEnvelope(addressSchema), ...errors, 409: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const added = await addresses.create(req.ctx, user.userId, req.body);
      if (!added.ok) return sendRefusal(reply, added);
      return { data: added.value, message: 'Address added.' };
    },
  );

  app.put(
    path,
    {
      config: { signedIn: true },
      schema: {
        tags: ['account'],
        summary: 'Updates an address',
        body: addressUpdateSchema,
        response: { 200: dataEnvelope(addressSchema), ...errors },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const { contactMechId, ...input } = req.body;
      const saved = await addresses.update(req.ctx, user.userId, contactMechId, input);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: 'Address saved.' };
    },
  );

  app.delete(
    `${BASE}/parties/contect/mechs`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['account'],
        summary: 'Removes an address (a contact mechanism) of the signed-in shopper',
        querystring: contactMechQuerySchema,
        response: { 200: dataEnvelope(z.object({ removed: z.literal(true) })), ...errors },
      },
    },
    async (req) => {
      const user = requireSignedIn(req.ctx);
      await addresses.remove(req.ctx, user.userId, req.query.contactMechId);
      return { data: { removed: true as const }, message: 'Address removed.' };
    },
  );
}
