// Tables of the Stripe payment provider (apps/api/src/modules/payments/stripe, decision 118).
import { foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * A store's own Stripe account: its secret key and webhook signing secret, sealed by
 * lib/secret-box.ts (never returned once saved). `keyHint` is what the Payments page shows
 * ("sk_test_…abcd"): the prefix says test or live, the last four tell two keys apart.
 */
export const stripeAccounts = pgTable(
  'stripe_accounts',
  {
    tenantId: text('tenant_id').notNull(),
    secretKeySealed: text('secret_key_sealed').notNull(),
    webhookSecretSealed: text('webhook_secret_sealed'),
    keyHint: text('key_hint').notNull(),
    /** Stripe's account id (acct_…), as GET /v1/account answered when the key was checked. */
    stripeAccountId: text('stripe_account_id'),
    livemode: text('livemode').notNull().default('test'),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/**
 * A Checkout Session made for a reserved order: the shopper is at Stripe's hosted page between
 * `open` and `paid` (or `cancelled`, when they came back without paying and the reservation was
 * released). `cartId` empties the cart when the webhook, not the shopper, confirms the order.
 */
export const stripeCheckouts = pgTable(
  'stripe_checkouts',
  {
    tenantId: text('tenant_id').notNull(),
    sessionId: text('session_id').notNull(),
    orderId: text('order_id').notNull(),
    cartId: text('cart_id'),
    userId: text('user_id'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** open, paid, cancelled. */
    status: text('status').notNull().default('open'),
    paymentIntentId: text('payment_intent_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.sessionId] }),
    index('stripe_checkouts_order_idx').on(t.tenantId, t.orderId),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/** Stripe's event ids already applied: a delivery seen before is answered 200 and changes nothing. */
export const stripeWebhookEvents = pgTable(
  'stripe_webhook_events',
  {
    tenantId: text('tenant_id').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.eventId] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
