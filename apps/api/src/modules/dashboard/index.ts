export { dashboardPages } from './dashboard.pages';
export { dashboardRoutes } from './dashboard.routes';
export { createDashboardService, type DashboardDeps, type DashboardService } from './dashboard.service';
// GUARD: goes at merge, with the request context resolved for every request.
export { interimContext } from './interim-context';
