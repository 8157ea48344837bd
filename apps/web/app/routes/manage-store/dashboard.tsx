import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { PageContainer } from '../../components/ui/page';

const LINKS = [
  ['/manage-store/settings/theme', 'Theme'],
  ['/manage-store/settings/banners', 'Banners'],
  ['/manage-store/settings/cms', 'Pages'],
  ['/manage-store/settings/other', 'Store details'],
  ['/manage-store/settings/access', 'Access'],
  ['/manage-store/bonanza-connect', 'Payments'],
] as const;

export function DashboardLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageContainer>
      <div className="grid gap-8 md:grid-cols-[220px_1fr]">
        <nav aria-label="Manage store" className="flex gap-1 overflow-x-auto md:flex-col">
          {LINKS.map(([to, label]) => (
            <NavLink
              key={to}
              to={to}
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
