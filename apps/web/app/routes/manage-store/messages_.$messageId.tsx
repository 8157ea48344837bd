import { MESSAGE_REPLY_MAX } from '@app/contracts/client';
import { Archive, ArrowLeft, Inbox, LoaderCircle, Mail, Send } from 'lucide-react';
import { data, Link, redirect, useNavigation } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { TextAreaField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/messages_.$messageId';

/** Opening the page marks the message read (the page function does, like opening a mail). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const thread = await dashboardRead(request, () => context.api.messagePage(params.messageId));
  if (!thread) throw data({ message: 'No such message in this store.' }, { status: 404 });
  return thread;
}

/**
 * Reply and "move to inbox" stay on the message; archive and "mark unread" go back to the list,
 * as a mail client does (staying would read the message again and undo "unread").
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '').slice(0, 20);
  const text = String(form.get('text') ?? '').slice(0, MESSAGE_REPLY_MAX + 100);
  const result = await dashboardRead(request, () => context.api.messageAction(params.messageId, { intent, text }));
  if (result.ok && intent === 'archive') throw redirect('/manage-store/messages?done=archived');
  if (result.ok && intent === 'unread') throw redirect('/manage-store/messages?done=unread');
  return data({ intent, result, values: { text } }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return dashboardMeta(matches, loaderData ? `Message from ${loaderData.name}` : 'Message');
}

export default function MessagePage({ loaderData: m, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' ? String(navigation.formData?.get('intent')) : null;
  const failed = actionData && !actionData.result.ok ? actionData : null;
  const textError = failed && !failed.result.ok ? failed.result.fieldErrors.text : undefined;
  // A sent reply empties the box; a refused one keeps what was typed.
  const sent = actionData?.intent === 'reply' && actionData.result.ok;
  const textValue = failed?.intent === 'reply' ? failed.values.text : '';
  const archived = m.status === 'archived';
  const back = archived ? '/manage-store/messages?folder=archived' : '/manage-store/messages';
  return (
    <AdminPage
      title={`Message from ${m.name}`}
      description={
        <Link to={back} className="inline-flex items-center gap-1 font-medium underline-offset-2 hover:underline">
          <ArrowLeft aria-hidden className="size-4" />
          {archived ? 'Archived messages' : 'Inbox'}
        </Link>
      }
    >
      {failed && !failed.result.ok && !textError && <Banner>{failed.result.message}</Banner>}
      <Card title="Message">
        <div className="space-y-3">
          <p className="text-sm text-neutral-600">
            <span className="font-semibold text-neutral-900">{m.name}</span>{' '}
            <a href={`mailto:${m.email}`} className="break-all underline underline-offset-2">
              {m.email}
            </a>{' '}
            · <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
            {archived && (
              <span className="ml-2">
                <Badge>Archived</Badge>
              </span>
            )}
          </p>
          <p className="text-sm leading-6 break-words whitespace-pre-line text-neutral-900" data-testid="message-text">
            {m.message}
          </p>
          <div className="flex flex-wrap gap-2 border-t border-neutral-100 pt-3">
            <PostForm>
              <input type="hidden" name="intent" value={archived ? 'inbox' : 'archive'} />
              <Button type="submit">
                {busy === 'archive' || busy === 'inbox' ? (
                  <LoaderCircle aria-hidden className="size-4 animate-spin" />
                ) : archived ? (
                  <Inbox aria-hidden className="size-4" />
                ) : (
                  <Archive aria-hidden className="size-4" />
                )}
                {archived ? 'Move to inbox' : 'Archive'}
              </Button>
            </PostForm>
            <PostForm>
              <input type="hidden" name="intent" value="unread" />
              <Button type="submit">
                {busy === 'unread' ? (
                  <LoaderCircle aria-hidden className="size-4 animate-spin" />
                ) : (
                  <Mail aria-hidden className="size-4" />
                )}
                Mark unread
              </Button>
            </PostForm>
          </div>
        </div>
      </Card>
      {m.replies.length > 0 && (
        <Card title="Replies sent" flush>
          <ol className="divide-y divide-neutral-100 border-t border-neutral-100" aria-label="Replies sent">
            {m.replies.map((r) => (
              <li key={r.replyId} className="px-4 py-3" data-testid="message-reply">
                <p className="text-xs text-neutral-500">
                  {r.sentByName ? `${r.sentByName} · ` : ''}
                  <time dateTime={r.sentAt}>{formatDateTime(r.sentAt)}</time> · emailed to {m.email}
                </p>
                <p className="mt-1 text-sm leading-6 break-words whitespace-pre-line text-neutral-900">{r.text}</p>
              </li>
            ))}
          </ol>
        </Card>
      )}
      <Card title="Reply by email">
        <PostForm className="space-y-2" preventScrollReset>
          <input type="hidden" name="intent" value="reply" />
          <TextAreaField
            id="reply-text"
            label={`Your reply to ${m.name}`}
            name="text"
            rows={6}
            maxLength={MESSAGE_REPLY_MAX}
            required
            defaultValue={textValue}
            key={sent ? `sent-${m.replies.length}` : textValue}
            error={textError}
            hint={`Sent to ${m.email} from your store, with their message quoted; their answer comes to your store's email.`}
          />
          <Button type="submit" variant="primary">
            {busy === 'reply' ? (
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
            ) : (
              <Send aria-hidden className="size-4" />
            )}
            Send reply
          </Button>
        </PostForm>
      </Card>
    </AdminPage>
  );
}
