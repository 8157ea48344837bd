import type { ReactNode } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../../root';

/** Auth screens have no header or footer (SPEC.md section 2): a centred card with the store's logo. */
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

/** A labelled input; an error shows under it, is its description, and marks it invalid. */
export function Field({
  label,
  name,
  type = 'text',
  autoComplete,
  required = true,
  defaultValue,
  error,
  hint,
}: {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  defaultValue?: string;
  error?: string;
  hint?: string;
}) {
  const errorId = `${name}-error`;
  const hintId = `${name}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={name} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={name}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required={required}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`h-11 w-full rounded-md border px-3 text-[15px] focus:outline-none focus:ring-2 ${
          error ? 'border-red-600 focus:ring-red-200' : 'border-slate-300 focus:border-brand focus:ring-brand-light'
        }`}
      />
      {hint && !error && (
        <p id={hintId} className="mt-1.5 text-sm text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A form-wide problem (wrong password, too many tries), announced to screen readers. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
      data-testid="form-error"
    >
      {message}
    </p>
  );
}

export const submitClass =
  'h-11 w-full rounded-md bg-action text-sm font-semibold text-white hover:opacity-90 disabled:opacity-60';
