import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../../lib/context';
import { createTestApp, type TestApp } from '../../../test/harness';
import { booksOf, givenVariants } from '../variants-test-setup';
import { changeStock } from './stock';

// changeStock per variant (decision 112): a variant's count moves, its product's totals move with it in
// the same statement, and the movements and refusals name the variant.

let t: TestApp;
let db: Db;
let ctx: RequestContext;
const T = 'lighting';

/** A product of the store nobody else here uses: the `n`th by id from the end. */
async function productNo(n: number): Promise<string> {
  const rows = await db
    .select({ id: schema.products.productId })
    .from(schema.products)
    .where(eq(schema.products.tenantId, T))
    .orderBy(asc(schema.products.productId));
  return (rows[rows.length - n] as { id: string }).id;
}

const variantStock = async (variantId: string) =>
  (
    await db
      .select({ n: schema.productVariants.stockQuantity })
      .from(schema.productVariants)
      .where(and(eq(schema.productVariants.tenantId, T), eq(schema.productVariants.variantId, variantId)))
  )[0]?.n;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  ctx = systemContext(
    {
      tenantId: T,
      productStoreId: '9000',
      hostName: `${T}.localhost`,
      viaDevAlias: false,
      origin: `http://${T}.localhost`,
    },
    'stock-variants-test',
  );
});
afterAll(async () => t?.close());

describe('changeStock per variant', () => {
  it('moves one variant of a product, keeps the product totals the sums, and the books name the variant', async () => {
    const productId = await productNo(1);
    const [brass, black] = (await givenVariants(db, ctx, productId, 'Finish', [
      { label: 'Brass', stock: 5 },
      { label: 'Black', stock: 8 },
    ])) as [string, string];
    expect(await booksOf(db, T, productId)).toEqual({ total: 13, sellable: 13, sum_all: 13, sum_sellable: 13 });

    const result = await db.transaction((tx) =>
      changeStock(tx, ctx, [
        { variantId: black, delta: -3, reason: 'SOLD', orderId: 'V-1' },
        { variantId: brass, delta: 2, reason: 'RECEIVED' },
      ]),
    );
    expect(result).toEqual({
      ok: true,
      moved: [
        { productId, variantId: brass, before: 5, after: 7, delta: 2 },
        { productId, variantId: black, before: 8, after: 5, delta: -3 },
      ],
    });
    expect([await variantStock(brass), await variantStock(black)]).toEqual([7, 5]);
    expect(await booksOf(db, T, productId)).toEqual({ total: 12, sellable: 12, sum_all: 12, sum_sellable: 12 });
    const books = await db
      .select({ variantId: schema.stockMovements.variantId, delta: schema.stockMovements.delta })
      .from(schema.stockMovements)
      .where(and(eq(schema.stockMovements.tenantId, T), eq(schema.stockMovements.orderId, 'V-1')));
    expect(books).toEqual([{ variantId: black, delta: -3 }]);
  });

  it('refuses a take past one variant, naming it, though its sibling has plenty', async () => {
    const productId = await productNo(2);
    const [, large] = (await givenVariants(db, ctx, productId, 'Size', [
      { label: 'Small', stock: 50 },
      { label: 'Large', stock: 1 },
    ])) as [string, string];
    const result = await db.transaction((tx) =>
      changeStock(tx, ctx, [{ variantId: large, delta: -2, reason: 'SOLD', orderId: 'V-2' }]),
    );
    expect(result).toEqual({
      ok: false,
      code: 'INSUFFICIENT_STOCK',
      productId,
      variantId: large,
      variantTitle: 'Large',
      available: 1,
      wanted: 2,
    });
    expect(await booksOf(db, T, productId)).toEqual({ total: 51, sellable: 51, sum_all: 51, sum_sellable: 51 });
  });

  it("counts a disabled variant's stock in the product's stock but not in what can be sold", async () => {
    const productId = await productNo(3);
    const [, opal] = (await givenVariants(db, ctx, productId, 'Finish', [
      { label: 'Brass', stock: 4 },
      { label: 'Opal', stock: 6, enabled: false },
    ])) as [string, string];
    expect(await booksOf(db, T, productId)).toEqual({ total: 10, sellable: 4, sum_all: 10, sum_sellable: 4 });
    const result = await db.transaction((tx) =>
      changeStock(tx, ctx, [{ variantId: opal, set: 9, reason: 'CORRECTION' }]),
    );
    expect(result.ok).toBe(true);
    expect(await booksOf(db, T, productId)).toEqual({ total: 13, sellable: 4, sum_all: 13, sum_sellable: 4 });
    // Units moved from the sold variant to the disabled one: the product's stock stays, what can be sold drops.
    const [brass] = (await db
      .select({ id: schema.productVariants.variantId })
      .from(schema.productVariants)
      .where(
        and(
          eq(schema.productVariants.tenantId, T),
          eq(schema.productVariants.title, 'Brass'),
          eq(schema.productVariants.productId, productId),
        ),
      )) as [{ id: string }];
    const swap = await db.transaction((tx) =>
      changeStock(tx, ctx, [
        { variantId: brass.id, delta: -3, reason: 'CORRECTION' },
        { variantId: opal, delta: 3, reason: 'CORRECTION' },
      ]),
    );
    expect(swap.ok).toBe(true);
    expect(await booksOf(db, T, productId)).toEqual({ total: 13, sellable: 1, sum_all: 13, sum_sellable: 1 });
  });

  it('takes the product id for its default variant, and refuses an unknown variant with nothing written', async () => {
    const productId = await productNo(4);
    const [, second] = (await givenVariants(db, ctx, productId, 'Finish', [
      { label: 'Brass', stock: 3 },
      { label: 'Black', stock: 3 },
    ])) as [string, string];
    const byProduct = await db.transaction((tx) =>
      changeStock(tx, ctx, [{ productId, delta: -1, reason: 'SOLD', orderId: 'V-4' }]),
    );
    expect(byProduct).toEqual({
      ok: true,
      moved: [{ productId, variantId: productId, before: 3, after: 2, delta: -1 }],
    });
    const unknown = await db.transaction((tx) =>
      changeStock(tx, ctx, [
        { variantId: second, delta: -1, reason: 'SOLD' },
        { variantId: `${productId}-nope`, delta: 1, reason: 'RECEIVED' },
      ]),
    );
    expect(unknown).toEqual({
      ok: false,
      code: 'PRODUCT_NOT_FOUND',
      productId: `${productId}-nope`,
      variantId: `${productId}-nope`,
    });
    expect(await variantStock(second)).toBe(3);
    expect(await booksOf(db, T, productId)).toEqual({ total: 5, sellable: 5, sum_all: 5, sum_sellable: 5 });
  });
});
