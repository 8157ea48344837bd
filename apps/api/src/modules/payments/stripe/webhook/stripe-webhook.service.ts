import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { systemContext } from '../../../../lib/context';
import { AppError } from '../../../../lib/errors';
import { resolveRequestTenant } from '../../../../plugins/tenancy';
import type { CheckoutService } from '../../../orders/index';
import type { TenantService } from '../../../tenant/index';
import type { StripeService } from '../stripe.service';
import { verifyStripeSignature } from '../stripe-client';

export interface StripeWebhookDeps {
  stripe: StripeService;
  checkout: CheckoutService;
  tenants: TenantService;
  log: FastifyBaseLogger;
  /**
   * Runs the rest in the store's context, so its queries reach the database the store lives on
   * (decision 123): the route is outside tenancy's request context, which would do it otherwise.
   */
  inStore: <T>(tenantId: string, work: () => Promise<T>) => Promise<T>;
  /** Seconds since the epoch; tests move it. */
  now?: () => number;
}

interface StripeEvent {
  id: string;
  type: string;
  data: { object: { id?: unknown; object?: unknown; metadata?: unknown; client_reference_id?: unknown } };
}

function parseEvent(raw: string): StripeEvent | null {
  try {
    const e = JSON.parse(raw) as Partial<StripeEvent>;
    if (
      typeof e.id !== 'string' ||
      typeof e.type !== 'string' ||
      typeof e.data?.object !== 'object' ||
      !e.data.object
    ) {
      return null;
    }
    return e as StripeEvent;
  } catch {
    return null;
  }
}

const refused = (message: string) => new AppError(400, 'BAD_REQUEST', message);

/**
 * Stripe's webhook for one store (decision 118): verified against the store's endpoint secret,
 * de-duplicated by event id, and an order confirmed only after asking Stripe (the event's body is
 * a hint, not proof of payment).
 */
export function createStripeWebhookService(deps: StripeWebhookDeps) {
  return {
    async receive(req: FastifyRequest, raw: string): Promise<{ eventId: string; outcome: string }> {
      const tenant = await resolveRequestTenant(req, deps.tenants);
      return deps.inStore(tenant.tenantId, async () => {
        const account = await deps.stripe.forStore(tenant.tenantId);
        if (!account?.webhookSecret) throw refused('This store has no Stripe webhook signing secret.');
        const header = req.headers['stripe-signature'];
        const check = verifyStripeSignature(
          raw,
          Array.isArray(header) ? header[0] : header,
          account.webhookSecret,
          deps.now?.(),
        );
        if (!check.ok) {
          deps.log.warn({ tenantId: tenant.tenantId, reason: check.reason }, 'Stripe webhook refused');
          throw refused(
            check.reason === 'stale'
              ? 'The Stripe-Signature timestamp is outside the tolerance.'
              : 'The Stripe-Signature header does not verify.',
          );
        }
        const event = parseEvent(raw);
        if (!event) throw refused('The body is not a Stripe event.');
        const ctx = systemContext(tenant, 'stripe-webhook', req.id);
        if (await deps.stripe.eventSeen(tenant.tenantId, event.id)) return { eventId: event.id, outcome: 'duplicate' };

        const object = event.data.object;
        const metadata = (object.metadata ?? {}) as Record<string, unknown>;
        let outcome = 'ignored';
        if (event.type === 'checkout.session.completed' && typeof object.id === 'string') {
          const landed = await deps.checkout.settleStripe(ctx, { sessionId: object.id });
          outcome = landed === null ? 'unknown_session' : landed.paid ? 'paid' : landed.reason;
        } else if (event.type === 'payment_intent.succeeded' && typeof metadata.order_id === 'string') {
          const landed = await deps.checkout.settleStripe(ctx, { orderId: metadata.order_id });
          outcome = landed === null ? 'unknown_order' : landed.paid ? 'paid' : landed.reason;
        }
        // Recorded once applied: an event that failed half-way is applied again when Stripe retries it.
        await deps.stripe.firstTimeSeen(tenant.tenantId, event.id, event.type, outcome);
        return { eventId: event.id, outcome };
      });
    },
  };
}

export type StripeWebhookService = ReturnType<typeof createStripeWebhookService>;
