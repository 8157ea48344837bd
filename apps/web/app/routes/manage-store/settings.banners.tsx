import type { BannerField, BannerFormResult, BannerView, DraftActionResult } from '@app/contracts';
import { CSRF_FIELD } from '@app/contracts/client';
import { ArrowDown, ArrowUp, GripVertical, ImageIcon, Pencil, Plus, Trash2 } from 'lucide-react';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { data, Link, useFetcher, useNavigation, useRouteLoaderData, useSearchParams } from 'react-router';
import { BannerForm } from '../../components/manage-store/banner-form';
import { DraftBar, VersionHistory } from '../../components/manage-store/draft-bar';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { draftIntent } from '../../lib/draft-actions';
import { useActionToast } from '../../lib/use-action-toast';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/settings.banners';

const FIELDS: readonly BannerField[] = ['altText', 'title', 'text', 'ctaLabel', 'linkUrl', 'startsAt', 'endsAt'];
const PATH = '/manage-store/settings/banners';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, async () => {
    const [page, library] = await Promise.all([context.api.bannersPage(), context.api.mediaLibrary()]);
    return { ...page, library: library.items };
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Banners');
}

type ActionData =
  | { kind: 'draft'; draft: DraftActionResult }
  | { kind: 'banner'; intent: string; result: BannerFormResult; values: Record<string, string> | null };

export async function action({ request, context }: Route.ActionArgs) {
  // A visitor (or an ended session) goes to login, a shopper gets the 403 page, as for the loader.
  return dashboardRead(request, () => act(request, context));
}

async function act(request: Request, context: Route.ActionArgs['context']) {
  const form = await request.formData();
  const { working } = await context.api.bannersPage();
  const draft = await draftIntent(context.api, form, { kind: 'banners', key: working.productStoreId });
  if (draft) return data<ActionData>({ kind: 'draft', draft }, { status: draft.ok ? 200 : draft.status });

  const intent = String(form.get('intent') ?? '');
  const bannerId = String(form.get('bannerId') ?? '') || null;
  const reply = (result: BannerFormResult, values: Record<string, string> | null = null) =>
    data<ActionData>({ kind: 'banner', intent, result, values }, { status: result.ok ? 200 : result.status });

  switch (intent) {
    case 'save': {
      const values: Record<string, string> = Object.fromEntries(
        [...FIELDS, 'mediaId', 'bannerId'].map((f) => [f, String(form.get(f) ?? '').slice(0, 600)]),
      );
      // Without JavaScript the picture arrives with the form: it goes through the same upload pipeline.
      const file = form.get('file');
      if (file && typeof file !== 'string' && file.size > 0) {
        const uploaded = await context.api.uploadMedia(new Uint8Array(await file.arrayBuffer()), values.altText);
        if (!uploaded.ok) {
          return reply({ ...uploaded, fieldErrors: { mediaId: uploaded.fieldErrors.file } }, values);
        }
        values.mediaId = uploaded.media.mediaId;
      }
      return reply(await context.api.saveBanner(bannerId, values), values);
    }
    case 'delete':
      return reply(await context.api.deleteBanner(bannerId ?? ''));
    case 'move-up':
    case 'move-down':
      return reply(await context.api.moveBanner(bannerId ?? '', intent === 'move-up' ? -1 : 1));
    case 'reorder':
      return reply(await context.api.reorderBanners(form.getAll('bannerIds').map(String)));
    default:
      return reply({ ok: false, status: 400, message: 'Unknown action.', fieldErrors: {} });
  }
}

function dateOnly(iso: string | null, endExclusive = false) {
  if (!iso) return null;
  const t = Date.parse(iso) - (endExclusive ? 86_400_000 : 0);
  return new Date(t).toISOString().slice(0, 10);
}

function Schedule({ b }: { b: BannerView }) {
  const from = dateOnly(b.startsAt);
  const to = dateOnly(b.endsAt, true);
  const now = Date.now();
  const badge = b.showing
    ? { text: 'Showing', cls: 'bg-emerald-100 text-emerald-900' }
    : b.endsAt && Date.parse(b.endsAt) <= now
      ? { text: 'Ended', cls: 'bg-neutral-100 text-neutral-700' }
      : { text: 'Scheduled', cls: 'bg-sky-100 text-sky-900' };
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-neutral-600">
      <span className={`rounded-full px-2 py-0.5 font-semibold ${badge.cls}`}>{badge.text}</span>
      {from || to ? `${from ?? 'Now'} – ${to ?? 'no end'}` : 'Always'}
    </span>
  );
}

/** The list: drag a row by its handle, or use Move up / Move down (keyboard and no JavaScript). */
function BannerList({ views }: { views: BannerView[] }) {
  const fetcher = useFetcher();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const [order, setOrder] = useState(views.map((v) => v.bannerId));
  const dragging = useRef<string | null>(null);
  const [live, setLive] = useState('');
  useEffect(() => setOrder(views.map((v) => v.bannerId)), [views]);
  const byId = new Map(views.map((v) => [v.bannerId, v]));
  const rows = order.map((id) => byId.get(id)).filter((v): v is BannerView => !!v);
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? '') : '';

  function onDragOver(e: DragEvent, overId: string) {
    e.preventDefault();
    const from = dragging.current;
    if (!from || from === overId) return;
    setOrder((o) => {
      const next = o.filter((x) => x !== from);
      next.splice(next.indexOf(overId) + (o.indexOf(from) < o.indexOf(overId) ? 1 : 0), 0, from);
      return next;
    });
  }
  function move(bannerId: string, intent: 'move-up' | 'move-down') {
    const i = order.indexOf(bannerId);
    const j = intent === 'move-up' ? i - 1 : i + 1;
    if (j < 0 || j >= order.length) return;
    const body = new FormData();
    body.set('intent', intent);
    body.set('bannerId', bannerId);
    body.set(CSRF_FIELD, root?.csrfToken ?? '');
    fetcher.submit(body, { method: 'post' });
    setOrder((o) => {
      const next = [...o];
      [next[i], next[j]] = [next[j] as string, next[i] as string];
      return next;
    });
    setLive(`Moved to position ${j + 1} of ${order.length}.`);
  }
  function onDrop() {
    dragging.current = null;
    const body = new FormData();
    body.set('intent', 'reorder');
    for (const id of order) body.append('bannerIds', id);
    body.set(CSRF_FIELD, root?.csrfToken ?? '');
    fetcher.submit(body, { method: 'post' });
    setLive('Banner order saved as a draft.');
  }

  return (
    <>
      <p aria-live="polite" className="sr-only">
        {live}
      </p>
      <ol className="divide-y divide-neutral-100" aria-label="Banners in display order">
        {rows.map((b, i) => (
          <li
            key={b.bannerId}
            onDragOver={(e) => onDragOver(e, b.bannerId)}
            onDrop={onDrop}
            className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 sm:flex-nowrap"
            data-testid="banner-row"
          >
            {/* On a phone there is no dragging: the arrows do it. (The span hides it: the kit's button sets
                its own display.) */}
            <span className="hidden shrink-0 sm:inline-flex">
              <Button
                variant="icon"
                draggable
                onDragStart={(e) => {
                  dragging.current = b.bannerId;
                  e.dataTransfer.effectAllowed = 'move';
                }}
                onDragEnd={() => {
                  dragging.current = null;
                }}
                onKeyDown={(e) => {
                  // The handle moves with the arrow keys too: dragging is never the only way.
                  if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
                  e.preventDefault();
                  move(b.bannerId, e.key === 'ArrowUp' ? 'move-up' : 'move-down');
                }}
                aria-label={`Reorder ${b.title || b.altText}: drag, or press the up and down arrow keys`}
                className="cursor-grab"
              >
                <GripVertical aria-hidden className="size-5" />
              </Button>
            </span>
            <img
              src={`${b.imageUrl}?w=160`}
              alt={b.altText}
              width={160}
              height={60}
              className="h-14 w-24 shrink-0 rounded-md bg-neutral-100 object-cover sm:w-28"
            />
            <div className="min-w-0 flex-1 basis-40">
              <p className="truncate text-sm font-semibold text-neutral-900">
                <span className="mr-1.5 text-neutral-500">{i + 1}.</span>
                {b.title || b.altText}
              </p>
              {b.linkUrl && <p className="truncate text-xs text-neutral-600">Links to {b.linkUrl}</p>}
              <Schedule b={b} />
            </div>
            <div className="ml-auto flex shrink-0 items-center gap-1">
              <PostForm>
                <input type="hidden" name="bannerId" value={b.bannerId} />
                <Button
                  variant="icon"
                  type="submit"
                  name="intent"
                  value="move-up"
                  disabled={i === 0 || busy !== ''}
                  aria-label={`Move ${b.title || b.altText} up`}
                >
                  <ArrowUp aria-hidden className="size-4" />
                </Button>
              </PostForm>
              <PostForm>
                <input type="hidden" name="bannerId" value={b.bannerId} />
                <Button
                  variant="icon"
                  type="submit"
                  name="intent"
                  value="move-down"
                  disabled={i === rows.length - 1 || busy !== ''}
                  aria-label={`Move ${b.title || b.altText} down`}
                >
                  <ArrowDown aria-hidden className="size-4" />
                </Button>
              </PostForm>
              <Link
                to={`?edit=${b.bannerId}#banner-form`}
                aria-label={`Edit ${b.title || b.altText}`}
                className={buttonClass('icon')}
              >
                <Pencil aria-hidden className="size-4" />
              </Link>
              <PostForm>
                <input type="hidden" name="bannerId" value={b.bannerId} />
                {/* At once, without a question: it only changes the draft, which Discard puts back. */}
                <Button
                  variant="icon"
                  type="submit"
                  name="intent"
                  value="delete"
                  disabled={busy !== ''}
                  aria-label={`Delete ${b.title || b.altText}`}
                >
                  <Trash2 aria-hidden className="size-4 text-red-700" />
                </Button>
              </PostForm>
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}

/** Banners: the pictures at the top of the home page, edited as a draft and published together. */
export default function BannersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { working, status, views, library } = loaderData;
  const [params, setParams] = useSearchParams();
  const act = actionData as ActionData | undefined;
  const bannerResult = act?.kind === 'banner' ? act : null;
  useActionToast(bannerResult?.result.ok ? bannerResult.result : null);
  const saved = bannerResult?.intent === 'save' && bannerResult.result.ok;
  // The form posts to the page's own address (without ?edit): a refused save reopens it from the answer.
  const refusedSave = bannerResult?.intent === 'save' && !bannerResult.result.ok ? bannerResult.values : null;
  const editing = saved ? null : (params.get('edit') ?? (refusedSave ? refusedSave.bannerId || 'new' : null));
  const editingBanner = editing && editing !== 'new' ? (views.find((v) => v.bannerId === editing) ?? null) : null;
  const failure = bannerResult && !bannerResult.result.ok ? bannerResult.result : null;

  useEffect(() => {
    // Saved: the form closes (the address drops ?edit, so a reload does not reopen it).
    if (saved && params.get('edit')) setParams({}, { replace: true, preventScrollReset: true });
  }, [saved, params, setParams]);

  return (
    <AdminPage
      title="Banners"
      description="Pictures across the top of your home page, shown in this order."
      primaryAction={
        editing ? null : (
          // While there is a draft, Publish (in the draft bar) is the page's primary action.
          <ButtonLink to="?edit=new#banner-form" variant={status.draft ? 'secondary' : 'primary'}>
            <Plus aria-hidden className="size-4" />
            Add banner
          </ButtonLink>
        )
      }
    >
      <DraftBar status={status} result={act?.kind === 'draft' ? act.draft : null} what="banners" />
      {failure && !bannerResult?.values && <Banner>{failure.message}</Banner>}
      <Card
        title="Home page banners"
        aside={
          <span className="text-xs text-neutral-500">
            {views.length} {views.length === 1 ? 'banner' : 'banners'}
            {working.isDraft ? ' · draft' : ''}
          </span>
        }
        flush
      >
        {views.length === 0 ? (
          <AdminEmptyState
            icon={<ImageIcon className="size-8" />}
            title="No banners yet"
            action={
              editing ? undefined : (
                <ButtonLink to="?edit=new#banner-form">
                  <Plus aria-hidden className="size-4" />
                  Add banner
                </ButtonLink>
              )
            }
          >
            Add a picture with a short message and a link; it shows at the top of your home page.
          </AdminEmptyState>
        ) : (
          <BannerList views={views} />
        )}
      </Card>
      {editing && (editing === 'new' || editingBanner) && (
        <BannerForm
          key={editing}
          banner={editingBanner}
          library={library}
          values={bannerResult?.values ?? null}
          errors={failure?.fieldErrors ?? {}}
          message={failure && bannerResult?.values ? failure.message : null}
          cancelTo={PATH}
          action={PATH}
        />
      )}
      <VersionHistory status={status} />
    </AdminPage>
  );
}
