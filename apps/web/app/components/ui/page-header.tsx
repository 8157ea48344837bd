/**
 * A dashboard page: its title, a line on what it is for, ONE primary action and a few secondary
 * ones, then its cards (Polaris's Page).
 *
 *   <AdminPage title="Products" description="Everything you sell."
 *     primaryAction={<ButtonLink variant="primary" to="new">Add product</ButtonLink>}
 *     secondaryActions={<ButtonLink to="import">Import</ButtonLink>}>
 *     <Card title="…">…</Card>
 *   </AdminPage>
 *
 * `layout="two-column"` puts children in a main column and an aside: pass `aside`.
 */
import './kit.css';
import type { ReactNode } from 'react';

export function PageHeader({
  title,
  description,
  primaryAction,
  secondaryActions,
}: {
  title: ReactNode;
  description?: ReactNode;
  primaryAction?: ReactNode;
  secondaryActions?: ReactNode;
}) {
  return (
    <div className="kit-page__header">
      <div className="min-w-0">
        <h1 className="kit-page__title">{title}</h1>
        {description && <div className="kit-page__description">{description}</div>}
      </div>
      {(primaryAction || secondaryActions) && (
        <div className="kit-page__actions">
          {secondaryActions}
          {primaryAction}
        </div>
      )}
    </div>
  );
}

export function AdminPage({
  children,
  aside,
  ...header
}: Parameters<typeof PageHeader>[0] & { children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="kit-page">
      <PageHeader {...header} />
      {aside ? (
        <div className="kit-layout">
          <div className="kit-stack">{children}</div>
          <div className="kit-stack">{aside}</div>
        </div>
      ) : (
        <div className="kit-stack">{children}</div>
      )}
    </div>
  );
}
