import type { ReviewAdminItem } from '@app/contracts';
import { REVIEW_REPLY_MAX, REVIEW_STATUS_LABELS } from '@app/contracts/client';
import { LoaderCircle, MessageSquareQuote } from 'lucide-react';
import { data, Form, Link, useNavigation } from 'react-router';
import { RatingStars } from '../../components/product/rating-stars';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { PostForm } from '../../components/ui/post-form';
import { SelectField } from '../../components/ui/select-field';
import { TextAreaField, TextField } from '../../components/ui/text-field';
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
const RATING_FILTERS = [
  { value: '', label: 'Any rating' },
  ...[5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: `${n} star${n === 1 ? '' : 's'}` })),
];

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
    <AdminPage
      title="Reviews"
      description="What shoppers wrote about your products. Hide a review to take it off the product page; your reply shows under it."
    >
      {failed && !failed.result.ok && !failed.result.fieldErrors.text && <Banner>{failed.result.message}</Banner>}
      <Card title="All reviews" flush>
        <Form method="get" className="flex flex-wrap items-end gap-2 px-4 pb-3" role="search">
          <TextField
            id="reviews-q"
            label="Search text, author or product"
            name="q"
            type="search"
            defaultValue={query.q ?? ''}
            className="min-w-48 flex-1"
          />
          <SelectField
            id="reviews-status"
            label="Status"
            name="status"
            defaultValue={query.status ?? ''}
            options={STATUS_FILTERS}
          />
          <SelectField
            id="reviews-rating"
            label="Rating"
            name="rating"
            defaultValue={query.rating === undefined ? '' : String(query.rating)}
            options={RATING_FILTERS}
          />
          <SelectField
            id="reviews-product"
            label="Product"
            name="productId"
            defaultValue={query.productId ?? ''}
            className="min-w-0 max-w-full sm:max-w-64"
            options={[
              { value: '', label: 'All products' },
              ...page.products.map((p) => ({ value: p.productId, label: p.productName })),
            ]}
          />
          <Button type="submit">
            {searching && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            Show
          </Button>
        </Form>
        {page.items.length === 0 ? (
          <AdminEmptyState
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
          </AdminEmptyState>
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
        <Pagination
          next={page.nextCursor && `${PATH}?${next.toString()}`}
          first={query.cursor ? `${PATH}${first ? `?${first}` : ''}` : null}
        />
      </Card>
    </AdminPage>
  );
}

const TONE: Record<ReviewAdminItem['status'], BadgeTone> = {
  PUBLISHED: 'success',
  HIDDEN: 'neutral',
  REJECTED: 'neutral',
  PENDING: 'warning',
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
            <Badge tone={TONE[r.status]} data-testid="review-status">
              {REVIEW_STATUS_LABELS[r.status]}
            </Badge>
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
          {r.boughtVariant && (
            <p className="text-xs text-neutral-600" data-testid="review-bought">
              Bought: {r.boughtVariant}
            </p>
          )}
        </div>
        <PostForm preventScrollReset>
          <input type="hidden" name="reviewId" value={r.reviewId} />
          <input type="hidden" name="intent" value={shown ? 'hide' : 'publish'} />
          <Button type="submit" slim aria-label={`${shown ? 'Hide' : 'Publish'} ${who}`}>
            {busy === (shown ? 'hide' : 'publish') && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            {shown ? 'Hide' : 'Publish'}
          </Button>
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
          <TextAreaField
            id={replyId}
            label="Public reply, shown under the review"
            name="text"
            rows={3}
            maxLength={REVIEW_REPLY_MAX}
            required
            defaultValue={replyValue}
            key={replyValue}
            error={replyError}
          />
          <Button type="submit">
            {busy === 'reply' && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            Save reply
          </Button>
        </PostForm>
        {r.reply && (
          <div className="mt-2">
            <ConfirmDialog
              slim
              trigger="Delete reply"
              triggerLabel={`Delete your reply to ${who}`}
              title="Delete your reply?"
              confirm={
                <PostForm preventScrollReset>
                  <input type="hidden" name="reviewId" value={r.reviewId} />
                  <input type="hidden" name="intent" value="delete-reply" />
                  <Button type="submit" variant="critical">
                    Delete reply
                  </Button>
                </PostForm>
              }
            >
              Shoppers no longer see it under the review.
            </ConfirmDialog>
          </div>
        )}
      </details>
    </li>
  );
}
