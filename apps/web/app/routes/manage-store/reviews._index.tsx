import type { ReviewAdminItem } from '@app/contracts';
import { REVIEW_REPLY_MAX, REVIEW_STATUS_LABELS } from '@app/contracts/client';
import { LoaderCircle, MessageSquareQuote } from 'lucide-react';
import { data, Form, Link, useNavigation } from 'react-router';
import { Card, CardEmpty, DashboardLayout, secondaryAction } from '../../components/manage-store/dashboard-layout';
import { RatingStars } from '../../components/product/rating-stars';
import { FormAlert } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/reviews._index';

const PATH = '/manage-store/reviews';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k)?.slice(0, 300) ?? undefined;
  return dashboardRead(request, () =>
    context.api.reviewsAdminPage({
      q: get('q'),
      status: get('status'),
      rating: get('rating'),
      productId: get('productId'),
      cursor: get('cursor'),
    }),
  );
}

/** One action for every row: publish, hide, reply or delete the reply, by intent. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const reviewId = String(form.get('reviewId') ?? '').slice(0, 64);
  const intent = String(form.get('intent') ?? '').slice(0, 20);
  const text = String(form.get('text') ?? '').slice(0, REVIEW_REPLY_MAX + 100);
  const result = await dashboardRead(request, () => context.api.moderateReview(reviewId, { intent, text }));
  return data({ reviewId, intent, result, values: { text } }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Reviews');
}

const STATUS_FILTERS = [
  { value: '', label: 'All statuses' },
  { value: 'PUBLISHED', label: 'Published' },
  { value: 'HIDDEN', label: 'Hidden' },
  { value: 'PENDING', label: 'Pending' },
];
const field =
  'h-9 rounded-lg border border-neutral-300 bg-white px-2.5 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-300';

/** Reviews shoppers wrote: publish or hide them, and answer under them for every shopper to read. */
export default function ReviewsPage({ loaderData: page, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  const navigation = useNavigation();
  const { query } = page;
  const filtered = Boolean(query.q || query.status || query.rating || query.productId);
  const next = new URLSearchParams();
  for (const k of ['q', 'status', 'rating', 'productId'] as const) {
    const v = query[k];
    if (v !== undefined && v !== '') next.set(k, String(v));
  }
  const first = next.toString();
  if (page.nextCursor) next.set('cursor', page.nextCursor);
  const failed = actionData && !actionData.result.ok ? actionData : null;
  const searching = navigation.state === 'loading' && navigation.location?.pathname === PATH;
  return (
    <DashboardLayout
      title="Reviews"
      description="What shoppers wrote about your products. Hide a review to take it off the product page; your reply shows under it."
    >
      <FormAlert
        message={failed && !failed.result.ok && !failed.result.fieldErrors.text ? failed.result.message : null}
      />
      <Card title="All reviews" flush>
        <Form method="get" className="flex flex-wrap items-end gap-2 px-4 pb-3" role="search">
          <div className="flex min-w-48 flex-1 flex-col">
            <label htmlFor="reviews-q" className="mb-1 text-xs font-medium text-neutral-600">
              Search text, author or product
            </label>
            <input id="reviews-q" name="q" type="search" defaultValue={query.q ?? ''} className={field} />
          </div>
          <div className="flex flex-col">
            <label htmlFor="reviews-status" className="mb-1 text-xs font-medium text-neutral-600">
              Status
            </label>
            <select id="reviews-status" name="status" defaultValue={query.status ?? ''} className={field}>
              {STATUS_FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col">
            <label htmlFor="reviews-rating" className="mb-1 text-xs font-medium text-neutral-600">
              Rating
            </label>
            <select id="reviews-rating" name="rating" defaultValue={query.rating ?? ''} className={field}>
              <option value="">Any rating</option>
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={n}>
                  {n} star{n === 1 ? '' : 's'}
                </option>
              ))}
            </select>
          </div>
          <div className="flex min-w-0 max-w-full flex-col">
            <label htmlFor="reviews-product" className="mb-1 text-xs font-medium text-neutral-600">
              Product
            </label>
            <select
              id="reviews-product"
              name="productId"
              defaultValue={query.productId ?? ''}
              className={`${field} max-w-full sm:max-w-64`}
            >
              <option value="">All products</option>
              {page.products.map((p) => (
                <option key={p.productId} value={p.productId}>
                  {p.productName}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={secondaryAction}>
            {searching && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            Show
          </button>
        </Form>
        {page.items.length === 0 ? (
          <CardEmpty
            icon={<MessageSquareQuote className="size-6" />}
            title={filtered ? 'No reviews match' : 'No reviews yet'}
          >
            {filtered ? (
              <Link to={PATH} className="underline underline-offset-2">
                Show all reviews
              </Link>
            ) : (
              'When shoppers review products they bought, the reviews show here.'
            )}
          </CardEmpty>
        ) : (
          <ul className="divide-y divide-neutral-100 border-t border-neutral-100" aria-label="Reviews">
            {page.items.map((r) => (
              <ReviewRow
                key={r.reviewId}
                review={r}
                failed={failed?.reviewId === r.reviewId ? failed : null}
                busy={
                  navigation.state === 'submitting' && navigation.formData?.get('reviewId') === r.reviewId
                    ? String(navigation.formData?.get('intent'))
                    : null
                }
              />
            ))}
          </ul>
        )}
        {(page.nextCursor || query.cursor) && (
          <nav aria-label="Pages" className="flex justify-between gap-3 border-t border-neutral-100 px-4 py-3 text-sm">
            {query.cursor ? (
              <Link to={`${PATH}${first ? `?${first}` : ''}`} className="font-medium underline">
                First page
              </Link>
            ) : (
              <span />
            )}
            {page.nextCursor && (
              <Link to={`${PATH}?${next.toString()}`} className="font-medium underline">
                Next page
              </Link>
            )}
          </nav>
        )}
      </Card>
    </DashboardLayout>
  );
}

const BADGE: Record<ReviewAdminItem['status'], string> = {
  PUBLISHED: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  HIDDEN: 'bg-neutral-100 text-neutral-700 ring-neutral-500/20',
  REJECTED: 'bg-neutral-100 text-neutral-700 ring-neutral-500/20',
  PENDING: 'bg-amber-50 text-amber-800 ring-amber-600/20',
};

type Failed = {
  intent: string;
  result: { ok: false; message: string; fieldErrors: { text?: string } };
  values: { text: string };
};

function ReviewRow({
  review: r,
  failed,
  busy,
}: {
  review: ReviewAdminItem;
  failed: { intent: string; result: { ok: boolean }; values: { text: string } } | null;
  busy: string | null;
}) {
  const shown = r.status === 'PUBLISHED';
  const replyFailed = failed && !failed.result.ok && failed.intent === 'reply' ? (failed as Failed) : null;
  const replyError = replyFailed?.result.fieldErrors.text;
  const replyValue = replyFailed ? replyFailed.values.text : (r.reply?.text ?? '');
  const replyId = `reply-${r.reviewId}`;
  const who = `${r.authorName}’s review of ${r.productName}`;
  return (
    <li className="space-y-2 px-4 py-4" data-testid={`review-row-${r.reviewId}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <RatingStars average={r.rating} count={undefined} showCount={false} />
            <span className="sr-only">{r.rating} out of 5 stars</span>
            <span
              className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${BADGE[r.status]}`}
              data-testid="review-status"
            >
              {REVIEW_STATUS_LABELS[r.status]}
            </span>
          </div>
          <p className="text-sm text-neutral-600">
            <Link
              to={`/manage-store/products/${encodeURIComponent(r.productId)}`}
              className="font-medium text-neutral-900 underline-offset-2 hover:underline"
            >
              {r.productName}
            </Link>{' '}
            · {r.authorName} · <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
          </p>
        </div>
        <PostForm preventScrollReset>
          <input type="hidden" name="reviewId" value={r.reviewId} />
          <input type="hidden" name="intent" value={shown ? 'hide' : 'publish'} />
          <button type="submit" className={secondaryAction} aria-label={`${shown ? 'Hide' : 'Publish'} ${who}`}>
            {busy === (shown ? 'hide' : 'publish') && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            {shown ? 'Hide' : 'Publish'}
          </button>
        </PostForm>
      </div>
      {r.title && <p className="text-sm font-semibold break-words text-neutral-900">{r.title}</p>}
      {r.body && <p className="text-sm leading-6 break-words whitespace-pre-line text-neutral-800">{r.body}</p>}
      {r.reply && !replyFailed && (
        <div className="rounded-lg border-l-4 border-neutral-300 bg-neutral-50 px-3 py-2" data-testid="store-reply">
          <p className="text-xs font-semibold text-neutral-700">
            Your reply{r.reply.byName ? ` (${r.reply.byName})` : ''} ·{' '}
            <time dateTime={r.reply.at}>{formatDateTime(r.reply.at)}</time>
          </p>
          <p className="mt-1 text-sm break-words whitespace-pre-line text-neutral-800">{r.reply.text}</p>
        </div>
      )}
      {/* Keyed on the saved reply: once saved, the form closes; refused, it stays open with the text. */}
      <details className="group" open={Boolean(replyFailed)} key={r.reply?.text ?? ''}>
        <summary className="inline-flex cursor-pointer items-center rounded text-sm font-medium text-neutral-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-neutral-400">
          {r.reply ? 'Edit reply' : 'Reply'}
          <span className="sr-only"> to {who}</span>
        </summary>
        <PostForm className="mt-2 space-y-2" preventScrollReset>
          <input type="hidden" name="reviewId" value={r.reviewId} />
          <input type="hidden" name="intent" value="reply" />
          <label htmlFor={replyId} className="block text-sm font-medium text-neutral-800">
            Public reply, shown under the review
          </label>
          <textarea
            id={replyId}
            name="text"
            rows={3}
            maxLength={REVIEW_REPLY_MAX}
            required
            defaultValue={replyValue}
            key={replyValue}
            aria-invalid={replyError ? true : undefined}
            aria-describedby={replyError ? `${replyId}-error` : undefined}
            className={`w-full rounded-lg border px-2.5 py-2 text-sm ${replyError ? 'border-red-600' : 'border-neutral-300'}`}
          />
          {replyError && (
            <p id={`${replyId}-error`} className="text-sm font-medium text-red-700" data-testid="error-text">
              {replyError}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={secondaryAction}>
              {busy === 'reply' && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
              Save reply
            </button>
          </div>
        </PostForm>
        {r.reply && (
          <PostForm className="mt-2" preventScrollReset>
            <input type="hidden" name="reviewId" value={r.reviewId} />
            <input type="hidden" name="intent" value="delete-reply" />
            <button type="submit" className="text-sm font-medium text-red-700 underline-offset-2 hover:underline">
              Delete reply
            </button>
          </PostForm>
        )}
      </details>
    </li>
  );
}
