import type { StripeAccountView, StripeConnect } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { refuseSupport } from '../../../lib/access';
import type { RequestContext } from '../../../lib/context';
import type { EventBus } from '../../../lib/events/index';
import { ok, type Refusal, type Result, refuseField } from '../../../lib/result';
import type { SecretBox } from '../../../lib/secret-box';
import { StoreValues } from '../../../lib/store-generations';
import type { AuditService } from '../../audit/index';
import type { RefundRequest, RefundResult } from '../cards/provider';
import { createStripeClient, keyHint, type StripeClient } from './stripe-client';

const sa = schema.stripeAccounts;
const sc = schema.stripeCheckouts;
const we = schema.stripeWebhookEvents;

/** Where each sealed value lives: a value copied to another store's row does not open there. */
const sealedAt = (tenantId: string, column: 'secret_key' | 'webhook_secret') => `stripe_accounts:${tenantId}:${column}`;

export interface StripeServiceDeps {
  secrets: SecretBox;
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  baseUrl: string;
  /** Per-request timeout towards Stripe (tests shorten it). */
  timeoutMs?: number;
}

/** A store's Stripe account as the code that talks to Stripe needs it. */
export interface StripeAccount {
  client: StripeClient;
  webhookSecret: string | null;
  mode: 'test' | 'live';
}

export type StripeConnectRefusal = Refusal<'UNPROCESSABLE'>;

export type StripeCheckoutRow = typeof sc.$inferSelect;

/**
 * A store's own Stripe account (decision 118): connected by its owner with a secret key checked
 * with Stripe (GET /v1/account) before anything is saved, sealed at rest, shown back only as its
 * hint; and the rows of Stripe's side of checkout (sessions, webhook events seen) this module owns.
 */
export function createStripeService(db: Db, deps: StripeServiceDeps) {
  const clientFor = (secretKey: string) =>
    createStripeClient({
      baseUrl: deps.baseUrl,
      secretKey,
      ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
    });

  // Every card order asks whether the store still offers test cards: kept per store rather than read
  // each time (an order's statements are counted, bench/order-statements.ts). A connect or disconnect
  // forgets it in every process (`payments.changed`); the minute bounds a change made behind the app.
  const testCards = new StoreValues<boolean>(60_000, 10_000);

  async function row(tenantId: string) {
    const [r] = await db.select().from(sa).where(eq(sa.tenantId, tenantId));
    return r ?? null;
  }

  function view(r: Awaited<ReturnType<typeof row>>): StripeAccountView {
    if (!r) {
      return {
        connected: false,
        keyHint: null,
        mode: null,
        webhookSecretSet: false,
        stripeAccountId: null,
        connectedAt: null,
        testCardsOffered: true,
      };
    }
    const mode = r.livemode === 'live' ? 'live' : 'test';
    return {
      connected: true,
      keyHint: r.keyHint,
      mode,
      webhookSecretSet: r.webhookSecretSealed !== null,
      stripeAccountId: r.stripeAccountId,
      connectedAt: r.connectedAt.toISOString(),
      testCardsOffered: mode !== 'live',
    };
  }

  /** The audit's picture of an account: the hint and whether a secret is there, never a character of either. */
  const audited = (r: Awaited<ReturnType<typeof row>>) =>
    r
      ? { keyHint: r.keyHint, mode: r.livemode, stripeAccountId: r.stripeAccountId, webhookSecret: 'stored' }
      : { keyHint: null, mode: null, stripeAccountId: null, webhookSecret: null };

  return {
    async view(ctx: RequestContext): Promise<StripeAccountView> {
      return view(await row(ctx.tenantId));
    },

    /**
     * Connects (or replaces) the store's account. The key is asked about at Stripe first: one Stripe
     * refuses is a 422 naming secretKey and nothing is saved; Stripe unreachable throws 502.
     */
    async connect(ctx: RequestContext, input: StripeConnect): Promise<Result<StripeAccountView, StripeConnectRefusal>> {
      refuseSupport(ctx, "change the store's Stripe account");
      const checked = await clientFor(input.secretKey).retrieveAccount();
      if (!checked.ok) {
        return refuseField(
          422,
          'UNPROCESSABLE',
          'secretKey',
          'Stripe did not accept this secret key. Copy it again from your Stripe dashboard (Developers, API keys).',
        );
      }
      const mode = checked.livemode || input.secretKey.startsWith('sk_live_') ? 'live' : 'test';
      const next = {
        tenantId: ctx.tenantId,
        secretKeySealed: deps.secrets.seal(input.secretKey, sealedAt(ctx.tenantId, 'secret_key')),
        webhookSecretSealed: deps.secrets.seal(input.webhookSecret, sealedAt(ctx.tenantId, 'webhook_secret')),
        keyHint: keyHint(input.secretKey),
        stripeAccountId: checked.id,
        livemode: mode,
        connectedAt: new Date(),
      };
      const saved = await deps.events.transaction(async (tx) => {
        const [before] = await tx.select().from(sa).where(eq(sa.tenantId, ctx.tenantId)).for('update');
        const [after] = await tx
          .insert(sa)
          .values(next)
          .onConflictDoUpdate({ target: sa.tenantId, set: { ...next } })
          .returning();
        await deps.audit.record(tx, ctx, {
          entity: 'stripe_account',
          entityId: 'stripe',
          action: before ? 'replace' : 'connect',
          before: audited(before ?? null),
          // A replaced secret is named as such, so the log shows the key changed even with the same hint.
          after: { ...audited(after ?? null), ...(before ? { webhookSecret: 'replaced' } : {}) },
        });
        deps.events.emitAfterCommit(tx, 'payments.changed', { tenantId: ctx.tenantId });
        return after ?? null;
      });
      testCards.drop(ctx.tenantId);
      return ok(view(saved));
    },

    /** Forgets the keys: checkout stops offering Stripe. Orders already paid keep their payment references. */
    async disconnect(ctx: RequestContext): Promise<StripeAccountView> {
      refuseSupport(ctx, "change the store's Stripe account");
      await deps.events.transaction(async (tx) => {
        const [gone] = await tx.delete(sa).where(eq(sa.tenantId, ctx.tenantId)).returning();
        if (!gone) return;
        await deps.audit.record(tx, ctx, {
          entity: 'stripe_account',
          entityId: 'stripe',
          action: 'disconnect',
          before: audited(gone),
          after: audited(null),
        });
        deps.events.emitAfterCommit(tx, 'payments.changed', { tenantId: ctx.tenantId });
      });
      testCards.drop(ctx.tenantId);
      return view(null);
    },

    /** The store's account with its client, or null when not connected (or its keys no longer open). */
    async forStore(tenantId: string): Promise<StripeAccount | null> {
      const r = await row(tenantId);
      if (!r) return null;
      const key = deps.secrets.open(r.secretKeySealed, sealedAt(tenantId, 'secret_key'));
      if (!key) return null;
      const webhookSecret = r.webhookSecretSealed
        ? deps.secrets.open(r.webhookSecretSealed, sealedAt(tenantId, 'webhook_secret'))
        : null;
      return { client: clientFor(key), webhookSecret, mode: r.livemode === 'live' ? 'live' : 'test' };
    },

    /** Whether checkout offers the built-in test provider: not once a live Stripe key is connected. */
    async testCardsOffered(tenantId: string): Promise<boolean> {
      return testCards.get(tenantId, async () => view(await row(tenantId)).testCardsOffered);
    },

    /** Forgets what `testCardsOffered` kept of a store: its account changed (`payments.changed`). */
    forget(tenantId: string) {
      testCards.drop(tenantId);
    },
    clear() {
      testCards.clear();
    },

    /**
     * The refund port for orders paid through Stripe (payment_provider 'stripe'): the payment intent
     * is the order's payment reference, our refund's key the Idempotency-Key.
     */
    async refund(tenantId: string, orderId: string, req: RefundRequest): Promise<RefundResult> {
      const account = await this.forStore(tenantId);
      if (!account) {
        return {
          ok: false,
          reason: 'declined',
          message: 'Stripe is not connected any more: refund it in your Stripe dashboard.',
        };
      }
      const r = await account.client.createRefund(
        { paymentIntent: req.chargeId, amountMinor: req.amountMinor, orderId },
        req.idempotencyKey,
      );
      return r.ok ? { ok: true, refundId: r.refundId } : r;
    },

    sessions: {
      async record(input: Omit<typeof sc.$inferInsert, 'status' | 'createdAt' | 'closedAt'>) {
        await db.insert(sc).values(input).onConflictDoNothing();
      },
      async find(tenantId: string, sessionId: string): Promise<StripeCheckoutRow | null> {
        const [r] = await db
          .select()
          .from(sc)
          .where(and(eq(sc.tenantId, tenantId), eq(sc.sessionId, sessionId)));
        return r ?? null;
      },
      async ofOrder(tenantId: string, orderId: string): Promise<StripeCheckoutRow | null> {
        const [r] = await db
          .select()
          .from(sc)
          .where(and(eq(sc.tenantId, tenantId), eq(sc.orderId, orderId)));
        return r ?? null;
      },
      /** Closes an open session as paid or cancelled; false when it was closed already. */
      async close(
        tenantId: string,
        sessionId: string,
        status: 'paid' | 'cancelled',
        paymentIntentId: string | null,
      ): Promise<boolean> {
        const closed = await db
          .update(sc)
          .set({ status, paymentIntentId, closedAt: new Date() })
          .where(and(eq(sc.tenantId, tenantId), eq(sc.sessionId, sessionId), eq(sc.status, 'open')))
          .returning({ sessionId: sc.sessionId });
        return closed.length > 0;
      },
    },

    /** Whether a webhook event with this id was applied before. */
    async eventSeen(tenantId: string, eventId: string): Promise<boolean> {
      const [r] = await db
        .select({ eventId: we.eventId })
        .from(we)
        .where(and(eq(we.tenantId, tenantId), eq(we.eventId, eventId)));
      return Boolean(r);
    },

    /**
     * Records a webhook event's id; false when it was recorded before (a replay or a redelivery),
     * so each event is applied at most once.
     */
    async firstTimeSeen(tenantId: string, eventId: string, type: string, outcome: string, tx?: Tx): Promise<boolean> {
      const rows = await (tx ?? db)
        .insert(we)
        .values({ tenantId, eventId, type, outcome })
        .onConflictDoNothing()
        .returning({ eventId: we.eventId });
      return rows.length > 0;
    },
  };
}

export type StripeService = ReturnType<typeof createStripeService>;
