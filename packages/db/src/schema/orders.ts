// Tables of the orders domain (orders, checkout, order admin). Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

export interface OrderAddress {
  toName: string;
  address1: string;
  address2: string | null;
  city: string;
  postalCode: string;
  countryGeoId: string;
  stateProvinceGeoId: string | null;
  phone: string | null;
}

/**
 * Orders. Totals are frozen at placement (integer minor units); `status` follows the transitions
 * table of the orders module. `idempotencyKey` makes placing an order safe to retry.
 */
export const orders = pgTable(
  'orders',
  {
    tenantId: text('tenant_id').notNull(),
    orderId: text('order_id').notNull(),
    userId: text('user_id'),
    email: text('email').notNull(),
    status: text('status').notNull(),
    currency: text('currency').notNull(),
    subtotal: integer('subtotal').notNull(),
    discount: integer('discount').notNull().default(0),
    shippingTotal: integer('shipping_total').notNull(),
    taxTotal: integer('tax_total').notNull(),
    grandTotal: integer('grand_total').notNull(),
    /** The prices held the tax (decision 116): the tax is inside the total, not added to it. */
    taxIncluded: boolean('tax_included').notNull().default(false),
    promoCode: text('promo_code'),
    shippingMethodId: text('shipping_method_id').notNull(),
    shippingMethodName: text('shipping_method_name').notNull(),
    shipTo: jsonb('ship_to').$type<OrderAddress>().notNull(),
    billTo: jsonb('bill_to').$type<OrderAddress>(),
    paymentProvider: text('payment_provider').notNull(),
    paymentRef: text('payment_ref'),
    /** What the shopper recognises: "Visa •••• 4242", "PayPal". */
    paymentLabel: text('payment_label').notNull(),
    /**
     * Whose PayPal account took the money (decision 049): `merchant:<id>` for a seller connected
     * through the platform, `app:<client id>` for a store's own PayPal app, null for the platform's
     * own account and for cards. Refunds go back through the same account, whatever the store's
     * settings are by then.
     */
    paymentAccount: text('payment_account'),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of what was asked for with the key: the same key with another cart is refused. */
    requestHash: text('request_hash').notNull(),
    /**
     * What the payment provider took for the order (minor units): the grand total once paid, 0 while
     * placed or if it was never paid. Refunds can never exceed it (orders_refunded_ck).
     */
    capturedAmount: integer('captured_amount').notNull().default(0),
    /** The sum of the order's succeeded refunds; written only by the orders module's `refundOrder`. */
    refundedAmount: integer('refunded_amount').notNull().default(0),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.orderId] }),
    check(
      'orders_refunded_ck',
      sql`${t.capturedAmount} >= 0 AND ${t.refundedAmount} >= 0 AND ${t.refundedAmount} <= ${t.capturedAmount}`,
    ),
    uniqueIndex('orders_idempotency_uq').on(t.tenantId, t.idempotencyKey),
    index('orders_user_idx').on(t.tenantId, t.userId, t.placedAt),
    // A guest's orders by email (the customers list and page, decision 045).
    index('orders_guest_email_idx').on(t.tenantId, sql`lower(${t.email})`).where(sql`${t.userId} IS NULL`),
    // The dashboard's orders waiting in a status and a period's sales, and the sweep of orders stuck
    // in placed (status equal, placed_at a range): one index serves all three.
    index('orders_status_placed_idx').on(t.tenantId, t.status, t.placedAt),
    // The dashboard's orders list (decision 042): newest/oldest and by total, ties by order id, and
    // its search (order id or email by their beginning, the ship-to name by its beginning or a part).
    index('orders_list_placed_idx').on(t.tenantId, t.placedAt, t.orderId),
    index('orders_list_total_idx').on(t.tenantId, t.grandTotal, t.orderId),
    index('orders_id_prefix_idx').on(t.tenantId, sql`lower(${t.orderId}) text_pattern_ops`),
    index('orders_email_prefix_idx').on(t.tenantId, sql`lower(${t.email}) text_pattern_ops`),
    index('orders_ship_name_prefix_idx').on(t.tenantId, sql`lower(${t.shipTo}->>'toName') text_pattern_ops`),
    index('orders_ship_name_trgm_idx').using('gin', sql`lower(${t.shipTo}->>'toName') gin_trgm_ops`),
    // The sales rollups' "which days changed since I last read?" (decision 048).
    index('orders_updated_idx').on(t.tenantId, t.updatedAt),
    // PayPal's webhooks name a capture (a refund names only its capture): its order (decision 053).
    index('orders_payment_ref_idx').on(t.tenantId, t.paymentRef).where(sql`${t.paymentRef} IS NOT NULL`),
    check(
      'orders_totals_ck',
      sql`${t.grandTotal} = ${t.subtotal} - ${t.discount} + ${t.shippingTotal} + CASE WHEN ${t.taxIncluded} THEN 0 ELSE ${t.taxTotal} END`,
    ),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    tenantId: text('tenant_id').notNull(),
    orderId: text('order_id').notNull(),
    lineNo: integer('line_no').notNull(),
    productId: text('product_id').notNull(),
    productName: text('product_name').notNull(),
    /**
     * The variant bought, and its SKU and title ("Brass / Large", '' for a default variant) as they
     * were, snapshots like product_name. No foreign key, as for the product: lines outlive the catalog.
     * Null only for lines of products deleted before variants existed.
     */
    variantId: text('variant_id'),
    sku: text('sku'),
    variantTitle: text('variant_title').notNull().default(''),
    /** The chosen options as the shopper saw them: "Finish: Brass, Length: 24 in". */
    optionsText: text('options_text'),
    quantity: integer('quantity').notNull(),
    unitPrice: integer('unit_price').notNull(),
    lineTotal: integer('line_total').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.orderId, t.lineNo] }),
    check('order_lines_ck', sql`${t.quantity} > 0 AND ${t.lineTotal} = ${t.unitPrice} * ${t.quantity}`),
    // "Was this product ever ordered?": a bulk delete archives those instead (decision 036).
    index('order_lines_product_idx').on(t.tenantId, t.productId),
    index('order_lines_variant_idx').on(t.tenantId, t.variantId),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [orders.tenantId, orders.orderId] }).onDelete(
      'cascade',
    ),
  ],
);

/**
 * Every status an order went through, with when, why and who: the orders module's `transitionOrder`
 * writes a row with each change. Rows written before it (and the seed's) have no `from_status` or actor.
 */
export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    tenantId: text('tenant_id').notNull(),
    orderId: text('order_id').notNull(),
    seq: integer('seq').notNull(),
    status: text('status').notNull(),
    /** The status it left; null for the first row (the order was written as placed). */
    fromStatus: text('from_status'),
    /** Shown to the shopper ("Payment received (Visa)"). */
    note: text('note'),
    /** For the store and the platform, not the shopper ("abandoned: no payment after 30 minutes"). */
    reason: text('reason'),
    /** Who acted: guest, shopper, staff or system (the RequestContext's actor). */
    actorKind: text('actor_kind'),
    /** The shopper's or staff member's user id, or the system's name ("checkout", "job:orders.sweep"). */
    actorId: text('actor_id'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.orderId, t.seq] }),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [orders.tenantId, orders.orderId] }).onDelete(
      'cascade',
    ),
  ],
);

/**
 * Money given back to the shopper, through the provider that took it (the orders module's
 * `refundOrder` is the only writer). A refund is written `pending` before the provider is asked and
 * settled after, so a crash in between leaves a row that still counts against what may be refunded:
 * two refunds can never together exceed the capture. `lines` says which order lines (and how many of
 * each) the amount is for, when the refund was made by line; `returnId` links a return's refund.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    tenantId: text('tenant_id').notNull(),
    refundId: text('refund_id').notNull(),
    orderId: text('order_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** pending: the provider is being asked; succeeded; failed (nothing was refunded). */
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    /** Shown to the shopper in the refund mail and on their order page. */
    reason: text('reason').notNull().default(''),
    lines: jsonb('lines').$type<{ lineNo: number; quantity: number; amount: number }[]>().notNull().default([]),
    /** The part of `amount` that gives back shipping. */
    shippingAmount: integer('shipping_amount').notNull().default(0),
    /** The tax inside `amount` (decision 116): the order's tax share it gives back. */
    taxAmount: integer('tax_amount').notNull().default(0),
    returnId: text('return_id'),
    provider: text('provider').notNull(),
    /** The provider's refund id, once it answered. */
    providerRef: text('provider_ref'),
    /** Why the provider refused, for the staff member who asked. */
    failure: text('failure'),
    actorKind: text('actor_kind'),
    actorId: text('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.refundId] }),
    index('order_refunds_order_idx').on(t.tenantId, t.orderId, t.createdAt),
    index('order_refunds_return_idx').on(t.tenantId, t.returnId).where(sql`${t.returnId} IS NOT NULL`),
    // Analytics: refunds of a period.
    index('order_refunds_created_idx').on(t.tenantId, t.status, t.createdAt),
    check(
      'order_refunds_amount_ck',
      sql`${t.amount} > 0 AND ${t.shippingAmount} >= 0 AND ${t.shippingAmount} <= ${t.amount}`,
    ),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [orders.tenantId, orders.orderId] }).onDelete(
      'cascade',
    ),
  ],
);

/**
 * A shipment of an order: the carrier and tracking number the store entered when it fulfilled the
 * order. One per fulfilment; today the whole order ships at once, so an order has at most one that is
 * not cancelled, but the table does not assume it.
 */
export const orderFulfillments = pgTable(
  'order_fulfillments',
  {
    tenantId: text('tenant_id').notNull(),
    fulfillmentId: text('fulfillment_id').notNull(),
    orderId: text('order_id').notNull(),
    /** A key of CARRIERS (contracts/order-admin.ts), or 'other'. */
    carrier: text('carrier').notNull(),
    /** The carrier's name as shown, for 'other' the one the staff member typed. */
    carrierName: text('carrier_name').notNull(),
    trackingNumber: text('tracking_number'),
    /** The link the shopper follows; built from the carrier's pattern or typed for 'other'. */
    trackingUrl: text('tracking_url'),
    lines: jsonb('lines').$type<{ lineNo: number; quantity: number }[]>().notNull().default([]),
    actorKind: text('actor_kind'),
    actorId: text('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.fulfillmentId] }),
    index('order_fulfillments_order_idx').on(t.tenantId, t.orderId, t.createdAt),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [orders.tenantId, orders.orderId] }).onDelete(
      'cascade',
    ),
  ],
);

/**
 * The order's timeline besides its status changes (those are order_status_history): staff notes,
 * mails sent, payment events (captures, refunds, failures), shipments. Written by `recordOrderEvent`
 * in the transaction of the change it tells of. `visibleToShopper` rows also show on the shopper's
 * order page; notes never do.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    tenantId: text('tenant_id').notNull(),
    eventId: text('event_id').notNull(),
    orderId: text('order_id').notNull(),
    /** note | email | payment | refund | fulfillment | return */
    kind: text('kind').notNull(),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    visibleToShopper: boolean('visible_to_shopper').notNull().default(false),
    actorKind: text('actor_kind'),
    actorId: text('actor_id'),
    /** The staff member's name as it was, so a deleted account still reads in the timeline. */
    actorName: text('actor_name'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.eventId] }),
    index('order_events_order_idx').on(t.tenantId, t.orderId, t.createdAt),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [orders.tenantId, orders.orderId] }).onDelete(
      'cascade',
    ),
  ],
);
