import { redirect } from 'react-router';
import { safeRedirect } from '../../lib/safe-redirect';
import type { Route } from './+types/search-redirect';

/**
 * The header search form before (or without) JavaScript: /product/search?q=x → /product/search/x.
 * An empty search does nothing: the shopper is sent back to the page the form
 * was on, when the browser says which page of this store that was; otherwise home.
 */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = url.searchParams.get('q')?.trim();
  if (q) return redirect(`/product/search/${encodeURIComponent(q)}`);
  const referer = request.headers.get('referer');
  let back = '/';
  if (referer) {
    try {
      const from = new URL(referer);
      if (from.host === url.host) back = safeRedirect(`${from.pathname}${from.search}`);
    } catch {
      // Not a URL: home.
    }
  }
  return redirect(back);
}
