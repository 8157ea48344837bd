import type { Facets, ProductDetails, ProductSummary } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../lib/context';
import { createTestApp, type TestApp } from '../../test/harness';
import { changeStock } from './inventory/stock';
import { givenStorefrontVariants } from './storefront-variants-test-setup';
import { givenVariants } from './variants-test-setup';

// The storefront's side of products with variants (decision 112): the product page's one statement
// carries the options and the variants a shopper can choose, `variantId` selects one and anything the
// product does not offer falls back to the default selection (never a 404); summaries say "from" and
// a product is sold out only when every variant is.

const T = 'lighting';
const HOST = `${T}.localhost`;
const B = '/skulocity/api/v1/public/ecommerce';
let t: TestApp;
let db: Db;
let ctx: RequestContext;
/** Brass 12.00 (5), Black 15.00 (0: sold out), Opal 18.00 (2, disabled). */
let productId = '';
let brass = '';
let black = '';
let opal = '';
/** Another product of the store, given variants of its own. */
let otherId = '';
let otherSecond = '';
let pictures: string[] = [];

const get = (url: string) => t.app.inject({ url, headers: { host: HOST } });

async function details(id: string, variantId?: string): Promise<ProductDetails> {
  const res = await get(
    `${B}/getproductdetails?productId=${id}${variantId === undefined ? '' : `&variantId=${encodeURIComponent(variantId)}`}`,
  );
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.json().data;
}

async function card(id: string, name: string, filter = ''): Promise<ProductSummary | undefined> {
  const res = await get(`${B}/product/search?searchText=${encodeURIComponent(name)}&pageSize=48${filter}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return (res.json().data.products as ProductSummary[]).find((p) => p.productId === id);
}

const changed = (ids: string[]) => {
  t.services.events.emit('catalog.changed', { tenantId: T, productIds: ids });
  t.services.events.emit('stock.changed', { tenantId: T, productIds: ids });
};

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  ctx = systemContext(
    { tenantId: T, productStoreId: '9000', hostName: HOST, viaDevAlias: false, origin: `http://${HOST}` },
    'product-variants-test',
  );
  // Two active products of the store, neither related to the other, so each page is about one product.
  const products = await db
    .select({ id: schema.products.productId })
    .from(schema.products)
    .where(and(eq(schema.products.tenantId, T), eq(schema.products.status, 'ACTIVE')))
    .orderBy(asc(schema.products.productId))
    .limit(2);
  productId = products[0]?.id as string;
  otherId = products[1]?.id as string;
  const made = await givenStorefrontVariants(db, ctx, productId, {
    options: [
      { name: 'Finish', values: [{ label: 'Brass', swatchColor: '#b5a642' }, { label: 'Black' }, { label: 'Opal' }] },
    ],
    variants: [
      { values: ['Brass'], stock: 5, listPrice: 12_00 },
      { values: ['Black'], stock: 0, listPrice: 15_00, pictures: [1] },
      { values: ['Opal'], stock: 2, listPrice: 18_00, enabled: false },
    ],
    pictures: 2,
  });
  [brass, black, opal] = made.variantIds as [string, string, string];
  pictures = made.mediaIds;
  [, otherSecond] = (await givenVariants(db, ctx, otherId, 'Size', [
    { label: 'Small', stock: 3 },
    { label: 'Large', stock: 3 },
  ])) as [string, string];
  changed([productId, otherId]);
});
afterAll(() => t?.close());

describe('the product page of a product with variants', () => {
  it('carries the options and the variants a shopper can choose, in the one statement', async () => {
    const d = await details(productId);
    expect(d.options).toHaveLength(1);
    expect(d.options[0]).toMatchObject({ name: 'Finish', position: 1 });
    expect(d.options[0]?.values.map((v) => [v.label, v.swatchColor])).toEqual([
      ['Brass', '#b5a642'],
      ['Black', null],
      ['Opal', null],
    ]);
    // The disabled variant is not offered: the picker shows its combination as one that does not exist.
    expect(d.variants.map((v) => v.variantId)).toEqual([brass, black]);
    const [b, k] = d.variants as [ProductDetails['variants'][number], ProductDetails['variants'][number]];
    expect(b).toMatchObject({ title: 'Brass', price: 12_00, listPrice: 12_00, salePrice: null, available: true });
    expect(b.lowStock).toBe(5);
    expect(b.valueIds).toEqual([d.options[0]?.values[0]?.valueId]);
    expect(k).toMatchObject({ title: 'Black', price: 15_00, available: false, lowStock: null });
    expect(k.imageIds).toEqual([pictures[1]]);
    // Variant pictures name the product's pictures by their media id.
    expect(d.images.map((i) => i.mediaId)).toEqual(pictures);
    // The default selection: the first variant that can be bought.
    expect(d.selectedVariantId).toBe(brass);
  });

  it('selects the variant asked for, and the default for one it does not offer, never a 404', async () => {
    expect((await details(productId, black)).selectedVariantId).toBe(black);
    // Unknown, disabled, another product's: the default selection.
    expect((await details(productId, 'NO-SUCH-VARIANT')).selectedVariantId).toBe(brass);
    expect((await details(productId, opal)).selectedVariantId).toBe(brass);
    expect((await details(productId, otherSecond)).selectedVariantId).toBe(brass);
    // The page kept in memory is one per product: the selection does not leak from one read to the next.
    expect((await details(productId)).selectedVariantId).toBe(brass);
    // A removed variant (kept for its history) is not offered either.
    await db
      .update(schema.productVariants)
      .set({ removedAt: new Date() })
      .where(and(eq(schema.productVariants.tenantId, T), eq(schema.productVariants.variantId, black)));
    changed([productId]);
    const d = await details(productId, black);
    expect(d.selectedVariantId).toBe(brass);
    expect(d.variants.map((v) => v.variantId)).toEqual([brass]);
    await db
      .update(schema.productVariants)
      .set({ removedAt: null })
      .where(and(eq(schema.productVariants.tenantId, T), eq(schema.productVariants.variantId, black)));
    changed([productId]);
    // A malformed id is refused like any malformed input.
    const bad = await get(`${B}/getproductdetails?productId=${productId}&variantId=${encodeURIComponent('<x>')}`);
    expect(bad.statusCode).toBe(400);
  });

  it('says "from" with the highest price beside it, and is sold out only when every variant is', async () => {
    const d = await details(productId);
    expect(d.price).toBe(12_00);
    expect(d.priceMax).toBe(15_00); // the disabled Opal's 18.00 is not offered
    expect(d.variantCount).toBe(3);
    expect(d.inStock).toBe(true);
    const name = (
      await db
        .select({ n: schema.products.productName })
        .from(schema.products)
        .where(and(eq(schema.products.tenantId, T), eq(schema.products.productId, productId)))
    )[0]?.n as string;
    expect(await card(productId, name)).toMatchObject({ price: 12_00, priceMax: 15_00, inStock: true });

    // Brass sells out; Black has none; Opal has two but is disabled: nothing can be bought.
    const sold = await db.transaction((tx) =>
      changeStock(tx, ctx, [{ variantId: brass, set: 0, reason: 'CORRECTION', note: 'test' }]),
    );
    expect(sold.ok).toBe(true);
    changed([productId]);
    const out = await details(productId);
    expect(out.inStock).toBe(false);
    expect(out.lowStock).toBeNull();
    expect(out.variants.every((v) => !v.available)).toBe(true);
    // With nothing to buy, the default selection is the first variant.
    expect(out.selectedVariantId).toBe(brass);
    expect((await card(productId, name))?.inStock).toBe(false);
    // The search index's in-stock filter agrees with the card: the disabled Opal's two do not count.
    expect(await card(productId, name, '&inStock=true')).toBeUndefined();

    // One variant back in stock is enough.
    await db.transaction((tx) =>
      changeStock(tx, ctx, [{ variantId: black, set: 4, reason: 'RECEIVED', note: 'test' }]),
    );
    changed([productId]);
    const back = await details(productId);
    expect(back).toMatchObject({ inStock: true, lowStock: 4, selectedVariantId: black });
    expect((await card(productId, name, '&inStock=true'))?.inStock).toBe(true);
  });

  it('leaves a product with one variant as it was: one default variant, no "from", its own stock', async () => {
    const [single] = await db
      .select({ id: schema.products.productId })
      .from(schema.products)
      .where(
        and(eq(schema.products.tenantId, T), eq(schema.products.status, 'ACTIVE'), eq(schema.products.variantCount, 1)),
      )
      .orderBy(asc(schema.products.productId))
      .limit(1);
    const d = await details(single?.id as string);
    expect(d.options).toEqual([]);
    expect(d.variants).toHaveLength(1);
    expect(d.variants[0]).toMatchObject({
      variantId: d.productId,
      title: '',
      valueIds: [],
      sku: d.sku,
      price: d.price,
    });
    expect(d.selectedVariantId).toBe(d.productId);
    expect(d.priceMax).toBeNull();
    expect(d.variantCount).toBe(1);
  });
});

describe('option facets and option= over HTTP', () => {
  const search = (query: string) => get(`${B}/product/search?searchText=*&pageSize=48&${query}`);
  const listed = async (query: string) => {
    const res = await get(`${B}/product?pageSize=48&${query}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.json().data as { products: ProductSummary[]; facets: Facets };
  };

  it('lists Finish and Size values with product counts, and filters by option=, repeated', async () => {
    const ids = async (query: string) => (await listed(query)).products.map((p) => p.productId);
    // Brass in stock, Black sold out (the tests above moved both).
    await db.transaction((tx) =>
      changeStock(tx, ctx, [
        { variantId: brass, set: 5, reason: 'CORRECTION', note: 'test' },
        { variantId: black, set: 0, reason: 'CORRECTION', note: 'test' },
      ]),
    );
    changed([productId]);
    const all = await listed('');
    const finish = all.facets.options.find((o) => o.name === 'Finish');
    expect(finish?.values.map((v) => v.label)).toEqual(expect.arrayContaining(['Brass', 'Black']));
    expect(all.facets.options.find((o) => o.name === 'Size')?.values.map((v) => v.label)).toEqual(['Small', 'Large']);
    // Brass or Black (case does not matter), not the other product, which has sizes only.
    const brassOrBlack = await ids('option=Finish:Brass&option=finish:BLACK');
    expect(brassOrBlack).toContain(productId);
    expect(brassOrBlack).not.toContain(otherId);
    // Opal is disabled: the product is not listed under it.
    expect(await ids('option=Finish:Opal')).not.toContain(productId);
    // In stock: Black is sold out, Brass is not.
    expect(await ids('option=Finish:Black&inStock=true')).not.toContain(productId);
    expect(await ids('option=Finish:Brass&inStock=true')).toContain(productId);
    expect(await ids('option=Size:Large')).toEqual([otherId]);
    expect(await ids('option=Size:Large&option=Finish:Brass')).toEqual([]);
  });

  it('refuses an option that is not Name:Value with a 400 and the error envelope', async () => {
    for (const bad of ['option=Brass', 'option=:Brass', 'option=Finish:', `option=${'x'.repeat(201)}:y`]) {
      const res = await search(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message, bad).toContain('option');
    }
  });
});
