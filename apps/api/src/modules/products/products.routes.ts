import {
  autocompleteQuerySchema,
  autocompleteSchema,
  configPriceRequestSchema,
  configPriceSchema,
  dataEnvelope,
  downloadQuerySchema,
  errorEnvelopeSchema,
  MAX_PAGE_SIZE,
  PRICE_BANDS,
  PRODUCT_SORTS,
  priceBandLabel,
  productDetailsQuerySchema,
  productDetailsSchema,
  productListQuerySchema,
  productPageSchema,
  SEARCH_SORTS,
  SORT_LABELS,
  searchOptionsSchema,
  searchQuerySchema,
  searchResultSchema,
  subcategoryQuerySchema,
  subcategoryResultSchema,
} from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileAnswer } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { costlyErrors, tenantErrors } from '../../lib/app-types';
import { hasPermission } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { PublicReadCache } from '../../lib/public-cache';
import { sendPublic } from '../../lib/public-cache';
import type { MediaStorage } from '../media/index';
import type { ProductsService } from './products.service';

interface Deps {
  products: ProductsService;
  cache: PublicReadCache;
  storage: MediaStorage;
  /** Draws seeded files that are not stored yet (the demo spec sheets). */
  generate?: (key: string) => Promise<{ body: Buffer; contentType: string } | null>;
}

const BASE = '/skulocity/api/v1/public/ecommerce';

/**
 * Public catalog reads. Answers are the same for every shopper of a store:
 * cached per tenant, sent with Cache-Control and an ETag, 304 when unchanged.
 */
export async function productsRoutes(app: App, { products, cache, storage, generate }: Deps) {
  async function cached(
    req: FastifyRequest,
    reply: FastifyReply,
    name: string,
    compute: () => Promise<unknown>,
  ): Promise<void> {
    const ctx = req.ctx;
    // Answers carry absolute media URLs of the host that asked: the cache keeps one copy for all of
    // the store's hosts and puts the asking origin back (decision 124).
    const key = `${name}:${JSON.stringify(req.query)}`;
    const entry = await cache.get(ctx.tenantId, key, async () => ({ data: await compute() }), ctx.origin);
    await sendPublic(req, reply, entry);
  }

  app.get(
    `${BASE}/product`,
    {
      schema: {
        tags: ['catalog'],
        summary: 'Products of a category, or featured and new products for the home page',
        description: `Sorts: ${PRODUCT_SORTS.join(', ')}. Prices in minor units; priceMax is inclusive. At most ${MAX_PAGE_SIZE} per page.`,
        querystring: productListQuerySchema,
        response: { 200: dataEnvelope(productPageSchema), ...tenantErrors },
      },
    },
    (req, reply) => cached(req, reply, 'list', () => products.list(req.ctx, req.query)),
  );

  app.get(
    `${BASE}/product/subcategory`,
    {
      schema: {
        tags: ['catalog'],
        summary: 'A category with its breadcrumb and child categories (rollups)',
        querystring: subcategoryQuerySchema,
        response: { 200: dataEnvelope(subcategoryResultSchema), ...tenantErrors },
      },
    },
    (req, reply) => cached(req, reply, 'sub', () => products.subcategories(req.ctx, req.query.productCategoryId)),
  );

  app.get(
    `${BASE}/getproductdetails`,
    {
      schema: {
        tags: ['catalog'],
        summary:
          'One product: images, prices, stock, variants, features, options, downloads, related products, reviews',
        description:
          "variantId selects the variant shown (selectedVariantId); an unknown, removed or disabled variant, or another product's, selects the default one instead of failing.",
        querystring: productDetailsQuerySchema,
        examples: { query: { productId: 'LGT-1004' } },
        response: { 200: dataEnvelope(productDetailsSchema), ...tenantErrors },
      },
    },
    async (req, reply) => {
      // The owner or staff with the catalog permission preview drafts and archived products: a
      // private answer, never cached or shared. Everyone else gets the shared answer (ACTIVE only).
      if (!hasPermission(req.ctx, 'catalog'))
        return cached(req, reply, 'details', () =>
          products.details(req.ctx, req.query.productId, { variantId: req.query.variantId }),
        );
      reply.header('cache-control', 'private, no-store');
      return {
        data: await products.details(req.ctx, req.query.productId, { preview: true, variantId: req.query.variantId }),
      };
    },
  );

  app.get(
    `${BASE}/product/search`,
    {
      config: { costly: 'search' },
      schema: {
        tags: ['catalog'],
        summary: 'Ranked full-text search with facets and typo tolerance',
        description:
          'searchText takes web search syntax ("a phrase", -exclude, or). When nothing matches, a corrected ' +
          'query is searched and named in searchedFor.',
        querystring: searchQuerySchema,
        examples: { query: { searchText: '"brass pendant" -glass', pageSize: 24 } },
        response: { 200: dataEnvelope(searchResultSchema), ...tenantErrors, ...costlyErrors },
      },
    },
    (req, reply) => cached(req, reply, 'search', () => products.search(req.ctx, req.query)),
  );

  app.get(
    `${BASE}/product/autocomplete`,
    {
      config: { costly: 'search' },
      schema: {
        tags: ['catalog'],
        summary: 'Products and categories as the shopper types (header search box)',
        querystring: autocompleteQuerySchema,
        response: { 200: dataEnvelope(autocompleteSchema), ...tenantErrors, ...costlyErrors },
      },
    },
    (req, reply) => cached(req, reply, 'ac', () => products.autocomplete(req.ctx, req.query.q)),
  );

  app.get(
    `${BASE}/product/advanced/searchoptions`,
    {
      schema: {
        tags: ['catalog'],
        summary: 'The sorts, facets, price bands and brands this store offers',
        response: { 200: dataEnvelope(searchOptionsSchema), ...tenantErrors },
      },
    },
    (req, reply) =>
      cached(req, reply, 'options', async () => ({
        sorts: SEARCH_SORTS.map((value) => ({ value, label: SORT_LABELS[value] })),
        facets: ['category', 'brand', 'price', 'inStock'] as const,
        priceBands: PRICE_BANDS.map(([min, max]) => ({ min, max, label: priceBandLabel(min, max) })),
        brands: await products.brands(req.ctx),
        pageSizes: [12, 24, 48],
      })),
  );

  app.post(
    '/skulocity/api/v1/crmsfa/orders/getConfigDetailsEvent',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Prices a configuration of a configurable product',
        body: configPriceRequestSchema,
        response: { 200: dataEnvelope(configPriceSchema), ...tenantErrors },
      },
    },
    async (req) => ({ data: await products.configPrice(req.ctx, req.body) }),
  );

  app.get(
    '/skulocity/api/v1/catalog/product/items/downloadProdContent',
    {
      schema: {
        tags: ['catalog'],
        summary: "Downloads a product's content (a spec sheet)",
        querystring: downloadQuerySchema,
        response: {
          200: fileAnswer('The file as uploaded, with its own content type (attachment)', ['*/*'], { binary: true }),
          400: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const row = await products.content(req.ctx, req.query.productId, req.query.contentId);
      let file = await storage.get(row.mediaKey);
      if (!file && generate) {
        file = await generate(row.mediaKey);
        if (file) await storage.put(row.mediaKey, file);
      }
      if (!file) throw AppError.notFound(`The file of ${row.title} is missing; the store has been told.`);
      return reply
        .header('Content-Type', row.contentType)
        .header('Content-Disposition', `attachment; filename="${row.fileName.replace(/[^\w.-]/g, '_')}"`)
        .header('Cache-Control', 'public, max-age=3600')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .send(file.body);
    },
  );
}
