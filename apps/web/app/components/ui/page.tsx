import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function PageContainer({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  return <div className={`mx-auto w-full px-4 py-8 md:py-12 ${narrow ? 'max-w-3xl' : 'max-w-7xl'}`}>{children}</div>;
}

export function PageTitle({ children, lead }: { children: ReactNode; lead?: ReactNode }) {
  return (
    <div className="mb-8">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 md:text-3xl">{children}</h1>
      {lead && <p className="mt-2 text-slate-600">{lead}</p>}
    </div>
  );
}

/** A real empty state: what is missing and where to go next. */
export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: { to: string; label: string };
}) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-16 text-center">
      {icon && <div className="mb-4 text-slate-400">{icon}</div>}
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children && <div className="mt-2 max-w-md text-slate-600">{children}</div>}
      {action && (
        <Link
          to={action.to}
          className="mt-6 inline-flex h-11 items-center rounded-md bg-action px-6 text-sm font-semibold text-white hover:opacity-90"
        >
          {action.label}
        </Link>
      )}
    </div>
  );
}

export function Breadcrumbs({ items }: { items: Array<{ label: string; to?: string }> }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-6 text-sm text-slate-600">
      <ol className="flex flex-wrap items-center gap-1.5">
        {items.map((it, i) => (
          <li key={`${it.label}-${i}`} className="flex items-center gap-1.5">
            {i > 0 && <ChevronRight aria-hidden className="size-3.5 shrink-0 text-slate-400" />}
            {it.to ? (
              <Link to={it.to} className="hover:text-brand hover:underline">
                {it.label}
              </Link>
            ) : (
              <span aria-current="page" className="font-medium text-slate-900">
                {it.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
