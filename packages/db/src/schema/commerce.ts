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
import { products } from './catalog';
import { tenants } from './tenancy';
import { users } from './users';

/**
 * Carts live in the database (DESIGN.md section 6: app processes are stateless). A shopper's cart is
 * found by user id; a guest's by the SHA-256 of the random token in its `cart` cookie. Prices are
 * never stored here: every view of a cart prices it from the catalog again.
 */
export const carts = pgTable(
  'carts',
  {
    tenantId: text('tenant_id').notNull(),
    cartId: text('cart_id').notNull(),
    userId: text('user_id'),
    guestTokenHash: text('guest_token_hash'),
    promoCode: text('promo_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.cartId] }),
    uniqueIndex('carts_user_uq').on(t.tenantId, t.userId).where(sql`${t.userId} IS NOT NULL`),
    uniqueIndex('carts_guest_uq').on(t.tenantId, t.guestTokenHash).where(sql`${t.guestTokenHash} IS NOT NULL`),
    index('carts_updated_idx').on(t.updatedAt),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
  ],
);

/** One line per product and configuration; `configKey` is '' for a plain product. */
export const cartLines = pgTable(
  'cart_lines',
  {
    tenantId: text('tenant_id').notNull(),
    cartId: text('cart_id').notNull(),
    lineId: text('line_id').notNull(),
    productId: text('product_id').notNull(),
    quantity: integer('quantity').notNull(),
    /** Chosen option choices, canonical: "FINISH=BRASS;LENGTH=L2". */
    configKey: text('config_key').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.cartId, t.lineId] }),
    uniqueIndex('cart_lines_product_uq').on(t.tenantId, t.cartId, t.productId, t.configKey),
    check('cart_lines_quantity_ck', sql`${t.quantity} > 0`),
    foreignKey({ columns: [t.tenantId, t.cartId], foreignColumns: [carts.tenantId, carts.cartId] }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);

/**
 * Idempotency keys of add-to-cart calls, per cart (decision 023): a retried add with the same key
 * changes nothing. Written in the add's own transaction, so a key exists only for an add that
 * happened; kept a day (older ones are deleted when the cart gets a new one).
 */
export const cartIdempotencyKeys = pgTable(
  'cart_idempotency_keys',
  {
    tenantId: text('tenant_id').notNull(),
    cartId: text('cart_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of what was asked: the same key with another product or quantity is refused. */
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.cartId, t.key] }),
    foreignKey({ columns: [t.tenantId, t.cartId], foreignColumns: [carts.tenantId, carts.cartId] }).onDelete('cascade'),
  ],
);

/** Promo codes: a percentage (1-100) or a fixed amount (minor units) off the subtotal. */
export const promoCodes = pgTable(
  'promo_codes',
  {
    tenantId: text('tenant_id').notNull(),
    /** Stored upper-cased; shoppers may type any case. */
    code: text('code').notNull(),
    kind: text('kind', { enum: ['percent', 'amount'] }).notNull(),
    value: integer('value').notNull(),
    description: text('description').notNull().default(''),
    minSubtotal: integer('min_subtotal').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** How many orders may use it in all; null: no limit. */
    usageLimit: integer('usage_limit'),
    /** How many orders one customer (account or guest email) may use it for; null: no limit. */
    perCustomerLimit: integer('per_customer_limit'),
    timesUsed: integer('times_used').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /**
     * Set by the dashboard's writes (modules/promotions); the list shows the newest first. Kept to
     * the millisecond, as the list's cursor (a JavaScript date) carries it, so keyset steps are exact.
     */
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.code] }),
    index('promo_codes_created_idx').on(t.tenantId, t.createdAt.desc(), t.code),
    check(
      'promo_codes_value_ck',
      sql`${t.value} > 0 AND (${t.kind} <> 'percent' OR ${t.value} <= 100) AND ${t.timesUsed} >= 0`,
    ),
    check('promo_codes_dates_ck', sql`${t.startsAt} IS NULL OR ${t.endsAt} IS NULL OR ${t.startsAt} < ${t.endsAt}`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/** Which order used which code, by whom: per-customer limits count these. */
export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    tenantId: text('tenant_id').notNull(),
    orderId: text('order_id').notNull(),
    code: text('code').notNull(),
    /** `user:<id>` or `email:<address>`. */
    customerKey: text('customer_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.orderId] }),
    index('promo_redemptions_customer_idx').on(t.tenantId, t.code, t.customerKey),
    /** A code's orders, newest first (the dashboard's usage list). */
    index('promo_redemptions_code_created_idx').on(t.tenantId, t.code, t.createdAt.desc()),
    foreignKey({ columns: [t.tenantId, t.code], foreignColumns: [promoCodes.tenantId, promoCodes.code] }),
  ],
);

/**
 * A store's shipping methods. `flat`: one rate per order; `weight`: the first bracket of
 * `weightTable` whose `upToGrams` covers the cart. `countries` null means everywhere.
 */
export const shippingMethods = pgTable(
  'shipping_methods',
  {
    tenantId: text('tenant_id').notNull(),
    methodId: text('method_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: ['flat', 'weight'] }).notNull(),
    countries: text('countries').array(),
    flatRate: integer('flat_rate').notNull().default(0),
    weightTable: jsonb('weight_table').$type<{ upToGrams: number; rate: number }[]>(),
    /** Free when the discounted subtotal reaches this; null: never free. */
    freeAbove: integer('free_above'),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.methodId] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/** Sales tax by destination, in basis points; `regionGeoId` '' is the rate of the whole country. */
export const taxRates = pgTable(
  'tax_rates',
  {
    tenantId: text('tenant_id').notNull(),
    countryGeoId: text('country_geo_id').notNull(),
    regionGeoId: text('region_geo_id').notNull().default(''),
    label: text('label').notNull(),
    rateBasisPoints: integer('rate_basis_points').notNull(),
    /** Whether shipping is taxed too at this destination. */
    taxShipping: boolean('tax_shipping').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.countryGeoId, t.regionGeoId] }),
    check('tax_rates_rate_ck', sql`${t.rateBasisPoints} >= 0 AND ${t.rateBasisPoints} <= 10000`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

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
      sql`${t.grandTotal} = ${t.subtotal} - ${t.discount} + ${t.shippingTotal} + ${t.taxTotal}`,
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

/** A shopper's wishlist: one row per product. */
export const wishlistItems = pgTable(
  'wishlist_items',
  {
    tenantId: text('tenant_id').notNull(),
    userId: text('user_id').notNull(),
    productId: text('product_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.productId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);

/**
 * Return requests (RMA). A shopper asks to send back delivered lines of an order; the request has a
 * state machine of its own (the returns module) and never covers more than was bought, counting the
 * quantities of earlier requests that were not rejected.
 */
export const returnRequests = pgTable(
  'return_requests',
  {
    tenantId: text('tenant_id').notNull(),
    returnId: text('return_id').notNull(),
    orderId: text('order_id').notNull(),
    userId: text('user_id'),
    status: text('status').notNull(),
    reason: text('reason').notNull(),
    note: text('note'),
    /**
     * Set while a refund for the return is with the payment provider (the request's id): a second
     * refund of the same return is refused until the first has settled (migration 0030).
     */
    refundClaim: text('refund_claim'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.returnId] }),
    index('return_requests_order_idx').on(t.tenantId, t.orderId),
    index('return_requests_user_idx').on(t.tenantId, t.userId, t.createdAt),
    // The dashboard's list: newest first, keyset, all or by status (migration 0030).
    index('return_requests_created_idx').on(t.tenantId, t.createdAt, t.returnId),
    index('return_requests_status_idx').on(t.tenantId, t.status, t.createdAt, t.returnId),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [orders.tenantId, orders.orderId] }).onDelete(
      'cascade',
    ),
  ],
);

export const returnLines = pgTable(
  'return_lines',
  {
    tenantId: text('tenant_id').notNull(),
    returnId: text('return_id').notNull(),
    orderId: text('order_id').notNull(),
    /** The order line this returns. */
    lineNo: integer('line_no').notNull(),
    quantity: integer('quantity').notNull(),
    /** How many of them the store put back in stock when the parcel arrived (RETURNED movements). */
    restockedQuantity: integer('restocked_quantity').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.returnId, t.lineNo] }),
    index('return_lines_order_idx').on(t.tenantId, t.orderId, t.lineNo),
    check('return_lines_quantity_ck', sql`${t.quantity} > 0`),
    check('return_lines_restocked_ck', sql`${t.restockedQuantity} >= 0 AND ${t.restockedQuantity} <= ${t.quantity}`),
    foreignKey({
      columns: [t.tenantId, t.returnId],
      foreignColumns: [returnRequests.tenantId, returnRequests.returnId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.orderId, t.lineNo],
      foreignColumns: [orderLines.tenantId, orderLines.orderId, orderLines.lineNo],
    }).onDelete('cascade'),
  ],
);

/** Every status a return request went through. */
export const returnStatusHistory = pgTable(
  'return_status_history',
  {
    tenantId: text('tenant_id').notNull(),
    returnId: text('return_id').notNull(),
    seq: integer('seq').notNull(),
    status: text('status').notNull(),
    /** Shown to the shopper: the store's instructions, the reason for a rejection. */
    note: text('note'),
    /** For the store only ("restocked 2 of 3"). */
    reason: text('reason'),
    /** The money a `refunded` step gave back (minor units, the order's currency). */
    amount: integer('amount'),
    /** Who acted: shopper, staff or system (the RequestContext's actor); null on older rows. */
    actorKind: text('actor_kind'),
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.returnId, t.seq] }),
    foreignKey({
      columns: [t.tenantId, t.returnId],
      foreignColumns: [returnRequests.tenantId, returnRequests.returnId],
    }).onDelete('cascade'),
  ],
);

/**
 * A PayPal payment on its way: created when the shopper chooses PayPal, used when PayPal sends them
 * back approved. It keeps what the shopper asked for (address, shipping method, email) and the
 * amount PayPal was asked to take, so the capture can be checked against the order it pays for.
 * No stock is held while the shopper is at PayPal: the order is reserved at capture time.
 */
export const paypalCheckouts = pgTable(
  'paypal_checkouts',
  {
    tenantId: text('tenant_id').notNull(),
    paypalOrderId: text('paypal_order_id').notNull(),
    cartId: text('cart_id').notNull(),
    userId: text('user_id'),
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** Set once the capture placed the order. */
    orderId: text('order_id'),
    /** The PayPal account the order was created in (as orders.payment_account). */
    paymentAccount: text('payment_account'),
    /**
     * open (the shopper is at PayPal), placed (the order exists), abandoned (never came back: closed
     * by the housekeeping job), flagged (PayPal has money without an order: a payment issue).
     */
    status: text('status').notNull().default('open'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.paypalOrderId] }),
    index('paypal_checkouts_created_idx').on(t.createdAt),
    // The housekeeping job's path: the open checkouts, oldest first.
    index('paypal_checkouts_open_idx').on(t.createdAt).where(sql`${t.status} = 'open'`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
