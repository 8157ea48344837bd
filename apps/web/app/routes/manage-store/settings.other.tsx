import type { DraftActionResult, SettingsSaveResult } from '@app/contracts';
import { Save } from 'lucide-react';
import { data, useNavigation } from 'react-router';
import { CancelRequestCard } from '../../components/manage-store/cancel-request-card';
import { Card, DashboardLayout, primaryAction } from '../../components/manage-store/dashboard-layout';
import { DraftBar, VersionHistory } from '../../components/manage-store/draft-bar';
import { MediaField } from '../../components/manage-store/media-field';
import {
  SaveAlert,
  SavedNote,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/manage-store/store-details-fields';
import { PostForm } from '../../components/ui/post-form';
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

/** Blank SEO rows offered for new entries below the existing ones. */
const NEW_SEO_ROWS = 2;

/** Logo and header, company, contact, storefront texts, newsletter, chat, contact page and SEO entries. */
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

  return (
    <DashboardLayout
      title="Store details"
      description="Your logo, company details, storefront texts and search snippets. Changes are saved as a draft: preview them, then publish."
    >
      <DraftBar status={editor.status} result={result?.draft ?? null} previewPath="/" what="store details" />
      <SavedNote result={save} />
      <PostForm key={formKey} className="space-y-4" aria-label="Store details" encType="multipart/form-data" noValidate>
        <SaveAlert message={failed?.message} />
        <Card title="Logo and header">
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
            <TextField
              className="sm:col-span-2"
              name="logo.url"
              label="Or a logo address"
              defaultValue={val('logo.url', v.logo.url)}
              error={errors['logo.url']}
              hint="An https address of a picture hosted elsewhere. We never download it."
              inputMode="url"
            />
            <TextField
              name="logo.headerTitle"
              label="Header title"
              defaultValue={val('logo.headerTitle', v.logo.headerTitle)}
              error={errors['logo.headerTitle']}
              maxLength={80}
            />
            <TextField
              name="logo.headerDescription"
              label="Header description"
              defaultValue={val('logo.headerDescription', v.logo.headerDescription)}
              error={errors['logo.headerDescription']}
              maxLength={200}
            />
          </div>
        </Card>

        <Card title="Storefront texts">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              name="promotionTitle"
              label="Promotion title"
              defaultValue={val('promotionTitle', v.promotionTitle)}
              error={errors.promotionTitle}
              hint="The line in the strip above the header."
              maxLength={120}
            />
            <TextField
              name="pageTitle"
              label="Page title"
              defaultValue={val('pageTitle', v.pageTitle)}
              error={errors.pageTitle}
              maxLength={120}
            />
          </div>
        </Card>

        <Card title="Company">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              name="companyName"
              label="Company name"
              defaultValue={val('companyName', v.companyName)}
              error={errors.companyName}
              hint="Shown in the footer and the copyright line."
              maxLength={120}
              autoComplete="organization"
            />
            <TextField
              name="emailAddress"
              label="Email address"
              type="email"
              defaultValue={val('emailAddress', v.emailAddress)}
              error={errors.emailAddress}
              maxLength={254}
              inputMode="email"
            />
            <TextField
              name="companyAddress.address1"
              label="Address"
              defaultValue={val('companyAddress.address1', v.companyAddress.address1)}
              error={errors['companyAddress.address1']}
              maxLength={120}
            />
            <TextField
              name="companyAddress.address2"
              label="Apartment, suite, etc."
              defaultValue={val('companyAddress.address2', v.companyAddress.address2)}
              error={errors['companyAddress.address2']}
              maxLength={120}
            />
            <TextField
              name="companyAddress.city"
              label="City"
              defaultValue={val('companyAddress.city', v.companyAddress.city)}
              error={errors['companyAddress.city']}
              maxLength={80}
            />
            <div className="grid grid-cols-2 gap-4">
              <SelectField
                name="companyAddress.countryGeoId"
                label="Country"
                defaultValue={val('companyAddress.countryGeoId', v.companyAddress.countryGeoId)}
                error={errors['companyAddress.countryGeoId']}
                options={[
                  { value: '', label: 'Choose…' },
                  ...editor.countries.map((c) => ({ value: c.geoId, label: c.name })),
                ]}
              />
              <TextField
                name="companyAddress.postalCode"
                label="Postal code"
                defaultValue={val('companyAddress.postalCode', v.companyAddress.postalCode)}
                error={errors['companyAddress.postalCode']}
                maxLength={12}
              />
            </div>
            <fieldset className="grid grid-cols-2 gap-2 sm:col-span-2 sm:grid-cols-[7rem_7rem_minmax(0,1fr)]">
              <legend className="mb-1 text-sm font-medium text-neutral-800">Phone</legend>
              <TextField
                name="companyContact.countryCode"
                label="Country code"
                defaultValue={val('companyContact.countryCode', v.companyContact.countryCode)}
                error={errors['companyContact.countryCode']}
                maxLength={5}
                inputMode="tel"
              />
              <TextField
                name="companyContact.areaCode"
                label="Area code"
                defaultValue={val('companyContact.areaCode', v.companyContact.areaCode)}
                error={errors['companyContact.areaCode']}
                maxLength={6}
                inputMode="numeric"
              />
              <TextField
                className="col-span-2 sm:col-span-1"
                name="companyContact.contactNumber"
                label="Number"
                defaultValue={val('companyContact.contactNumber', v.companyContact.contactNumber)}
                error={errors['companyContact.contactNumber']}
                maxLength={20}
                inputMode="tel"
              />
            </fieldset>
            <label className="flex items-start gap-2 text-sm sm:col-span-2">
              <input
                type="checkbox"
                name="contactPage"
                value="Y"
                defaultChecked={typed ? typed.contactPage === 'Y' : v.contactPage === 'Y'}
                className="mt-0.5"
              />
              <span>
                <span className="font-medium text-neutral-900">Contact page</span>
                <span className="block text-neutral-600">Offer shoppers the contact page and its form.</span>
              </span>
            </label>
          </div>
        </Card>

        <Card title="Newsletter and chat">
          <div className="space-y-4">
            <TextAreaField
              name="newsLetter.iframe"
              label="Newsletter embed"
              defaultValue={val('newsLetter.iframe', v.newsLetter.iframe)}
              error={errors['newsLetter.iframe']}
              maxLength={5000}
              hint="Paste your provider's <iframe> or <form>; its address must be https. Scripts are not allowed, and the embed runs sandboxed. Leave empty for the built-in signup."
            />
            <TextField
              name="chat.dataWidgetId"
              label="Chat widget id"
              defaultValue={val('chat.dataWidgetId', v.chat.dataWidgetId)}
              error={errors['chat.dataWidgetId']}
              maxLength={41}
              hint="As your chat provider shows it, e.g. 5f1a2b3c4d5e6f7a8b9c0d1e/1abcdefgh. Leave empty for no chat."
            />
          </div>
        </Card>

        <Card title="Search engine listing">
          <p className="mb-3 text-sm text-neutral-600">
            Title, keywords and description per page path. The "default" entry is used for every page without its own.
            Empty a row to remove it.
          </p>
          {errors.seoMeta && (
            <p className="mb-2 text-sm font-medium text-red-700" data-testid="error-seoMeta">
              {errors.seoMeta}
            </p>
          )}
          <div className="space-y-4">
            {Array.from({ length: seoCount }, (_, i) => {
              const e = v.seoMeta[i];
              const n = (part: string) => `seoMeta.${i}.${part}`;
              return (
                <fieldset
                  key={i}
                  className="grid gap-3 border-t border-neutral-100 pt-3 first:border-0 first:pt-0 sm:grid-cols-[10rem_minmax(0,1fr)]"
                >
                  <legend className="sr-only">{e ? `SEO entry ${e.route}` : `New SEO entry ${i + 1}`}</legend>
                  <TextField
                    name={n('route')}
                    label="Path"
                    defaultValue={val(n('route'), e?.route ?? null)}
                    error={errors[n('route')]}
                    placeholder="/products"
                    maxLength={100}
                  />
                  <TextField
                    name={n('title')}
                    label="Title"
                    defaultValue={val(n('title'), e?.title ?? null)}
                    error={errors[n('title')]}
                    maxLength={120}
                  />
                  <TextField
                    className="sm:col-span-2"
                    name={n('keywords')}
                    label="Keywords"
                    defaultValue={val(n('keywords'), e?.keywords ?? null)}
                    error={errors[n('keywords')]}
                    maxLength={255}
                  />
                  <TextField
                    className="sm:col-span-2"
                    name={n('description')}
                    label="Description"
                    defaultValue={val(n('description'), e?.description ?? null)}
                    error={errors[n('description')]}
                    maxLength={320}
                  />
                </fieldset>
              );
            })}
          </div>
        </Card>

        <div className="flex justify-end">
          <button type="submit" name="intent" value="save" className={primaryAction} disabled={saving}>
            <Save aria-hidden className="size-4" />
            {saving ? 'Saving…' : 'Save draft'}
          </button>
        </div>
      </PostForm>
      <VersionHistory status={editor.status} />
      <CancelRequestCard />
    </DashboardLayout>
  );
}
