import { Star } from 'lucide-react';

const STARS = [1, 2, 3, 4, 5];

/**
 * Five stars filled to the average (a clipped second row, so 3.8 shows as 3.8). The picture is
 * hidden from screen readers, which get the sentence instead.
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
  const icon = size === 'md' ? 'size-5' : 'size-3.5';
  const label =
    count === undefined
      ? `Rated ${value.toFixed(1)} out of 5`
      : `Rated ${value.toFixed(1)} out of 5, ${count} ${count === 1 ? 'review' : 'reviews'}`;
  return (
    <span className="inline-flex items-center gap-1.5" data-testid="rating">
      <span className="relative inline-flex" aria-hidden>
        <span className="flex text-slate-300">
          {STARS.map((s) => (
            <Star key={s} className={`${icon} fill-current`} strokeWidth={0} />
          ))}
        </span>
        <span
          className="absolute inset-y-0 left-0 flex overflow-hidden text-amber-500"
          style={{ width: `${value * 20}%` }}
        >
          {STARS.map((s) => (
            <Star key={s} className={`${icon} shrink-0 fill-current`} strokeWidth={0} />
          ))}
        </span>
      </span>
      <span className="sr-only">{label}</span>
      {showCount && count !== undefined && (
        <span aria-hidden className="text-xs text-slate-600">
          ({count})
        </span>
      )}
    </span>
  );
}
