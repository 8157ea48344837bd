import { type SupportAccessPages, supportGrantCreateSchema } from '@app/contracts';
import { AppError } from '../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import type { SupportAccess } from '../operator/index';

const HOURS = ['hours'] as const;

const UNTIL = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
});

/**
 * Support access as the store's dashboard sees it (decision 107): the owner's grant on the Access
 * settings page, and the banner of a support session. Only the owner, in their own session, grants
 * or revokes (the service checks); staff who may open the settings see the grant and are told so.
 */
export function supportAccessPages(deps: { support: SupportAccess }): PageModule<SupportAccessPages> {
  return (page) => ({
    async supportAccess() {
      const { ctx } = page;
      try {
        return { grant: await deps.support.state(ctx), canManage: true };
      } catch (err) {
        // Staff (or support itself): they see whether support may come in, not the buttons.
        if (!(err instanceof AppError && err.statusCode === 403) || ctx.actor.kind !== 'staff') throw err;
        return { grant: await deps.support.liveGrant(ctx.tenantId), canManage: false };
      }
    },

    supportAccessAction: (form) =>
      submitForm(HOURS, async () => {
        page.assertFormFromStore();
        if (form.intent === 'revoke') {
          await deps.support.revoke(page.ctx);
          return { ok: true as const, message: 'Support access ended: support can no longer open your dashboard.' };
        }
        if (form.intent !== 'grant') throw AppError.badRequest('Unknown action.');
        const parsed = supportGrantCreateSchema.safeParse({ hours: Number(form.hours) });
        if (!parsed.success) return fieldFailure(parsed.error, HOURS);
        const grant = await deps.support.grant(page.ctx, parsed.data.hours);
        return {
          ok: true as const,
          message: `Support can open your dashboard until ${UNTIL.format(new Date(grant.expiresAt))} UTC.`,
        };
      }),

    supportSession: () => deps.support.sessionInfo(page.ctx),
  });
}
