import { type PaypalSellerPages, SELLER_STATUS_LABELS } from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import type { PageModule } from '../../../lib/page-request';
import { submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { SellerOnboarding, SellerOutcome } from './seller-onboarding';

/** What the owner reads after a check or a return from PayPal. */
export const OUTCOME_MESSAGES: Record<SellerOutcome, string> = {
  connected: 'PayPal is connected. Checkout now offers PayPal, paid into your PayPal account.',
  action_needed: 'PayPal needs a few more steps from you before the store can take payments. See below.',
  refused: 'That PayPal account was signed up for another store, so it was not connected.',
  not_found: 'PayPal does not know this sign-up yet. If you finished it, wait a minute and check again.',
};

/** The payments page's functions; each checks the payments permission itself. */
export function paypalSellerPages(deps: { onboarding: SellerOnboarding }): PageModule<PaypalSellerPages> {
  const { onboarding } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async paymentsPage() {
        requireAccess(ctx, 'payments');
        const [seller, openIssues] = await Promise.all([onboarding.state(ctx), onboarding.openIssues(ctx)]);
        return { seller, statusLabel: SELLER_STATUS_LABELS[seller.status], openIssues };
      },

      async connectPaypal() {
        requireAccess(ctx, 'payments');
        return submitForm([] as const, async () => {
          page.assertFormFromStore();
          const started = await onboarding.connect(ctx);
          if (!started.ok) return formRefusal(started);
          return { ok: true as const, actionUrl: started.value.actionUrl };
        });
      },

      async checkPaypal() {
        requireAccess(ctx, 'payments');
        return submitForm([] as const, async () => {
          page.assertFormFromStore();
          const checked = await onboarding.check(ctx);
          if (!checked.ok) return formRefusal(checked);
          return { ok: true as const, message: OUTCOME_MESSAGES[checked.value.outcome] };
        });
      },

      async disconnectPaypal() {
        requireAccess(ctx, 'payments');
        return submitForm([] as const, async () => {
          page.assertFormFromStore();
          const done = await onboarding.disconnect(ctx);
          if (!done.ok) return formRefusal(done);
          return { ok: true as const, message: 'PayPal is disconnected. Checkout no longer offers PayPal.' };
        });
      },
    };
  };
}
