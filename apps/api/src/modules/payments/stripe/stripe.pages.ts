import { type StripeField, type StripeFormResult, stripeConnectSchema } from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import type { PageModule } from '../../../lib/page-request';
import { formFailure } from '../../../lib/page-request';
import type { StripeService } from './stripe.service';

const FIELDS: readonly StripeField[] = ['secretKey', 'webhookSecret'];
const FIELDS_MESSAGE = 'Please check the fields marked below.';

const sentence = (m: string) => {
  const s = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
};

/** The Payments page's Stripe section; each function checks the payments permission itself. */
export function stripePages(deps: { stripe: StripeService }): PageModule<{
  stripeAccount: () => ReturnType<StripeService['view']>;
  saveStripe: (intent: string, fields: Record<string, string>) => Promise<StripeFormResult>;
}> {
  return (page) => {
    const { ctx } = page;
    return {
      async stripeAccount() {
        requireAccess(ctx, 'payments');
        return deps.stripe.view(ctx);
      },
      async saveStripe(intent, fields): Promise<StripeFormResult> {
        requireAccess(ctx, 'payments');
        try {
          page.assertFormFromStore();
          if (intent === 'stripe-disconnect') {
            const account = await deps.stripe.disconnect(ctx);
            return { ok: true, message: 'Stripe is disconnected. Checkout no longer offers it.', account };
          }
          const parsed = stripeConnectSchema.safeParse({
            secretKey: fields.secretKey ?? '',
            webhookSecret: fields.webhookSecret ?? '',
          });
          if (!parsed.success) {
            const fieldErrors: Partial<Record<StripeField, string>> = {};
            for (const issue of parsed.error.issues) {
              const f = String(issue.path[0] ?? '') as StripeField;
              if (FIELDS.includes(f) && !fieldErrors[f]) fieldErrors[f] = sentence(issue.message);
            }
            return { ok: false, status: 400, message: FIELDS_MESSAGE, fieldErrors };
          }
          const saved = await deps.stripe.connect(ctx, parsed.data);
          if (!saved.ok) {
            return {
              ok: false,
              status: 422,
              message: FIELDS_MESSAGE,
              fieldErrors: { secretKey: saved.fieldMessage ?? saved.message },
            };
          }
          return {
            ok: true,
            message: 'Stripe is connected. Checkout now offers “Pay with card (Stripe)”.',
            account: saved.value,
          };
        } catch (err) {
          // Stripe could not be reached to check the key: the form says so and nothing was saved.
          if (err instanceof AppError && err.statusCode === 502) {
            return { ok: false, status: 422, message: err.message, fieldErrors: {}, code: err.code };
          }
          return formFailure(err, FIELDS);
        }
      },
    };
  };
}
