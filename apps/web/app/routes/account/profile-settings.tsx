import { AccountLayout } from './account-nav';

export default function Page() {
  return (
    <AccountLayout title="My Profile">
      <p className="text-slate-600">Manage this part of your account here.</p>
    </AccountLayout>
  );
}
