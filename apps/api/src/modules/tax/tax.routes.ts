import {
  dataEnvelope,
  productTaxClassInputSchema,
  productTaxClassParamsSchema,
  taxDraftInputSchema,
  taxDraftViewSchema,
  taxOverviewSchema,
  taxRateIdParamsSchema,
  taxRateInputSchema,
  taxRateSchema,
  taxSettingsInputSchema,
  taxSettingsSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import { sendRefusal } from '../../plugins/errors';
import type { TaxService } from './tax.service';

const WHO = 'The owner and staff with the settings permission; a visitor gets 401, other staff 403.';
const REACHES =
  'Checkout prices with the change at once, in every process (`settings.changed`); placed orders keep their totals.';

/** A rate as GET answers it can be PUT back: its id and place name are read-only and ignored. */
const rateChangeSchema = taxRateInputSchema.extend({
  countryGeoId: taxRateInputSchema.shape.countryGeoId.optional(),
  regionGeoId: z.string().trim().max(20).optional(),
  rateId: z.string().max(40).optional(),
  placeName: z.string().max(200).optional(),
});

/** The store's tax settings and rates (decision 116). */
export async function taxRoutes(app: App, { tax }: { tax: TaxService }) {
  app.get(
    '/api/v1/tax',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: "The store's tax settings and every tax rate",
        description: WHO,
        response: { 200: dataEnvelope(taxOverviewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await tax.overview(req.ctx) };
    },
  );

  app.get(
    '/api/v1/tax/settings',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: 'Whether prices are entered with tax, and the tax number printed on invoices',
        description: `${WHO} The answer can be sent back to PUT as it is.`,
        response: { 200: dataEnvelope(taxSettingsSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await tax.settings(req.ctx) };
    },
  );

  app.put(
    '/api/v1/tax/settings',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: 'Set whether prices are entered with tax, and the tax number printed on invoices',
        description: `${WHO} ${REACHES}`,
        body: taxSettingsInputSchema,
        response: { 200: dataEnvelope(taxSettingsSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await tax.saveSettings(req.ctx, req.body) };
    },
  );

  app.get(
    '/api/v1/tax/rates',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: 'The tax rates by country and region',
        description: `${WHO} A region's rate wins over its country's; a destination without either pays no tax.`,
        response: { 200: dataEnvelope(z.array(taxRateSchema)), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await tax.rates(req.ctx) };
    },
  );

  app.post(
    '/api/v1/tax/rates',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: 'Add the tax rate of a country or one of its regions',
        description: `${WHO} Rates in basis points (725 is 7.25 %), 0 to 10000. A place that has a rate already is 409. ${REACHES}`,
        body: taxRateInputSchema,
        response: { 201: dataEnvelope(taxRateSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const added = await tax.addRate(req.ctx, req.body);
      if (!added.ok) return sendRefusal(reply, added);
      return reply.code(201).header('cache-control', 'private, no-store').send({ data: added.value });
    },
  );

  app.put(
    '/api/v1/tax/rates/:rateId',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: 'Change a tax rate (its place stays)',
        description: `${WHO} \`rateId\` is the country (CAN) or the country and region (USA.US_CA). A rate from GET can be sent back as it is. Another store's or an unknown rate is 404. ${REACHES}`,
        params: taxRateIdParamsSchema,
        body: rateChangeSchema,
        response: { 200: dataEnvelope(taxRateSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const { rateId: _id, placeName: _name, ...input } = req.body;
      const changed = await tax.changeRate(req.ctx, req.params.rateId, input);
      if (!changed.ok) return sendRefusal(reply, changed);
      reply.header('cache-control', 'private, no-store');
      return { data: changed.value };
    },
  );

  app.delete(
    '/api/v1/tax/rates/:rateId',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: 'Remove a tax rate: its destination pays its country rate, or no tax',
        description: `${WHO} Another store's or an unknown rate is 404. ${REACHES}`,
        params: taxRateIdParamsSchema,
        response: { 200: dataEnvelope(z.object({ rateId: z.string() })), ...changeErrors },
      },
    },
    async (req, reply) => {
      const gone = await tax.removeRate(req.ctx, req.params.rateId);
      if (!gone.ok) return sendRefusal(reply, gone);
      reply.header('cache-control', 'private, no-store');
      return { data: gone.value };
    },
  );

  app.get(
    '/api/v1/tax/draft',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: "The unpublished tax draft's settings and rates (404 while there is none)",
        description:
          `${WHO} Checkout charges by the live settings and rates until the draft is published with ` +
          'POST /api/v1/drafts/tax/store/publish (DELETE /api/v1/drafts/tax/store discards it).',
        response: { 200: dataEnvelope(taxDraftViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const draft = await tax.draft(req.ctx);
      if (!draft) throw AppError.notFound('There is no unpublished tax draft.');
      return { data: draft };
    },
  );

  app.put(
    '/api/v1/tax/draft',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tax'],
        summary: 'Save the settings and every rate as a draft that checkout does not use until it is published',
        description:
          `${WHO} The settings and rates as GET /api/v1/tax (or GET draft) answers them, changed: a rate not sent is ` +
          'removed from the draft. Places are checked as the add route checks them (400), a place twice is 409. ' +
          'A publish after a direct change to the live settings or rates is refused (409).',
        body: taxDraftInputSchema,
        response: { 200: dataEnvelope(taxDraftViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const saved = await tax.saveDraft(req.ctx, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      const draft = await tax.draft(req.ctx);
      if (!draft) throw AppError.conflict('The draft was published or discarded meanwhile.');
      return { data: draft };
    },
  );

  app.put(
    '/api/v1/tax/products/:productId',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['tax'],
        summary: "Set a product's tax class: standard, reduced or exempt",
        description:
          "The owner and staff with the catalog permission; a visitor gets 401, other staff 403. Another store's or an unknown product is 404. Checkout taxes the product by it from the next quote; audited on the product.",
        params: productTaxClassParamsSchema,
        body: productTaxClassInputSchema,
        response: { 200: dataEnvelope(productTaxClassInputSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      await tax.setProductClass(req.ctx, req.params.productId, req.body.taxClass);
      reply.header('cache-control', 'private, no-store');
      return { data: { taxClass: req.body.taxClass } };
    },
  );
}
