export { resolveRange, SOLD_STATUSES } from './analytics';
export { dashboardModule } from './dashboard.module';
export { dashboardPages } from './dashboard.pages';
export { dashboardRoutes } from './dashboard.routes';
export { createDashboardService, type DashboardDeps, type DashboardService } from './dashboard.service';
export { refreshSalesRollup } from './sales-rollup';
