import { DashboardLayout } from '../../components/manage-store/dashboard-layout';

export default function Page() {
  return (
    <DashboardLayout title="Edit page">
      <p className="text-slate-600">These settings apply to your whole store.</p>
    </DashboardLayout>
  );
}
