import { Users } from 'lucide-react';
import { NotYetAvailable } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/customers._index';

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Customers');
}

/** Not built yet: the menu has its place, and the page says so plainly. */
export default function CustomersPage() {
  return (
    <NotYetAvailable
      title="Customers"
      icon={<Users className="size-6" />}
      will="Everyone who has an account with your store or has ordered from it: their orders, addresses and what they have spent."
    />
  );
}
