import { data } from 'react-router';
import {
  type SupportAccessAnswer,
  SupportAccessCard,
  type SupportAccessLoad,
} from '../../components/manage-store/support-access-card';
import { AdminPage } from '../../components/ui/page-header';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import type { Route } from './+types/settings.access_.support';

/**
 * Support access's own route (the Access page's "Platform support" card): its loader gives the card
 * its state, its action grants or ends access. Without JavaScript the browser lands here.
 */
export async function loader({ context, request }: Route.LoaderArgs): Promise<SupportAccessLoad> {
  return dashboardRead(request, () => context.api.supportAccess());
}

export async function action({ context, request }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const intent = String(form.get('intent') ?? '').slice(0, 20);
    const result = await context.api.supportAccessAction({
      intent,
      hours: String(form.get('hours') ?? '').slice(0, 10),
    });
    return data({ intent, result } satisfies SupportAccessAnswer, { status: result.ok ? 200 : result.status });
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Platform support');
}

export default function SupportAccessPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminPage title="Platform support" description="Who at the platform may open your dashboard, and until when.">
      <SupportAccessCard state={loaderData} {...(actionData ? { answer: actionData as SupportAccessAnswer } : {})} />
    </AdminPage>
  );
}
