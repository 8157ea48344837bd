import { SELLER_REASONS, type SellerReason, type SellerState, type SellerStatus } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, count, eq } from 'drizzle-orm';
import { refuseSupport } from '../../../lib/access';
import type { RequestContext } from '../../../lib/context';
import type { EventBus } from '../../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import type { PayPalClient } from '../paypal/index';
import type { PaymentAccounts } from './payment-accounts';
import { type SellerRow, trackingIdFor, transitionSeller } from './seller-state';

/** What a return from PayPal or a check ended in, for the page's notice. */
export type SellerOutcome = 'connected' | 'action_needed' | 'refused' | 'not_found';

/** A sign-up link is reused while younger than this: PayPal's action_url stays valid for a while. */
export const REFERRAL_REUSE_MS = 60 * 60_000;

export const ONBOARDING_UNAVAILABLE_MESSAGE =
  'The platform operator has not set up PayPal for stores yet, so stores cannot connect a PayPal account here. ' +
  'A store that has its own PayPal app can still enter it under PayPal settings.';

/**
 * Why connecting, checking or disconnecting is refused: CONFLICT (409) when the platform has no
 * PayPal partner set-up, so stores cannot connect here; INVALID_TRANSITION (409) when the seller's
 * state does not allow it (connected already, nothing to disconnect, another change came first).
 */
export type SellerOnboardingRefusal = Refusal<'CONFLICT' | 'INVALID_TRANSITION'>;

export interface SellerOnboardingDeps {
  paymentAccounts: PaymentAccounts;
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
}

export interface SellerOnboarding {
  /** The store's onboarding state as its owner sees it (contracts' sellerStateSchema). */
  state(ctx: RequestContext): Promise<SellerState>;
  /**
   * Starts (or continues) PayPal's sign-up: a partner referral for this store, the seller moved to
   * pending. A fresh link of a pending sign-up is reused. Refused when onboarding is not set up or the
   * store is connected already.
   */
  connect(ctx: RequestContext): Promise<Result<{ actionUrl: string; state: SellerState }, SellerOnboardingRefusal>>;
  /**
   * Asks PayPal's merchant-integrations what is true of the seller (the merchant id hint, or the
   * seller who signed up with this store's tracking id) and moves the state to what it says. The
   * return from PayPal, the owner's "Check again" and PayPal's onboarding webhook all land here.
   */
  confirm(
    ctx: RequestContext,
    input?: { merchantId?: string; actor?: { kind: 'paypal' | 'system'; id?: string } },
  ): Promise<Result<SellerState, SellerOnboardingRefusal>>;
  /** `confirm` with what it found, for the owner's return and check (and their audit entry). */
  check(
    ctx: RequestContext,
    input?: { merchantId?: string; via?: 'return' | 'check' },
  ): Promise<Result<{ outcome: SellerOutcome; state: SellerState }, SellerOnboardingRefusal>>;
  /** The owner ends the connection: checkout stops offering PayPal through the seller account. */
  disconnect(ctx: RequestContext): Promise<Result<SellerState, SellerOnboardingRefusal>>;
  /** Open payment_issues rows of the store (the page's warning). */
  openIssues(ctx: RequestContext): Promise<number>;
}

const s = schema.paypalSellers;

/** PayPal's merchant ids are 13 upper-case letters and digits; anything else is not worth asking about. */
const MERCHANT_ID = /^[A-Z0-9]{5,32}$/;

export function createSellerOnboarding(db: Db, deps: SellerOnboardingDeps): SellerOnboarding {
  const accounts = deps.paymentAccounts;

  /** The platform's partner app, or null when the operator has not set one up. */
  function partner(): { api: PayPalClient; partnerId: string } | null {
    const api = accounts.platform;
    if (!api || !accounts.partnerId) return null;
    return { api, partnerId: accounts.partnerId };
  }

  const unavailable = (): SellerOnboardingRefusal => refuse(409, 'CONFLICT', ONBOARDING_UNAVAILABLE_MESSAGE);
  /** A move the seller's state no longer allows, found inside a transaction: undone, then returned. */
  const stateRefused = (message: string) => new Refused(refuse(409, 'INVALID_TRANSITION', message));
  /** Runs a change's transaction; a refusal thrown in it as `Refused` comes back as the returned refusal. */
  const transact = <T>(work: () => Promise<T>) =>
    returnRefusals<Result<T, SellerOnboardingRefusal>, SellerOnboardingRefusal>(async () => ok(await work()));

  async function row(tenantId: string): Promise<SellerRow | null> {
    const [r] = await db.select().from(s).where(eq(s.tenantId, tenantId));
    return r ?? null;
  }

  async function state(ctx: RequestContext): Promise<SellerState> {
    const r = await row(ctx.tenantId);
    const checkoutEnabled = (await accounts.forStore(ctx.tenantId)) !== null;
    const reasons = ((r?.reasons ?? []) as SellerReason[])
      .filter((code) => code in SELLER_REASONS)
      .map((code) => ({ code, message: SELLER_REASONS[code] }));
    return {
      tenantId: ctx.tenantId,
      status: (r?.status ?? 'not_started') as SellerStatus,
      merchantId: r?.merchantId ?? null,
      reasons,
      paymentsReceivable: r?.paymentsReceivable ?? null,
      primaryEmailConfirmed: r?.primaryEmailConfirmed ?? null,
      environment: (r?.environment as 'sandbox' | 'live' | null) ?? (partner() ? accounts.environment : null),
      checkedAt: r?.checkedAt?.toISOString() ?? null,
      connectedAt: r?.connectedAt?.toISOString() ?? null,
      checkoutEnabled,
      onboardingAvailable: partner() !== null,
    };
  }

  /** Reads the store after a change: what checkout resolves may have changed with it. */
  async function fresh(ctx: RequestContext) {
    accounts.forget(ctx.tenantId);
    return state(ctx);
  }

  const audited = (ctx: RequestContext) => ctx.actor.kind === 'staff';

  /** What PayPal says of the seller, judged for this store: connected, or the reasons it is not. */
  async function ask(
    ctx: RequestContext,
    { api, partnerId }: { api: PayPalClient; partnerId: string },
    hint: string | undefined,
    current: SellerRow | null,
  ) {
    const trackingId = trackingIdFor(ctx.tenantId);
    let merchantId = hint && MERCHANT_ID.test(hint) ? hint : undefined;
    if (!merchantId) merchantId = (await api.findMerchantByTrackingId(partnerId, trackingId))?.merchantId;
    const integration = merchantId ? await api.getMerchantIntegration(partnerId, merchantId) : null;
    if (!integration) return { outcome: 'not_found' as const, reasons: ['NOT_FOUND_AT_PAYPAL'] as SellerReason[] };
    // PayPal's answer about a seller who signed up for another store (a forged merchantIdInPayPal):
    // nothing of it is kept here.
    if (integration.trackingId !== trackingId) {
      return { outcome: 'refused' as const, reasons: ['OTHER_STORE'] as SellerReason[] };
    }
    const reasons: SellerReason[] = [];
    if (!integration.paymentsReceivable) reasons.push('PAYMENTS_NOT_RECEIVABLE');
    if (!integration.primaryEmailConfirmed) reasons.push('EMAIL_NOT_CONFIRMED');
    if (!integration.oauthIntegrations.some((o) => o.partnerClientId === api.clientId)) {
      // A seller who was connected and no longer grants the platform's app: they withdrew it.
      const wasConnected = current?.status === 'connected' && current.merchantId === integration.merchantId;
      reasons.push(wasConnected ? 'CONSENT_REVOKED' : 'CONSENT_NOT_GRANTED');
    }
    return {
      outcome: reasons.length ? ('action_needed' as const) : ('connected' as const),
      reasons,
      integration,
    };
  }

  async function settle(
    ctx: RequestContext,
    input: { merchantId?: string; actor?: { kind: 'paypal' | 'system'; id?: string }; via?: 'return' | 'check' },
  ): Promise<Result<{ outcome: SellerOutcome; state: SellerState }, SellerOnboardingRefusal>> {
    const current = await row(ctx.tenantId);
    // PayPal (a late or redelivered onboarding webhook) does not connect a store whose owner never
    // started connecting or disconnected it: only the owner's own connect or check does.
    const idle = !current || current.status === 'not_started' || current.status === 'disconnected';
    if (input.actor && idle) {
      return ok({ outcome: 'action_needed', state: await state(ctx) });
    }
    const p = partner();
    if (!p) return unavailable();
    const found = await ask(ctx, p, input.merchantId, current);
    const now = new Date();
    // A connected store stays connected when a link names someone else's seller or one PayPal does
    // not know: a forged or stale return must not switch off a working checkout.
    const foreignHint =
      current?.status === 'connected' &&
      (found.outcome === 'refused' || (found.outcome === 'not_found' && input.merchantId !== current.merchantId));
    const done = await transact(() =>
      deps.events.transaction(async (tx) => {
        let after: SellerRow | null = current;
        if (!foreignHint) {
          const to: SellerStatus = found.outcome === 'connected' ? 'connected' : 'action_needed';
          const integration = 'integration' in found ? found.integration : undefined;
          const result = await transitionSeller(tx, ctx, to, {
            reasons: found.reasons,
            checkedAt: now,
            environment: accounts.environment,
            ...(integration
              ? {
                  merchantId: integration.merchantId,
                  paymentsReceivable: integration.paymentsReceivable,
                  primaryEmailConfirmed: integration.primaryEmailConfirmed,
                  primaryEmail: integration.primaryEmail ?? null,
                }
              : {}),
            ...(found.outcome === 'connected' ? { actionUrl: null, referralCreatedAt: null } : {}),
            ...(input.actor ? { actor: input.actor } : {}),
            note:
              found.outcome === 'refused'
                ? `PayPal's seller ${input.merchantId ?? ''} signed up for another store: refused`.trim()
                : (input.via ?? (input.actor ? 'webhook' : undefined)),
          });
          if (!result.ok) throw stateRefused(result.message);
          after = result.seller;
        }
        if (audited(ctx)) {
          await deps.audit.record(tx, ctx, {
            entity: 'paypal_seller',
            entityId: ctx.tenantId,
            action: input.via === 'return' ? 'return' : 'check',
            before: { status: current?.status ?? 'not_started', merchantId: current?.merchantId ?? null },
            after: {
              status: after?.status ?? 'not_started',
              merchantId: after?.merchantId ?? null,
              reasons: found.reasons.join(', ') || null,
              checkedAt: now.toISOString(),
              ...(found.outcome === 'refused' && input.merchantId ? { refusedMerchantId: input.merchantId } : {}),
            },
          });
        }
        deps.events.emitAfterCommit(tx, 'payments.changed', { tenantId: ctx.tenantId });
      }),
    );
    if (!done.ok) return done;
    return ok({ outcome: found.outcome, state: await fresh(ctx) });
  }

  return {
    state,

    async connect(ctx) {
      refuseSupport(ctx, "change the store's PayPal account");
      const p = partner();
      if (!p) return unavailable();
      const { api } = p;
      const current = await row(ctx.tenantId);
      if (current?.status === 'connected') {
        return refuse(
          409,
          'INVALID_TRANSITION',
          'PayPal is connected already. Disconnect it first to connect another account.',
        );
      }
      // The owner pressed again while PayPal's sign-up is still open: the same link, no new referral.
      if (
        current?.status === 'pending' &&
        current.actionUrl &&
        current.referralCreatedAt &&
        Date.now() - current.referralCreatedAt.getTime() < REFERRAL_REUSE_MS
      ) {
        return ok({ actionUrl: current.actionUrl, state: await state(ctx) });
      }
      const email =
        ctx.actor.kind === 'staff' && ctx.actor.userLoginId.includes('@') ? ctx.actor.userLoginId : undefined;
      // Outside the transaction: a network call must not hold the row lock.
      const referral = await api.createPartnerReferral({
        trackingId: trackingIdFor(ctx.tenantId),
        returnUrl: `${ctx.origin}/api/paypal/seller/return`,
        ...(email ? { email } : {}),
      });
      const now = new Date();
      const done = await transact(() =>
        deps.events.transaction(async (tx) => {
          const result = await transitionSeller(tx, ctx, 'pending', {
            actionUrl: referral.actionUrl,
            referralCreatedAt: now,
            environment: accounts.environment,
            note: 'connect',
          });
          if (!result.ok) throw stateRefused(result.message);
          await deps.audit.record(tx, ctx, {
            entity: 'paypal_seller',
            entityId: ctx.tenantId,
            action: 'connect',
            before: { status: result.from },
            after: { status: 'pending', referralId: referral.referralId, startedAt: now.toISOString() },
          });
          deps.events.emitAfterCommit(tx, 'payments.changed', { tenantId: ctx.tenantId });
        }),
      );
      if (!done.ok) return done;
      return ok({ actionUrl: referral.actionUrl, state: await fresh(ctx) });
    },

    async confirm(ctx, input = {}) {
      const settled = await settle(ctx, input);
      return settled.ok ? ok(settled.value.state) : settled;
    },

    async check(ctx, input = {}) {
      const current = await row(ctx.tenantId);
      return settle(ctx, {
        // A re-check asks about the seller PayPal confirmed before, else the one of this store's sign-up.
        merchantId: input.merchantId ?? current?.merchantId ?? undefined,
        via: input.via ?? 'check',
      });
    },

    async disconnect(ctx) {
      refuseSupport(ctx, "change the store's PayPal account");
      const current = await row(ctx.tenantId);
      const status = (current?.status ?? 'not_started') as SellerStatus;
      if (status === 'not_started' || status === 'disconnected') {
        return refuse(409, 'INVALID_TRANSITION', 'PayPal is not connected, so there is nothing to disconnect.');
      }
      const done = await transact(() =>
        deps.events.transaction(async (tx) => {
          // A sign-up still open at PayPal is abandoned (back to the start); a connection is ended.
          const to: SellerStatus = status === 'pending' ? 'not_started' : 'disconnected';
          const result = await transitionSeller(tx, ctx, to, {
            actionUrl: null,
            referralCreatedAt: null,
            reasons: [],
            note: 'disconnect',
          });
          if (!result.ok) throw stateRefused(result.message);
          await deps.audit.record(tx, ctx, {
            entity: 'paypal_seller',
            entityId: ctx.tenantId,
            action: 'disconnect',
            before: { status: result.from, merchantId: current?.merchantId ?? null },
            after: { status: to, merchantId: current?.merchantId ?? null },
          });
          deps.events.emitAfterCommit(tx, 'payments.changed', { tenantId: ctx.tenantId });
        }),
      );
      if (!done.ok) return done;
      return ok(await fresh(ctx));
    },

    async openIssues(ctx) {
      const pi = schema.paymentIssues;
      const [r] = await db
        .select({ n: count() })
        .from(pi)
        .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.status, 'open')));
      return Number(r?.n ?? 0);
    },
  };
}
