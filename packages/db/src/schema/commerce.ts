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
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.code] }),
    check(
      'promo_codes_value_ck',
      sql`${t.value} > 0 AND (${t.kind} <> 'percent' OR ${t.value} <= 100) AND ${t.timesUsed} >= 0`,
    ),
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
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of what was asked for with the key: the same key with another cart is refused. */
    requestHash: text('request_hash').notNull(),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.orderId] }),
    uniqueIndex('orders_idempotency_uq').on(t.tenantId, t.idempotencyKey),
    index('orders_user_idx').on(t.tenantId, t.userId, t.placedAt),
    // The dashboard's orders waiting in a status and a period's sales, and the sweep of orders stuck
    // in placed (status equal, placed_at a range): one index serves all three.
    index('orders_status_placed_idx').on(t.tenantId, t.status, t.placedAt),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.returnId] }),
    index('return_requests_order_idx').on(t.tenantId, t.orderId),
    index('return_requests_user_idx').on(t.tenantId, t.userId, t.createdAt),
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
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.returnId, t.lineNo] }),
    index('return_lines_order_idx').on(t.tenantId, t.orderId, t.lineNo),
    check('return_lines_quantity_ck', sql`${t.quantity} > 0`),
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
    note: text('note'),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.paypalOrderId] }),
    index('paypal_checkouts_created_idx').on(t.createdAt),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
