// Tables of the cart module. Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { sql } from 'drizzle-orm';
import {
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
import { products, productVariants } from './products';
import { users } from './users';

/**
 * Carts live in the database (app processes are stateless). A shopper's cart is
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

/** One line per variant and configuration; `configKey` is '' for a plain product. */
export const cartLines = pgTable(
  'cart_lines',
  {
    tenantId: text('tenant_id').notNull(),
    cartId: text('cart_id').notNull(),
    lineId: text('line_id').notNull(),
    productId: text('product_id').notNull(),
    /** What is bought: one of the product's variants (its default variant for a product without options). */
    variantId: text('variant_id').notNull(),
    quantity: integer('quantity').notNull(),
    /** Chosen option choices, canonical: "FINISH=BRASS;LENGTH=L2". */
    configKey: text('config_key').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.cartId, t.lineId] }),
    uniqueIndex('cart_lines_product_uq').on(t.tenantId, t.cartId, t.variantId, t.configKey),
    check('cart_lines_quantity_ck', sql`${t.quantity} > 0`),
    foreignKey({ columns: [t.tenantId, t.cartId], foreignColumns: [carts.tenantId, carts.cartId] }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'cart_lines_variant_fk',
      columns: [t.tenantId, t.productId, t.variantId],
      foreignColumns: [productVariants.tenantId, productVariants.productId, productVariants.variantId],
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
