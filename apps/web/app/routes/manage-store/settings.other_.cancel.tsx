import { data } from 'react-router';
import {
  type CancelRequestAnswer,
  CancelRequestCard,
  type CancelRequestLoad,
} from '../../components/manage-store/cancel-request-card';
import { AdminPage } from '../../components/ui/page-header';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import type { Route } from './+types/settings.other_.cancel';

/**
 * The danger zone's own route: its loader gives the card on Store details its state, its action
 * files or withdraws the cancel request. Without JavaScript the browser lands here with the answer.
 */
export async function loader({ context, request }: Route.LoaderArgs): Promise<CancelRequestLoad> {
  try {
    return { cancelRequest: await dashboardRead(request, () => context.api.cancelRequest()) };
  } catch (err) {
    // Staff who may see Store details but are not the owner: the card says so instead of failing.
    if ((err as { init?: { status?: number } } | null)?.init?.status === 403) return { cancelRequest: null };
    throw err;
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const values = { cancelRequestReason: String(form.get('cancelRequestReason') ?? '').slice(0, 4000) };
  const result =
    form.get('intent') === 'withdraw'
      ? await context.api.withdrawCancelRequest()
      : await context.api.initiateCancelRequest({ ...values, confirm: form.get('confirm') === 'yes' });
  return data({ result, values } satisfies CancelRequestAnswer, { status: result.ok ? 200 : result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Cancel your store');
}

export default function CancelStorePage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as CancelRequestAnswer | undefined;
  return (
    <AdminPage title="Cancel your store" description="Ask the platform to close your store, or withdraw that request.">
      <CancelRequestCard cancelRequest={loaderData.cancelRequest} {...(answer ? { answer } : {})} />
    </AdminPage>
  );
}
