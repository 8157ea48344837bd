import { Wallet } from 'lucide-react';
import { NotYetAvailable } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/payments';

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Payments');
}

/** Not built yet: the menu has its place, and the page says so plainly. */
export default function PaymentsPage() {
  return (
    <NotYetAvailable
      title="Payments"
      icon={<Wallet className="size-6" />}
      will="How your store gets paid: connect your PayPal seller account, see payouts and the payment provider's settings."
    />
  );
}
