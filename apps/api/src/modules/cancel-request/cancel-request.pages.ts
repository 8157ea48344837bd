import { type CancelRequestPages, cancelRequestInitiateSchema } from '@app/contracts';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { CancelRequestService } from './cancel-request.service';

const FIELDS = ['cancelRequestReason', 'confirm'] as const;

/** The danger zone's functions (store details page); the service checks that the owner acts. */
export function cancelRequestPages(deps: { cancelRequests: CancelRequestService }): PageModule<CancelRequestPages> {
  return (page) => ({
    cancelRequest: () => deps.cancelRequests.get(page.ctx),

    async initiateCancelRequest(input) {
      return submitForm(FIELDS, async () => {
        page.assertFormFromStore();
        const parsed = cancelRequestInitiateSchema.safeParse({ cancelRequestReason: input.cancelRequestReason });
        // The confirmation step: without it nothing is filed, with or without JavaScript.
        if (!parsed.success || !input.confirm) {
          const out = parsed.success
            ? {
                ok: false as const,
                status: 400 as const,
                message: 'Please check the fields marked below.',
                fieldErrors: {},
              }
            : fieldFailure(parsed.error, FIELDS);
          if (!input.confirm) {
            out.fieldErrors = {
              ...out.fieldErrors,
              confirm: 'Please confirm that you understand what cancelling means.',
            };
          }
          return out;
        }
        const done = await deps.cancelRequests.initiate(page.ctx, page.ctx.tenantId, parsed.data.cancelRequestReason);
        if (!done.ok) return formRefusal(done, FIELDS);
        return {
          ok: true as const,
          message: 'Your cancel request was sent. We emailed you a confirmation.',
          cancelRequest: done.value,
        };
      });
    },

    async withdrawCancelRequest() {
      return submitForm(FIELDS, async () => {
        page.assertFormFromStore();
        const done = await deps.cancelRequests.withdraw(page.ctx, page.ctx.tenantId);
        if (!done.ok) return formRefusal(done, FIELDS);
        return {
          ok: true as const,
          message: 'Your cancel request was withdrawn. Your store stays open.',
          cancelRequest: done.value,
        };
      });
    },
  });
}
