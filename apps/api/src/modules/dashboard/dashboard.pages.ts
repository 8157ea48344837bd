import { analyticsQuerySchema, type DashboardHomePage, type DashboardPages } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import type { DashboardService } from './dashboard.service';

/**
 * The dashboard's page functions. Each checks access itself: a loader is a public entry point
 * like any route, and the web guard only decides what to show.
 */
export function dashboardPages(deps: { dashboard: DashboardService }): PageModule<DashboardPages> {
  return (page) => ({
    async dashboardHome(raw = {}): Promise<DashboardHomePage> {
      requireAccess(page.ctx, 'staff');
      const asked = { range: raw.range || '30d', from: raw.from ?? '', to: raw.to ?? '' };
      const parsed = analyticsQuerySchema.safeParse({
        range: asked.range,
        from: asked.from || undefined,
        to: asked.to || undefined,
      });
      if (parsed.success) {
        return { ...(await deps.dashboard.home(page.ctx, parsed.data)), query: asked, rangeError: null };
      }
      // A refused range shows the default figures with the error beside the field, the typed values kept.
      const issue = parsed.error.issues[0];
      const field = issue?.path[0] === 'from' || issue?.path[0] === 'to' ? issue.path[0] : 'range';
      const message = issue?.message ?? 'is not a range';
      return {
        ...(await deps.dashboard.home(page.ctx)),
        query: asked,
        rangeError: { field, message: message.charAt(0).toUpperCase() + message.slice(1) },
      };
    },
    async dashboardPermissions() {
      requireAccess(page.ctx, 'staff');
      return [...page.ctx.actor.permissions];
    },
    async ordersCleanup() {
      requireAccess(page.ctx, 'orders');
      return deps.dashboard.cleanup(page.ctx);
    },
  });
}
