import type { CSSProperties } from 'react';

/**
 * Five stars filled to the average (3.8 shows as 3.8). One element painted through a star mask
 * (`.rating-stars` in app.css) rather than ten inline SVGs: a grid of 24 cards carried 80 KB of
 * star paths and 500 DOM nodes. The picture is hidden from screen readers, which get the sentence.
 */
export function RatingStars({
  average,
  count,
  size = 'sm',
  showCount = true,
}: {
  average: number | null;
  count?: number;
  size?: 'sm' | 'md';
  showCount?: boolean;
}) {
  const value = Math.max(0, Math.min(5, average ?? 0));
  const label =
    count === undefined
      ? `Rated ${value.toFixed(1)} out of 5`
      : `Rated ${value.toFixed(1)} out of 5, ${count} ${count === 1 ? 'review' : 'reviews'}`;
  return (
    <span className="inline-flex items-center gap-1.5" data-testid="rating">
      <span
        aria-hidden
        className={`rating-stars ${size === 'md' ? 'h-5' : 'h-3.5'}`}
        style={{ '--rating-fill': `${value * 20}%` } as CSSProperties}
      />
      <span className="sr-only">{label}</span>
      {showCount && count !== undefined && (
        <span aria-hidden className="text-xs text-slate-600">
          ({count})
        </span>
      )}
    </span>
  );
}
