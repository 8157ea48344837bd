import { DEFAULT_THEME, SEO_META_MAX, type StoreSettingsPages } from '@app/contracts';
import { contrastWarnings, STORE_DETAIL_TEXT_FIELDS } from '@app/contracts/client';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { submitForm } from '../../lib/page-request';
import { type DraftsService, draftStatus } from '../drafts/index';
import { countryChoices } from '../geo/index';
import { DEFAULT_THEME_COLORS } from '../store/index';
import type { StoreSettingsService } from './store-settings.service';

/** Every field a form may be told about, by its payload path (the form's input names). */
const THEME_FIELDS = [
  'template',
  'theme',
  'themeColors',
  'themeColors.primary',
  'themeColors.secondary',
  'themeColors.banner',
  'themeColors.action',
];
const DETAILS_FIELDS = [
  ...STORE_DETAIL_TEXT_FIELDS,
  'contactPage',
  'seoMeta',
  ...Array.from({ length: SEO_META_MAX + 1 }, (_, i) =>
    ['route', 'title', 'keywords', 'description'].map((f) => `seoMeta.${i}.${f}`),
  ).flat(),
];

const SAVED = 'Saved as a draft. Preview it on your storefront, then publish.';

/** The theme and store details editors' page functions; each checks access itself. */
export function storeSettingsPages(deps: {
  settings: StoreSettingsService;
  drafts: DraftsService;
}): PageModule<StoreSettingsPages> {
  const { settings, drafts } = deps;
  return (page) => {
    const { ctx } = page;
    const id = ctx.productStoreId;
    return {
      async themeEditor() {
        requireAccess(ctx, 'settings');
        const [values, status] = await Promise.all([
          settings.workingTheme(ctx, id),
          draftStatus(drafts, ctx, 'theme', id),
        ]);
        return {
          productStoreId: id,
          values,
          defaults: { theme: DEFAULT_THEME, themeColors: DEFAULT_THEME_COLORS },
          status,
          warnings: contrastWarnings(values.themeColors),
        };
      },
      async saveThemeDraft(payload) {
        requireAccess(ctx, 'settings');
        page.assertFormFromStore();
        return submitForm(THEME_FIELDS, async () => {
          const saved = await settings.saveTheme(ctx, id, payload);
          return {
            ok: true as const,
            message: SAVED,
            status: await draftStatus(drafts, ctx, 'theme', id),
            warnings: saved.warnings,
          };
        });
      },
      async detailsEditor() {
        requireAccess(ctx, 'settings');
        const [values, status, { storeName }] = await Promise.all([
          settings.workingDetails(ctx, id),
          draftStatus(drafts, ctx, 'details', id),
          settings.storeName(ctx, id),
        ]);
        return {
          productStoreId: id,
          storeName,
          values,
          status,
          countries: countryChoices(),
        };
      },
      async saveDetailsDraft(payload) {
        requireAccess(ctx, 'settings');
        page.assertFormFromStore();
        return submitForm(DETAILS_FIELDS, async () => {
          await settings.saveDetails(ctx, id, (payload ?? {}) as Record<string, unknown>);
          return {
            ok: true as const,
            message: SAVED,
            status: await draftStatus(drafts, ctx, 'details', id),
            warnings: [],
          };
        });
      },
    };
  };
}
