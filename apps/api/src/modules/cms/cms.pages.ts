import { type CmsPageField, type CmsPages, cmsPageInputSchema, formNumbers } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { fieldFailure, nullIfNotFound, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import { type DraftsService, draftStatus } from '../drafts/index';
import type { CmsService } from './cms.service';

const FIELDS: readonly CmsPageField[] = [
  'pageTitle',
  'pageUrl',
  'content',
  'pageLinks',
  'seoTitle',
  'seoDescription',
  'sequenceNum',
];

/** The owner's CMS pages in the dashboard; each function checks the settings permission. */
export function cmsPages(deps: { cms: CmsService; drafts: DraftsService }): PageModule<CmsPages> {
  const { cms, drafts } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      cmsList: () => cms.list(ctx),
      async cmsEditor(id) {
        requireAccess(ctx, 'settings');
        const editor = await cms.editor(ctx, id).catch(nullIfNotFound);
        if (!editor) return null;
        return {
          id,
          page: editor.page,
          status: editor.status,
          liveUrl: editor.liveUrl,
          drafts: await draftStatus(drafts, ctx, 'page', id),
        };
      },
      async saveCmsPage(id, form) {
        // The form's text fields become the JSON body's types: the API itself takes no numbers as text.
        const input = formNumbers(form, ['sequenceNum']);
        requireAccess(ctx, 'settings');
        page.assertFormFromStore();
        // Every field at fault at once, next to its field; the service checks again (and the URL).
        const parsed = cmsPageInputSchema.safeParse(input);
        if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
        return submitForm(FIELDS, async () => {
          const saved = await cms.save(ctx, id, input);
          if (!saved.ok) return formRefusal(saved, FIELDS);
          return {
            ok: true as const,
            id: saved.value.id,
            message: id
              ? 'Changes saved as a draft. Preview, then publish.'
              : 'Page saved as a draft. Preview, then publish.',
          };
        });
      },
      async deleteCmsPage(id) {
        requireAccess(ctx, 'settings');
        page.assertFormFromStore();
        return submitForm([], async () => {
          await cms.remove(ctx, id);
          return { ok: true as const, message: 'Page deleted.' };
        });
      },
    };
  };
}
