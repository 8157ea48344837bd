import type { DashboardPages } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import type { DashboardService } from './dashboard.service';

/**
 * The dashboard's page functions. Each checks access itself: a loader is a public entry point
 * like any route, and the web guard only decides what to show.
 */
export function dashboardPages(deps: { dashboard: DashboardService }): PageModule<DashboardPages> {
  return (page) => ({
    async dashboardHome() {
      requireAccess(page.ctx, 'staff');
      return deps.dashboard.home(page.ctx);
    },
    async dashboardPermissions() {
      requireAccess(page.ctx, 'staff');
      return [...page.ctx.actor.permissions];
    },
  });
}
