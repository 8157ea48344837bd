import { data, Outlet, redirect } from 'react-router';
import { loginUrlFor } from '../../lib/safe-redirect';
import type { Route } from './+types/guard';

/** The dashboard needs a logged-in user; only the store's admins get past the role check. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.api.user();
  if (!user) {
    const url = new URL(request.url);
    throw redirect(loginUrlFor(`${url.pathname}${url.search}`));
  }
  if (user.partyId !== 'admin')
    throw data({ message: 'Only store administrators can manage the store.' }, { status: 403 });
  return { user };
}

export default function ManageStoreGuard() {
  return <Outlet />;
}
