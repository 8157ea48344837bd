import { randomBytes } from 'node:crypto';
import { type ProductVariantInput, productFieldsSchema, productVariantInputSchema } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../lib/context';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createAuditService } from '../../audit/index';
import { changeStock } from '../inventory/stock';
import { booksOf } from '../variants-test-setup';
import { writeProduct } from './product-writer';
import type { VariantAdminService } from './variant-admin.service';

/**
 * The variant writer (decision 112) through its service: options diffed (ids kept, titles follow),
 * the rules (a value belongs to its option, one variant per combination, SKU unique among live
 * variants and the refusal naming the holder), removal by history, revival, stock by difference,
 * the product's rollup and the audit entries.
 */
let t: TestApp;
let db: Db;
let va: VariantAdminService;
const T = 'lighting';
const owner: RequestContext = {
  tenantId: T,
  productStoreId: '9000',
  hostName: 'lighting.localhost',
  viaDevAlias: false,
  origin: 'http://lighting.localhost',
  requestId: 'variant-writer-test',
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

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  va = t.services.variantAdmin;
});
afterAll(async () => t?.close());

const u = () => randomBytes(4).toString('hex').toUpperCase();
async function newProduct(listPrice = 5000) {
  const sku = `VW-${u()}`;
  const written = await db.transaction((tx) =>
    writeProduct(
      tx,
      owner,
      { audit: createAuditService(db) },
      {
        fields: productFieldsSchema.parse({ productName: `Pendant ${sku}`, sku, listPrice, status: 'ACTIVE' }),
      },
    ),
  );
  if (!written.ok) throw new Error(written.message);
  return { productId: written.productId, sku };
}
const variant = (over: Partial<ProductVariantInput> & { values: string[]; sku: string }) =>
  productVariantInputSchema.parse({ listPrice: 5000, ...over });
const productRow = async (productId: string) =>
  (
    await db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, T), eq(schema.products.productId, productId)))
  )[0];
const value = <V>(r: { ok: true; value: V } | { ok: false; message: string }): V => {
  if (!r.ok) throw new Error(`refused: ${r.message}`);
  return r.value;
};

/** A product with Finish (Brass, Black) × Size (Small, Large): four variants, the default one Brass / Small. */
async function twoByTwo() {
  const { productId, sku } = await newProduct();
  value(
    await va.writeOptions(owner, productId, {
      options: [
        { name: 'Finish', values: [{ label: 'Brass' }, { label: 'Black' }] },
        { name: 'Size', values: [{ label: 'Small' }, { label: 'Large' }] },
      ],
    }),
  );
  const prices: Record<string, number> = { 'Brass/Large': 6000, 'Black/Small': 5500, 'Black/Large': 7000 };
  for (const [combo, price] of Object.entries(prices)) {
    value(
      await va.addVariant(
        owner,
        productId,
        variant({ values: combo.split('/'), sku: `${sku}-${combo.replace('/', '-')}`, listPrice: price, stock: 3 }),
      ),
    );
  }
  const view = await va.view(owner, productId);
  if (!view) throw new Error('no view');
  return { productId, sku, view };
}
/** The product's options as an input that changes nothing. */
async function optionsInput(productId: string) {
  const view = await va.view(owner, productId);
  return {
    options: (view?.options ?? []).map((o) => ({
      optionId: o.optionId,
      name: o.name,
      values: o.values.map((v) => ({ valueId: v.valueId, label: v.label })),
    })),
  };
}

describe('options', () => {
  it('a first option makes the default variant its first value: same id, a title, search words', async () => {
    const { productId } = await newProduct();
    const view = value(
      await va.writeOptions(owner, productId, {
        options: [{ name: 'Finish', values: [{ label: 'Brass' }, { label: 'Black' }] }],
      }),
    );
    expect(view.options.map((o) => [o.name, o.position, o.values.map((v) => v.label)])).toEqual([
      ['Finish', 1, ['Brass', 'Black']],
    ]);
    expect(view.variants).toHaveLength(1);
    expect(view.variants[0]).toMatchObject({
      variantId: productId,
      title: 'Brass',
      valueIds: [view.options[0]?.values[0]?.valueId],
    });
    expect((await productRow(productId))?.variantWords).toBe('Finish Brass Black');
  });

  it('are diffed: a renamed value keeps its id and the titles follow; a new option is appended to every variant', async () => {
    const { productId, view } = await twoByTwo();
    const input = await optionsInput(productId);
    const finish = input.options[0];
    if (!finish?.values[0]) throw new Error('no finish');
    finish.values[0].label = 'Satin brass';
    const after = value(
      await va.writeOptions(owner, productId, {
        options: [...input.options, { name: 'Bulb', values: [{ label: 'LED' }] }],
      }),
    );
    expect(after.options[0]?.values.map((v) => v.valueId)).toEqual(view.options[0]?.values.map((v) => v.valueId));
    expect(after.options.map((o) => o.name)).toEqual(['Finish', 'Size', 'Bulb']);
    expect(after.variants.map((v) => v.variantId).sort()).toEqual(view.variants.map((v) => v.variantId).sort());
    expect(after.variants.map((v) => v.title).sort()).toEqual([
      'Black / Large / LED',
      'Black / Small / LED',
      'Satin brass / Large / LED',
      'Satin brass / Small / LED',
    ]);
  });

  it('a value still used by live variants cannot go (409 naming them); an unused one can', async () => {
    const { productId } = await twoByTwo();
    const input = await optionsInput(productId);
    input.options[1]?.values.pop(); // Large: two variants
    const refused = await va.writeOptions(owner, productId, input);
    expect(refused).toMatchObject({ ok: false, status: 409, code: 'CONFLICT' });
    expect(!refused.ok && refused.message).toMatch(/Size Large is still used by 2 variant/);

    const withSpare = await optionsInput(productId);
    const spare = {
      options: [
        withSpare.options[0],
        { ...withSpare.options[1], values: [...(withSpare.options[1]?.values ?? []), { label: 'Huge' }] },
      ],
    } as typeof withSpare;
    const grown = value(await va.writeOptions(owner, productId, spare));
    expect(grown.options[1]?.values.map((v) => v.label)).toEqual(['Small', 'Large', 'Huge']);
    const again = await optionsInput(productId);
    again.options[1]?.values.pop();
    const shrunk = value(await va.writeOptions(owner, productId, again));
    expect(shrunk.options[1]?.values.map((v) => v.label)).toEqual(['Small', 'Large']);
  });

  it('a value id of another option is refused (a value belongs to its option); a reorder moves the variants', async () => {
    const { productId } = await twoByTwo();
    const input = await optionsInput(productId);
    const [finish, size] = input.options;
    if (!finish?.values[0] || !size?.values[0]) throw new Error('no options');
    const wrong = structuredClone(input);
    (wrong.options[0]?.values[0] as { valueId: string }).valueId = size.values[0].valueId;
    expect(await va.writeOptions(owner, productId, wrong)).toMatchObject({
      ok: false,
      status: 422,
      code: 'UNPROCESSABLE',
    });
    // Reordering was refused (422) until the writer moved the variants' value columns with it.
    const before = (await va.view(owner, productId)) as NonNullable<Awaited<ReturnType<typeof va.view>>>;
    const swapped = { options: [input.options[1], input.options[0]] } as typeof input;
    const after = value(await va.writeOptions(owner, productId, swapped));
    expect(after.options.map((o) => o.name)).toEqual([size.name, finish.name]);
    for (const v of before.variants) {
      expect(after.variants.find((x) => x.variantId === v.variantId)?.valueIds).toEqual([...v.valueIds].reverse());
    }
  });

  it('an option whose removal would merge variants is refused; one all variants share can go', async () => {
    const { productId } = await twoByTwo();
    const input = await optionsInput(productId);
    expect(await va.writeOptions(owner, productId, { options: [input.options[0] as never] })).toMatchObject({
      ok: false,
      status: 409,
    });
    const grown = value(
      await va.writeOptions(owner, productId, {
        options: [...input.options, { name: 'Bulb', values: [{ label: 'LED' }] }],
      }),
    );
    expect(grown.variants[0]?.title).toMatch(/ \/ LED$/);
    const back = value(await va.writeOptions(owner, productId, input));
    expect(back.options).toHaveLength(2);
    expect(back.variants.every((v) => !v.title.includes('LED') && v.valueIds.length === 2)).toBe(true);
  });
});

describe('variants', () => {
  it('the product keeps their rollup: "from" price, range, count and stock totals', async () => {
    const { productId } = await twoByTwo();
    const row = await productRow(productId);
    expect(row).toMatchObject({ listPrice: 5000, priceMax: 7000, variantCount: 4, stockQuantity: 9, sellableStock: 9 });
  });

  it('a value that is not one of its option is refused; so is a combination that exists, naming it', async () => {
    const { productId, sku } = await twoByTwo();
    const wrong = await va.addVariant(owner, productId, variant({ values: ['Small', 'Brass'], sku: `${sku}-X` }));
    expect(wrong).toMatchObject({ ok: false, status: 422, code: 'UNPROCESSABLE', field: 'values.0' });
    const short = await va.addVariant(owner, productId, variant({ values: ['Brass'], sku: `${sku}-Y` }));
    expect(short).toMatchObject({ ok: false, status: 422, field: 'values' });
    const twin = await va.addVariant(owner, productId, variant({ values: ['black', 'large'], sku: `${sku}-Z` }));
    expect(twin).toMatchObject({ ok: false, status: 409, code: 'CONFLICT' });
    expect(!twin.ok && twin.message).toMatch(/Black \/ Large already exists/);
  });

  it('a SKU another live variant holds is 409 naming the variant and its product', async () => {
    const a = await twoByTwo();
    const b = await twoByTwo();
    const taken = `${a.sku}-Black-Large`;
    const holder = a.view.variants.find((v) => v.sku === taken);
    const res = await va.addVariant(owner, b.productId, variant({ values: ['Brass', 'Large'], sku: taken }));
    expect(res.ok).toBe(false);
    // Brass / Large exists on b: change b's Black / Large to the taken SKU instead.
    const target = b.view.variants.find((v) => v.title === 'Black / Large');
    const refused = await va.updateVariant(
      owner,
      b.productId,
      target?.variantId as string,
      variant({ values: ['Black', 'Large'], sku: taken }),
    );
    expect(refused).toMatchObject({ ok: false, status: 409, code: 'CONFLICT', field: 'sku' });
    expect(!refused.ok && refused.message).toContain(`Pendant ${a.sku}, Black / Large (variant ${holder?.variantId})`);
  });

  it('stock is saved as the difference from what the owner saw: a sale meanwhile is not undone', async () => {
    const { productId, view } = await twoByTwo();
    const v = view.variants.find((x) => x.title === 'Black / Small');
    if (!v) throw new Error('no variant');
    await db.transaction((tx) => changeStock(tx, owner, [{ variantId: v.variantId, delta: -1, reason: 'SOLD' }]));
    const after = value(
      await va.updateVariant(
        owner,
        productId,
        v.variantId,
        variant({ values: ['Black', 'Small'], sku: v.sku, listPrice: 5900, stock: 10, stockSeen: 3, enabled: false }),
      ),
    );
    expect(after.variants.find((x) => x.variantId === v.variantId)).toMatchObject({
      stock: 9,
      listPrice: 5900,
      enabled: false,
    });
    expect(await booksOf(db, T, productId)).toMatchObject({
      total: 0 + 3 + 9 + 3,
      sum_all: 15,
      // Black / Small is disabled: its 9 are not for sale.
      sellable: 6,
      sum_sellable: 6,
    });
    const [entry] = await db
      .select()
      .from(schema.auditLog)
      .where(
        and(
          eq(schema.auditLog.tenantId, T),
          eq(schema.auditLog.entityId, productId),
          eq(schema.auditLog.action, 'variant-changed'),
        ),
      )
      .orderBy(desc(schema.auditLog.id));
    expect(JSON.stringify(entry?.changes)).toMatch(/listPrice/);
  });

  it('a variant never moved is deleted; one with history is emptied and removed, and re-adding it revives it', async () => {
    const { productId, sku, view } = await twoByTwo();
    const input = await optionsInput(productId);
    const opal = {
      options: [
        { ...input.options[0], values: [...(input.options[0]?.values ?? []), { label: 'Opal' }] },
        input.options[1],
      ],
    } as typeof input;
    value(await va.writeOptions(owner, productId, opal));
    const added = value(await va.addVariant(owner, productId, variant({ values: ['Opal', 'Small'], sku: `${sku}-O` })));
    const gone = value(await va.removeVariant(owner, productId, added.variantId));
    expect(gone.outcome).toBe('deleted');
    expect(gone.view.variants.some((v) => v.variantId === added.variantId)).toBe(false);

    const blackLarge = view.variants.find((v) => v.title === 'Black / Large');
    if (!blackLarge) throw new Error('no variant');
    const removed = value(await va.removeVariant(owner, productId, blackLarge.variantId));
    expect(removed.outcome).toBe('removed');
    expect(removed.view.variants.find((v) => v.variantId === blackLarge.variantId)).toMatchObject({
      removed: true,
      stock: 0,
    });
    expect(await productRow(productId)).toMatchObject({ variantCount: 3, priceMax: 6000, stockQuantity: 6 });
    const moves = await db
      .select()
      .from(schema.stockMovements)
      .where(and(eq(schema.stockMovements.tenantId, T), eq(schema.stockMovements.variantId, blackLarge.variantId)));
    expect(moves.map((m) => [m.delta, m.note])).toEqual(expect.arrayContaining([[-3, 'variant removed']]));

    // The SKU of a removed variant is free; the combination brings the same row back, history and all.
    const revived = value(
      await va.addVariant(
        owner,
        productId,
        variant({ values: ['Black', 'Large'], sku: `${sku}-BL2`, stock: 2, listPrice: 7100 }),
      ),
    );
    expect(revived.variantId).toBe(blackLarge.variantId);
    expect(revived.view.variants.find((v) => v.variantId === blackLarge.variantId)).toMatchObject({
      removed: false,
      stock: 2,
      listPrice: 7100,
    });
    expect(await productRow(productId)).toMatchObject({ variantCount: 4, priceMax: 7100, stockQuantity: 8 });
  });

  it('the last live variant cannot go; a product without options takes no variant', async () => {
    const { productId, sku } = await newProduct();
    expect(await va.removeVariant(owner, productId, productId)).toMatchObject({ ok: false, status: 409 });
    expect(await va.addVariant(owner, productId, variant({ values: [], sku: `${sku}-2` }))).toMatchObject({
      ok: false,
      status: 422,
      field: 'values',
    });
  });

  it('audits each change on the product', async () => {
    const { productId } = await twoByTwo();
    const actions = (
      await db
        .select({ action: schema.auditLog.action })
        .from(schema.auditLog)
        .where(and(eq(schema.auditLog.tenantId, T), eq(schema.auditLog.entityId, productId)))
    ).map((r) => r.action);
    expect(actions.filter((a) => a === 'variant-added')).toHaveLength(3);
    expect(actions).toContain('options-changed');
  });
});
