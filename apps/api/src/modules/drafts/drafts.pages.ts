import type { DraftsPages } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { submitForm } from '../../lib/page-request';
import { previewCookie } from '../../lib/preview';
import { formRefusal, ok, type Result } from '../../lib/result';
import { draftStatus } from './draft-status';
import type { DraftsService } from './drafts.service';

/** The dashboard's draft controls (decision 032); each page function checks access itself. */
export function draftsPages(deps: { drafts: DraftsService }): PageModule<DraftsPages> {
  const { drafts } = deps;
  return (page) => {
    const { ctx } = page;
    /** A change from a dashboard form: from this store, by someone who may edit settings. */
    async function act(kind: string, key: string, change: () => Promise<Result<unknown>>, message: string) {
      requireAccess(ctx, 'settings');
      // Inside submitForm: a form from elsewhere or an expired one is a message on the page, not a 500.
      return submitForm([], async () => {
        page.assertFormFromStore();
        const done = await change();
        if (!done.ok) return formRefusal(done);
        return { ok: true as const, message, status: await draftStatus(drafts, ctx, kind, key) };
      });
    }
    return {
      async draftStatus(kind, key) {
        requireAccess(ctx, 'settings');
        return draftStatus(drafts, ctx, kind, key);
      },
      publishDraft: (kind, key, seen) =>
        act(kind, key, () => drafts.publish(ctx, drafts.kind(kind), key, { seen }), 'Published. Shoppers see it now.'),
      discardDraft: (kind, key) =>
        act(
          kind,
          key,
          async () => ok(await drafts.discard(ctx, drafts.kind(kind), key)),
          'Unpublished changes discarded.',
        ),
      restoreDraftVersion: (kind, key, version) =>
        act(
          kind,
          key,
          async () => ok(await drafts.restore(ctx, drafts.kind(kind), key, version)),
          `Version ${version} restored as a draft. Preview it, then publish.`,
        ),
      async setPreview(on) {
        requireAccess(ctx, 'settings');
        page.assertFormFromStore();
        return { cookies: [previewCookie(on, page.secure)] };
      },
      previewing: () => ctx.preview === true,
    };
  };
}
