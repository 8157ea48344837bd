import { MessageSquareQuote } from 'lucide-react';
import { NotYetAvailable } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/reviews._index';

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Reviews');
}

/** Not built yet: the menu has its place, and the page says so plainly. */
export default function ReviewsPage() {
  return (
    <NotYetAvailable
      title="Reviews"
      icon={<MessageSquareQuote className="size-6" />}
      will="Reviews shoppers wrote about your products: publish or hide them, and reply under a review."
    />
  );
}
