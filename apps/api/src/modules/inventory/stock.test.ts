import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../lib/context';
import { stockedProductId } from '../../test/guest-order';
import { createTestApp, type TestApp } from '../../test/harness';
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
    expect(result[0]).toEqual({ ok: true, moved: [{ productId, before: start, after: start + 7, delta: 7 }] });
    expect(result[1]).toEqual({ ok: true, moved: [{ productId, before: start + 7, after: 3, delta: -start - 4 }] });
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
    expect(result).toEqual({ ok: false, code: 'PRODUCT_NOT_FOUND', productId: gardenProduct });
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
});
