import type { MessageSummary } from '@app/contracts';
import { Archive, Inbox, LoaderCircle, MessagesSquare } from 'lucide-react';
import { useEffect } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { TextField } from '../../components/ui/text-field';
import { useToast } from '../../components/ui/toast';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import type { Route } from './+types/messages._index';

const PATH = '/manage-store/messages';
/** What a message page's action sent the owner back here after (it says so once). */
const DONE: Record<string, string> = { archived: 'Message archived.', unread: 'Message marked unread.' };

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k)?.slice(0, 300) ?? undefined;
  const page = await dashboardRead(request, () =>
    context.api.messagesPage({ folder: get('folder'), q: get('q'), cursor: get('cursor') }),
  );
  return { ...page, done: DONE[get('done') ?? ''] ?? null };
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Messages');
}

/** Messages visitors sent through the contact page: unread first to the eye, read, reply, archive. */
export default function MessagesPage({ loaderData: page }: Route.ComponentProps) {
  const toast = useToast();
  useEffect(() => {
    if (page.done) toast('success', page.done);
  }, [page.done, toast]);
  const navigation = useNavigation();
  const { query } = page;
  const archived = query.folder === 'archived';
  const next = new URLSearchParams();
  if (archived) next.set('folder', 'archived');
  if (query.q) next.set('q', query.q);
  const first = next.toString();
  if (page.nextCursor) next.set('cursor', page.nextCursor);
  const searching = navigation.state === 'loading' && navigation.location?.pathname === PATH;
  const tab = (active: boolean) =>
    `inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium ${
      active ? 'border-neutral-900 text-neutral-900' : 'border-transparent text-neutral-600 hover:text-neutral-900'
    }`;
  return (
    <AdminPage
      title="Messages"
      description="What visitors sent through your contact page. Replies go by email from your store and stay in the thread."
    >
      <Card flush>
        <nav aria-label="Folders" className="flex gap-1 border-b border-neutral-100 px-2">
          <Link to={PATH} className={tab(!archived)} aria-current={!archived ? 'page' : undefined}>
            <Inbox aria-hidden className="size-4" />
            Inbox
            {page.unread > 0 && (
              <span
                className="rounded-full bg-neutral-900 px-1.5 text-xs font-semibold text-white tabular-nums"
                data-testid="unread-count"
              >
                {page.unread}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </Link>
          <Link to={`${PATH}?folder=archived`} className={tab(archived)} aria-current={archived ? 'page' : undefined}>
            <Archive aria-hidden className="size-4" />
            Archived
          </Link>
        </nav>
        <Form method="get" className="flex flex-wrap items-end gap-2 px-4 py-3" role="search">
          {archived && <input type="hidden" name="folder" value="archived" />}
          <TextField
            id="messages-q"
            label="Search name, email or text"
            name="q"
            type="search"
            defaultValue={query.q ?? ''}
            className="min-w-48 flex-1"
          />
          <Button type="submit">
            {searching && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            Search
          </Button>
        </Form>
        {page.items.length === 0 ? (
          <AdminEmptyState
            icon={<MessagesSquare className="size-6" />}
            title={query.q ? 'No messages match' : archived ? 'No archived messages' : 'Your inbox is empty'}
          >
            {query.q ? (
              <Link to={archived ? `${PATH}?folder=archived` : PATH} className="underline underline-offset-2">
                Show all messages
              </Link>
            ) : archived ? (
              'Messages you archive are kept here.'
            ) : (
              'When visitors write to you through the contact page, their messages show here.'
            )}
          </AdminEmptyState>
        ) : (
          <ul
            className="divide-y divide-neutral-100 border-t border-neutral-100"
            aria-label={archived ? 'Archived messages' : 'Inbox'}
          >
            {page.items.map((m) => (
              <MessageRow key={m.messageId} message={m} />
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

function MessageRow({ message: m }: { message: MessageSummary }) {
  return (
    <li data-testid={`message-row-${m.messageId}`} data-unread={m.unread ? 'true' : undefined}>
      <Link
        to={`${PATH}/${encodeURIComponent(m.messageId)}`}
        className="flex gap-3 px-4 py-3 hover:bg-neutral-50 focus:outline-none focus-visible:bg-neutral-50 focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-neutral-400"
      >
        <span
          aria-hidden
          className={`mt-1.5 size-2 shrink-0 rounded-full ${m.unread ? 'bg-blue-600' : 'bg-transparent'}`}
        />
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className={`truncate text-sm ${m.unread ? 'font-bold text-neutral-900' : 'text-neutral-800'}`}>
              {m.unread && <span className="sr-only">Unread: </span>}
              {m.name} <span className="font-normal text-neutral-500">&lt;{m.email}&gt;</span>
            </span>
            <time dateTime={m.createdAt} className="shrink-0 text-xs text-neutral-500">
              {formatDateTime(m.createdAt)}
            </time>
          </span>
          <span
            className={`mt-0.5 block truncate text-sm ${m.unread ? 'font-semibold text-neutral-800' : 'text-neutral-600'}`}
          >
            {m.excerpt}
          </span>
          {m.replies > 0 && (
            <span className="mt-0.5 block text-xs text-neutral-500">
              {m.replies} {m.replies === 1 ? 'reply' : 'replies'} sent
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}
