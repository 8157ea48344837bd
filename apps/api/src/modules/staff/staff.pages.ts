import {
  type AcceptFormResult,
  type AccessFormField,
  type AccessFormResult,
  type AccessPages,
  constraintsRequestSchema,
  staffAcceptRequestSchema,
  staffInvitationTokenQuerySchema,
  staffInviteRequestSchema,
  staffUpdateRequestSchema,
} from '@app/contracts';
import { AppError } from '../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { StoreVisibilityService } from '../tenant/index';
import type { StaffService } from './staff.service';

const ACCESS_FIELDS = ['email', 'firstName', 'lastName', 'permissions'] as const satisfies readonly AccessFormField[];

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
const many = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The access page's functions (`/manage-store/settings/access`) and the invitation's set-password
 * page. One action switches on the form's intent; each checks the form came
 * from this store, then the services check who acts.
 */
export function staffPages(deps: { staff: StaffService; visibility: StoreVisibilityService }): PageModule<AccessPages> {
  return (page) => ({
    accessSettings: () => deps.staff.settings(page.ctx),

    async accessAction(form): Promise<AccessFormResult> {
      const { ctx } = page;
      return submitForm(ACCESS_FIELDS, async (): Promise<AccessFormResult> => {
        page.assertFormFromStore();
        switch (one(form.intent)) {
          case 'visibility': {
            const isPublic = one(form.visibility) === 'public';
            const { tenantId } = constraintsRequestSchema.parse({ tenantId: ctx.tenantId });
            await deps.visibility.setPublic(ctx, tenantId, isPublic);
            return {
              ok: true,
              message: isPublic
                ? 'Your store is public: everyone can browse it.'
                : 'Your store is private: visitors see only the login page.',
            };
          }
          case 'invite': {
            const parsed = staffInviteRequestSchema.safeParse({
              email: one(form.email),
              firstName: one(form.firstName),
              lastName: one(form.lastName),
              permissions: many(form.permissions),
            });
            if (!parsed.success) return fieldFailure(parsed.error, ACCESS_FIELDS);
            const sent = await deps.staff.invite(ctx, parsed.data);
            if (!sent.ok) return formRefusal(sent, ACCESS_FIELDS);
            return { ok: true, message: `Invitation sent to ${sent.value.email}.` };
          }
          case 'update': {
            const parsed = staffUpdateRequestSchema.safeParse({ permissions: many(form.permissions) });
            if (!parsed.success) return fieldFailure(parsed.error, ACCESS_FIELDS);
            const member = await deps.staff.updatePermissions(ctx, one(form.userId), parsed.data.permissions);
            if (!member.ok) return formRefusal(member, ACCESS_FIELDS);
            return { ok: true, message: `Permissions saved for ${member.value.email}.` };
          }
          case 'remove': {
            const removed = await deps.staff.remove(ctx, one(form.userId));
            if (!removed.ok) return formRefusal(removed, ACCESS_FIELDS);
            return { ok: true, message: 'Staff access removed. Their sessions have ended.' };
          }
          case 'revoke': {
            await deps.staff.revokeInvitation(ctx, one(form.invitationId));
            return { ok: true, message: 'Invitation revoked: its link no longer works.' };
          }
          default:
            throw AppError.badRequest('Unknown action.');
        }
      });
    },

    async staffInvitation(token) {
      const parsed = staffInvitationTokenQuerySchema.safeParse({ token });
      if (!parsed.success) return null;
      return deps.staff.preview(page.ctx, parsed.data.token);
    },

    async acceptStaffInvitation(input): Promise<AcceptFormResult> {
      return submitForm(['password', 'token'] as const, async (): Promise<AcceptFormResult> => {
        page.assertFormFromStore();
        const parsed = staffAcceptRequestSchema.safeParse(input);
        if (!parsed.success) return fieldFailure(parsed.error, ['password', 'token'] as const);
        const accepted = await deps.staff.accept(page.ctx, parsed.data);
        if (!accepted.ok) return formRefusal(accepted, ['password', 'token'] as const);
        return {
          ok: true,
          message: `Your password is set. Log in as ${accepted.value.email} to manage the store.`,
        };
      });
    },
  });
}
