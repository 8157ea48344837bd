import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../lib/app-types';
import { type BrowserSession, createTestApp, openSecondHandle, signIn, type TestApp } from '../../../test/harness';
import { everyVariantAddsUp } from './stock-everywhere-test-setup';

// "A product that runs out disappears from 'in stock' filters and shows sold out
// at once, on every app process." Two app instances on one PostgreSQL database, sharing nothing in
// memory (their own buses, read caches and search indexes): the owner adjusts stock through one, and
// the other's search (with and without the in-stock filter), product cards and product page follow
// within a second.

const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
let a: TestApp;
let b: TestApp;
let owner: BrowserSession;
let product: { productId: string; productName: string };

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: await openSecondHandle(a.database) });
  const p = schema.products;
  // The second stocked simple product (the events test uses the first).
  const rows = await a.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
    .orderBy(asc(p.productId))
    .limit(2);
  const row = rows[1];
  if (!row) throw new Error('no product');
  product = { productId: row.productId, productName: row.productName };
  owner = await signIn(a.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** What an app's storefront shows of the product: in the in-stock search, its card, its page. */
async function shown(app: App) {
  const search = (inStock?: boolean) =>
    app.inject({
      url: `${B}/public/ecommerce/product/search?searchText=${encodeURIComponent(product.productName)}${inStock ? '&inStock=true' : ''}`,
      headers: { host: LIGHTING },
    });
  const [filtered, all, details] = await Promise.all([
    search(true),
    search(),
    app.inject({
      url: `${B}/public/ecommerce/getproductdetails?productId=${encodeURIComponent(product.productId)}`,
      headers: { host: LIGHTING },
    }),
  ]);
  type Hit = { productId: string; inStock: boolean };
  const card = (all.json().data.products as Hit[]).find((x) => x.productId === product.productId);
  return {
    inStockFilter: (filtered.json().data.products as Hit[]).some((x) => x.productId === product.productId),
    card: card?.inStock,
    page: details.json().data.inStock as boolean,
  };
}

async function until(check: () => Promise<boolean>, deadlineMs = 1000): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > deadlineMs) throw new Error(`not seen within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const adjust = (body: object) =>
  a.app.inject({
    method: 'POST',
    url: `/api/v1/inventory/products/${encodeURIComponent(product.productId)}/adjust`,
    headers: { host: LIGHTING, origin: `http://${LIGHTING}`, ...owner },
    payload: body,
  });

describe('a stock adjustment on one app process shows on every other within a second', () => {
  it('to 0: gone from the in-stock filter and sold out everywhere; back: in stock again', async () => {
    // b has read (and cached) the product in stock.
    expect(await shown(b.app)).toEqual({ inStockFilter: true, card: true, page: true });

    const out = await adjust({ reason: 'CORRECTION', set: 0, note: 'Counted: none left' });
    expect(out.statusCode).toBe(200);
    expect(out.json().data.after).toBe(0);
    const goneMs = await until(async () => {
      const s = await shown(b.app);
      return !s.inStockFilter && s.card === false && s.page === false;
    });
    expect(goneMs).toBeLessThan(1000);

    const back = await adjust({ reason: 'RECEIVED', delta: 7 });
    expect(back.json().data).toMatchObject({ before: 0, after: 7 });
    const backMs = await until(async () => {
      const s = await shown(b.app);
      return s.inStockFilter && s.card === true && s.page === true;
    });
    expect(backMs).toBeLessThan(1000);
    console.log(
      `[stock everywhere] sold out seen on the other process after ${goneMs.toFixed(0)} ms, back after ${backMs.toFixed(0)} ms`,
    );
  });
});

// Decision 112: orders and adjustments at once across the variants of one product, on connections of
// their own (the PGlite twin: stock-everywhere.pglite.test.ts).
describe('stock of the variants of one product, under concurrent orders and adjustments', () => {
  it("leaves every variant's books adding up and the product's totals the sums", () => everyVariantAddsUp(a), 60_000);
});
