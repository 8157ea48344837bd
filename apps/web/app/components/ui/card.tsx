/**
 * A white card on the grey page, a labelled region when titled (a screen reader can jump to it),
 * and jump links to a long page's cards.
 *
 *   <JumpLinks items={[{ id: 'contact', label: 'Contact' }, { id: 'address', label: 'Address' }]} />
 *   <Card id="contact" title="Contact" description="How shoppers reach you.">…fields…</Card>
 *   <Card title="Products" flush>…a table edge to edge…</Card>
 */
import './kit.css';
import type { ReactNode } from 'react';

export const cardIdOf = (title: string) => `card-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export function Card({
  title,
  id,
  description,
  aside,
  flush = false,
  children,
}: {
  title?: string;
  /** The card's anchor (for jump links); `card-<title>` by default. */
  id?: string;
  description?: ReactNode;
  /** Beside the title: a count, a small link or button. */
  aside?: ReactNode;
  /** Lists and tables run edge to edge under the title. */
  flush?: boolean;
  children: ReactNode;
}) {
  const sectionId = id ?? (title ? cardIdOf(title) : undefined);
  const headingId = sectionId ? `${sectionId}-title` : undefined;
  return (
    <section id={sectionId} aria-labelledby={title ? headingId : undefined} className="kit-card">
      {title && (
        <div className="kit-card__header">
          <div className="min-w-0">
            <h2 id={headingId} className="kit-card__title">
              {title}
            </h2>
            {description && <div className="kit-card__description">{description}</div>}
          </div>
          {aside}
        </div>
      )}
      <div
        className={
          flush ? 'kit-card__body--flush' : title ? 'kit-card__body' : 'kit-card__body kit-card__body--untitled'
        }
      >
        {children}
      </div>
    </section>
  );
}

/** Links to the cards of a long page, in order; plain anchors, so they work without JavaScript. */
export function JumpLinks({ items, label = 'Sections' }: { items: { id: string; label: string }[]; label?: string }) {
  return (
    <nav aria-label={label} className="kit-jump-links">
      {items.map((it) => (
        <a key={it.id} href={`#${it.id}`}>
          {it.label}
        </a>
      ))}
    </nav>
  );
}
