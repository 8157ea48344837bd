import type { ReactNode } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../../root';

/** Auth screens have no header or footer: a centred card with the store's logo. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const store = root?.shell.store;
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-brand-xlight px-4 py-12">
      <Link to="/" className="mb-8" aria-label={`${store?.storeName ?? 'Store'} home`}>
        {store?.logo.url ? (
          <img src={store.logo.url} alt={store.storeName} width={200} height={44} className="h-10 w-auto" />
        ) : (
          <span className="text-2xl font-bold text-brand">{store?.storeName}</span>
        )}
      </Link>
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {lead && <p className="mt-2 text-sm text-slate-600">{lead}</p>}
        <div className="mt-6">{children}</div>
      </div>
      {footer && <div className="mt-6 text-sm text-slate-600">{footer}</div>}
    </div>
  );
}
