import { Heart, KeyRound, Package, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Route } from './+types/profile';
import { AccountLayout } from './account-nav';

export async function loader({ context }: Route.LoaderArgs) {
  // The account guard has already sent visitors to login; a session ended since lands there too.
  return { profile: await context.api.profile() };
}

export function meta() {
  return [{ title: 'Your account' }, { name: 'robots', content: 'noindex' }];
}

const since = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

function Tile({ to, icon, title, text }: { to: string; icon: ReactNode; title: string; text: string }) {
  return (
    <Link
      to={to}
      className="flex gap-4 rounded-xl border border-slate-200 p-5 transition hover:border-brand hover:shadow-sm"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-xlight text-brand">
        {icon}
      </span>
      <span>
        <span className="block font-semibold text-slate-900">{title}</span>
        <span className="mt-0.5 block text-sm text-slate-600">{text}</span>
      </span>
    </Link>
  );
}

export default function AccountOverview({ loaderData }: Route.ComponentProps) {
  const { profile } = loaderData;
  return (
    <AccountLayout title="Your account">
      {profile && (
        <div className="rounded-xl bg-slate-50 p-5" data-testid="account-summary">
          <p className="text-lg font-semibold text-slate-900">
            {profile.firstName} {profile.lastName}
          </p>
          <p className="mt-1 text-sm text-slate-600">{profile.email}</p>
          {profile.phone && <p className="text-sm text-slate-600">{profile.phone}</p>}
          <p className="mt-2 text-xs text-slate-500">Customer since {since(profile.createdAt)}</p>
        </div>
      )}
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <Tile
          to="/order/history"
          icon={<Package aria-hidden className="size-5" />}
          title="Orders"
          text="Follow, return or reorder."
        />
        <Tile
          to="/account/profile/settings"
          icon={<UserRound aria-hidden className="size-5" />}
          title="My Profile"
          text="Your name, email and phone."
        />
        <Tile
          to="/account/password"
          icon={<KeyRound aria-hidden className="size-5" />}
          title="Password"
          text="Change the password you log in with."
        />
        <Tile
          to="/account/wishlist"
          icon={<Heart aria-hidden className="size-5" />}
          title="Wishlist"
          text="Products you saved for later."
        />
      </div>
    </AccountLayout>
  );
}
