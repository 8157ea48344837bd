import { type Database, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness';

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
});
