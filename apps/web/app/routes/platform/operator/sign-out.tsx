import { redirect } from 'react-router';
import { CONSOLE_SIGN_IN, platformApi } from '../../../lib/console-page';
import type { Route } from './+types/sign-out';

/** Ends the operator's session (a form post from the console's bar) and clears its cookie. */
export async function action({ context }: Route.ActionArgs) {
  const { cookies } = await platformApi(context).consoleSignOut();
  const headers = new Headers();
  for (const c of cookies) headers.append('set-cookie', c);
  return redirect(`${CONSOLE_SIGN_IN}?signedOut=1`, { headers });
}

/** A GET here (a typed address) is not a sign-out: back to the console. */
export function loader() {
  return redirect('/operator');
}
