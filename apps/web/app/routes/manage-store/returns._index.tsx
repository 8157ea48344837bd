import { PackageOpen } from 'lucide-react';
import { NotYetAvailable } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/returns._index';

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Returns');
}

/** Not built yet: the menu has its place, and the page says so plainly. */
export default function ReturnsPage() {
  return (
    <NotYetAvailable
      title="Returns"
      icon={<PackageOpen className="size-6" />}
      will="Return requests from your shoppers: approve or reject them, mark parcels received and put the stock back, and refund."
    />
  );
}
