import {
  dataEnvelope,
  draftSavedSchema,
  storeDetailUpdateSchema,
  storeIdPathSchema,
  themeDraftSchema,
} from '@app/contracts';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import type { StoreSettingsService } from './store-settings.service';

/**
 * The owner's writes of the theme and store details. Each saves a draft (decision 032):
 * shoppers see nothing until `POST /api/v1/drafts/{theme|details}/{id}/publish`.
 */
export async function storeSettingsRoutes(app: App, { settings }: { settings: StoreSettingsService }) {
  const storeFirst = async (req: FastifyRequest, _reply: FastifyReply, payload: RequestPayload) => {
    await settings.assertStore(req.ctx, (req.params as { id: string }).id);
    return payload;
  };
  app.put(
    '/api/v1/store/detail/update/:id',
    {
      config: { permission: 'settings' },
      // Who asks (onRequest) and the store id are checked before the body is read: another store's id
      // is a 404 whatever the body. The patch is laid over the working details, then validated whole.
      preParsing: storeFirst,
      preValidation: async (req) => {
        const { id } = req.params as { id: string };
        req.body = (await settings.detailsPatchBody(req.ctx, id, req.body)) as typeof req.body;
      },
      schema: {
        tags: ['store'],
        summary: 'Save the store details (and, if given, template, theme and colours) as a draft',
        description:
          'A patch: fields left out keep their values (inside logo, companyAddress, companyContact, newsLetter, ' +
          'chat and themeColors too); what `GET /api/v1/store/detail/fetch` answers can be sent back as it is ' +
          '(productStoreId, storeName and currencyUomId are read-only). A write that changes nothing saves ' +
          'nothing and answers `kinds: []`. ' +
          '`{id}` is the productStoreId. Nothing goes live: publish with `POST /api/v1/drafts/details/{id}/publish` ' +
          '(and `.../theme/{id}/publish` when theme fields were sent). The newsletter embed must be one `<iframe>` ' +
          'or `<form>` on an https public address; the chat widget id "property/widget" as the provider shows it. ' +
          '`seoMeta`, when sent, replaces the per-route SEO entries of `/assets/seo-meta.config.json` and must ' +
          'keep `default`.',
        params: storeIdPathSchema,
        body: storeDetailUpdateSchema,
        examples: { path: { id: '9000' }, body: { companyName: 'Brightside Lighting' } },
        response: { 200: dataEnvelope(draftSavedSchema), ...changeErrors },
      },
    },
    async (req) => ({ data: await settings.saveDetails(req.ctx, req.params.id, req.body) }),
  );

  app.put(
    '/api/v1/store/theme/update/:id',
    {
      config: { permission: 'settings' },
      preParsing: storeFirst,
      // What the config read answers can be written back (its productStoreId and chat as read).
      preValidation: async (req) => {
        req.body = (await settings.themeWriteBack(
          req.ctx,
          (req.params as { id: string }).id,
          req.body,
        )) as typeof req.body;
      },
      schema: {
        tags: ['store'],
        summary: 'Save the template, theme name and four colours as a draft',
        description:
          'A full replace of the theme; what `GET /api/v1/store/config/fetch` answers can be sent back as it is ' +
          '(productStoreId and chat as read; a write that changes nothing answers `kinds: []`). ' +
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
