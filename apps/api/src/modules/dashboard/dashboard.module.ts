import { defineModule } from '../../lib/module';
import { recentActivity } from './activity';
import { dashboardPages } from './dashboard.pages';
import { dashboardRoutes } from './dashboard.routes';
import { createDashboardService, type DashboardService } from './dashboard.service';

declare module '../../lib/module' {
  interface ModuleServices {
    dashboard: { dashboard: DashboardService };
  }
}

export const dashboardModule = defineModule({
  name: 'dashboard',
  needs: ['audit', 'inventory'],
  create: ({ db, config }, { audit, thresholds }) => ({
    dashboard: createDashboardService(db, {
      cleanupAfterMinutes: config.STUCK_ORDER_MINUTES,
      lowStockThreshold: thresholds.get,
      recentActivity: recentActivity(audit),
    }),
  }),
  routes: (app, { dashboard }) => app.register(dashboardRoutes, { dashboard }),
  pages: ({ dashboard }) => [dashboardPages({ dashboard })],
});
