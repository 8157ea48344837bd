import type { PageModule } from '../../../../lib/page-request';
import { formFailure } from '../../../../lib/page-request';
import type { CheckoutService } from '../../../orders/index';

type Landing =
  | { ok: true; location: string }
  | { ok: false; status: 400 | 401 | 403 | 404 | 409 | 422 | 429; message: string; fieldErrors: Record<string, never> };

const SESSION_ID = /^cs_(test|live)_[A-Za-z0-9]{8,200}$/;
const ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Checkout's way back from Stripe's hosted page (success_url, cancel_url): where the shopper goes next. */
export function stripeReturnPages(deps: { checkout: CheckoutService }): PageModule<{
  stripeReturn: (sessionId: string) => Promise<Landing>;
  stripeCancel: (orderId: string) => Promise<Landing>;
}> {
  return (page) => {
    const { ctx } = page;
    const toOrder = (l: { orderId: string; accessKey: string | null }) =>
      `/order?orderId=${encodeURIComponent(l.orderId)}${l.accessKey ? `&key=${encodeURIComponent(l.accessKey)}` : ''}&placed=1`;
    const notFound = { ok: false, status: 404, message: 'This payment could not be found.', fieldErrors: {} } as const;
    return {
      async stripeReturn(sessionId) {
        if (!SESSION_ID.test(sessionId)) return notFound;
        try {
          const r = await deps.checkout.stripeReturn(ctx, sessionId);
          if (!r.ok) return { ok: false, status: r.status, message: r.message, fieldErrors: {} };
          const l = r.value;
          if (l.paid) return { ok: true, location: toOrder(l) };
          return { ok: true, location: `/checkout?stripe=${l.reason}` };
        } catch (err) {
          const f = formFailure(err, []);
          return { ok: false, status: f.status, message: f.message, fieldErrors: {} };
        }
      },
      async stripeCancel(orderId) {
        if (!ORDER_ID.test(orderId)) return notFound;
        try {
          const r = await deps.checkout.stripeCancel(ctx, orderId);
          if (!r.ok) return { ok: false, status: r.status, message: r.message, fieldErrors: {} };
          const l = r.value;
          return { ok: true, location: l.paid ? toOrder(l) : '/checkout?stripe=cancelled' };
        } catch (err) {
          const f = formFailure(err, []);
          return { ok: false, status: f.status, message: f.message, fieldErrors: {} };
        }
      },
    };
  };
}
