import { Outlet, redirect } from 'react-router';
import { loginUrlFor } from '../../lib/safe-redirect';
import type { Route } from './+types/guard';

/** Account pages need a logged-in shopper; others go to login and come back after. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.api.user();
  if (!user) {
    const url = new URL(request.url);
    throw redirect(loginUrlFor(`${url.pathname}${url.search}`));
  }
  return { user };
}

export default function AccountGuard() {
  return <Outlet />;
}
