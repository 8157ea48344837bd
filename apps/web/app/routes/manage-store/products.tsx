import { Tag } from 'lucide-react';
import { NotYetAvailable } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/products';

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Products');
}

/** Not built yet: the menu has its place, and the page says so plainly. */
export default function ProductsPage() {
  return (
    <NotYetAvailable
      title="Products"
      icon={<Tag className="size-6" />}
      will="Your catalog to manage: add and edit products, their prices, images and stock, and sort them into catalogs and categories."
      meanwhile="Meanwhile, products that are running low are listed on Home."
    />
  );
}
