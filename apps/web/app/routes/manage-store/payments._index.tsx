import type { SellerActionResult, StripeFormResult } from '@app/contracts';
import { AlertTriangle, Settings } from 'lucide-react';
import { data, Link, redirect } from 'react-router';
import { PayPalCard } from '../../components/manage-store/payments/paypal-card';
import { StripeCard, TestCardsCard } from '../../components/manage-store/payments/stripe-card';
import { Banner } from '../../components/ui/banner';
import { AdminPage } from '../../components/ui/page-header';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/payments._index';

/** What the page says when PayPal or a plain form post sends the owner back here (`?paypal=`). */
const NOTICES: Record<string, { tone: 'success' | 'attention' | 'critical' | 'info'; text: string }> = {
  connected: {
    tone: 'success',
    text: 'PayPal is connected. Checkout now offers PayPal, paid into your PayPal account.',
  },
  action_needed: {
    tone: 'attention',
    text: 'You are back from PayPal, but PayPal needs a few more steps from you before the store can take payments. See below.',
  },
  refused: {
    tone: 'critical',
    text: 'That PayPal account was signed up for another store, so it was not connected. Nothing changed.',
  },
  not_found: {
    tone: 'attention',
    text: 'PayPal could not confirm your sign-up yet. See what to do below.',
  },
  unavailable: {
    tone: 'critical',
    text: 'The platform operator has not set up PayPal for stores, so the store cannot connect to PayPal.',
  },
  disconnected: { tone: 'info', text: 'PayPal is disconnected. Checkout no longer offers PayPal.' },
  return: { tone: 'info', text: 'Welcome back from PayPal. Press "Check again" to finish connecting.' },
};

/** The kit's banner tone for each notice (a refusal is read at once, the others politely). */
const TONE = { success: 'success', attention: 'warning', critical: 'critical', info: 'info' } as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  const page = await dashboardRead(request, () => context.api.paymentsPage());
  const stripe = await dashboardRead(request, () => context.api.stripeAccount());
  const url = new URL(request.url);
  const notice = NOTICES[url.searchParams.get('paypal') ?? ''] ?? null;
  return { page, stripe, notice, confirmDisconnect: url.searchParams.get('confirm') === 'disconnect' };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  return dashboardRead(request, async () => {
    if (intent === 'stripe-connect' || intent === 'stripe-disconnect') {
      const stripe = await context.api.saveStripe(intent, {
        secretKey: String(form.get('secretKey') ?? '').slice(0, 300),
        webhookSecret: String(form.get('webhookSecret') ?? '').slice(0, 300),
      });
      return data<{ stripe: StripeFormResult }>({ stripe }, { status: stripe.ok ? 200 : stripe.status });
    }
    if (intent === 'connect') {
      const result = await context.api.connectPaypal();
      // To PayPal's sign-up (another site): with JavaScript the router leaves the app for it.
      if (result.ok) throw redirect(result.actionUrl, 303);
      return data<{ result: SellerActionResult }>({ result }, { status: result.status });
    }
    const result =
      intent === 'disconnect'
        ? await context.api.disconnectPaypal()
        : intent === 'check'
          ? await context.api.checkPaypal()
          : ({ ok: false, status: 400, message: 'Unknown action.', fieldErrors: {} } as const);
    // A disconnect closes its confirmation: back to the page without `?confirm`.
    if (result.ok && intent === 'disconnect') throw redirect('/manage-store/payments?paypal=disconnected', 303);
    return data<{ result: SellerActionResult }>({ result }, { status: result.ok ? 200 : result.status });
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Payments');
}

/** How the store gets paid: its PayPal seller account, its settings, and payments needing a look. */
export default function PaymentsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, notice, confirmDisconnect } = loaderData;
  const answered = actionData as { result?: SellerActionResult; stripe?: StripeFormResult } | undefined;
  const answer = answered?.result ? { result: answered.result } : undefined;
  const stripeAnswer = answered?.stripe ?? null;
  useActionToast(answer?.result.ok ? answer.result : stripeAnswer?.ok ? stripeAnswer : null);
  const failure = answer && !answer.result.ok ? answer.result : stripeAnswer && !stripeAnswer.ok ? stripeAnswer : null;
  // After a connect or disconnect the page's own read is fresher than the loader's.
  const stripe = stripeAnswer?.ok ? stripeAnswer.account : loaderData.stripe;
  const issues = page.openIssues;

  return (
    <AdminPage title="Payments" description="How your store gets paid.">
      {notice && !answer && <Banner tone={TONE[notice.tone]}>{notice.text}</Banner>}
      {failure && <Banner>{failure.message}</Banner>}
      {answer?.result.ok && (
        <p role="status" className="sr-only">
          {answer.result.message}
        </p>
      )}
      {stripeAnswer?.ok && (
        <p role="status" className="sr-only">
          {stripeAnswer.message}
        </p>
      )}
      {issues > 0 && (
        <Banner tone="warning">
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <AlertTriangle aria-hidden className="size-4 shrink-0" />
            <span className="font-semibold">
              {issues === 1 ? '1 payment needs attention' : `${issues} payments need attention`}
            </span>
            <Link to="/manage-store/payments/issues" className="font-medium underline underline-offset-2">
              Review payments
            </Link>
          </span>
        </Banner>
      )}

      <PayPalCard page={page} confirmDisconnect={confirmDisconnect} />

      <StripeCard account={stripe} answer={stripeAnswer} />

      <TestCardsCard account={stripe} />

      <p className="text-sm text-neutral-600">
        <Link
          to="/manage-store/payments/settings"
          className="inline-flex items-center gap-1 font-medium text-neutral-800 underline underline-offset-2"
        >
          <Settings aria-hidden className="size-4" />
          PayPal settings
        </Link>{' '}
        · switch PayPal off, choose sandbox or live, or use your store's own PayPal app.
      </p>
    </AdminPage>
  );
}
