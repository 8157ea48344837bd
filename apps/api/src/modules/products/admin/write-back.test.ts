import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, type SeededTenant, type TestApp } from '../../../test/harness';
import { auditEntries, ownerCaller, signInOwners } from '../../../test/owners';

/**
 * What the product read answers can be written back: the GET's flat `data`, sent
 * back to the PUT unchanged, is taken and changes nothing (no audit entry, updatedAt kept); a body
 * naming one field changes only that one; read-only fields sent different and unknown fields are
 * refused naming them; another store's owner gets 404 whatever the body.
 */
const URL = '/skulocity/api/v1/catalog/products';
let t: TestApp;
const owners = {} as Record<SeededTenant, BrowserSession>;

beforeAll(async () => {
  t = await createTestApp();
  await signInOwners(t.app, owners, ['lighting', 'garden']);
});
afterAll(() => t?.close());

const call = ownerCaller(() => t.app, owners);

const auditCount = () => auditEntries(t.database.db, 'lighting');

async function read(productId: string) {
  const res = await call('lighting', 'GET', `${URL}/${productId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** Lighting products that have pictures, options, features and related products (each kind read back). */
async function productsWithEverything(): Promise<string[]> {
  const db = t.database.db;
  const lighting = 'lighting';
  const pick = async (table: typeof schema.productImages | typeof schema.productConfigOptions) =>
    (await db.select({ id: table.productId }).from(table).where(eq(table.tenantId, lighting)).limit(1))[0]?.id;
  const [related] = await db
    .select({ id: schema.productAssociations.productId })
    .from(schema.productAssociations)
    .where(eq(schema.productAssociations.tenantId, lighting))
    .limit(1);
  const [featured] = await db
    .select({ id: schema.productFeatures.productId })
    .from(schema.productFeatures)
    .where(eq(schema.productFeatures.tenantId, lighting))
    .limit(1);
  const ids = [
    'LGT-1001',
    await pick(schema.productImages),
    await pick(schema.productConfigOptions),
    related?.id,
    featured?.id,
  ];
  return [...new Set(ids.filter((id): id is string => !!id))];
}

describe('a product: read, then write back', () => {
  it('the read written back unchanged is taken and changes nothing', async () => {
    const ids = await productsWithEverything();
    expect(ids.length).toBeGreaterThan(1);
    for (const id of ids) {
      const product = await read(id);
      const before = await auditCount();
      const res = await call('lighting', 'PUT', `${URL}/${id}`, product);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
      expect(await auditCount(), `${id} wrote an audit entry`).toBe(before);
      expect(res.json().data, id).toEqual(product);
      expect((await read(id)).updatedAt, id).toBe(product.updatedAt);
    }
  });

  it("the editor's shape sent with what the read holds changes nothing either", async () => {
    const product = await read('LGT-1001');
    const fields = Object.fromEntries(
      [
        'productName',
        'slug',
        'sku',
        'brandName',
        'shortDescription',
        'description',
        'listPrice',
        'salePrice',
        'currencyUomId',
        'status',
        'weightGrams',
        'seoTitle',
        'seoDescription',
        'categoryIds',
      ].map((k) => [k, product[k]]),
    );
    const before = await auditCount();
    const res = await call('lighting', 'PUT', `${URL}/LGT-1001`, { fields });
    expect(res.statusCode, res.body).toBe(200);
    expect(await auditCount()).toBe(before);
    expect((await read('LGT-1001')).updatedAt).toBe(product.updatedAt);
  });

  it('a body naming one field changes only that field', async () => {
    const product = await read('LGT-1001');
    const res = await call('lighting', 'PUT', `${URL}/LGT-1001`, { seoTitle: 'A new SEO title' });
    expect(res.statusCode, res.body).toBe(200);
    const after = await read('LGT-1001');
    expect({ ...after, updatedAt: product.updatedAt }).toEqual({ ...product, seoTitle: 'A new SEO title' });
    expect(after.updatedAt).not.toBe(product.updatedAt);
  });

  it('a read-only field sent different is refused, naming it', async () => {
    const product = await read('LGT-1001');
    for (const [field, value] of [
      ['stockQuantity', product.stockQuantity + 5],
      ['updatedAt', '2020-01-01T00:00:00.000Z'],
      ['productId', 'LGT-9999'],
    ] as const) {
      const res = await call('lighting', 'PUT', `${URL}/LGT-1001`, { ...product, [field]: value });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(field);
    }
    const [row] = await t.database.db
      .select({ stock: schema.products.stockQuantity })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, 'LGT-1001')));
    expect(row?.stock).toBe(product.stockQuantity);
  });

  it('an unknown field is refused, naming it', async () => {
    const product = await read('LGT-1001');
    const res = await call('lighting', 'PUT', `${URL}/LGT-1001`, { ...product, prodcutName: 'Typo' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/prodcutName/);
  });

  it("another store's owner gets 404 whatever the body", async () => {
    for (const body of [{ seoTitle: 'x' }, { listPrice: 'free' }, 'not json at all']) {
      const res = await call('garden', 'PUT', `${URL}/LGT-1001`, body);
      expect(res.statusCode, res.body).toBe(404);
    }
  });
});

describe("a product's options and variants: read, then write back", () => {
  const VARIANTS = `${URL}/LGT-1005/variants`;
  const readVariants = async () => {
    const res = await call('lighting', 'GET', VARIANTS);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as {
      options: { optionId: string; name: string; position: number; values: { valueId: string; label: string }[] }[];
      variants: Record<string, unknown>[];
    };
  };
  const variantStamps = async () =>
    (
      await t.database.db
        .select({ id: schema.productVariants.variantId, at: schema.productVariants.updatedAt })
        .from(schema.productVariants)
        .where(and(eq(schema.productVariants.tenantId, 'lighting'), eq(schema.productVariants.productId, 'LGT-1005')))
    )
      .map((r) => `${r.id} ${r.at.toISOString()}`)
      .sort();

  it('the options and their values as read (positions included) are taken and change nothing', async () => {
    const read = await readVariants();
    expect(read.options.length).toBe(2);
    const before = { audit: await auditCount(), stamps: await variantStamps() };
    const res = await call('lighting', 'PUT', `${URL}/LGT-1005/options`, { options: read.options });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(read);
    expect(await auditCount()).toBe(before.audit);
    expect(await variantStamps()).toEqual(before.stamps);
  });

  it('positions are honoured: sent in another order with their positions, the options keep theirs', async () => {
    const read = await readVariants();
    const res = await call('lighting', 'PUT', `${URL}/LGT-1005/options`, { options: [...read.options].reverse() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.options).toEqual(read.options);
    const clash = read.options.map((o) => ({ ...o, position: 1 }));
    const refused = await call('lighting', 'PUT', `${URL}/LGT-1005/options`, { options: clash });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/own position/);
  });

  it('each variant as read is taken by its PUT and changes nothing; a changed price changes only that', async () => {
    const read = await readVariants();
    const live = read.variants.filter((v) => !v.removed);
    expect(live.length).toBeGreaterThan(3);
    const before = { audit: await auditCount(), stamps: await variantStamps() };
    for (const v of live) {
      const res = await call('lighting', 'PUT', `${VARIANTS}/${v.variantId}`, v);
      expect(res.statusCode, `${v.variantId}: ${res.body}`).toBe(200);
    }
    expect(await auditCount()).toBe(before.audit);
    expect(await variantStamps()).toEqual(before.stamps);
    expect(await readVariants()).toEqual(read);

    const first = live[0] as Record<string, unknown>;
    const listPrice = (first.listPrice as number) + 100;
    const res = await call('lighting', 'PUT', `${VARIANTS}/${first.variantId}`, { ...first, listPrice });
    expect(res.statusCode, res.body).toBe(200);
    const after = await readVariants();
    expect(after.variants).toEqual(read.variants.map((v) => (v === first ? { ...v, listPrice } : v)));
    expect(await auditCount()).toBe(before.audit + 1);
  });

  it("a variant's read-only field sent different is refused, naming it", async () => {
    const read = await readVariants();
    const v = read.variants.find((x) => !x.removed) as Record<string, unknown>;
    for (const [field, value] of [
      ['productId', 'LGT-1001'],
      ['title', 'Gold / 9000 K'],
      ['removed', true],
    ] as const) {
      const res = await call('lighting', 'PUT', `${VARIANTS}/${v.variantId}`, { ...v, [field]: value });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(field);
    }
    const typo = await call('lighting', 'PUT', `${VARIANTS}/${v.variantId}`, { ...v, skuu: 'X' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().message).toMatch(/skuu/);
    expect(await readVariants()).toEqual(read);
  });
});
