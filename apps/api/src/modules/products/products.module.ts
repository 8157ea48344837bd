import { defineModule } from '../../lib/module';
import { catalogPages } from './products.pages';
import { productsRoutes } from './products.routes';
import { createProductsService, type ProductsService } from './products.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** The catalog reads and their search index (tests and benches read its counters). */
    products: { products: ProductsService };
  }
}

export const productsModule = defineModule({
  name: 'products',
  needs: ['inventory'],
  uses: ['media'],
  create: ({ db, config, memory }, { thresholds }) => ({
    products: createProductsService(db, {
      memory,
      lowStockThreshold: thresholds.get,
      productPagesInMemory: config.PRODUCT_PAGES_IN_MEMORY ?? 5_000,
      searchIndex: {
        budgetBytes: (config.SEARCH_INDEX_MEMORY_MB ?? 512) * 2 ** 20,
        ttlMs: (config.SEARCH_INDEX_TTL_SECONDS ?? 60) * 1000,
      },
    }),
  }),
  routes: (app, { products, storage }, { publicCache, options }) =>
    app.register(productsRoutes, { products, cache: publicCache, storage, generate: options.generateMedia }),
  pages: ({ products }) => [catalogPages({ products })],
  // Writers emit; the search index and product pages follow, in this process and the others (decision 018).
  events: ({ products }) => ({
    'catalog.changed': ({ tenantId, productIds, categoryIds }) =>
      products.catalogChanged(tenantId, { productIds, categoryIds }),
    'stock.changed': ({ tenantId, productIds }) => products.stockChanged(tenantId, productIds),
    'review.created': ({ tenantId, productId }) => products.reviewsChanged(tenantId, productId),
    'review.changed': ({ tenantId, productId }) => products.reviewsChanged(tenantId, productId),
    'events.missed': () => products.allChanged(),
  }),
});
