import type { MediaPages } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import { AppError } from '../../lib/errors';
import type { PageModule } from '../../lib/page-request';
import { submitForm } from '../../lib/page-request';

const FILE_MESSAGE = 'Please check the fields marked below.';

import type { MediaService } from './media.service';

/** The media library for dashboard pages' picture fields; each function checks access itself. */
export function mediaPages(deps: { media: MediaService }): PageModule<MediaPages> {
  return (page) => ({
    mediaLibrary(cursor) {
      requireAccess(page.ctx, 'settings');
      return deps.media.list(page.ctx, { cursor: cursor ?? undefined, limit: 24 });
    },
    uploadMedia(file, altText) {
      requireAccess(page.ctx, 'settings');
      return submitForm(['file'] as const, async () => {
        page.assertFormFromStore();
        try {
          return { ok: true as const, media: await deps.media.upload(page.ctx, Buffer.from(file), { altText }) };
        } catch (err) {
          // Too large and not a picture (413, 415) are the owner's to fix, next to the field.
          if (err instanceof AppError && err.field === 'file' && (err.statusCode === 413 || err.statusCode === 415)) {
            return {
              ok: false as const,
              status: 422 as const,
              message: FILE_MESSAGE,
              fieldErrors: { file: err.fieldMessage },
            };
          }
          throw err;
        }
      });
    },
  });
}
