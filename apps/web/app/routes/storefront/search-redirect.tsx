import { redirect } from 'react-router';
import type { Route } from './+types/search-redirect';

/** The header search form without JavaScript: /product/search?q=x → /product/search/x. */
export function loader({ request }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q')?.trim();
  return redirect(q ? `/product/search/${encodeURIComponent(q)}` : '/');
}
