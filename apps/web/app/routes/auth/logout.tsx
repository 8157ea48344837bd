import { redirect } from 'react-router';
import type { Route } from './+types/logout';

/**
 * Ends the session and goes home. The header's Logout button leaves a flag in
 * sessionStorage so the home page can say 'You have been logged out successfully!'; the stored
 * values are cleared by the root once it renders without a user.
 */
export async function action({ context }: Route.ActionArgs) {
  const { cookie } = await context.api.logout();
  throw redirect('/', cookie ? { headers: { 'Set-Cookie': cookie } } : undefined);
}

export function loader() {
  return redirect('/');
}
