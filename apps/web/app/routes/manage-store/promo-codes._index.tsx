import { BadgePercent } from 'lucide-react';
import { NotYetAvailable } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/promo-codes._index';

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Promo codes');
}

/** Not built yet: the menu has its place, and the page says so plainly. */
export default function PromoCodesPage() {
  return (
    <NotYetAvailable
      title="Promo codes"
      icon={<BadgePercent className="size-6" />}
      will="Promo codes shoppers enter in the cart: a percentage or an amount off, with a minimum order, dates and usage limits."
    />
  );
}
