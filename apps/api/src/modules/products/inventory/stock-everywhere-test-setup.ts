import { productFieldsSchema } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { type RequestContext, systemContext } from '../../../lib/context';
import { placeGuestOrder } from '../../../test/guest-order';
import type { TestApp } from '../../../test/harness';
import { createAuditService } from '../../audit/index';
import { writeProduct } from '../admin/index';
import { booksOf, givenVariants } from '../variants-test-setup';
import { changeStock, changeStockAlong } from './stock';

const T = 'lighting';
const HOST = 'lighting.localhost';
const OPENING = [10, 6, 8] as const;

/**
 * Decision 112's concurrency proof, on the database the suite runs on (stock-everywhere.postgres.test.ts
 * and its PGlite twin): 40 orders and adjustments at once across the three variants of one product.
 * Real guest orders buy the first variant (the default one, by its id), reservations
 * as checkout makes them (changeStockAlong, one statement, no transaction) take the second, and owners'
 * adjustments in transactions move all three. Afterwards each variant's stock is what its books say
 * (they start at 0), none is below zero, none was sold past what it had, and the product's totals are
 * the sums.
 */
export async function everyVariantAddsUp(t: TestApp): Promise<void> {
  const ctx: RequestContext = {
    ...systemContext(
      { tenantId: T, productStoreId: '9000', hostName: HOST, viaDevAlias: false, origin: `http://${HOST}` },
      'stock-everywhere',
    ),
    requestId: 'stock-everywhere',
  } as RequestContext;
  const audit = createAuditService(t.database.db);
  const fields = productFieldsSchema.parse({
    productName: 'Everywhere Pendant',
    sku: `EVERY-${Date.now()}`,
    listPrice: 2500,
    status: 'ACTIVE',
  });
  const written = await t.database.db.transaction((tx) => writeProduct(tx, ctx, { audit }, { fields }));
  if (!written.ok) throw new Error(written.message);
  const productId = written.productId;
  const ids = (await givenVariants(
    t.database.db,
    ctx,
    productId,
    'Finish',
    OPENING.map((stock, i) => ({ label: ['Brass', 'Black', 'Opal'][i] as string, stock })),
  )) as [string, string, string];

  const orders = Array.from({ length: 14 }, () =>
    placeGuestOrder(t.app, { host: HOST, productId, variantId: ids[0], quantity: 1 }),
  );
  const reservations = Array.from({ length: 12 }, (_, i) =>
    changeStockAlong(
      t.database.db,
      ctx,
      [{ variantId: ids[1], delta: -1, reason: 'SOLD' as const, orderId: `EVERY-${i}` }],
      () => [],
    ).then((r) => r.ok),
  );
  const adjustments = Array.from({ length: 14 }, (_, i) =>
    t.database.db
      .transaction((tx) =>
        changeStock(tx, ctx, [
          { variantId: ids[i % 3] as string, delta: i % 2 ? -2 : 1, reason: i % 2 ? 'DAMAGED' : 'RECEIVED' },
          ...(i % 5 === 0 ? [{ variantId: ids[2], delta: -1, reason: 'CORRECTION' as const }] : []),
        ]),
      )
      .then((r) => r.ok),
  );
  const [orderAnswers, reserved] = await Promise.all([
    Promise.all(orders),
    Promise.all(reservations),
    Promise.all(adjustments),
  ]);
  for (const r of orderAnswers) expect([200, 409]).toContain(r.statusCode);
  const sold = orderAnswers.filter((r) => r.statusCode === 200).length;
  expect(sold).toBeGreaterThan(0);
  expect(reserved.filter(Boolean).length).toBeLessThanOrEqual(OPENING[1] + 3);

  const sm = schema.stockMovements;
  const v = schema.productVariants;
  for (const id of ids) {
    const [row] = await t.database.db
      .select({ n: v.stockQuantity })
      .from(v)
      .where(and(eq(v.tenantId, T), eq(v.variantId, id)));
    const [books] = await t.database.db
      .select({
        sum: sql<number>`coalesce(sum(${sm.delta}), 0)::int`,
        bad: sql<number>`count(*) FILTER (WHERE ${sm.productId} <> ${productId})::int`,
      })
      .from(sm)
      .where(and(eq(sm.tenantId, T), eq(sm.variantId, id)));
    expect(row?.n, id).toBe(books?.sum);
    expect(row?.n, id).toBeGreaterThanOrEqual(0);
    expect(books?.bad).toBe(0);
  }
  const soldOfDefault = await t.database.db
    .select({ n: sql<number>`coalesce(-sum(${sm.delta}), 0)::int` })
    .from(sm)
    .where(and(eq(sm.tenantId, T), eq(sm.variantId, productId), eq(sm.reason, 'SOLD')));
  expect(soldOfDefault[0]?.n).toBe(sold);
  const books = await booksOf(t.database.db, T, productId);
  expect(books?.total).toBe(books?.sum_all);
  expect(books?.sellable).toBe(books?.sum_sellable);
}
