import { FEED_SKIP_REASONS, type ProductFeed } from '@app/contracts';
import { Link, useNavigation } from 'react-router';
import { formatDateTime } from '../../../lib/dashboard-page';
import { Badge } from '../../ui/badge';
import { Banner } from '../../ui/banner';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { PostForm } from '../../ui/post-form';
import { FeedUrlField } from './feed-url-field';

const reasonLabel = (r: string) => FEED_SKIP_REASONS[r as keyof typeof FEED_SKIP_REASONS] ?? r;

/** The store's product feed: its URL, what the last build listed and left out, and when it was fetched. */
export function FeedCard({ feed }: { feed: ProductFeed }) {
  const navigation = useNavigation();
  const regenerating = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'regenerate';
  const figures: [string, string][] = [
    ['Products in feed', feed.productCount.toLocaleString('en-US')],
    ['Last built', feed.builtAt ? formatDateTime(feed.builtAt) : 'Not yet'],
    ['Last fetched', feed.lastFetchedAt ? formatDateTime(feed.lastFetchedAt) : 'Never'],
    ['Fetches', feed.fetchCount.toLocaleString('en-US')],
  ];
  return (
    <Card title="Product feed">
      <div className="space-y-4">
        {!feed.storePublic && (
          <Banner tone="warning" testId="feed-private">
            Your store is private, so the feed answers “not found” to marketplaces. Make the store public in{' '}
            <Link to="/manage-store/settings/access" className="font-medium underline underline-offset-2">
              Access
            </Link>{' '}
            to share your products.
          </Banner>
        )}
        <FeedUrlField url={feed.url} primary />
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="feed-figures">
          {figures.map(([label, value]) => (
            <div key={label} className="rounded-lg bg-neutral-50 px-3 py-2">
              <dt className="text-xs text-neutral-500">{label}</dt>
              <dd className="text-sm font-semibold text-neutral-900 tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        {feed.lastFetchedBy && (
          <p className="text-xs text-neutral-500">
            Last fetched by <span className="font-mono">{feed.lastFetchedBy}</span>
          </p>
        )}
        <p className="text-sm text-neutral-600">
          Only active products that are in stock and have a picture and a price are listed. The feed follows your
          catalog by itself: a changed price, stock level or product shows at the next fetch.
        </p>
        <div className="flex flex-wrap items-center gap-3 border-t border-neutral-100 pt-4">
          <ConfirmDialog
            trigger={regenerating ? 'Making a new URL…' : 'Regenerate feed URL'}
            title="Make a new feed URL?"
            confirm={
              <PostForm>
                <input type="hidden" name="intent" value="regenerate" />
                <Button type="submit" variant="critical" disabled={regenerating}>
                  Regenerate feed URL
                </Button>
              </PostForm>
            }
          >
            The current URL stops working at once; give Bonanza the new one.
          </ConfirmDialog>
          <span className="text-xs text-neutral-500">The current URL stops working; give Bonanza the new one.</span>
        </div>
      </div>
    </Card>
  );
}

/** Active, in-stock products the feed leaves out, and why, so the owner can fix them. */
export function SkippedCard({ feed }: { feed: ProductFeed }) {
  const total = feed.skipped.length + feed.skippedMore;
  if (total === 0) return null;
  return (
    <Card
      title="Products left out"
      aside={<span className="text-xs text-neutral-500">{total.toLocaleString('en-US')}</span>}
      flush
    >
      <ul className="divide-y divide-neutral-100" data-testid="feed-skipped">
        {feed.skipped.map((s) => (
          <li key={s.productId} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2.5">
            <Link
              to={`/manage-store/products/${encodeURIComponent(s.productId)}`}
              className="min-w-0 truncate text-sm font-medium text-neutral-900 hover:underline"
            >
              {s.title}
            </Link>
            <span className="flex flex-wrap gap-1.5">
              {s.reasons.map((r) => (
                <Badge key={r} tone="warning">
                  {reasonLabel(r)}
                </Badge>
              ))}
            </span>
          </li>
        ))}
      </ul>
      {feed.skippedMore > 0 && (
        <p className="px-4 py-2.5 text-sm text-neutral-600">
          and {feed.skippedMore.toLocaleString('en-US')} more. Fix these first; the list updates with the feed.
        </p>
      )}
    </Card>
  );
}
