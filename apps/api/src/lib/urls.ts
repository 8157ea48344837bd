import type { TenantContext } from './context';

/**
 * Media the server stores is kept as a path (`/media/...`) so the data does not depend on the
 * deployment's host and port; answers carry absolute http URLs, as clients test `startsWith('http')`.
 */
export function absoluteMediaUrl(ctx: TenantContext, url: string | null | undefined): string | null {
  if (!url) return null;
  if (url.startsWith('/media/')) return `${ctx.origin}${url}`;
  return url;
}
