import { ACCOUNT_DECLINED_MESSAGE, ACCOUNT_PENDING_MESSAGE } from '@app/contracts/client';
import { Clock, Lock } from 'lucide-react';
import { Link } from 'react-router';
import { submitClass } from '../../components/ui/form-field';
import type { Route } from './+types/awaiting-approval';
import { AuthCard } from './auth-card';

export async function loader({ context }: Route.LoaderArgs) {
  return context.api.accountStanding();
}

export function meta() {
  return [{ title: 'Waiting for approval' }, { name: 'robots', content: 'noindex' }];
}

/**
 * Where an account the store owner has not approved lands, whatever page it asked for (decision
 * 105): it says where the account stands and offers to log out. An approved account, or any account
 * of a store that asks no approval, is sent on to the shop.
 */
export default function AwaitingApproval({ loaderData: standing }: Route.ComponentProps) {
  if (standing.status === 'pending' || standing.status === 'declined') {
    const waiting = standing.status === 'pending';
    return (
      <AuthCard title={waiting ? 'Your account is waiting for approval' : 'Your account was not approved'}>
        <div role="status" className="flex gap-3 text-slate-700" data-testid="account-standing">
          {waiting ? (
            <Clock aria-hidden className="size-6 shrink-0 text-amber-700" />
          ) : (
            <Lock aria-hidden className="size-6 shrink-0 text-slate-600" />
          )}
          <p>
            {waiting ? ACCOUNT_PENDING_MESSAGE : ACCOUNT_DECLINED_MESSAGE}
            {standing.email && (
              <span className="mt-2 block text-sm text-slate-600">Signed in as {standing.email}.</span>
            )}
          </p>
        </div>
        <Link to="/auth/logout" className={`${submitClass} mt-6 flex items-center justify-center`}>
          Log out
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={standing.status ? 'Your account is approved' : 'Log in to continue'}>
      <p className="text-slate-700" data-testid="account-standing">
        {standing.status ? 'You can browse and shop.' : 'Log in to see where your account stands.'}
      </p>
      <Link
        to={standing.status ? '/' : '/auth/login'}
        className={`${submitClass} mt-6 flex items-center justify-center`}
      >
        {standing.status ? 'Go to the shop' : 'Log in'}
      </Link>
    </AuthCard>
  );
}
