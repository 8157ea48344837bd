import type { PaypalSettingsFormResult, PaypalSettingsFormValues } from '@app/contracts';
import { ArrowLeft } from 'lucide-react';
import { data, Link } from 'react-router';
import {
  PaypalSettingsForm,
  paypalSettingsValues,
  RemoveOwnAppCard,
} from '../../components/manage-store/payments-settings/paypal-settings-form';
import { AdminPage } from '../../components/ui/page-header';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/payments_.settings';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.paypalSettingsPage());
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'PayPal settings');
}

type ActionAnswer = {
  result: PaypalSettingsFormResult;
  /** What was typed, for a refused save; never the secret (it would be written into the page). */
  values: Omit<PaypalSettingsFormValues, 'clientSecret'> | null;
};

export async function action({ context, request }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const intent = form.get('intent') === 'remove-app' ? 'remove-app' : 'save';
    const values = paypalSettingsValues(form);
    const { clientSecret: _secret, ...typed } = values;
    const result = await context.api.savePaypalSettings(intent, values);
    return data<ActionAnswer>(
      { result, values: result.ok || intent !== 'save' ? null : typed },
      { status: result.ok ? 200 : result.status },
    );
  });
}

/** The store's PayPal settings (PP_CONFIG): on or off at checkout, the seller account, an own app. */
export default function PaypalSettingsPage({ loaderData: page, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionAnswer | undefined;
  useActionToast(answer?.result.ok ? answer.result : null);
  const failure = answer && !answer.result.ok ? answer.result : null;
  return (
    <AdminPage
      title="PayPal settings"
      description={
        <Link
          to="/manage-store/payments"
          className="inline-flex items-center gap-1 font-medium text-neutral-700 hover:underline"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Payments
        </Link>
      }
    >
      <PaypalSettingsForm
        // A saved change (or a removed app) shows the stored settings afresh.
        key={page.config.updatedAt ?? 'new'}
        config={page.config}
        sellerLabel={page.seller.label}
        values={failure ? (answer?.values ?? null) : null}
        errors={failure?.fieldErrors ?? {}}
        message={failure?.message ?? null}
        answered={answer}
      />
      <RemoveOwnAppCard config={page.config} />
    </AdminPage>
  );
}
