import { Outlet, redirect, type ShouldRevalidateFunctionArgs } from 'react-router';
import { ConsoleFrame } from '../../../components/operator/console-frame';
import { consoleSignInUrl, platformApi } from '../../../lib/console-page';
import type { PlatformHandle } from '../frame';
import type { Route } from './+types/_console';

/** The console's bar and menu are the whole frame: not inside the public pages' header and footer. */
export const handle = { platformFrame: 'own' } satisfies PlatformHandle;

/**
 * Every console page but the sign-in: an operator's session is needed (a browser without one goes
 * to sign in and comes back), and the console's menu is drawn around the page. The page functions
 * check the session again on the server, so no page is one check away from being seen.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const operator = await platformApi(context).consoleOperator();
  if (!operator) throw redirect(consoleSignInUrl(request));
  return { email: operator.email };
}

/** Who is signed in changes only through a form (sign-out): not on every click. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? defaultShouldRevalidate : false;
}

export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  return (
    <ConsoleFrame email={loaderData.email}>
      <Outlet />
    </ConsoleFrame>
  );
}
