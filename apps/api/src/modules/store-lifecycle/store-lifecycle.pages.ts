import type { StoreLifecyclePages } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { dashboardLifecycle } from './lifecycle-rules';
import type { StoreLifecycleService } from './store-lifecycle.service';

/** The dashboard frame's banner data. */
export function storeLifecyclePages(deps: { storeLifecycle: StoreLifecycleService }): PageModule<StoreLifecyclePages> {
  return (page) => ({
    async dashboardLifecycle() {
      requireAccess(page.ctx, 'staff');
      return dashboardLifecycle(await deps.storeLifecycle.lifecycle(page.ctx.tenantId));
    },
  });
}
