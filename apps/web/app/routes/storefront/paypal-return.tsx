import { CircleAlert } from 'lucide-react';
import { Link, redirect } from 'react-router';
import { PageContainer, PageTitle } from '../../components/ui/page';
import type { Route } from './+types/paypal-return';

/**
 * Where PayPal sends the shopper back after they approved (`?token=<PayPal order id>&PayerID=…`).
 * Capturing here is PayPal's documented server-side flow; the capture only works for the buyer who
 * started that PayPal order, and doing it twice returns the same order.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const result = await context.api.capturePayPal(token);
  if (result.ok) {
    const key = result.order.accessKey ? `&key=${encodeURIComponent(result.order.accessKey)}` : '';
    throw redirect(`/order?orderId=${encodeURIComponent(result.order.orderId)}${key}&placed=1`);
  }
  return { message: result.message };
}

export const meta: Route.MetaFunction = () => [{ title: 'PayPal payment' }, { name: 'robots', content: 'noindex' }];

export default function PayPalReturn({ loaderData }: Route.ComponentProps) {
  return (
    <PageContainer narrow>
      <PageTitle>Your PayPal payment did not go through</PageTitle>
      <div
        role="alert"
        className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900"
        data-testid="paypal-failure"
      >
        <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p>{loaderData.message}</p>
      </div>
      <p className="mt-6 text-sm text-slate-700">Nothing was charged and your cart is as you left it.</p>
      <Link
        to="/checkout"
        className="mt-6 inline-flex h-11 items-center rounded-md bg-brand px-5 font-medium text-white hover:opacity-90"
      >
        Back to checkout
      </Link>
    </PageContainer>
  );
}
