import {
  dataEnvelope,
  draftSavedSchema,
  storeDetailUpdateSchema,
  storeIdPathSchema,
  themeDraftSchema,
} from '@app/contracts';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import type { StoreSettingsService } from './store-settings.service';

/**
 * The owner's writes of the theme and store details (issue 15). Each saves a draft (decision 032):
 * shoppers see nothing until `POST /api/v1/drafts/{theme|details}/{id}/publish`.
 */
export async function storeSettingsRoutes(app: App, { settings }: { settings: StoreSettingsService }) {
  app.put(
    '/api/v1/store/detail/update/:id',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Save the store details (and, if given, template, theme and colours) as a draft',
        description:
          '`{id}` is the productStoreId. Nothing goes live: publish with `POST /api/v1/drafts/details/{id}/publish` ' +
          '(and `.../theme/{id}/publish` when theme fields were sent). The newsletter embed must be one `<iframe>` ' +
          'or `<form>` on an https public address; the chat widget id "property/widget" as the provider shows it. ' +
          '`seoMeta` replaces the per-route SEO entries of `/assets/seo-meta.config.json` and must keep `default`.',
        params: storeIdPathSchema,
        body: storeDetailUpdateSchema,
        response: { 200: dataEnvelope(draftSavedSchema), ...changeErrors },
      },
    },
    async (req) => ({ data: await settings.saveDetails(req.ctx, req.params.id, req.body) }),
  );

  app.put(
    '/api/v1/store/theme/update/:id',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Save the template, theme name and four colours as a draft',
        description:
          '`{id}` is the productStoreId. Colours are "R, G, B" (three integers 0-255). `warnings` names the colours ' +
          'whose text contrast falls below WCAG AA (4.5:1); they are saved all the same. Publish with ' +
          '`POST /api/v1/drafts/theme/{id}/publish`.',
        params: storeIdPathSchema,
        body: themeDraftSchema,
        response: { 200: dataEnvelope(draftSavedSchema), ...changeErrors },
      },
    },
    async (req) => ({ data: await settings.saveTheme(req.ctx, req.params.id, req.body) }),
  );
}
