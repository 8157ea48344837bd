import type { DraftActionResult, SettingsSaveResult } from '@app/contracts';
import type { ReactNode } from 'react';
import { data, useNavigation } from 'react-router';
import { CancelRequestCard } from '../../components/manage-store/cancel-request-card';
import { DraftBar, VersionHistory } from '../../components/manage-store/draft-bar';
import { MediaField } from '../../components/manage-store/media-field';
import { fieldId, SavedNote } from '../../components/manage-store/store-details-fields';
import { Banner } from '../../components/ui/banner';
import { Card, JumpLinks } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { SaveBar } from '../../components/ui/save-bar';
import { SelectField } from '../../components/ui/select-field';
import { TextAreaField, TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { draftIntent } from '../../lib/draft-actions';
import { detailsPayload, seoErrorsToRows, typedValues } from '../../lib/store-settings-form';
import type { Route } from './+types/settings.other';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, async () => {
    const [editor, library] = await Promise.all([context.api.detailsEditor(), context.api.mediaLibrary()]);
    return { ...editor, library: library.items };
  });
}

/**
 * The logo picked in the media field becomes `logo.url` (the picture's /media/ path): a file posted
 * with the form (no JavaScript) goes through the upload pipeline first; a picture chosen from the
 * library is looked up there. A refusal is the logo field's error. Nothing chosen keeps the URL field.
 */
async function pickedLogo(
  api: Route.ActionArgs['context']['api'],
  form: FormData,
): Promise<{ url: string } | { error: string } | null> {
  const file = form.get('logoFile');
  if (file && typeof file !== 'string' && file.size > 0) {
    const uploaded = await api.uploadMedia(new Uint8Array(await file.arrayBuffer()), 'Logo');
    return uploaded.ok ? { url: uploaded.media.url } : { error: uploaded.fieldErrors.file ?? uploaded.message };
  }
  const mediaId = String(form.get('logoMediaId') ?? '');
  if (!mediaId) return null;
  const found = (await api.mediaLibrary()).items.find((m) => m.mediaId === mediaId);
  return found ? { url: found.url } : { error: 'Choose a picture from your library, or upload one.' };
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Store details');
}

type ActionData =
  | { draft: DraftActionResult; save?: undefined; typed?: undefined }
  | { save: SettingsSaveResult; typed: Record<string, string> | null; draft?: undefined };

/** Saves the form as the store details draft, or runs a draft control (publish, discard, restore). */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const key = (await context.api.shell())?.tenant.productStoreId ?? '';
  const draft = await dashboardRead(request, () => draftIntent(context.api, form, { kind: 'details', key }));
  if (draft) return data<ActionData>({ draft }, { status: draft.ok ? 200 : draft.status });
  const logo = await dashboardRead(request, () => pickedLogo(context.api, form));
  if (logo && 'error' in logo) {
    const save: SettingsSaveResult = {
      ok: false,
      status: 422,
      message: 'Please check the fields marked below.',
      fieldErrors: { logoMedia: logo.error },
    };
    return data<ActionData>({ save, typed: typedValues(form) }, { status: 422 });
  }
  if (logo) form.set('logo.url', logo.url);
  const { payload, seoRows } = detailsPayload(form);
  let save = await dashboardRead(request, () => context.api.saveDetailsDraft(payload));
  if (!save.ok) save = { ...save, fieldErrors: seoErrorsToRows(save.fieldErrors, seoRows) };
  return data<ActionData>({ save, typed: save.ok ? null : typedValues(form) }, { status: save.ok ? 200 : save.status });
}

/** Blank SEO rows offered for a new entry below the existing ones. */
const NEW_SEO_ROWS = 1;

/** The page's sections, in order: each a card with its heading, reached by the jump links at the top. */
const SECTIONS = [
  { id: 'logo', label: 'Logo and header' },
  { id: 'texts', label: 'Storefront texts' },
  { id: 'company', label: 'Company' },
  { id: 'newsletter', label: 'Newsletter and chat' },
  { id: 'seo', label: 'Search engine listing' },
] as const;
const title = (id: (typeof SECTIONS)[number]['id']) => SECTIONS.find((x) => x.id === id)?.label ?? id;

/**
 * Logo and header, storefront texts, company, newsletter and chat, and SEO entries: one draft form in
 * sections (cards with headings and jump links), its save bar first so Save is always in reach and
 * Enter in any box saves.
 */
export default function StoreDetailsPage({ loaderData: editor, actionData }: Route.ComponentProps) {
  const result = actionData as ActionData | undefined;
  const save = result?.save;
  const failed = save && !save.ok ? save : null;
  const typed = result?.typed ?? null;
  const errors = (failed?.fieldErrors ?? {}) as Record<string, string | undefined>;
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const v = editor.values;
  // What the field shows: what was typed when a save was refused, else the draft or what is live.
  const val = (name: string, fallback: string | null) => (typed ? (typed[name] ?? '') : (fallback ?? ''));
  const seoCount = Math.max(
    v.seoMeta.length + NEW_SEO_ROWS,
    ...Object.keys(typed ?? {}).map((k) => Number(/^seoMeta\.(\d+)\./.exec(k)?.[1] ?? -1) + 1),
  );
  const formKey = `${editor.status.draft?.updatedAt ?? 'live'}-${editor.status.versions[0]?.version ?? 0}-${failed ? 'typed' : ''}`;
  /** A text box of the form, by its payload path. */
  const text = (
    name: string,
    label: string,
    fallback: string | null,
    more: {
      hint?: ReactNode;
      maxLength?: number;
      className?: string;
      type?: string;
      inputMode?: 'url' | 'email' | 'tel' | 'numeric';
      placeholder?: string;
      autoComplete?: string;
    } = {},
  ) => (
    <TextField
      id={fieldId(name)}
      name={name}
      label={label}
      defaultValue={val(name, fallback)}
      error={errors[name]}
      autoComplete={more.autoComplete ?? 'off'}
      {...more}
    />
  );

  return (
    <AdminPage
      title="Store details"
      description="Your logo, company details, storefront texts and search snippets. Changes are saved as a draft: preview them, then publish."
    >
      <DraftBar status={editor.status} result={result?.draft ?? null} previewPath="/" what="store details" />
      <SavedNote result={save} />
      <PostForm key={formKey} className="kit-stack" aria-label="Store details" encType="multipart/form-data" noValidate>
        <SaveBar
          busy={saving}
          saveLabel="Save draft"
          message={failed ? 'Not saved: see the fields marked.' : undefined}
        >
          <span className="mr-auto hidden md:block">
            <JumpLinks items={[...SECTIONS]} label="Sections of the form" />
          </span>
        </SaveBar>
        <div className="md:hidden">
          <JumpLinks items={[...SECTIONS]} label="Sections of the form" />
        </div>
        {failed && <Banner>{failed.message}</Banner>}
        <Card id="logo" title={title('logo')}>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="sm:col-span-2">
              <MediaField
                name="logoMediaId"
                fileName="logoFile"
                label="Logo"
                current={v.logo.url ? { mediaId: null, url: v.logo.url } : null}
                library={editor.library}
                error={errors.logoMedia}
                hint="Upload a picture or pick one of your library: it replaces the logo in the header."
              />
            </div>
            {text('logo.url', 'Or a logo address', v.logo.url, {
              className: 'sm:col-span-2',
              hint: 'An https address of a picture hosted elsewhere. We never download it.',
              inputMode: 'url',
            })}
            {text('logo.headerTitle', 'Header title', v.logo.headerTitle, { maxLength: 80 })}
            {text('logo.headerDescription', 'Header description', v.logo.headerDescription, { maxLength: 200 })}
          </div>
        </Card>

        <Card id="texts" title={title('texts')}>
          <div className="grid gap-4 sm:grid-cols-2">
            {text('promotionTitle', 'Promotion title', v.promotionTitle, {
              hint: 'The line in the strip above the header.',
              maxLength: 120,
            })}
            {text('pageTitle', 'Page title', v.pageTitle, { maxLength: 120 })}
          </div>
        </Card>

        <Card id="company" title={title('company')}>
          <div className="grid gap-4 sm:grid-cols-2">
            {text('companyName', 'Company name', v.companyName, {
              hint: 'Shown in the footer and the copyright line.',
              maxLength: 120,
              autoComplete: 'organization',
            })}
            {text('emailAddress', 'Email address', v.emailAddress, {
              type: 'email',
              maxLength: 254,
              inputMode: 'email',
            })}
            {text('companyAddress.address1', 'Address', v.companyAddress.address1, { maxLength: 120 })}
            {text('companyAddress.address2', 'Apartment, suite, etc.', v.companyAddress.address2, { maxLength: 120 })}
            {text('companyAddress.city', 'City', v.companyAddress.city, { maxLength: 80 })}
            <div className="grid grid-cols-2 gap-4">
              <SelectField
                id={fieldId('companyAddress.countryGeoId')}
                name="companyAddress.countryGeoId"
                label="Country"
                defaultValue={val('companyAddress.countryGeoId', v.companyAddress.countryGeoId)}
                error={errors['companyAddress.countryGeoId']}
                options={[
                  { value: '', label: 'Choose…' },
                  ...editor.countries.map((c) => ({ value: c.geoId, label: c.name })),
                ]}
              />
              {text('companyAddress.postalCode', 'Postal code', v.companyAddress.postalCode, { maxLength: 12 })}
              {/* Every country's regions under its name: works without JavaScript; the server checks the pair. */}
              <SelectField
                id={fieldId('companyAddress.stateProvinceGeoId')}
                name="companyAddress.stateProvinceGeoId"
                label="State or region"
                hint="Where parcels ship from: carriers rate from it."
                className="col-span-2"
                defaultValue={val('companyAddress.stateProvinceGeoId', v.companyAddress.stateProvinceGeoId)}
                error={errors['companyAddress.stateProvinceGeoId']}
                options={[
                  { value: '', label: 'None' },
                  ...editor.countries.flatMap((c) =>
                    c.regions.map((r) => ({ value: r.geoId, label: r.name, group: c.name })),
                  ),
                ]}
              />
            </div>
            <fieldset className="grid grid-cols-2 gap-2 sm:col-span-2 sm:grid-cols-[7rem_7rem_minmax(0,1fr)]">
              <legend className="kit-label">Phone</legend>
              {text('companyContact.countryCode', 'Country code', v.companyContact.countryCode, {
                maxLength: 5,
                inputMode: 'tel',
              })}
              {text('companyContact.areaCode', 'Area code', v.companyContact.areaCode, {
                maxLength: 6,
                inputMode: 'numeric',
              })}
              {text('companyContact.contactNumber', 'Number', v.companyContact.contactNumber, {
                className: 'col-span-2 sm:col-span-1',
                maxLength: 20,
                inputMode: 'tel',
              })}
            </fieldset>
            <div className="sm:col-span-2">
              <Checkbox
                name="contactPage"
                value="Y"
                label={<span className="font-medium">Contact page</span>}
                hint="Offer shoppers the contact page and its form."
                defaultChecked={typed ? typed.contactPage === 'Y' : v.contactPage === 'Y'}
              />
            </div>
          </div>
        </Card>

        <Card id="newsletter" title={title('newsletter')}>
          <div className="grid gap-4 md:grid-cols-2">
            <TextAreaField
              id={fieldId('newsLetter.iframe')}
              name="newsLetter.iframe"
              label="Newsletter embed"
              rows={3}
              spellCheck={false}
              code
              defaultValue={val('newsLetter.iframe', v.newsLetter.iframe)}
              error={errors['newsLetter.iframe']}
              maxLength={5000}
              hint="Paste your provider's <iframe> or <form>; its address must be https. Scripts are not allowed, and the embed runs sandboxed. Leave empty for the built-in signup."
            />
            {text('chat.dataWidgetId', 'Chat widget id', v.chat.dataWidgetId, {
              maxLength: 41,
              hint: 'As your chat provider shows it, e.g. 5f1a2b3c4d5e6f7a8b9c0d1e/1abcdefgh. Leave empty for no chat.',
            })}
          </div>
        </Card>

        <Card
          id="seo"
          title={title('seo')}
          description='Title, keywords and description per page path. The "default" entry is used for every page without its own. Empty a row to remove it.'
        >
          {errors.seoMeta && (
            <p className="kit-error mb-2" data-testid="error-seoMeta">
              {errors.seoMeta}
            </p>
          )}
          <div className="space-y-3">
            {Array.from({ length: seoCount }, (_, i) => {
              const e = v.seoMeta[i];
              const n = (part: string) => `seoMeta.${i}.${part}`;
              return (
                <fieldset
                  key={i}
                  className="grid gap-3 border-t border-neutral-100 pt-3 first:border-0 first:pt-0 sm:grid-cols-[9rem_minmax(0,1fr)_minmax(0,1fr)]"
                >
                  <legend className="sr-only">{e ? `SEO entry ${e.route}` : `New SEO entry ${i + 1}`}</legend>
                  {text(n('route'), 'Path', e?.route ?? null, { placeholder: '/products', maxLength: 100 })}
                  {text(n('title'), 'Title', e?.title ?? null, { maxLength: 120 })}
                  {text(n('keywords'), 'Keywords', e?.keywords ?? null, { maxLength: 255 })}
                  {text(n('description'), 'Description', e?.description ?? null, {
                    className: 'sm:col-span-3',
                    maxLength: 320,
                  })}
                </fieldset>
              );
            })}
          </div>
        </Card>
      </PostForm>
      <VersionHistory status={editor.status} />
      <CancelRequestCard />
    </AdminPage>
  );
}
