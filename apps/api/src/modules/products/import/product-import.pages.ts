import { Readable } from 'node:stream';
import type { ProductImportPages } from '@app/contracts';
import { productImportIdSchema } from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import type { PageModule } from '../../../lib/page-request';
import { nullIfNotFound, submitForm } from '../../../lib/page-request';
import type { ProductImportService } from './product-import.service';

/** The import page's functions (/manage-store/products/import); each checks the catalog permission. */
export function productImportPages(deps: { imports: ProductImportService }): PageModule<ProductImportPages> {
  return (page) => ({
    async productImport(importId) {
      requireAccess(page.ctx, 'catalog');
      if (importId === null) return deps.imports.latest(page.ctx);
      if (!productImportIdSchema.safeParse(importId).success) return null;
      return deps.imports.get(page.ctx, importId).catch(nullIfNotFound);
    },
    uploadProductImport(file, fileName) {
      return submitForm(['file'] as const, async () => {
        page.assertFormFromStore();
        requireAccess(page.ctx, 'catalog');
        try {
          const created = await deps.imports.receive(page.ctx, Readable.from([Buffer.from(file)]), fileName);
          return { ok: true as const, import: created };
        } catch (err) {
          // Too large, not CSV, unknown or missing columns: the owner's to fix, next to the field.
          if (err instanceof AppError && err.field === 'file') {
            return {
              ok: false as const,
              status: 422 as const,
              message: 'The file cannot be imported.',
              fieldErrors: { file: err.fieldMessage },
            };
          }
          throw err;
        }
      });
    },
    runProductImport(importId) {
      return submitForm([], async () => {
        page.assertFormFromStore();
        requireAccess(page.ctx, 'catalog');
        if (!productImportIdSchema.safeParse(importId).success) throw AppError.notFound('This import does not exist.');
        const started = await deps.imports.start(page.ctx, importId);
        return { ok: true as const, message: 'The import has started.', import: started };
      });
    },
  });
}
