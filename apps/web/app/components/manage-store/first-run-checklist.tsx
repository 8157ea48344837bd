import type { FirstRunChecklist } from '@app/contracts';
import { CheckCircle2, Circle } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { PostForm } from '../ui/post-form';

/**
 * A new store's first-run checklist on the dashboard home (decision 103). Each item ticks from the
 * store's own state (a product of its own, the look changed, PayPal connected, open to visitors);
 * the owner may put it away. Plain links and form posts: it works before the app has started.
 */
export function FirstRunChecklistCard({ checklist }: { checklist: FirstRunChecklist }) {
  const total = checklist.items.length;
  const live = checklist.items.find((i) => i.id === 'live');
  return (
    <Card
      title="Set up your store"
      description={`${checklist.done} of ${total} done. Each step ticks itself once it is done.`}
      aside={
        <PostForm>
          <input type="hidden" name="intent" value="dismiss" />
          <Button type="submit" variant="plain" slim>
            Dismiss the checklist
          </Button>
        </PostForm>
      }
    >
      <ol className="divide-y divide-neutral-200" data-testid="first-run-checklist">
        {checklist.items.map((item) => (
          <li key={item.id} className="flex items-start gap-3 py-3">
            {item.done ? (
              <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0 text-emerald-700" />
            ) : (
              <Circle aria-hidden className="mt-0.5 size-5 shrink-0 text-neutral-400" />
            )}
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold text-neutral-900">
                {item.title}
                <span className="sr-only">{item.done ? ' (done)' : ' (to do)'}</span>
              </p>
              <p className="text-sm text-neutral-600">{item.description}</p>
            </div>
            {!item.done &&
              (item.id === 'live' ? (
                <PostForm>
                  <input type="hidden" name="intent" value="go-live" />
                  <Button type="submit" variant="primary" slim>
                    Go live
                  </Button>
                </PostForm>
              ) : (
                <Link to={item.href} className="shrink-0 text-sm font-medium text-blue-700 underline">
                  {item.linkLabel}
                </Link>
              ))}
          </li>
        ))}
      </ol>
      {live?.done && (
        <p className="pt-2 text-sm text-neutral-700">
          Your store is open at{' '}
          <a href={checklist.storeUrl} className="font-medium text-blue-700 underline">
            {checklist.storeUrl}
          </a>
          .
        </p>
      )}
    </Card>
  );
}
