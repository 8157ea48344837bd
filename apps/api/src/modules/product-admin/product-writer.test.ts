import { type ProductFields, productFieldsSchema } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../lib/context';
import { createTestApp, type TestApp } from '../../test/harness';
import { createAuditService } from '../audit/index';
import { writeProduct } from './product-writer';

let t: TestApp;
let db: Db;
const audit = () => createAuditService(db);
const owner: RequestContext = {
  tenantId: 'lighting',
  productStoreId: '9000',
  hostName: 'lighting.localhost',
  viaDevAlias: false,
  origin: 'http://lighting.localhost',
  requestId: 'writer-test',
  ip: null,
  actor: {
    kind: 'staff',
    role: 'admin',
    permissions: new Set(),
    userId: 'owner-1',
    firstName: 'Olivia',
    userLoginId: 'owner@lighting.test',
    session: { token: 'x', via: 'cookie' },
  },
};
const fields = (over: Partial<ProductFields> = {}): ProductFields =>
  productFieldsSchema.parse({
    productName: 'Brass Desk Lamp',
    sku: 'BDL-1',
    listPrice: 12900,
    status: 'ACTIVE',
    ...over,
  });
const write = (input: Parameters<typeof writeProduct>[3], ctx = owner) =>
  db.transaction((tx) => writeProduct(tx, ctx, { audit: audit() }, input));

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
});
afterAll(async () => t?.close());

describe('writeProduct', () => {
  it('creates a product with a slug from its name, the store currency, and an audit entry', async () => {
    const [category] = await db
      .select()
      .from(schema.categories)
      .where(eq(schema.categories.tenantId, 'lighting'))
      .limit(1);
    const result = await write({
      fields: fields({
        categoryIds: [category?.productCategoryId as string],
        description: '<p>Hi<script>x()</script></p>',
      }),
    });
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({ created: true, slug: 'brass-desk-lamp' });
    const [row] = await db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, result.productId)));
    expect(row).toMatchObject({ currencyUomId: 'USD', stockQuantity: 0, description: '<p>Hi</p>', status: 'ACTIVE' });
    expect(row?.categoryNames).toBe(category?.categoryName);
    const entries = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entityId, result.productId)));
    expect(entries.map((e) => e.action)).toEqual(['create']);
  });

  it('numbers a slug made from a name that is taken, and refuses a typed one', async () => {
    const second = await write({ fields: fields({ sku: 'BDL-2' }) });
    expect(second).toMatchObject({ ok: true, slug: 'brass-desk-lamp-2' });
    const typed = await write({ fields: fields({ sku: 'BDL-3', slug: 'brass-desk-lamp' }) });
    expect(typed).toMatchObject({ ok: false, code: 'SLUG_TAKEN', field: 'slug' });
  });

  it('refuses a SKU another product holds and a category of no such id', async () => {
    expect(await write({ fields: fields({ sku: 'BDL-1', productName: 'Other' }) })).toMatchObject({
      ok: false,
      code: 'SKU_TAKEN',
      field: 'sku',
    });
    expect(await write({ fields: fields({ sku: 'BDL-9', categoryIds: ['NOPE'] }) })).toMatchObject({
      ok: false,
      code: 'CATEGORY_NOT_FOUND',
    });
  });

  it('keeps the old slug for a redirect when the slug changes', async () => {
    const created = await write({ fields: fields({ sku: 'RN-1', productName: 'Rename Me' }) });
    if (!created.ok) throw new Error(created.message);
    const renamed = await write({
      productId: created.productId,
      fields: fields({ sku: 'RN-1', productName: 'Rename Me', slug: 'renamed' }),
    });
    expect(renamed).toMatchObject({ ok: true, created: false, slug: 'renamed', changed: true });
    const history = await db
      .select()
      .from(schema.productSlugHistory)
      .where(eq(schema.productSlugHistory.productId, created.productId));
    expect(history.map((h) => h.slug)).toEqual(['rename-me']);
  });

  it("cannot update another store's product", async () => {
    const [garden] = await db
      .select({ id: schema.products.productId })
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'garden'))
      .limit(1);
    expect(await write({ productId: garden?.id, fields: fields({ sku: 'G-1' }) })).toMatchObject({
      ok: false,
      code: 'PRODUCT_NOT_FOUND',
    });
  });
});
