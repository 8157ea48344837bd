import type { DraftActionResult, DraftStatus } from '@app/contracts';
import { Eye, History, RotateCcw, Upload } from 'lucide-react';
import { useNavigation } from 'react-router';
import { formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { PostForm } from '../ui/post-form';

/**
 * The state of an editor's draft above its form (decision 032): unpublished changes with Preview,
 * Discard and Publish, or the published version it shows. Publish is the page's primary action
 * while there is a draft; each button is a plain form posting its intent to the page's own action.
 */
export function DraftBar({
  status,
  result,
  previewPath = '/',
  what,
  live = true,
  storefrontPreview = true,
  title = 'Unpublished changes',
}: {
  status: DraftStatus;
  /** The page action's answer to a draft intent, if the last post was one. */
  result?: DraftActionResult | null;
  /** Where on the storefront the preview opens (a page's own URL, the home for the theme). */
  previewPath?: string;
  /** What the draft is, in the owner's words: "theme", "banners", "this page". */
  what: string;
  /** False for a thing shoppers cannot see yet (a page never published). */
  live?: boolean;
  /** False where the storefront shows nothing of the draft (shipping, tax: the page previews prices). */
  storefrontPreview?: boolean;
  /** The bar's heading while there is a draft. */
  title?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? '') : '';
  useActionToast(result?.ok ? result : null);
  const latest = status.versions[0];
  const failure = result && !result.ok ? result : null;

  if (!status.draft) {
    return (
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-neutral-200 bg-white px-4 py-3 text-sm">
        <Badge tone="success">Live</Badge>
        <span className="text-neutral-600">
          {latest
            ? `Version ${latest.version}, published ${formatDateTime(latest.publishedAt)}${latest.publishedByName ? ` by ${latest.publishedByName}` : ''}.`
            : `Shoppers see the ${what} as shown below.`}{' '}
          Changes you save stay a draft until you publish them.
        </span>
        {result?.ok && (
          <p role="status" className="w-full text-emerald-800">
            {result.message}
          </p>
        )}
      </div>
    );
  }

  const d = status.draft;
  return (
    <section
      aria-label="Unpublished changes"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3"
    >
      <div className="min-w-0 text-sm">
        <p className="font-semibold text-amber-950">{title}</p>
        <p className="text-amber-900">
          Saved {formatDateTime(d.updatedAt)}
          {d.updatedByName ? ` by ${d.updatedByName}` : ''}.{' '}
          {live ? `Shoppers still see the published ${what}.` : `Shoppers do not see the ${what} until you publish it.`}
        </p>
        {result?.ok && (
          <p role="status" className="mt-1 text-amber-950">
            {result.message}
          </p>
        )}
        {failure && (
          <p role="alert" className="mt-1 font-medium text-red-700">
            {failure.message}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        {/* A document post (not the router's fetch), so the browser honours target and the preview
            opens beside the editor, with or without JavaScript. */}
        {storefrontPreview && (
          <PostForm action="/manage-store/preview" target="_blank" reloadDocument>
            <input type="hidden" name="preview" value="on" />
            <input type="hidden" name="redirectTo" value={previewPath} />
            <Button type="submit">
              <Eye aria-hidden className="size-4" />
              Preview
            </Button>
          </PostForm>
        )}
        <ConfirmDialog
          trigger={
            <>
              <RotateCcw aria-hidden className="size-4" />
              {busy === 'draft-discard' ? 'Discarding…' : 'Discard'}
            </>
          }
          title="Discard the unpublished changes?"
          confirm={
            <PostForm>
              <input type="hidden" name="intent" value="draft-discard" />
              <Button type="submit" variant="critical" disabled={busy !== ''}>
                Discard changes
              </Button>
            </PostForm>
          }
        >
          {live ? `The ${what} goes back to what shoppers see now.` : `The ${what} goes back to its last save.`}
        </ConfirmDialog>
        <PostForm>
          <input type="hidden" name="intent" value="draft-publish" />
          {/* The draft this publish means: one saved since by someone else is refused, not published unseen. */}
          <input type="hidden" name="seen" value={d.updatedAt} />
          <Button type="submit" variant="primary" disabled={busy !== ''}>
            <Upload aria-hidden className="size-4" />
            {busy === 'draft-publish' ? 'Publishing…' : 'Publish'}
          </Button>
        </PostForm>
      </div>
    </section>
  );
}

/**
 * For settings that apply at once unless a draft is started (shipping, tax: decision 120): saves go
 * live at once, as Shopify's settings do; a draft gathers several changes to publish together.
 */
export function StartDraftBar({ status, busy }: { status: DraftStatus; busy: boolean }) {
  const latest = status.versions[0];
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-neutral-200 bg-white px-4 py-3 text-sm">
      <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
        <Badge tone="success">Live</Badge>
        <span className="text-neutral-600">
          Changes you save here apply at checkout at once.
          {latest
            ? ` Last draft published ${formatDateTime(latest.publishedAt)}${latest.publishedByName ? ` by ${latest.publishedByName}` : ''}.`
            : ''}
        </span>
      </div>
      <PostForm>
        <input type="hidden" name="intent" value="startDraft" />
        <Button type="submit" disabled={busy}>
          Start a draft
        </Button>
      </PostForm>
    </div>
  );
}

/** The published versions, newest first, each restorable as a draft (never straight live). */
export function VersionHistory({ status }: { status: DraftStatus }) {
  const navigation = useNavigation();
  const restoring =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'draft-restore'
      ? String(navigation.formData.get('version'))
      : null;
  return (
    <Card title="Version history" flush>
      {status.versions.length === 0 ? (
        <p className="flex items-center gap-2 px-4 pb-3 text-sm text-neutral-600">
          <History aria-hidden className="size-4 text-neutral-400" />
          Nothing published from here yet. Each publish is kept, so you can go back to it.
        </p>
      ) : (
        <ol className="divide-y divide-neutral-100">
          {status.versions.map((v, i) => (
            <li key={v.version} className="flex items-center justify-between gap-3 px-4 py-2">
              <div className="min-w-0 text-sm">
                <p className="font-medium text-neutral-900">
                  Version {v.version}
                  {i === 0 && (
                    <span className="ml-2">
                      <Badge>Live</Badge>
                    </span>
                  )}
                </p>
                <p className="text-neutral-600">
                  {formatDateTime(v.publishedAt)}
                  {v.publishedByName ? ` · ${v.publishedByName}` : ''}
                </p>
              </div>
              {i > 0 && (
                <PostForm>
                  <input type="hidden" name="intent" value="draft-restore" />
                  <input type="hidden" name="version" value={v.version} />
                  <Button type="submit" slim aria-label={`Restore version ${v.version}`} disabled={restoring !== null}>
                    {restoring === String(v.version) ? 'Restoring…' : 'Restore'}
                  </Button>
                </PostForm>
              )}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
