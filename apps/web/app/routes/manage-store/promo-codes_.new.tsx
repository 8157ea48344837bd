import type { PromoCodeFormResult, PromoCodeFormValues } from '@app/contracts';
import { ArrowLeft } from 'lucide-react';
import { data, Link, redirect } from 'react-router';
import { DashboardLayout } from '../../components/manage-store/dashboard-layout';
import { PromoCodeForm, promoFormValues } from '../../components/manage-store/promo-code-form';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import type { Route } from './+types/promo-codes_.new';

const LIST = '/manage-store/promo-codes';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.newPromoCodePage());
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Create promo code');
}

type ActionAnswer = { result: PromoCodeFormResult; values: PromoCodeFormValues };

export async function action({ context, request }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const values = promoFormValues(await request.formData());
    const result = await context.api.createPromoCode(values);
    if (result.ok) throw redirect(`${LIST}/${encodeURIComponent(result.code)}?done=created`);
    return data<ActionAnswer>({ result, values }, { status: result.status });
  });
}

/** A new code: its name and rules; saved, it opens on its own page. */
export default function NewPromoCodePage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionAnswer | undefined;
  const failure = answer && !answer.result.ok ? answer.result : null;
  return (
    <DashboardLayout
      title="Create promo code"
      description={
        <Link to={LIST} className="inline-flex items-center gap-1 font-medium text-neutral-700 hover:underline">
          <ArrowLeft aria-hidden className="size-4" />
          Promo codes
        </Link>
      }
    >
      <PromoCodeForm
        creating
        currency={loaderData.currency}
        values={answer?.values ?? { kind: 'percent', active: 'on' }}
        errors={failure?.fieldErrors ?? {}}
        message={failure?.message ?? null}
      />
    </DashboardLayout>
  );
}
