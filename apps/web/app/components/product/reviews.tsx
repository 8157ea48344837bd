import type { ProductDetails } from '@app/contracts';
import { formatDate } from '@app/contracts/client';
import { MessageSquareText } from 'lucide-react';
import { useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../../root';
import { RatingStars } from './rating-stars';
import { WriteReview, type WriteReviewProps } from './write-review';

const LEVELS = [5, 4, 3, 2, 1] as const;

export function Reviews({
  summary,
  write,
}: {
  summary: ProductDetails['reviewSummary'];
  /** The "Write a review" part; absent, the section only shows. */
  write?: WriteReviewProps;
}) {
  const { average, count, distribution, latest } = summary;
  // The store's replies are signed with its name, which the frame already has.
  const storeName = useRouteLoaderData<typeof rootLoader>('root')?.shell.store.storeName ?? 'the store';
  return (
    <section aria-labelledby="reviews-heading" className="border-t border-slate-200 py-12" data-testid="reviews">
      <h2 id="reviews-heading" className="text-2xl font-bold tracking-tight text-slate-900">
        Customer reviews
      </h2>
      {count === 0 ? (
        <div className="mt-6 flex items-center gap-3 text-slate-600">
          <MessageSquareText aria-hidden className="size-6 text-slate-400" />
          <p data-testid="no-reviews">No reviews yet. Bought this? Tell other shoppers what you think.</p>
        </div>
      ) : (
        <div className="mt-8 grid gap-10 md:grid-cols-[280px_minmax(0,1fr)] lg:gap-16">
          <div>
            <p className="flex items-baseline gap-2">
              <span className="text-5xl font-bold text-slate-900" data-testid="review-average">
                {(average ?? 0).toFixed(1)}
              </span>
              <span className="text-slate-500">out of 5</span>
            </p>
            <div className="mt-2">
              <RatingStars average={average} size="md" showCount={false} />
            </div>
            <p className="mt-1 text-sm text-slate-600">
              Based on {count} {count === 1 ? 'review' : 'reviews'}
            </p>
            <ul className="mt-6 space-y-2" aria-label="Ratings by stars">
              {LEVELS.map((stars) => {
                const n = distribution[stars];
                const pct = count ? Math.round((n / count) * 100) : 0;
                return (
                  <li key={stars} className="flex items-center gap-3 text-sm" data-testid="review-bar">
                    <span className="w-12 shrink-0 text-slate-700">
                      {stars} star{stars === 1 ? '' : 's'}
                    </span>
                    <span aria-hidden className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200">
                      <span className="block h-full rounded-full bg-amber-500" style={{ width: `${pct}%` }} />
                    </span>
                    <span className="w-8 shrink-0 text-right text-slate-600 tabular-nums">
                      {n}
                      <span className="sr-only"> {n === 1 ? 'review' : 'reviews'}</span>
                    </span>
                  </li>
                );
              })}
            </ul>
          </div>
          <ul className="divide-y divide-slate-200" aria-label="Latest reviews">
            {latest.map((r, i) => (
              <li key={`${r.authorName}-${r.createdAt}-${i}`} className="py-6 first:pt-0">
                <article>
                  <RatingStars average={r.rating} showCount={false} />
                  {r.title && <h3 className="mt-2 font-semibold break-words text-slate-900">{r.title}</h3>}
                  {r.body && (
                    <p
                      className="mt-1 leading-7 break-words whitespace-pre-line text-slate-700"
                      data-testid="review-body"
                    >
                      {r.body}
                    </p>
                  )}
                  <p className="mt-2 text-sm text-slate-500">
                    {r.authorName} · <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
                  </p>
                  {r.reply && (
                    <div
                      className="mt-3 rounded-lg border-l-4 border-slate-300 bg-slate-50 px-4 py-3"
                      data-testid="review-reply"
                    >
                      <p className="text-sm font-semibold text-slate-900">Response from {storeName}</p>
                      <p className="mt-1 text-sm leading-6 break-words whitespace-pre-line text-slate-700">
                        {r.reply.text}
                      </p>
                      <p className="mt-1 text-xs text-slate-500">
                        <time dateTime={r.reply.at}>{formatDate(r.reply.at)}</time>
                      </p>
                    </div>
                  )}
                </article>
              </li>
            ))}
          </ul>
        </div>
      )}
      {write && <WriteReview {...write} />}
    </section>
  );
}
