import { DashboardLayout } from '../../components/manage-store/dashboard-layout';
import type { DashboardHandle } from './guard';

/** Full screen, as SPEC.md's layout rules have it: no store frame, no dashboard menu. */
export const handle: DashboardHandle = { dashboardFrame: 'full-screen' };

export default function Page() {
  return (
    <DashboardLayout title="Payment provider">
      <p className="text-slate-600">These settings apply to your whole store.</p>
    </DashboardLayout>
  );
}
