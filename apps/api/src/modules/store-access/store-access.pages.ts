import {
  ACCESS_MODE_LABELS,
  accessModeRequestSchema,
  accountDecisionParamsSchema,
  type CustomerAcceptFormResult,
  customerAcceptRequestSchema,
  customerInvitationTokenQuerySchema,
  customerInviteRequestSchema,
  type StoreAccessFormField,
  type StoreAccessFormResult,
  type StoreAccessPages,
} from '@app/contracts';
import { AppError } from '../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { StoreAccessService } from './store-access.service';

const FIELDS = ['accessMode', 'email', 'firstName', 'lastName'] as const satisfies readonly StoreAccessFormField[];
const ACCEPT_FIELDS = ['password', 'token'] as const;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

/**
 * The access mode's section of the access page, the accounts waiting for approval, customer
 * invitations, the waiting page and the invited customer's set-password page (decision 105). One
 * action switches on the form's intent; each checks the form came from this store, then the
 * service checks who acts.
 */
export function storeAccessPages(deps: { access: StoreAccessService }): PageModule<StoreAccessPages> {
  return (page) => ({
    storeAccessSettings: () => deps.access.settings(page.ctx),

    async storeAccessAction(form): Promise<StoreAccessFormResult> {
      const { ctx } = page;
      return submitForm(FIELDS, async (): Promise<StoreAccessFormResult> => {
        page.assertFormFromStore();
        switch (one(form.intent)) {
          case 'access-mode': {
            const parsed = accessModeRequestSchema.safeParse({ accessMode: one(form.accessMode) });
            if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
            const state = await deps.access.setMode(ctx, parsed.data.accessMode);
            return { ok: true, message: `Access saved: ${ACCESS_MODE_LABELS[state.accessMode].label.toLowerCase()}.` };
          }
          case 'approve':
          case 'decline': {
            const params = accountDecisionParamsSchema.safeParse({
              userId: one(form.userId),
              decision: one(form.intent),
            });
            if (!params.success) throw AppError.badRequest('Unknown account.');
            const decided = await deps.access.decide(ctx, params.data.userId, params.data.decision);
            if (!decided.ok) return formRefusal(decided, FIELDS);
            return {
              ok: true,
              message:
                params.data.decision === 'approve'
                  ? 'Account approved. We emailed them that they can shop now.'
                  : 'Account declined. We emailed them the answer.',
            };
          }
          case 'invite-customer': {
            const parsed = customerInviteRequestSchema.safeParse({
              email: one(form.email),
              firstName: one(form.firstName),
              lastName: one(form.lastName),
            });
            if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
            const sent = await deps.access.invite(ctx, parsed.data);
            if (!sent.ok) return formRefusal(sent, FIELDS);
            return { ok: true, message: `Invitation sent to ${sent.value.email}.` };
          }
          case 'revoke-customer-invitation': {
            await deps.access.revokeInvitation(ctx, one(form.invitationId));
            return { ok: true, message: 'Invitation revoked: its link no longer works.' };
          }
          default:
            throw AppError.badRequest('Unknown action.');
        }
      });
    },

    accountStanding: () => deps.access.standing(page.ctx),

    async customerInvitation(token) {
      const parsed = customerInvitationTokenQuerySchema.safeParse({ token });
      if (!parsed.success) return null;
      return deps.access.preview(page.ctx, parsed.data.token);
    },

    async acceptCustomerInvitation(input): Promise<CustomerAcceptFormResult> {
      return submitForm(ACCEPT_FIELDS, async (): Promise<CustomerAcceptFormResult> => {
        page.assertFormFromStore();
        const parsed = customerAcceptRequestSchema.safeParse(input);
        if (!parsed.success) return fieldFailure(parsed.error, ACCEPT_FIELDS);
        const accepted = await deps.access.accept(page.ctx, parsed.data);
        if (!accepted.ok) return formRefusal(accepted, ACCEPT_FIELDS);
        return { ok: true, message: `Your password is set. Log in as ${accepted.value.email} to shop.` };
      });
    },
  });
}
