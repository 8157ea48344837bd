import { formatMoney } from '@app/contracts/client';
import { Package } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState, PageContainer, PageTitle } from '../../components/ui/page';
import { AccountLayout } from '../account/account-nav';
import type { Route } from './+types/order-history';

/** Not behind the account guard (the clients' route table): a visitor is asked to log in, in the frame. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (!(await context.api.user())) return null;
  return context.api.orderHistory(Number(url.searchParams.get('page') ?? '1'));
}

export default function OrderHistory({ loaderData }: Route.ComponentProps) {
  if (!loaderData) {
    return (
      <PageContainer>
        <PageTitle>Order history</PageTitle>
        <EmptyState
          icon={<Package className="size-10" />}
          title="Log in to see your orders"
          action={{ to: '/auth/login?redirectUrl=%2Forder%2Fhistory', label: 'Log in' }}
        >
          Orders placed with your account are listed here with their status.
        </EmptyState>
      </PageContainer>
    );
  }
  const { orders, total, page, pageSize } = loaderData;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  // Signed in: in the account frame, with Orders marked in its navigation as the other account pages do.
  return (
    <AccountLayout title="Order history">
      {orders.length === 0 ? (
        <EmptyState
          icon={<Package className="size-10" />}
          title="No orders yet"
          action={{ to: '/', label: 'Start shopping' }}
        >
          Orders you place will be listed here with their status.
        </EmptyState>
      ) : (
        <>
          <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200" data-testid="order-history">
            {orders.map((o) => (
              <li key={o.orderId}>
                <Link
                  to={`/order?orderId=${encodeURIComponent(o.orderId)}`}
                  className="flex flex-wrap items-center justify-between gap-3 p-4 hover:bg-slate-50"
                >
                  <span>
                    <span className="block font-medium text-slate-900">Order {o.orderId}</span>
                    <span className="block text-sm text-slate-600">
                      {new Date(o.placedAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}
                    </span>
                  </span>
                  <span className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-800">{o.statusLabel}</span>
                  <span className="font-semibold text-slate-900">{formatMoney(o.total, o.currency)}</span>
                </Link>
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <nav aria-label="Pages" className="mt-6 flex justify-center gap-4 text-sm">
              {page > 1 && <Link to={`?page=${page - 1}`}>← Newer</Link>}
              <span>
                Page {page} of {pages}
              </span>
              {page < pages && <Link to={`?page=${page + 1}`}>Older →</Link>}
            </nav>
          )}
        </>
      )}
    </AccountLayout>
  );
}
