import type { Banner, ShellData, ShellPages } from '@app/contracts';
import type { RequestContext } from '../../lib/context';
import type { PageModule } from '../../lib/page-request';
import type { CatalogService } from '../catalog/index';
import type { CmsService } from '../cms/index';
import type { TenantService } from '../tenant/index';
import type { StorePreview, StoreService } from './store.service';

export interface ShellPagesDeps {
  store: StoreService;
  /** The shopper's pages; in the owner's preview, with their drafts (decision 034). */
  cms: CmsService;
  catalog: CatalogService;
  tenants: TenantService;
  chatWidgetUrl: string;
  platformName: string;
  /** Lays the owner's drafts over the store's look and details, in preview only (decision 032). */
  preview?: StorePreview;
  /** The owner's preview of the banners draft (null when this is not a preview). */
  previewBanners?: (ctx: RequestContext) => Promise<Banner[] | null>;
}

/**
 * The store frame and its content. Shared by every shopper of the store through the per-tenant read
 * cache, so a warm page costs no query for them.
 */
export function shellPages(deps: ShellPagesDeps): PageModule<ShellPages> {
  return (page) => {
    const { ctx } = page;
    let shell: Promise<ShellData> | undefined;
    return {
      shell() {
        // Per host: the shell names the host itself (and whether it is the development alias).
        shell ??= page.cached(`shell:${ctx.hostName}:${ctx.viaDevAlias}`, async (): Promise<ShellData> => {
          const id = ctx.productStoreId;
          const [liveStore, main, pages, liveSeo, lookup] = await Promise.all([
            deps.store.details(ctx, id),
            deps.catalog.mainData(ctx, id),
            deps.cms.storefrontPages(ctx, id, {}),
            deps.store.seoMeta(ctx),
            deps.tenants.lookupByHostName(ctx.hostName),
          ]);
          // page.cached computes afresh for the owner's preview, so a draft never lands in the shared cache.
          const [store, seo] =
            ctx.preview && deps.preview
              ? await Promise.all([deps.preview.details(ctx, liveStore), deps.preview.seo(ctx, liveSeo)])
              : [liveStore, liveSeo];
          return {
            tenant: {
              tenantId: ctx.tenantId,
              productStoreId: id,
              hostName: ctx.hostName,
              viaDevAlias: ctx.viaDevAlias,
              isWs2Public: lookup.isWs2Public,
              accessMode: lookup.accessMode,
            },
            store,
            main,
            pages,
            seo,
            chatWidgetUrl: deps.chatWidgetUrl,
            platformName: deps.platformName,
          };
        });
        return shell;
      },
      // A preview is never cached (page.cached computes directly for it): the draft reaches no one else.
      banners: () =>
        page.cached(
          'banners',
          async () => (await deps.previewBanners?.(ctx)) ?? deps.store.banners(ctx, ctx.productStoreId),
        ),
      async cmsPage(pageUrl) {
        const pages = await page.cached(`cms:${pageUrl}`, () =>
          deps.cms.storefrontPages(ctx, ctx.productStoreId, { pageUrl }),
        );
        return pages[0] ?? null;
      },
      faqs: () => page.cached('faqs', () => deps.store.faqs(ctx, 'HELP_AND_FAQS')),
    };
  };
}
