import { productFieldsSchema } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../lib/context';
import { createTestApp, openSecondHandle, type TestApp } from '../../test/harness';
import { createAuditService } from '../audit/index';
import { writeProduct } from './admin/index';

// A product edit made through one app process shows in the search, the product
// page and the cards of another process on the same PostgreSQL database within a second, by an
// incremental patch of its loaded search index (no rebuild).

const HOST = 'lighting.localhost';
const B = '/skulocity/api/v1/public/ecommerce';
let a: TestApp;
let b: TestApp;
let productId = '';

const ownerCtx: RequestContext = {
  tenantId: 'lighting',
  productStoreId: '9000',
  hostName: HOST,
  viaDevAlias: false,
  origin: `http://${HOST}`,
  requestId: 'cross-process-catalog',
  ip: null,
  actor: {
    kind: 'staff',
    role: 'admin',
    permissions: new Set(),
    userId: 'owner-lighting',
    firstName: 'Owner',
    userLoginId: 'owner@lighting.test',
    session: { token: 'x', via: 'cookie' },
  },
};

/** Writes the product through process A as the editor does: one transaction, the event after commit. */
async function edit(fields: { productName: string; status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED' }) {
  const parsed = productFieldsSchema.parse({ sku: 'XP-1', listPrice: 4500, ...fields });
  await a.services.events.transaction(async (tx) => {
    const result = await writeProduct(
      tx,
      ownerCtx,
      { audit: createAuditService(a.database.db) },
      {
        productId: productId || undefined,
        fields: parsed,
      },
    );
    if (!result.ok) throw new Error(result.message);
    productId = result.productId;
    a.services.events.emitAfterCommit(tx, 'catalog.changed', { tenantId: 'lighting', productIds: [result.productId] });
  });
}

const searchIds = async (t: TestApp, text: string) => {
  const res = await t.app.inject({
    url: `${B}/product/search?searchText=${encodeURIComponent(text)}`,
    headers: { host: HOST },
  });
  return (res.json().data.products as { productId: string; productName: string }[]).map(
    (p) => `${p.productId} ${p.productName}`,
  );
};

async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: await openSecondHandle(a.database) });
  await edit({ productName: 'Crossway Lantern', status: 'ACTIVE' });
  // Both processes have the store's index loaded and see the product.
  for (const t of [a, b]) await within(5000, async () => (await searchIds(t, 'crossway')).length === 1);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('a product edit on one process', () => {
  it('is searchable by its new name, gone by its old one, on the page and the cards of the other within 1 s, with no rebuild', async () => {
    const before = b.services.products.searchIndexCounters();
    await edit({ productName: 'Meridian Lantern', status: 'ACTIVE' });
    const ms = await within(1000, async () => {
      const [found, old] = await Promise.all([searchIds(b, 'meridian'), searchIds(b, 'crossway')]);
      return found.join() === `${productId} Meridian Lantern` && old.length === 0;
    });
    expect(ms).toBeLessThan(1000);
    const page = await b.app.inject({ url: `${B}/getproductdetails?productId=${productId}`, headers: { host: HOST } });
    expect(page.json().data.productName).toBe('Meridian Lantern');
    const after = b.services.products.searchIndexCounters();
    expect(after.builds).toBe(before.builds);
    expect(after.patches).toBeGreaterThan(before.patches);
  });

  it('archived: gone from the other process’s search and product page within 1 s', async () => {
    await edit({ productName: 'Meridian Lantern', status: 'ARCHIVED' });
    await within(1000, async () => (await searchIds(b, 'meridian')).length === 0);
    const page = await b.app.inject({ url: `${B}/getproductdetails?productId=${productId}`, headers: { host: HOST } });
    expect(page.statusCode).toBe(404);
    const [row] = await b.database.db
      .select({ status: schema.products.status })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, productId)));
    expect(row?.status).toBe('ARCHIVED');
  });
});
