import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * One dashboard page inside the dashboard frame (the guard draws the navigation): its title, a
 * line saying what the page is for, at most one primary action, then its cards. Polaris's Page.
 */
export function DashboardLayout({
  title,
  description,
  action,
  children,
}: {
  title: string;
  description?: ReactNode;
  /** The page's one primary action (a link or a submit button styled with `primaryAction`). */
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-5xl">
      <div className="mb-5 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-bold tracking-tight text-neutral-900">{title}</h1>
          {description && <p className="mt-1 text-sm text-neutral-600">{description}</p>}
        </div>
        {action}
      </div>
      <div className="space-y-4">{children}</div>
    </div>
  );
}

/** The dark, compact button Polaris uses for a page's primary action. */
export const primaryAction =
  'inline-flex h-9 items-center gap-1.5 rounded-lg bg-neutral-900 px-3.5 text-sm font-semibold text-white shadow-sm hover:bg-neutral-700';
export const secondaryAction =
  'inline-flex h-9 items-center gap-1.5 rounded-lg border border-neutral-300 bg-white px-3.5 text-sm font-semibold text-neutral-800 shadow-sm hover:bg-neutral-50';

export const cardClass =
  'overflow-hidden rounded-xl border border-neutral-200 bg-white shadow-[0_1px_0_rgba(0,0,0,0.05)]';
export const cardId = (title: string) => `card-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** A white card on the grey page; `title` makes it a labelled region a screen reader can jump to. */
export function Card({
  title,
  aside,
  children,
  flush = false,
}: {
  title?: string;
  /** Beside the title: a count, a small link. */
  aside?: ReactNode;
  children: ReactNode;
  /** Lists run edge to edge under the title. */
  flush?: boolean;
}) {
  const id = title ? cardId(title) : undefined;
  return (
    <section aria-labelledby={id} className={cardClass}>
      {title && (
        <div className="flex items-center justify-between gap-3 px-4 pt-4 pb-2">
          <h2 id={id} className="text-sm font-semibold text-neutral-900">
            {title}
          </h2>
          {aside}
        </div>
      )}
      <div className={flush ? 'pb-1' : 'px-4 pb-4'}>{children}</div>
    </section>
  );
}

/** What a card or page shows when it has nothing to list: what is missing and what to do. */
export function CardEmpty({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-4 py-8 text-center">
      {icon && (
        <div aria-hidden className="mb-3 text-neutral-400">
          {icon}
        </div>
      )}
      <p className="text-sm font-semibold text-neutral-900">{title}</p>
      {children && <div className="mt-1 max-w-sm text-sm text-neutral-600">{children}</div>}
    </div>
  );
}

/**
 * An area the dashboard will have but does not yet: says plainly what will be there, that it is
 * not available yet, and where to go meanwhile. No fake table.
 */
export function NotYetAvailable({
  title,
  icon,
  will,
  meanwhile,
}: {
  title: string;
  icon: ReactNode;
  /** What the page will let the owner do. */
  will: ReactNode;
  /** Where the owner can do or see some of it today. */
  meanwhile?: ReactNode;
}) {
  return (
    <DashboardLayout title={title}>
      <Card>
        <div className="flex flex-col items-center px-2 py-10 text-center">
          <div aria-hidden className="mb-4 rounded-full bg-neutral-100 p-3 text-neutral-500">
            {icon}
          </div>
          <h2 className="text-base font-semibold text-neutral-900">This page is not available yet</h2>
          <p className="mt-2 max-w-md text-sm text-neutral-600">{will}</p>
          {meanwhile && <p className="mt-2 max-w-md text-sm text-neutral-600">{meanwhile}</p>}
          <Link to="/manage-store" className={`${secondaryAction} mt-6`}>
            Back to Home
          </Link>
        </div>
      </Card>
    </DashboardLayout>
  );
}
