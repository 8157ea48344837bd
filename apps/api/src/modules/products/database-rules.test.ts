import { type Database, schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import { openTestDatabase } from '../../test/harness';
import { refreshProductRollup } from './admin/variant-rollup';
import { changeStock } from './inventory/stock';
import { booksOf, givenVariants } from './variants-test-setup';

/**
 * The rules about the products domain's tables that the database keeps, whoever writes (decision
 * 110). No trigger fires on them; these are their CHECK constraints and generated columns
 * (packages/db/src/schema/products.ts), each relied on by code that names it:
 * - `products_stock_ck`, `stock_movements_books_ck`: stock is never below zero and every movement
 *   adds up (inventory/stock.ts, changeStock, the one way stock changes);
 * - `products_price_ck`: no negative price (admin/product-writer.ts, list/bulk-batch.ts);
 * - `effective_price`: the price a shopper pays, the sale price when there is one (lists, filters and
 *   sorts by price, product-summary.ts);
 * - `search_vector`: what search matches, name and brand weighing most (A), then the category names
 *   (B), then the descriptions (C) (search-index/read.ts reads it; the index ranks by these weights).
 * - the variants' rules (decision 112): `product_variants_stock_ck`, `product_variants_price_ck`,
 *   `products_sellable_ck`, `product_options_position_ck` (at most three options),
 *   `product_option_values_swatch_ck`; and the products' stock totals, which changeStock and
 *   refreshProductRollup keep (no trigger), equal to the sums of their variants.
 */
const p = schema.products;
const sm = schema.stockMovements;
const TENANT = 'lighting';
let database: Database;
let productId: string;

beforeAll(async () => {
  database = await openTestDatabase({ seeded: true });
  const [first] = await database.db
    .select({ id: p.productId })
    .from(p)
    .where(eq(p.tenantId, TENANT))
    .orderBy(p.productId)
    .limit(1);
  productId = first?.id as string;
});
afterAll(() => database?.close());

const here = () => and(eq(p.tenantId, TENANT), eq(p.productId, productId));
const row = async () => (await database.db.select().from(p).where(here()))[0];

/** The constraint a refused statement broke (drizzle wraps the database's error). */
async function brokenRule(write: PromiseLike<unknown>): Promise<string | null> {
  try {
    await write;
    return null;
  } catch (err) {
    const cause = (err as { cause?: { message?: string; constraint?: string } }).cause;
    const text = `${cause?.constraint ?? ''} ${cause?.message ?? ''} ${(err as Error).message}`;
    return /\b(\w+_ck)\b/.exec(text)?.[1] ?? text;
  }
}

describe("the products domain's rules kept by the database", () => {
  it('refuses stock below zero, and leaves the count as it was', async () => {
    const before = (await row())?.stockQuantity;
    expect(await brokenRule(database.db.update(p).set({ stockQuantity: -1 }).where(here()))).toBe('products_stock_ck');
    expect((await row())?.stockQuantity).toBe(before);
  });

  it('refuses a stock movement whose books do not add up, or that ends below zero', async () => {
    const movement = {
      tenantId: TENANT,
      productId,
      variantId: productId,
      reason: 'CORRECTION' as const,
      quantityBefore: 5,
      delta: -2,
    };
    const wrongSum = database.db.insert(sm).values({ ...movement, movementId: 'rules-1', quantityAfter: 4 });
    expect(await brokenRule(wrongSum)).toBe('stock_movements_books_ck');
    const belowZero = database.db
      .insert(sm)
      .values({ ...movement, movementId: 'rules-2', delta: -6, quantityAfter: -1 });
    expect(await brokenRule(belowZero)).toBe('stock_movements_books_ck');
    const books = await database.db
      .select()
      .from(sm)
      .where(and(eq(sm.tenantId, TENANT), eq(sm.movementId, 'rules-1')));
    expect(books).toEqual([]);
  });

  it('refuses a negative list or sale price', async () => {
    expect(await brokenRule(database.db.update(p).set({ listPrice: -1 }).where(here()))).toBe('products_price_ck');
    expect(await brokenRule(database.db.update(p).set({ salePrice: -1 }).where(here()))).toBe('products_price_ck');
  });

  it('prices a product at its sale price when it has one, else at its list price', async () => {
    await database.db.update(p).set({ listPrice: 2000, salePrice: 1500 }).where(here());
    expect((await row())?.effectivePrice).toBe(1500);
    await database.db.update(p).set({ salePrice: null }).where(here());
    expect((await row())?.effectivePrice).toBe(2000);
  });

  it('weighs the name and brand most in search, then the categories, then the descriptions', async () => {
    await database.db
      .update(p)
      .set({
        productName: 'Brass Lantern',
        brandName: 'Ardent',
        categoryNames: 'Outdoor',
        shortDescription: 'Warm glow',
        description: 'Hand finished',
      })
      .where(here());
    const vector = String((await row())?.searchVector);
    const weightOf = (word: string) => new RegExp(`'${word}':[\\d,]*?\\d+([A-D])?\\b`).exec(vector)?.[1] ?? 'D';
    expect([weightOf('brass'), weightOf('lantern'), weightOf('ardent')]).toEqual(['A', 'A', 'A']);
    expect(weightOf('outdoor')).toBe('B');
    expect([weightOf('warm'), weightOf('glow'), weightOf('hand')]).toEqual(['C', 'C', 'C']);
  });

  it("refuses a variant's stock or price below zero, a fourth option and a swatch that is not a colour", async () => {
    const v = schema.productVariants;
    const variant = and(eq(v.tenantId, TENANT), eq(v.variantId, productId));
    expect(await brokenRule(database.db.update(v).set({ stockQuantity: -1 }).where(variant))).toBe(
      'product_variants_stock_ck',
    );
    expect(await brokenRule(database.db.update(v).set({ salePrice: -5 }).where(variant))).toBe(
      'product_variants_price_ck',
    );
    expect(await brokenRule(database.db.update(p).set({ sellableStock: -1 }).where(here()))).toBe(
      'products_sellable_ck',
    );
    const option = { tenantId: TENANT, productId, name: 'Finish' };
    expect(
      await brokenRule(database.db.insert(schema.productOptions).values({ ...option, optionId: 'O4', position: 4 })),
    ).toBe('product_options_position_ck');
    await database.db.insert(schema.productOptions).values({ ...option, optionId: 'O1', position: 1 });
    const value = { tenantId: TENANT, productId, optionId: 'O1', valueId: 'O1V1', label: 'Brass', position: 1 };
    expect(
      await brokenRule(database.db.insert(schema.productOptionValues).values({ ...value, swatchColor: 'brass' })),
    ).toBe('product_option_values_swatch_ck');
    await database.db.delete(schema.productOptions).where(eq(schema.productOptions.productId, productId));
  });

  it("keeps a product's stock the sum of its variants' and what can be sold the sum of its enabled live ones", async () => {
    const ctx = systemContext(
      { tenantId: TENANT, productStoreId: '9000', hostName: 'l', viaDevAlias: false, origin: 'http://l' },
      'rules-test',
    );
    const [last] = await database.db
      .select({ id: p.productId })
      .from(p)
      .where(eq(p.tenantId, TENANT))
      .orderBy(desc(p.productId))
      .limit(1);
    const id = last?.id as string;
    const [a, b, c] = (await givenVariants(database.db, ctx, id, 'Size', [
      { label: 'S', stock: 3 },
      { label: 'M', stock: 4 },
      { label: 'L', stock: 5, enabled: false },
    ])) as [string, string, string];
    const v = schema.productVariants;
    await database.db.transaction(async (tx) => {
      const moved = await changeStock(tx, ctx, [
        { variantId: a, delta: -2, reason: 'SOLD' },
        { variantId: c, delta: 7, reason: 'RECEIVED' },
        { variantId: a, delta: 1, reason: 'RETURNED' },
        { variantId: b, set: 0, reason: 'DAMAGED' },
      ]);
      expect(moved.ok).toBe(true);
      // Enabling one and disabling another moves what can be sold, through the rollup.
      await tx
        .update(v)
        .set({ enabled: true })
        .where(and(eq(v.tenantId, TENANT), eq(v.variantId, c)));
      await tx
        .update(v)
        .set({ enabled: false })
        .where(and(eq(v.tenantId, TENANT), eq(v.variantId, a)));
      await refreshProductRollup(tx, ctx, [id]);
      expect((await changeStock(tx, ctx, [{ variantId: c, delta: -3, reason: 'SOLD' }])).ok).toBe(true);
    });
    const books = await booksOf(database.db, TENANT, id);
    expect(books).toEqual({ total: 11, sellable: 9, sum_all: 11, sum_sellable: 9 });
  });
});
