import {
  dataEnvelope,
  errorEnvelopeSchema,
  paypalConfigQuerySchema,
  paypalConfigSchema,
  paypalConfigUpdateSchema,
} from '@app/contracts';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import { sendRefusal } from '../../../plugins/errors';
import type { PaypalConfigService } from './paypal-config.service';

const BASE = '/skulocity/api/v1/admin';
const tags = ['payments'];
const noStore = { 'cache-control': 'private, no-store' };
const read = { 200: dataEnvelope(paypalConfigSchema), ...changeErrors };

/**
 * The store's PayPal settings, PP_CONFIG ("GET and POST /admin/getPaypalConfig
 * (param configId) and /admin/updatePaypalConfig"; decision 051). The payments permission. The
 * store is the host's: a tenantId header naming another store is refused by tenancy before this.
 */
export async function paypalConfigRoutes(app: App, { paypalConfig }: { paypalConfig: PaypalConfigService }) {
  const description =
    "enabled: PayPal at checkout on or off. mode: own_app (the store's own PayPal app), partner (its seller " +
    'account connected through the platform) or none. merchantId: read-only, once PayPal confirmed the seller. ' +
    'ownApp.clientSecret is always a mask: the secret is write-only.';

  app.get(
    `${BASE}/getPaypalConfig`,
    {
      config: { permission: 'payments' },
      schema: {
        tags,
        summary: "The store's PayPal settings (configId PP_CONFIG)",
        description,
        querystring: paypalConfigQuerySchema,
        response: read,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await paypalConfig.get(req.ctx) };
    },
  );

  // The same read as a POST with {configId} in the body, as the product's rules names both methods.
  app.post(
    `${BASE}/getPaypalConfig`,
    {
      config: { permission: 'payments' },
      schema: {
        tags,
        summary: "The store's PayPal settings (configId PP_CONFIG in the body)",
        description,
        body: paypalConfigQuerySchema,
        response: read,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await paypalConfig.get(req.ctx) };
    },
  );

  app.post(
    `${BASE}/updatePaypalConfig`,
    {
      config: { permission: 'payments' },
      // What the read answers can be written back (its read-only fields as read, the secret's mask).
      preValidation: async (req) => {
        req.body = (await paypalConfig.writeBackBody(req.ctx, req.body)) as typeof req.body;
      },
      schema: {
        tags,
        summary: "Changes the store's PayPal settings",
        description:
          'A patch: only the fields given change; a write that changes nothing writes nothing (no audit entry). ' +
          'The read may be sent back: mode, merchantId and updatedAt are read-only (taken as read, else 400 naming ' +
          'the field); ownApp as read (clientSecretSet, the masked clientSecret) keeps the stored secret. ownApp: null removes the own app; ownApp without clientSecret keeps the ' +
          'stored secret. A new or changed own app is checked with PayPal (an access token) before it is saved: ' +
          '422 naming ownApp.clientSecret when PayPal refuses it, 502 when PayPal cannot be reached; nothing is ' +
          'saved either way.',
        body: paypalConfigUpdateSchema,
        response: { ...read, 502: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const saved = await paypalConfig.update(req.ctx, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: 'PayPal settings saved.' };
    },
  );
}
