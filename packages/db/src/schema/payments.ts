import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * A store's PayPal seller account, connected through the platform's partner app (decision 049).
 * `status` changes only through the onboarding state machine (modules/payments/seller), which writes
 * `paypal_seller_history`. The merchant id is only ever one PayPal confirmed through
 * merchant-integrations for this store's tracking id: the return URL's query is a hint.
 */
export const paypalSellers = pgTable(
  'paypal_sellers',
  {
    tenantId: text('tenant_id').notNull(),
    /** not_started | pending | action_needed | connected | disconnected */
    status: text('status').notNull().default('not_started'),
    /** Sent as the partner referral's tracking_id; PayPal hands it back on the seller. */
    trackingId: text('tracking_id').notNull(),
    /** The seller's merchant id at PayPal (merchantIdInPayPal), once PayPal confirmed it. */
    merchantId: text('merchant_id'),
    /** Where PayPal's sign-up continues (the referral's action_url); reused while it is fresh. */
    actionUrl: text('action_url'),
    referralCreatedAt: timestamp('referral_created_at', { withTimezone: true }),
    /** What the owner still has to do at PayPal (reason codes of contracts' SELLER_REASONS). */
    reasons: text('reasons').array().notNull().default([]),
    paymentsReceivable: boolean('payments_receivable'),
    primaryEmailConfirmed: boolean('primary_email_confirmed'),
    primaryEmail: text('primary_email'),
    /** sandbox | live: the environment of the platform app the seller consented to. */
    environment: text('environment'),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId] }),
    uniqueIndex('paypal_sellers_tracking_idx').on(t.trackingId),
    // Webhooks name the seller by merchant id; one merchant account serves one store at a time.
    uniqueIndex('paypal_sellers_merchant_idx')
      .on(t.merchantId)
      .where(sql`${t.merchantId} IS NOT NULL AND ${t.status} <> 'disconnected'`),
    check(
      'paypal_sellers_status_check',
      sql`${t.status} IN ('not_started', 'pending', 'action_needed', 'connected', 'disconnected')`,
    ),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/** Every move of a seller's status: who (or which PayPal event) moved it, and why. */
export const paypalSellerHistory = pgTable(
  'paypal_seller_history',
  {
    tenantId: text('tenant_id').notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    merchantId: text('merchant_id'),
    reasons: text('reasons').array().notNull().default([]),
    /** 'owner' with the user id, 'paypal' for a webhook, 'system' for a job. */
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('paypal_seller_history_tenant_idx').on(t.tenantId, t.at),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/**
 * A store's payment provider settings by the clients' config id (`PP_CONFIG` for PayPal). The secret
 * of a store's own PayPal app is sealed with SECRETS_KEY (lib/secret-box) and never read back out
 * to anyone: only the payment code opens it to talk to PayPal.
 */
export const paymentConfigs = pgTable(
  'payment_configs',
  {
    tenantId: text('tenant_id').notNull(),
    configId: text('config_id').notNull(),
    /** Whether checkout offers this provider at all (an owner can switch PayPal off). */
    enabled: boolean('enabled').notNull().default(true),
    /** sandbox | live, for a store's own app. */
    environment: text('environment').notNull().default('live'),
    ownClientId: text('own_client_id'),
    ownClientSecretSealed: text('own_client_secret_sealed'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.configId] }),
    check('payment_configs_environment_check', sql`${t.environment} IN ('sandbox', 'live')`),
    check('payment_configs_own_app_check', sql`(${t.ownClientId} IS NULL) = (${t.ownClientSecretSealed} IS NULL)`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/**
 * Each PayPal webhook event applied, by PayPal's event id: a replayed event finds its row and
 * changes nothing. Platform-wide (PayPal's ids are unique); tenant_id is the store the event
 * concerned, once known.
 */
export const paypalWebhookEvents = pgTable(
  'paypal_webhook_events',
  {
    eventId: text('event_id').primaryKey(),
    eventType: text('event_type').notNull(),
    resourceId: text('resource_id'),
    tenantId: text('tenant_id'),
    /** applied | ignored | flagged */
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    transmissionTime: timestamp('transmission_time', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('paypal_webhook_events_tenant_idx').on(t.tenantId, t.receivedAt),
    index('paypal_webhook_events_received_idx').on(t.receivedAt),
  ],
);

/**
 * Money PayPal reports that the store cannot match to an order (a capture with no order, an amount
 * that differs), shown to the owner on the payments pages until someone resolves it. Never silently
 * dropped: a webhook or the housekeeping job writes one, the owner marks it resolved (refunded at
 * PayPal, or matched by hand).
 */
export const paymentIssues = pgTable(
  'payment_issues',
  {
    tenantId: text('tenant_id').notNull(),
    issueId: text('issue_id').notNull(),
    /** capture_without_order | amount_mismatch | refund_unknown | capture_denied */
    kind: text('kind').notNull(),
    provider: text('provider').notNull().default('paypal'),
    paypalOrderId: text('paypal_order_id'),
    captureId: text('capture_id'),
    orderId: text('order_id'),
    amount: integer('amount'),
    currency: text('currency'),
    message: text('message').notNull(),
    /** open | voided | resolved */
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
    resolution: text('resolution'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.issueId] }),
    index('payment_issues_open_idx').on(t.tenantId, t.status, t.createdAt),
    // One issue per capture: a webhook and the job that both find it write it once.
    uniqueIndex('payment_issues_capture_idx')
      .on(t.tenantId, t.kind, t.captureId)
      .where(sql`${t.captureId} IS NOT NULL`),
    check('payment_issues_status_check', sql`${t.status} IN ('open', 'voided', 'resolved')`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
