import type { CmsEditor, CmsPageField, CmsSaveResult, DraftActionResult, PageLinkFlag } from '@app/contracts';
import { ArrowLeft, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { data, Link, redirect, useNavigation } from 'react-router';
import { CmsStatusBadge, PAGE_LINK_FLAGS, PAGE_LINK_PLACES } from '../../components/manage-store/cms-badges';
import { CmsRichText } from '../../components/manage-store/cms-rich-text';
import { Card, DashboardLayout, primaryAction, secondaryAction } from '../../components/manage-store/dashboard-layout';
import { DraftBar, VersionHistory } from '../../components/manage-store/draft-bar';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { DRAFT_INTENTS, draftIntent } from '../../lib/draft-actions';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.cms_.details';

type Values = {
  pageTitle: string;
  pageUrl: string;
  content: string;
  pageLinks: PageLinkFlag[];
  seoTitle: string;
  seoDescription: string;
  sequenceNum: string;
};

const BLANK: Values = {
  pageTitle: '',
  pageUrl: '',
  content: '',
  pageLinks: [],
  seoTitle: '',
  seoDescription: '',
  sequenceNum: '0',
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get('id');
  if (!id) {
    await dashboardRead(request, () => context.api.cmsList()); // the same access check as the list
    return { editor: null as CmsEditor | null, saved: false, confirmDelete: false };
  }
  const editor = await dashboardRead(request, () => context.api.cmsEditor(id));
  if (!editor) throw data({ message: 'There is no such page in this store.' }, { status: 404 });
  return {
    editor,
    saved: url.searchParams.get('saved') === '1',
    confirmDelete: url.searchParams.get('delete') === '1',
  };
}

type ActionAnswer =
  | { kind: 'draft'; result: DraftActionResult }
  | { kind: 'save'; result: CmsSaveResult; values: Values }
  | { kind: 'delete'; result: { ok: false; message: string } };

export async function action({ context, request }: Route.ActionArgs): Promise<ActionAnswer> {
  const form = await request.formData();
  const id = new URL(request.url).searchParams.get('id');
  const intent = String(form.get('intent') ?? 'save');
  if (id && (DRAFT_INTENTS as readonly string[]).includes(intent)) {
    const result = await dashboardRead(request, () => draftIntent(context.api, form, { kind: 'page', key: id }));
    if (result) return { kind: 'draft', result };
  }
  if (id && intent === 'delete') {
    const result = await dashboardRead(request, () => context.api.deleteCmsPage(id));
    if (result.ok) throw redirect('/manage-store/settings/cms?deleted=1');
    return { kind: 'delete', result: { ok: false, message: result.message } };
  }
  const links = form.getAll('pageLinks').map(String);
  const values: Values = {
    pageTitle: String(form.get('pageTitle') ?? ''),
    pageUrl: String(form.get('pageUrl') ?? ''),
    content: String(form.get('content') ?? ''),
    pageLinks: PAGE_LINK_FLAGS.filter((f) => links.includes(f)),
    seoTitle: String(form.get('seoTitle') ?? ''),
    seoDescription: String(form.get('seoDescription') ?? ''),
    sequenceNum: String(form.get('sequenceNum') ?? '0'),
  };
  // Unknown flags are sent as they came, so the server names pageLinks instead of dropping them.
  const input = { ...values, pageLinks: links, sequenceNum: values.sequenceNum.trim() || '0' };
  const result = await dashboardRead(request, () => context.api.saveCmsPage(id, input));
  if (result.ok && !id)
    throw redirect(`/manage-store/settings/cms/details?id=${encodeURIComponent(result.id)}&saved=1`);
  return { kind: 'save', result, values };
}

export function meta({ matches, data: d }: Route.MetaArgs) {
  return dashboardMeta(matches, d?.editor ? `Edit ${d.editor.page.pageTitle}` : 'Add page');
}

const inputClass = (error?: string) =>
  `h-9 w-full rounded-lg border px-3 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-300 ${
    error ? 'border-red-600' : 'border-neutral-300'
  }`;

/** The page editor: create or edit a page as a draft; preview, publish, restore and delete it. */
export default function CmsDetailsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { editor, saved, confirmDelete } = loaderData;
  const navigation = useNavigation();
  const intent = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? 'save') : '';
  const save = actionData?.kind === 'save' ? actionData : null;
  const failed = save && !save.result.ok ? save.result : null;
  const errors: Partial<Record<CmsPageField, string>> = failed?.fieldErrors ?? {};
  // What the owner typed stays on an error; otherwise the saved working copy.
  const values: Values =
    save && failed ? save.values : editor ? { ...editor.page, sequenceNum: String(editor.page.sequenceNum) } : BLANK;
  const savedToast = useMemo(
    () => (saved ? { ok: true, message: 'Page saved as a draft. Preview, then publish.' } : null),
    [saved],
  );
  useActionToast(savedToast);
  useActionToast(save?.result.ok ? save.result : null);
  const draftResult = actionData?.kind === 'draft' ? actionData.result : null;
  const formKey = `${editor?.drafts.draft?.updatedAt ?? ''}:${editor?.drafts.versions[0]?.version ?? 0}:${failed ? 'failed' : 'ok'}`;

  return (
    <DashboardLayout
      title={editor ? editor.page.pageTitle : 'Add page'}
      description={
        editor ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            <CmsStatusBadge status={editor.status} />
            {editor.liveUrl ? (
              <a className="underline" href={`/page/details/${editor.liveUrl}`} target="_blank" rel="noreferrer">
                /page/details/{editor.liveUrl}
              </a>
            ) : (
              'Not published yet: shoppers cannot see it.'
            )}
          </span>
        ) : (
          'A new page is saved as a draft. Preview it, then publish it.'
        )
      }
      action={
        <Link to="/manage-store/settings/cms" className={secondaryAction}>
          <ArrowLeft aria-hidden className="size-4" />
          All pages
        </Link>
      }
    >
      {editor && (
        <DraftBar
          status={editor.drafts}
          result={draftResult}
          previewPath={`/page/details/${editor.page.pageUrl}`}
          what="page"
          live={editor.status !== 'Draft'}
        />
      )}
      <PostForm key={formKey} className="space-y-4" aria-label="Page" noValidate>
        <input type="hidden" name="intent" value="save" />
        {failed && (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            {failed.message}
          </p>
        )}
        <Card>
          <div className="space-y-4 pt-4">
            <TextField label="Title" name="pageTitle" value={values.pageTitle} error={errors.pageTitle} required />
            <div>
              <label htmlFor="pageUrl" className="mb-1.5 block text-sm font-medium text-neutral-800">
                Page URL
              </label>
              <div className="flex items-stretch">
                <span className="inline-flex items-center rounded-l-lg border border-r-0 border-neutral-300 bg-neutral-50 px-2 text-xs text-neutral-600 sm:text-sm">
                  /page/details/
                </span>
                <input
                  id="pageUrl"
                  name="pageUrl"
                  defaultValue={values.pageUrl}
                  required
                  autoCapitalize="none"
                  spellCheck={false}
                  aria-invalid={errors.pageUrl ? true : undefined}
                  aria-describedby={errors.pageUrl ? 'pageUrl-error' : 'pageUrl-hint'}
                  className={`${inputClass(errors.pageUrl)} min-w-0 rounded-l-none`}
                />
              </div>
              <FieldNote
                name="pageUrl"
                error={errors.pageUrl}
                hint="Lower-case letters, digits and dashes, e.g. about-us."
              />
            </div>
            <CmsRichText name="content" label="Content" defaultValue={values.content} error={errors.content} />
          </div>
        </Card>
        <Card title="Where it is linked">
          <fieldset aria-describedby={errors.pageLinks ? 'pageLinks-error' : undefined}>
            <legend className="sr-only">Where it is linked</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {PAGE_LINK_FLAGS.map((flag) => (
                <label
                  key={flag}
                  className="flex items-start gap-2 rounded-lg border border-neutral-200 px-3 py-2 text-sm"
                >
                  <input
                    type="checkbox"
                    name="pageLinks"
                    value={flag}
                    defaultChecked={values.pageLinks.includes(flag)}
                    className="mt-0.5 size-4"
                  />
                  <span>
                    <span className="font-semibold text-neutral-900">{flag}</span>
                    <span className="block text-xs text-neutral-600">{PAGE_LINK_PLACES[flag]}</span>
                  </span>
                </label>
              ))}
            </div>
            <FieldNote name="pageLinks" error={errors.pageLinks} />
            <div className="mt-3 max-w-40">
              <TextField
                label="Order in lists"
                name="sequenceNum"
                value={values.sequenceNum}
                error={errors.sequenceNum}
                inputMode="numeric"
              />
            </div>
          </fieldset>
        </Card>
        <Card title="Search engine listing">
          <div className="space-y-4">
            <TextField
              label="SEO title"
              name="seoTitle"
              value={values.seoTitle}
              error={errors.seoTitle}
              hint="Up to 70 characters. Empty: the page title."
            />
            <div>
              <label htmlFor="seoDescription" className="mb-1.5 block text-sm font-medium text-neutral-800">
                SEO description
              </label>
              <textarea
                id="seoDescription"
                name="seoDescription"
                rows={3}
                defaultValue={values.seoDescription}
                aria-invalid={errors.seoDescription ? true : undefined}
                aria-describedby={errors.seoDescription ? 'seoDescription-error' : 'seoDescription-hint'}
                className={`w-full rounded-lg border px-3 py-2 text-sm ${errors.seoDescription ? 'border-red-600' : 'border-neutral-300'}`}
              />
              <FieldNote name="seoDescription" error={errors.seoDescription} hint="Up to 160 characters." />
            </div>
          </div>
        </Card>
        <div className="flex justify-end gap-2">
          <button type="submit" className={primaryAction} disabled={intent !== ''}>
            {intent === 'save' ? 'Saving…' : editor ? 'Save draft' : 'Save as draft'}
          </button>
        </div>
      </PostForm>
      {editor && <VersionHistory status={editor.drafts} />}
      {editor && <DeletePage editor={editor} confirm={confirmDelete} busy={intent === 'delete'} answer={actionData} />}
    </DashboardLayout>
  );
}

function DeletePage({
  editor,
  confirm,
  busy,
  answer,
}: {
  editor: CmsEditor;
  confirm: boolean;
  busy: boolean;
  answer: ActionAnswer | undefined;
}) {
  const failure = answer?.kind === 'delete' ? answer.result.message : null;
  return (
    <Card title="Delete page">
      {confirm ? (
        <div className="text-sm">
          <p className="font-semibold text-red-900">Delete “{editor.page.pageTitle}” for good?</p>
          <p className="mt-1 text-neutral-700">
            The live page and its unpublished changes go; links to it in menus and the footer disappear.
          </p>
          {failure && (
            <p role="alert" className="mt-1 font-medium text-red-800">
              {failure}
            </p>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            <PostForm>
              <input type="hidden" name="intent" value="delete" />
              <button
                type="submit"
                disabled={busy}
                className="inline-flex h-9 items-center gap-1.5 rounded-lg bg-red-700 px-3.5 text-sm font-semibold text-white hover:bg-red-800"
              >
                <Trash2 aria-hidden className="size-4" />
                {busy ? 'Deleting…' : 'Delete page'}
              </button>
            </PostForm>
            <Link to={`?id=${encodeURIComponent(editor.id)}`} className={secondaryAction}>
              Keep it
            </Link>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-neutral-600">
          <p>Removes the page from the store. You are asked to confirm.</p>
          <Link
            to={`?id=${encodeURIComponent(editor.id)}&delete=1`}
            className="inline-flex h-9 items-center gap-1.5 rounded-lg border border-red-300 px-3.5 font-semibold text-red-700 hover:bg-red-50"
          >
            <Trash2 aria-hidden className="size-4" />
            Delete…
          </Link>
        </div>
      )}
    </Card>
  );
}

function TextField({
  label,
  name,
  value,
  error,
  hint,
  required,
  inputMode,
}: {
  label: string;
  name: string;
  value: string;
  error?: string;
  hint?: string;
  required?: boolean;
  inputMode?: 'numeric';
}) {
  return (
    <div>
      <label htmlFor={name} className="mb-1.5 block text-sm font-medium text-neutral-800">
        {label}
      </label>
      <input
        id={name}
        name={name}
        defaultValue={value}
        required={required}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : hint ? `${name}-hint` : undefined}
        className={inputClass(error)}
      />
      <FieldNote name={name} error={error} hint={hint} />
    </div>
  );
}

function FieldNote({ name, error, hint }: { name: string; error?: string; hint?: string }) {
  if (error) {
    return (
      <p id={`${name}-error`} className="mt-1.5 text-sm font-medium text-red-700">
        {error}
      </p>
    );
  }
  if (!hint) return null;
  return (
    <p id={`${name}-hint`} className="mt-1 text-xs text-neutral-500">
      {hint}
    </p>
  );
}
