import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../../lib/context';
import { stockedProductId } from '../../../test/guest-order';
import { createTestApp, type TestApp } from '../../../test/harness';
import { changeStock } from './stock';

let t: TestApp;
let db: Db;
let ctx: RequestContext;

const tenant = (tenantId: string) => ({
  tenantId,
  productStoreId: '9000',
  hostName: `${tenantId}.localhost`,
  viaDevAlias: false,
  origin: `http://${tenantId}.localhost`,
});

const stockOf = async (tenantId: string, productId: string) => {
  const [row] = await db
    .select({ n: schema.products.stockQuantity })
    .from(schema.products)
    .where(and(eq(schema.products.tenantId, tenantId), eq(schema.products.productId, productId)));
  return row?.n;
};
const movementsOf = (tenantId: string, productId: string) =>
  db
    .select()
    .from(schema.stockMovements)
    .where(and(eq(schema.stockMovements.tenantId, tenantId), eq(schema.stockMovements.productId, productId)))
    .orderBy(asc(schema.stockMovements.createdAt));

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  ctx = systemContext(tenant('lighting'), 'stock-test');
});
afterAll(async () => t?.close());

describe('changeStock, the one way stock changes', () => {
  it('moves stock by a delta or to a count and writes the books for each change', async () => {
    const productId = await stockedProductId(db, 'lighting');
    const start = (await stockOf('lighting', productId)) as number;
    const result = await db.transaction(async (tx) => {
      const a = await changeStock(tx, ctx, [{ productId, delta: 7, reason: 'RECEIVED', note: 'Pallet 12' }]);
      const b = await changeStock(tx, ctx, [{ productId, set: 3, reason: 'CORRECTION' }]);
      return [a, b];
    });
    expect(result[0]).toEqual({
      ok: true,
      moved: [{ productId, variantId: productId, before: start, after: start + 7, delta: 7 }],
    });
    expect(result[1]).toEqual({
      ok: true,
      moved: [{ productId, variantId: productId, before: start + 7, after: 3, delta: -start - 4 }],
    });
    expect(await stockOf('lighting', productId)).toBe(3);
    const books = (await movementsOf('lighting', productId)).filter(
      (m) => m.reason !== 'RECEIVED' || m.note !== 'Opening stock',
    );
    expect(books.map((m) => [m.reason, m.quantityBefore, m.quantityAfter, m.note, m.actorId])).toEqual([
      ['RECEIVED', start, start + 7, 'Pallet 12', 'stock-test'],
      ['CORRECTION', start + 7, 3, null, 'stock-test'],
    ]);
  });

  it('refuses a take that would leave less than none, and names what is left', async () => {
    const productId = await stockedProductId(db, 'lighting');
    const before = (await stockOf('lighting', productId)) as number;
    const result = await db.transaction((tx) =>
      changeStock(tx, ctx, [{ productId, delta: -(before + 1), reason: 'SOLD', orderId: 'X1' }]),
    );
    expect(result).toEqual({
      ok: false,
      code: 'INSUFFICIENT_STOCK',
      productId,
      variantId: productId,
      variantTitle: '',
      available: before,
      wanted: before + 1,
    });
    expect(await stockOf('lighting', productId)).toBe(before);
  });

  it("does not touch another store's product: it is not found", async () => {
    const gardenProduct = await stockedProductId(db, 'garden');
    const before = await stockOf('garden', gardenProduct);
    const result = await db.transaction((tx) =>
      changeStock(tx, ctx, [{ productId: gardenProduct, delta: 5, reason: 'RECEIVED' }]),
    );
    expect(result).toEqual({
      ok: false,
      code: 'PRODUCT_NOT_FOUND',
      productId: gardenProduct,
      variantId: gardenProduct,
    });
    expect(await stockOf('garden', gardenProduct)).toBe(before);
    expect(await movementsOf('lighting', gardenProduct)).toEqual([]);
  });

  it('writes no movement for a change that changes nothing', async () => {
    const productId = await stockedProductId(db, 'lighting');
    const now = (await stockOf('lighting', productId)) as number;
    const count = (await movementsOf('lighting', productId)).length;
    const result = await db.transaction((tx) => changeStock(tx, ctx, [{ productId, set: now, reason: 'CORRECTION' }]));
    expect(result).toEqual({ ok: true, moved: [] });
    expect((await movementsOf('lighting', productId)).length).toBe(count);
  });

  const threeProducts = async () => {
    const rows = await db
      .select({ id: schema.products.productId, n: schema.products.stockQuantity })
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'lighting'))
      .orderBy(asc(schema.products.productId))
      .limit(3);
    return rows.map((r) => ({ id: r.id, n: r.n }));
  };

  it('changes many products in one call: deltas and sets mixed, one product twice in order', async () => {
    const [a, b, c] = (await threeProducts()) as { id: string; n: number }[];
    if (!a || !b || !c) throw new Error('three products needed');
    const result = await db.transaction((tx) =>
      changeStock(tx, ctx, [
        { productId: c.id, set: c.n + 2, reason: 'CORRECTION', note: 'many' },
        { productId: a.id, delta: 4, reason: 'RECEIVED', note: 'many' },
        { productId: b.id, set: b.n, reason: 'CORRECTION', note: 'many' },
        { productId: a.id, set: 1, reason: 'CORRECTION', note: 'many' },
      ]),
    );
    expect(result).toEqual({
      ok: true,
      moved: [
        { productId: a.id, variantId: a.id, before: a.n, after: a.n + 4, delta: 4 },
        { productId: c.id, variantId: c.id, before: c.n, after: c.n + 2, delta: 2 },
        { productId: a.id, variantId: a.id, before: a.n + 4, after: 1, delta: 1 - a.n - 4 },
      ],
    });
    expect(await stockOf('lighting', a.id)).toBe(1);
    expect(await stockOf('lighting', b.id)).toBe(b.n);
    expect(await stockOf('lighting', c.id)).toBe(c.n + 2);
    const books = async (id: string) =>
      (await movementsOf('lighting', id))
        .filter((m) => m.note === 'many')
        .map((m) => [m.quantityBefore, m.quantityAfter]);
    expect(await books(a.id)).toHaveLength(2);
    expect(await books(b.id)).toEqual([]);
    expect(await books(c.id)).toEqual([[c.n, c.n + 2]]);
  });

  it('writes nothing of a call with one impossible change (too large a take, or no such product)', async () => {
    const [a, b] = (await threeProducts()) as { id: string; n: number }[];
    if (!a || !b) throw new Error('two products needed');
    for (const [bad, expected] of [
      [
        { productId: b.id, delta: -(b.n + 3), reason: 'SOLD' as const },
        {
          ok: false,
          code: 'INSUFFICIENT_STOCK',
          productId: b.id,
          variantId: b.id,
          variantTitle: '',
          available: b.n,
          wanted: b.n + 3,
        },
      ],
      [
        { productId: 'PNOSUCH', delta: 1, reason: 'RECEIVED' as const },
        { ok: false, code: 'PRODUCT_NOT_FOUND', productId: 'PNOSUCH', variantId: 'PNOSUCH' },
      ],
    ] as const) {
      const seen = await db.transaction(async (tx) => {
        const result = await changeStock(tx, ctx, [
          { productId: a.id, delta: 5, reason: 'RECEIVED', note: 'refused' },
          { ...bad, note: 'refused' },
        ]);
        // Nothing written, even before the caller rolls back.
        const [row] = await tx
          .select({ n: schema.products.stockQuantity })
          .from(schema.products)
          .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, a.id)));
        const books = await tx
          .select()
          .from(schema.stockMovements)
          .where(and(eq(schema.stockMovements.tenantId, 'lighting'), eq(schema.stockMovements.note, 'refused')));
        return { result, n: row?.n, books: books.length };
      });
      expect(seen).toEqual({ result: expected, n: a.n, books: 0 });
    }
  });
});
