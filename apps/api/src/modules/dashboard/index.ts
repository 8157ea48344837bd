export { resolveRange, SOLD_STATUSES } from './analytics';
export { dashboardPages } from './dashboard.pages';
export { dashboardRoutes } from './dashboard.routes';
export { createDashboardService, type DashboardDeps, type DashboardService } from './dashboard.service';
export { refreshSalesRollup } from './sales-rollup';
