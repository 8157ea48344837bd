import { MessagesSquare } from 'lucide-react';
import { NotYetAvailable } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/messages._index';

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Messages');
}

/** Not built yet: the menu has its place, and the page says so plainly. */
export default function MessagesPage() {
  return (
    <NotYetAvailable
      title="Messages"
      icon={<MessagesSquare className="size-6" />}
      will="Messages shoppers sent from your contact page: read them, reply by email and archive them."
    />
  );
}
