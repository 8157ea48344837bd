import type { FirstRunPages } from '@app/contracts';
import { type PageModule, submitForm } from '../../lib/page-request';
import { requireOwner } from '../tenant/index';
import type { FirstRunService } from './first-run';

/** The first-run checklist on the dashboard home (routes/manage-store/_index.tsx). */
export function firstRunPages(deps: { firstRun: FirstRunService }): PageModule<FirstRunPages> {
  return (page) => ({
    firstRunChecklist: () => deps.firstRun.checklist(page.ctx),
    firstRunAction: (intent) =>
      submitForm([], async () => {
        page.assertFormFromStore();
        requireOwner(page.ctx, 'set the store up');
        if (intent === 'go-live') {
          await deps.firstRun.goLive(page.ctx);
          return { ok: true as const, message: 'Your store is open to visitors.' };
        }
        await deps.firstRun.dismiss(page.ctx);
        return { ok: true as const, message: 'The checklist is put away.' };
      }),
  });
}
