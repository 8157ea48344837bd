import { CircleAlert } from 'lucide-react';
import { data, Link, redirect } from 'react-router';
import { PageContainer, PageTitle } from '../../components/ui/page';
import type { Route } from './+types/stripe-return';

/**
 * Where Stripe's hosted page sends the shopper: `/checkout/stripe/return?session_id=…` after paying
 * (the order is confirmed once Stripe says the session is paid), `/checkout/stripe/cancel?order=…`
 * when they left without paying (the reservation is released). Both end on the order page or back at
 * checkout; only a session or order of someone else stays here with a message.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const result =
    params.step === 'return'
      ? await context.api.stripeReturn(url.searchParams.get('session_id') ?? '')
      : params.step === 'cancel'
        ? await context.api.stripeCancel(url.searchParams.get('order') ?? '')
        : ({ ok: false, status: 404, message: 'This page does not exist.', fieldErrors: {} } as const);
  if (result.ok) throw redirect(result.location);
  return data({ message: result.message }, { status: result.status });
}

export const meta: Route.MetaFunction = () => [{ title: 'Card payment' }, { name: 'robots', content: 'noindex' }];

export default function StripeReturn({ loaderData }: Route.ComponentProps) {
  return (
    <PageContainer narrow>
      <PageTitle>Your card payment could not be found</PageTitle>
      <div role="alert" className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
        <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p>{loaderData.message}</p>
      </div>
      <Link
        to="/checkout"
        className="mt-6 inline-flex h-11 items-center rounded-md bg-brand px-5 font-medium text-white hover:opacity-90"
      >
        Back to checkout
      </Link>
    </PageContainer>
  );
}
