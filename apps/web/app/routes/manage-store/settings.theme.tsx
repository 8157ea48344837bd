import type { DraftActionResult, SettingsSaveResult } from '@app/contracts';
import { THEME_COLOR_FIELDS } from '@app/contracts/client';
import { useState } from 'react';
import { data, useNavigation } from 'react-router';
import { DraftBar, VersionHistory } from '../../components/manage-store/draft-bar';
import { SavedNote } from '../../components/manage-store/store-details-fields';
import { ThemeColorField } from '../../components/manage-store/theme-color-field';
import { ThemeSample } from '../../components/manage-store/theme-sample';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { SaveBar } from '../../components/ui/save-bar';
import { TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { draftIntent } from '../../lib/draft-actions';
import { themePayload, typedValues } from '../../lib/store-settings-form';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.theme';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.themeEditor());
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Theme');
}

type ActionData =
  | { draft: DraftActionResult; save?: undefined; typed?: undefined }
  | { save: SettingsSaveResult; typed: Record<string, string> | null; draft?: undefined };

/** Saves the form as the theme draft, or runs a draft control (publish, discard, restore). */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const editor = await dashboardRead(request, () => context.api.themeEditor());
  const draft = await dashboardRead(request, () =>
    draftIntent(context.api, form, { kind: 'theme', key: editor.productStoreId }),
  );
  if (draft) return data<ActionData>({ draft }, { status: draft.ok ? 200 : draft.status });
  const defaults = form.get('intent') === 'defaults' ? editor.defaults.themeColors : undefined;
  const save = await dashboardRead(request, () => context.api.saveThemeDraft(themePayload(form, defaults)));
  return data<ActionData>({ save, typed: save.ok ? null : typedValues(form) }, { status: save.ok ? 200 : save.status });
}

/** Template, theme name and the four colours, saved as a draft, previewed, then published. */
export default function ThemePage({ loaderData: editor, actionData }: Route.ComponentProps) {
  const result = actionData as ActionData | undefined;
  const save = result?.save;
  const failed = save && !save.ok ? save : null;
  const typed = result?.typed ?? null;
  const errors = (failed?.fieldErrors ?? {}) as Record<string, string | undefined>;
  useActionToast(save?.ok ? save : null);
  const navigation = useNavigation();
  const intent = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? '') : null;

  // A new draft, publish or restore draws the form afresh from what the server now has.
  const formKey = `${editor.status.draft?.updatedAt ?? 'live'}-${editor.status.versions[0]?.version ?? 0}-${failed ? 'typed' : ''}`;

  return (
    <AdminPage
      title="Theme"
      description="Your store's template and colours. Changes are saved as a draft: preview them on your storefront, then publish."
    >
      <DraftBar status={editor.status} result={result?.draft ?? null} previewPath="/" what="theme" />
      <SavedNote result={save} />
      <ThemeForm
        key={formKey}
        editor={editor}
        typed={typed}
        errors={errors}
        failure={failed?.message}
        intent={intent}
      />
      <VersionHistory status={editor.status} />
    </AdminPage>
  );
}

function ThemeForm({
  editor,
  typed,
  errors,
  failure,
  intent,
}: {
  editor: Route.ComponentProps['loaderData'];
  typed: Record<string, string> | null;
  errors: Record<string, string | undefined>;
  failure?: string;
  intent: string | null;
}) {
  const v = editor.values;
  const value = (name: string, fallback: string) => typed?.[name] ?? fallback;
  const template = value('template', v.template);
  const [colors, setColors] = useState(() => ({
    primary: value('themeColors.primary', v.themeColors.primary),
    secondary: value('themeColors.secondary', v.themeColors.secondary),
    banner: value('themeColors.banner', v.themeColors.banner),
    action: value('themeColors.action', v.themeColors.action),
  }));
  const [chosenTemplate, setChosenTemplate] = useState(template);
  return (
    <PostForm className="space-y-4" aria-label="Theme" noValidate>
      {/* First in the form: Enter in a box saves the draft (not the reset), and Save stays in reach. */}
      <SaveBar
        busy={intent === 'save'}
        disabled={intent !== null}
        saveLabel="Save draft"
        message={failure ? 'Not saved: see the fields marked' : undefined}
      >
        <Button type="submit" name="intent" value="defaults" disabled={intent !== null}>
          {intent === 'defaults' ? 'Saving…' : "Use the platform's colours"}
        </Button>
      </SaveBar>
      {failure && <Banner>{failure}</Banner>}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-4">
          <Card title="Template">
            <fieldset aria-describedby={errors.template ? 'template-error' : undefined}>
              <legend className="sr-only">Template</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {(
                  [
                    ['DEFAULT', 'Default', 'A compact header with cart and account icons.'],
                    ['ONE', 'One', 'A header that spells out Shopping Cart and My Wishlist.'],
                  ] as const
                ).map(([val, label, text]) => (
                  <label
                    key={val}
                    className="flex cursor-pointer gap-3 rounded-lg border border-neutral-300 p-3 has-[:checked]:border-neutral-900 has-[:checked]:ring-1 has-[:checked]:ring-neutral-900"
                  >
                    <input
                      type="radio"
                      name="template"
                      value={val}
                      defaultChecked={template === val}
                      onChange={() => setChosenTemplate(val)}
                      className="mt-1"
                    />
                    <span className="text-sm">
                      <span className="block font-semibold text-neutral-900">{label}</span>
                      <span className="text-neutral-600">{text}</span>
                    </span>
                  </label>
                ))}
              </div>
              {errors.template && (
                <p id="template-error" className="mt-1 text-sm font-medium text-red-700">
                  {errors.template}
                </p>
              )}
            </fieldset>
          </Card>

          <Card title="Colours">
            <p className="mb-3 text-sm text-neutral-600">
              Pick a colour or type it as "R, G, B" (three numbers from 0 to 255). Light tints of the brand colour (20%
              and 10%) follow it.
            </p>
            <div className="grid gap-4 sm:grid-cols-2">
              {THEME_COLOR_FIELDS.map((f) => (
                <ThemeColorField
                  key={f.key}
                  colorKey={f.key}
                  label={f.label}
                  hint={f.hint}
                  value={colors[f.key]}
                  savedValue={v.themeColors[f.key]}
                  error={errors[`themeColors.${f.key}`]}
                  onChange={(next) => setColors((c) => ({ ...c, [f.key]: next }))}
                />
              ))}
            </div>
          </Card>

          <Card title="Theme name">
            <TextField
              id="f-theme"
              name="theme"
              label="Theme"
              defaultValue={value('theme', v.theme)}
              error={errors.theme}
              maxLength={40}
              // The stored name is an identifier in capitals (the platform's is THEME_FASHION): say what
              // it is for and that shoppers never see it, rather than show the code unexplained.
              hint={`A name for your theme, for your own use: shoppers never see it. Capital letters, digits and underscores, like the platform's ${editor.defaults.theme}.`}
            />
          </Card>
        </div>

        <div className="space-y-4 lg:sticky lg:top-4">
          <Card title="Sketch">
            <ThemeSample colors={colors} template={chosenTemplate} />
            <p className="mt-2 text-xs text-neutral-500">
              A sketch only. Preview shows your real storefront with these changes, on both templates and any width.
            </p>
          </Card>
        </div>
      </div>
    </PostForm>
  );
}
