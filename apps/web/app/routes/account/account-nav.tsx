import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { PageContainer } from '../../components/ui/page';

const LINKS = [
  ['/account/profile', 'Overview'],
  ['/account/profile/settings', 'My Profile'],
  ['/account/password', 'Password'],
  ['/account/addresses', 'Addresses'],
  ['/account/payment-methods', 'Payment methods'],
  ['/account/wishlist', 'Wishlist'],
  ['/order/history', 'Orders'],
] as const;

export function AccountLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageContainer>
      <div className="grid gap-8 md:grid-cols-[220px_1fr]">
        <nav aria-label="Account" className="flex gap-1 overflow-x-auto md:flex-col">
          {LINKS.map(([to, label]) => (
            <NavLink
              key={to}
              to={to}
              end
              className={({ isActive }) =>
                `rounded-md px-3 py-2 text-sm whitespace-nowrap ${isActive ? 'bg-brand-xlight font-semibold text-brand' : 'text-slate-700 hover:bg-slate-100'}`
              }
            >
              {label}
            </NavLink>
          ))}
        </nav>
        <section>
          <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {children}
        </section>
      </div>
    </PageContainer>
  );
}
