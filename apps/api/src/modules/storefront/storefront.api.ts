import type { ShellData, StorefrontApi } from '@app/contracts';
import type { TenantContext } from '../../lib/context';
import type { PublicReadCache } from '../../lib/public-cache';
import type { CatalogService } from '../catalog/index';
import type { StoreService } from '../store/index';
import type { TenantService } from '../tenant/index';

export interface StorefrontDeps {
  tenants: TenantService;
  store: StoreService;
  catalog: CatalogService;
  cache: PublicReadCache;
  chatWidgetUrl: string;
  platformName: string;
}

/**
 * The in-process API that page loaders call, bound to one request's tenant. Shell data is shared
 * through the same per-tenant cache as the public JSON reads, so a page costs no queries when warm.
 */
export function storefrontApi(ctx: TenantContext | null, deps: StorefrontDeps): StorefrontApi {
  let shell: Promise<ShellData | null> | undefined;
  const cached = async <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    if (!ctx) throw new Error('no tenant');
    const entry = await deps.cache.get(ctx.tenantId, `page:${key}:${ctx.origin}`, compute);
    return JSON.parse(entry.json) as T;
  };
  return {
    shell() {
      shell ??= (async () => {
        if (!ctx) return null;
        return cached('shell', async (): Promise<ShellData> => {
          const id = ctx.productStoreId;
          const [store, main, pages, seo, lookup] = await Promise.all([
            deps.store.details(ctx, id),
            deps.catalog.mainData(ctx, id),
            deps.store.cmsPages(ctx, id, {}),
            deps.store.seoMeta(ctx),
            deps.tenants.lookupByHostName(ctx.hostName),
          ]);
          return {
            tenant: {
              tenantId: ctx.tenantId,
              productStoreId: id,
              hostName: ctx.hostName,
              viaDevAlias: ctx.viaDevAlias,
              isWs2Public: lookup.isWs2Public,
            },
            store,
            main,
            pages,
            seo,
            chatWidgetUrl: deps.chatWidgetUrl,
            platformName: deps.platformName,
          };
        });
      })();
      return shell;
    },
    // Sessions and carts arrive with the accounts and cart work.
    async user() {
      return null;
    },
    async cartSize() {
      return 0;
    },
    async banners() {
      if (!ctx) return [];
      return cached('banners', () => deps.store.banners(ctx, ctx.productStoreId));
    },
    async cmsPage(pageUrl: string) {
      if (!ctx) return null;
      const pages = await cached(`cms:${pageUrl}`, () => deps.store.cmsPages(ctx, ctx.productStoreId, { pageUrl }));
      return pages[0] ?? null;
    },
  };
}
