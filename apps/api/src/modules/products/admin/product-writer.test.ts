import { type ProductFields, productFieldsSchema } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../lib/context';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createAuditService } from '../../audit/index';
import { givenVariants } from '../variants-test-setup';
import { type ProductWriteInput, type ProductWriteResult, writeProduct, writeProducts } from './product-writer';

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

  it("refuses a SKU another product's variant holds (not only its first), instead of failing on the index", async () => {
    const holder = await write({ fields: fields({ sku: 'BDL-V', productName: 'Lamp with finishes' }) });
    if (!holder.ok) throw new Error(holder.message);
    await givenVariants(db, owner, holder.productId, 'Finish', [
      { label: 'Brass', stock: 1 },
      { label: 'Black', stock: 1 },
    ]);
    // givenVariants names the second variant's SKU after the product's: BDL-V-2.
    expect(await write({ fields: fields({ sku: 'BDL-V-2', productName: 'Another lamp' }) })).toMatchObject({
      ok: false,
      code: 'SKU_TAKEN',
      field: 'sku',
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

describe('writeProducts (the set-based batch)', () => {
  const writeMany = (inputs: ProductWriteInput[]) =>
    db.transaction((tx) => writeProducts(tx, owner, { audit: audit() }, inputs));
  const bySku = async (sku: string) =>
    db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.sku, sku)));
  const categoryIds = async () =>
    (
      await db
        .select({ id: schema.categories.productCategoryId })
        .from(schema.categories)
        .where(eq(schema.categories.tenantId, 'lighting'))
        .limit(2)
    ).map((r) => r.id);

  it('refuses the second of two new products with one SKU, as one after the other would', async () => {
    const results = await writeMany([
      { fields: fields({ sku: 'WB-DUP', productName: 'Batch Dup One' }) },
      { fields: fields({ sku: 'WB-DUP', productName: 'Batch Dup Two' }) },
    ]);
    expect(results[0]).toMatchObject({ ok: true, created: true, slug: 'batch-dup-one' });
    expect(results[1]).toMatchObject({ ok: false, code: 'SKU_TAKEN', field: 'sku' });
    expect((results[1] as { message: string }).message).toContain((results[0] as { productId: string }).productId);
    expect((await bySku('WB-DUP')).map((r) => r.productName)).toEqual(['Batch Dup One']);
  });

  it('numbers the slugs of new products with one name within the batch (-2, -3), a typed one taken is refused', async () => {
    const results = await writeMany([
      { fields: fields({ sku: 'WB-N1', productName: 'Batch Twin Lamp' }) },
      { fields: fields({ sku: 'WB-N2', productName: 'Batch Twin Lamp' }) },
      { fields: fields({ sku: 'WB-N3', productName: 'Batch Twin Lamp' }) },
      { fields: fields({ sku: 'WB-N4', productName: 'Other', slug: 'batch-twin-lamp-2' }) },
    ]);
    expect(results.map((r) => (r.ok ? r.slug : r.code))).toEqual([
      'batch-twin-lamp',
      'batch-twin-lamp-2',
      'batch-twin-lamp-3',
      'SLUG_TAKEN',
    ]);
    // A later batch continues the numbering from the store.
    const next = await writeMany([{ fields: fields({ sku: 'WB-N5', productName: 'Batch Twin Lamp' }) }]);
    expect(next[0]).toMatchObject({ ok: true, slug: 'batch-twin-lamp-4' });
  });

  it('writes a batch mixing creates, updates and refusals: each its own result, refusals write nothing', async () => {
    const [cat1, cat2] = await categoryIds();
    const seeded = await write({
      fields: fields({ sku: 'WB-U1', productName: 'Batch Update Me', categoryIds: [cat1 as string] }),
    });
    if (!seeded.ok) throw new Error(seeded.message);
    const results = await writeMany([
      { fields: fields({ sku: 'WB-C1', productName: 'Batch Create One', categoryIds: [cat2 as string] }) },
      {
        productId: seeded.productId,
        fields: fields({
          sku: 'WB-U1',
          productName: 'Batch Updated',
          slug: 'batch-updated',
          categoryIds: [cat2 as string],
        }),
      },
      { fields: fields({ sku: 'WB-R1', productName: 'Batch Refused', categoryIds: ['NOPE'] }) },
      { productId: 'PNOSUCH', fields: fields({ sku: 'WB-R2', productName: 'Batch Ghost' }) },
      // Takes the address the update just gave up: free by then.
      { fields: fields({ sku: 'WB-C2', productName: 'x', slug: 'batch-update-me' }) },
    ]);
    expect(results.map((r) => (r.ok ? [r.created, r.changed, r.slug] : r.code))).toEqual([
      [true, true, 'batch-create-one'],
      [false, true, 'batch-updated'],
      'CATEGORY_NOT_FOUND',
      'PRODUCT_NOT_FOUND',
      [true, true, 'batch-update-me'],
    ]);
    const [updated] = await bySku('WB-U1');
    expect(updated).toMatchObject({ productName: 'Batch Updated', slug: 'batch-updated' });
    const links = await db
      .select({ id: schema.productCategories.productCategoryId })
      .from(schema.productCategories)
      .where(eq(schema.productCategories.productId, seeded.productId));
    expect(links.map((l) => l.id)).toEqual([cat2]);
    expect(await bySku('WB-R1')).toEqual([]);
    expect(await bySku('WB-R2')).toEqual([]);
    // The old address was taken back by the new product: it left the history.
    const history = await db
      .select()
      .from(schema.productSlugHistory)
      .where(
        and(eq(schema.productSlugHistory.tenantId, 'lighting'), eq(schema.productSlugHistory.slug, 'batch-update-me')),
      );
    expect(history).toEqual([]);
    // An unchanged update is unchanged and audits nothing.
    const again = await writeMany([
      {
        productId: seeded.productId,
        fields: fields({
          sku: 'WB-U1',
          productName: 'Batch Updated',
          slug: 'batch-updated',
          categoryIds: [cat2 as string],
        }),
      },
    ]);
    expect(again[0]).toMatchObject({ ok: true, created: false, changed: false });
  });

  it('writes the same audit entries as writeProduct one at a time', async () => {
    const [cat1, cat2] = await categoryIds();
    const base = await write({
      fields: fields({ sku: 'WB-A0', productName: 'Audit Base', categoryIds: [cat1 as string] }),
    });
    if (!base.ok) throw new Error(base.message);
    const inputs: ProductWriteInput[] = [
      {
        productId: base.productId,
        fields: fields({
          sku: 'WB-A0',
          productName: 'Audit Base Renamed',
          listPrice: 999,
          categoryIds: [cat1 as string, cat2 as string],
        }),
      },
      { fields: fields({ sku: 'WB-A1', productName: 'Audit Twin', description: '<b>x</b><script>y()</script>' }) },
      { fields: fields({ sku: 'WB-A2', productName: 'Audit Twin', currencyUomId: 'EUR', isFeatured: true }) },
      { fields: fields({ sku: 'WB-A1', productName: 'Audit Dup' }) },
      { productId: base.productId, fields: fields({ sku: 'WB-A0', productName: 'Audit Base Renamed Again' }) },
    ];
    // The same writes both ways, each rolled back, compared by what the log says.
    const run = async (how: 'one' | 'many') => {
      let seen: { results: ProductWriteResult[]; entries: unknown[] } | null = null;
      await db
        .transaction(async (tx) => {
          const results =
            how === 'many'
              ? await writeProducts(tx, owner, { audit: audit() }, inputs)
              : await inputs.reduce<Promise<ProductWriteResult[]>>(
                  async (acc, input) => [...(await acc), await writeProduct(tx, owner, { audit: audit() }, input)],
                  Promise.resolve([]),
                );
          const ids = results.flatMap((r) => (r.ok ? [r.productId] : []));
          const entries = await tx
            .select()
            .from(schema.auditLog)
            .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.requestId, 'writer-test')))
            .orderBy(schema.auditLog.id);
          seen = {
            results: results.map((r) =>
              r.ok
                ? { ...r, productId: ids.indexOf(r.productId) }
                : { ...r, message: r.message.replace(/P[0-9A-F]{16}/g, 'P…') },
            ) as ProductWriteResult[],
            entries: entries
              .filter((e) => ids.includes(e.entityId))
              .map((e) => ({
                entity: e.entity,
                entityId: e.entityId === base.productId ? 'base' : ids.indexOf(e.entityId),
                action: e.action,
                changes: e.changes,
                actor: [e.actorKind, e.actorId, e.actorName, e.actorEmail, e.actorRole],
              })),
          };
          throw new Error('roll back');
        })
        .catch((err: Error) => {
          if (err.message !== 'roll back') throw err;
        });
      return seen as unknown as { results: unknown[]; entries: unknown[] };
    };
    const one = await run('one');
    const many = await run('many');
    // The base's create (committed before), then two updates and two creates (the duplicate SKU refused).
    expect(one.entries.length).toBe(5);
    expect(many.results).toEqual(one.results);
    expect(many.entries).toEqual(one.entries);
  });
});
