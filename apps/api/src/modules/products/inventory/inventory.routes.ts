import {
  dataEnvelope,
  inventoryListQuerySchema,
  inventoryPageSchema,
  lowStockSettingSchema,
  productIdParamsSchema,
  stockAdjustResultSchema,
  stockAdjustSchema,
  stockHistoryQuerySchema,
  stockHistorySchema,
} from '@app/contracts';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import { sendRefusal } from '../../../plugins/errors';
import type { InventoryService } from './inventory.service';

const noStore = { 'cache-control': 'private, no-store' };

/**
 * The owner's inventory (the existing clients call no paths for it, so they sit beside the
 * other owner routes under /api/v1). Each needs the catalog permission.
 */
export async function inventoryRoutes(app: App, { inventory }: { inventory: InventoryService }) {
  app.get(
    '/api/v1/inventory/products',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'Stock per variant, fewest first (sort=stock-desc: most); search, filter in/low/out',
        description:
          'A row per live variant (a product with one variant has one row, its variantId the product id); q matches ' +
          "the product's name, a variant's title or the start of a variant's SKU. low counts enabled variants only.",
        querystring: inventoryListQuerySchema,
        response: { 200: dataEnvelope(inventoryPageSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await inventory.list(req.ctx, req.query) };
    },
  );

  app.get(
    '/api/v1/inventory/products/:productId/movements',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: "A product's stock and its history (who, when, before, after, why, which variant), newest first",
        description:
          "variantId: that variant's count and movements only (404 when it is not one of the product's live variants).",
        params: productIdParamsSchema,
        querystring: stockHistoryQuerySchema,
        response: { 200: dataEnvelope(stockHistorySchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await inventory.history(req.ctx, req.params.productId, req.query) };
    },
  );

  app.post(
    '/api/v1/inventory/products/:productId/adjust',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'Adjust stock by a delta or to a count, with a reason and a note',
        description:
          "Adjusts one variant: variantId names one of the product's live variants (404 otherwise); without it the " +
          "product's only variant. A product with several variants and no variantId is refused with 422 " +
          'VARIANT_REQUIRED naming the product; 422 (naming delta or set) when the stock would go below zero.',
        params: productIdParamsSchema,
        body: stockAdjustSchema,
        response: { 200: dataEnvelope(stockAdjustResultSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const adjusted = await inventory.adjust(req.ctx, req.params.productId, req.body);
      if (!adjusted.ok) return sendRefusal(reply, adjusted);
      return { data: adjusted.value };
    },
  );

  app.get(
    '/api/v1/inventory/settings',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: "The store's low-stock threshold",
        response: { 200: dataEnvelope(lowStockSettingSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await inventory.threshold(req.ctx) };
    },
  );

  app.put(
    '/api/v1/inventory/settings',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'Set the store\'s low-stock threshold (0 to 100000; 0 turns "low" off)',
        body: lowStockSettingSchema,
        response: { 200: dataEnvelope(lowStockSettingSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await inventory.setThreshold(req.ctx, req.body.lowStockThreshold) };
    },
  );
}
