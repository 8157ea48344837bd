/**
 * What a card or page shows when it has nothing to list: what is missing and what to do next.
 *
 *   <AdminEmptyState icon={<Tag />} title="No products yet" action={<ButtonLink …>Add product</ButtonLink>}>
 *     Add your first product to start selling.
 *   </AdminEmptyState>
 *
 * (The storefront's EmptyState is page.tsx's; this is the dashboard's, denser and neutral.)
 */
import './kit.css';
import type { ReactNode } from 'react';

export function AdminEmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="kit-empty">
      {icon && (
        <div aria-hidden className="kit-empty__icon">
          {icon}
        </div>
      )}
      <p className="kit-empty__title">{title}</p>
      {children && <div className="kit-empty__body">{children}</div>}
      {action && <div className="kit-empty__action">{action}</div>}
    </div>
  );
}
