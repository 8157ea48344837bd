import type { DashboardLifecycle } from '../store-lifecycle';

/** The dashboard's view of its store's lifecycle state (decision 099). */
export interface StoreLifecyclePages {
  /** The banner every dashboard page shows while the store is not active; staff only. */
  dashboardLifecycle(): Promise<DashboardLifecycle>;
}
