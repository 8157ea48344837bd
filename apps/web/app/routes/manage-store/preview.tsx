import { redirect } from 'react-router';
import { setCookies } from '../../lib/cookies';
import { dashboardRead } from '../../lib/dashboard-page';
import { safeRedirect } from '../../lib/safe-redirect';
import type { Route } from './+types/preview';

/**
 * The storefront preview switch (decision 032). "Preview" on an editor posts here and lands on the
 * storefront showing the drafts; the storefront's preview bar posts here to leave. A plain form
 * post, so it works without JavaScript; the server grants preview only to who may edit settings.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const on = form.get('preview') === 'on';
  const { cookies } = await dashboardRead(request, () => context.api.setPreview(on));
  const fallback = on ? '/' : '/manage-store';
  throw redirect(safeRedirect(String(form.get('redirectTo') ?? ''), fallback), { headers: setCookies(cookies) });
}

export function loader() {
  return redirect('/manage-store');
}
