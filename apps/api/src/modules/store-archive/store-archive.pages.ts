import type { StoreArchivePages } from '@app/contracts';
import type { Db } from '@app/db';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { submitForm } from '../../lib/page-request';
import type { AuditService } from '../audit/index';
import { requireOwner, startOwnerExport } from './owner-export';
import type { StoreArchive } from './store-archive.service';

/** The "Export store" settings page's functions (decision 122); each checks access itself. */
export function storeArchivePages(deps: {
  archive: StoreArchive;
  audit: AuditService;
  db: Db;
}): PageModule<StoreArchivePages> {
  return (page) => ({
    async storeExportCard() {
      requireAccess(page.ctx, 'settings');
      requireOwner(page.ctx);
      return { latest: await deps.archive.latestExport(page.ctx) };
    },
    async startStoreExport() {
      return submitForm([], async () => {
        page.assertFormFromStore();
        requireAccess(page.ctx, 'settings');
        requireOwner(page.ctx);
        const job = await startOwnerExport(page.ctx, deps);
        return {
          ok: true as const,
          message:
            job.status === 'pending' || job.status === 'running'
              ? 'Your store is being exported. You can leave this page; the download appears here when it is ready.'
              : 'Export started.',
          job,
        };
      });
    },
  });
}
