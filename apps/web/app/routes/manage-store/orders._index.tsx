import { Inbox } from 'lucide-react';
import { NotYetAvailable } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/orders._index';

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Orders');
}

/** Not built yet: the menu has its place, and the page says so plainly. */
export default function OrdersPage() {
  return (
    <NotYetAvailable
      title="Orders"
      icon={<Inbox className="size-6" />}
      will="Every order of your store in one list: search and filter by status, see an order's lines, payment and address, mark it shipped, cancel or refund it."
      meanwhile="Meanwhile, paid orders waiting to be shipped are listed on Home."
    />
  );
}
