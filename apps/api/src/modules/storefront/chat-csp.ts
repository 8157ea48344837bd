import { chatAllowed } from '@app/contracts/client';
import type { TenantContext } from '../../lib/context';
import type { PublicReadCache } from '../../lib/public-cache';
import type { StoreService } from '../store/index';

/**
 * The chat provider's origin when a page's CSP must let it in: a page where the widget may appear
 * (`chatAllowed`, the rule the widget itself follows) of a store that has a widget id. Otherwise
 * null, and the provider can run no script there. The widget id comes through the public cache, so a
 * page costs no query for it.
 */
export async function chatOriginForPage(
  deps: { store: StoreService; cache: PublicReadCache; chatOrigin: string },
  ctx: TenantContext | null,
  pathname: string,
): Promise<string | null> {
  if (!ctx || !chatAllowed(pathname)) return null;
  // A store without settings has no widget: the page fails closed, without the provider.
  const entry = await deps.cache.get(ctx.tenantId, `page-chat:${ctx.productStoreId}`, () =>
    deps.store.config(ctx, ctx.productStoreId).then(
      (config) => config.chat.dataWidgetId,
      () => null,
    ),
  );
  return JSON.parse(entry.json) ? deps.chatOrigin : null;
}
