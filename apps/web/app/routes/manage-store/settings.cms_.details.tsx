import type { CmsEditor, CmsPageField, CmsSaveResult, DraftActionResult, PageLinkFlag } from '@app/contracts';
import { ArrowLeft, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { data, redirect, useNavigation } from 'react-router';
import { CmsStatusBadge, PAGE_LINK_FLAGS, PAGE_LINK_PLACES } from '../../components/manage-store/cms-badges';
import { CmsRichText } from '../../components/manage-store/cms-rich-text';
import { DraftBar, VersionHistory } from '../../components/manage-store/draft-bar';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { FieldError } from '../../components/ui/field';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { SaveBar } from '../../components/ui/save-bar';
import { NumberField, TextAreaField, TextField } from '../../components/ui/text-field';
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
    <AdminPage
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
      secondaryActions={
        <ButtonLink to="/manage-store/settings/cms">
          <ArrowLeft aria-hidden className="size-4" />
          All pages
        </ButtonLink>
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
        {/* First in the form: Enter in a box saves the draft, and Save stays in reach. */}
        <SaveBar
          busy={intent === 'save'}
          disabled={intent !== ''}
          saveLabel={editor ? 'Save draft' : 'Save as draft'}
          message={failed ? 'Not saved: see the fields marked' : undefined}
        />
        {failed && <Banner>{failed.message}</Banner>}
        <Card>
          <div className="space-y-4">
            <TextField
              label="Title"
              name="pageTitle"
              defaultValue={values.pageTitle}
              error={errors.pageTitle}
              required
            />
            <TextField
              label="Page URL"
              name="pageUrl"
              prefix="/page/details/"
              defaultValue={values.pageUrl}
              required
              autoCapitalize="none"
              spellCheck={false}
              error={errors.pageUrl}
              hint="Lower-case letters, digits and dashes, e.g. about-us."
            />
            <CmsRichText name="content" label="Content" defaultValue={values.content} error={errors.content} />
          </div>
        </Card>
        <Card title="Where it is linked">
          <fieldset aria-describedby={errors.pageLinks ? 'pageLinks-error' : undefined}>
            <legend className="sr-only">Where it is linked</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {PAGE_LINK_FLAGS.map((flag) => (
                <Checkbox
                  key={flag}
                  id={`pageLinks-${flag}`}
                  name="pageLinks"
                  value={flag}
                  defaultChecked={values.pageLinks.includes(flag)}
                  label={<span className="font-semibold text-neutral-900">{flag}</span>}
                  hint={PAGE_LINK_PLACES[flag]}
                />
              ))}
            </div>
            {errors.pageLinks && <FieldError id="pageLinks-error" message={errors.pageLinks} />}
            <div className="mt-3 max-w-40">
              <NumberField
                label="Order in lists"
                name="sequenceNum"
                defaultValue={values.sequenceNum}
                error={errors.sequenceNum}
              />
            </div>
          </fieldset>
        </Card>
        <Card title="Search engine listing">
          <div className="space-y-4">
            <TextField
              label="SEO title"
              name="seoTitle"
              defaultValue={values.seoTitle}
              error={errors.seoTitle}
              hint="Up to 70 characters. Empty: the page title."
            />
            <TextAreaField
              label="SEO description"
              name="seoDescription"
              rows={3}
              defaultValue={values.seoDescription}
              error={errors.seoDescription}
              hint="Up to 160 characters."
            />
          </div>
        </Card>
      </PostForm>
      {editor && <VersionHistory status={editor.drafts} />}
      {editor && <DeletePage editor={editor} confirm={confirmDelete} busy={intent === 'delete'} answer={actionData} />}
    </AdminPage>
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
            <div className="mt-2">
              <Banner>{failure}</Banner>
            </div>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            <PostForm>
              <input type="hidden" name="intent" value="delete" />
              <Button type="submit" variant="critical" disabled={busy}>
                <Trash2 aria-hidden className="size-4" />
                {busy ? 'Deleting…' : 'Delete page'}
              </Button>
            </PostForm>
            <ButtonLink to={`?id=${encodeURIComponent(editor.id)}`}>Keep it</ButtonLink>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-neutral-600">
          <p>Removes the page from the store. You are asked to confirm.</p>
          <ButtonLink to={`?id=${encodeURIComponent(editor.id)}&delete=1`} variant="critical-outline">
            <Trash2 aria-hidden className="size-4" />
            Delete…
          </ButtonLink>
        </div>
      )}
    </Card>
  );
}
