import { CancelRequestCard } from '../../components/manage-store/cancel-request-card';
import { DashboardLayout } from '../../components/manage-store/dashboard-layout';

export default function Page() {
  return (
    <DashboardLayout title="Store details">
      <p className="text-slate-600">These settings apply to your whole store.</p>
      <CancelRequestCard />
    </DashboardLayout>
  );
}
