import { randomBytes } from 'node:crypto';
import type { ProductEditorForm, ProductVariantsView } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../lib/context';
import type { PageRequest } from '../../../lib/page-request';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createAuditService } from '../../audit/index';
import { createDiskStorage, createMediaService } from '../../media/index';
import { productAdminPages } from './product-admin.pages';
import { createProductAdminService } from './product-admin.service';

/**
 * The editor's variant grid saved through the editor's one save (decision 112): the page functions
 * write the product, its options and every row in one transaction. A new product gets two options
 * and six variants from the form; a rename keeps the values; a row's stock is saved as a difference;
 * a SKU another product holds is refused on that row's cell and nothing of the save is written; an
 * unchanged save writes nothing; options can be reordered, the variants following.
 */
const HOST = 'lighting.localhost';
let t: TestApp;
let owner: BrowserSession;
const seenCtx: RequestContext[] = [];

beforeAll(async () => {
  t = await createTestApp({
    extraRoutes: async (app) => {
      app.get('/test/ctx', async (req) => {
        seenCtx.push(req.ctx);
        return {};
      });
    },
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
});
afterAll(async () => t?.close());

const unique = () => randomBytes(3).toString('hex').toUpperCase();
const ctxOf = (session: BrowserSession) =>
  t.app
    .inject({ method: 'GET', url: '/test/ctx', headers: { host: HOST, ...session } })
    .then(() => seenCtx.at(-1) as RequestContext);
const pagesFor = (ctx: RequestContext) => {
  const audit = createAuditService(t.database.db);
  const storage = createDiskStorage(`${t.dataDir}/media`);
  const media = createMediaService(t.database.db, { storage, audit });
  const productAdmin = createProductAdminService(t.database.db, { audit, events: t.services.events, media, storage });
  const page: PageRequest = { ctx, headers: {}, secure: false, assertFormFromStore() {}, cached: (_k, c) => c() };
  return productAdminPages({ productAdmin })(page);
};
const png = () =>
  sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 200, g: 160, b: 90 } } })
    .png()
    .toBuffer();

type Row = {
  variantId?: string;
  values: string[];
  sku: string;
  price: string;
  sale?: string;
  stock?: string;
  stockSeen?: string;
  image?: string;
  enabled?: boolean;
};
type Option = { optionId?: string; name: string; values: { valueId?: string; label: string; swatchColor?: string }[] };

/** The editor form as the grid posts it: the Options card's JSON, each row's cells as parallel fields. */
function gridForm(base: ProductEditorForm, options: Option[], rows: Row[]): ProductEditorForm {
  return {
    ...base,
    gridOptions: JSON.stringify(options),
    variantRow: rows.map((r) => JSON.stringify({ variantId: r.variantId, values: r.values })),
    variantSku: rows.map((r) => r.sku),
    variantPrice: rows.map((r) => r.price),
    variantSalePrice: rows.map((r) => r.sale ?? ''),
    variantStock: rows.map((r) => r.stock ?? ''),
    variantStockSeen: rows.map((r) => r.stockSeen ?? ''),
    variantImage: rows.map((r) => r.image ?? ''),
    variantEnabled: rows.flatMap((r, n) => (r.enabled === false ? [] : [String(n)])),
  };
}
/** The grid's rows as the editor draws them from what was saved. */
function rowsOf(view: ProductVariantsView): Row[] {
  return view.variants
    .filter((v) => !v.removed)
    .map((v) => ({
      variantId: v.variantId,
      values: v.valueIds.map((id, i) => view.options[i]?.values.find((x) => x.valueId === id)?.label ?? ''),
      sku: v.sku,
      price: (v.listPrice / 100).toFixed(2),
      sale: v.salePrice == null ? '' : (v.salePrice / 100).toFixed(2),
      stock: String(v.stock),
      stockSeen: String(v.stock),
      image: v.imageIds[0] ?? '',
      enabled: v.enabled,
    }));
}
const optionsOf = (view: ProductVariantsView): Option[] =>
  view.options.map((o) => ({
    optionId: o.optionId,
    name: o.name,
    values: o.values.map((v) => ({ valueId: v.valueId, label: v.label })),
  }));

const FINISH: Option = { name: 'Finish', values: [{ label: 'Brass', swatchColor: '#b08d57' }, { label: 'Black' }] };
const SIZE: Option = { name: 'Size', values: [{ label: 'Small' }, { label: 'Medium' }, { label: 'Large' }] };
const combos = FINISH.values.flatMap((f) => SIZE.values.map((s) => [f.label, s.label]));

async function newPendant(pages: ReturnType<typeof pagesFor>, u: string) {
  const rows = combos.map((values, i) => ({
    values,
    sku: `GP-${u}-${i}`,
    price: i < 3 ? '99.00' : '149.00',
    stock: String(i + 1),
    enabled: i !== 5,
  }));
  const saved = await pages.saveProductForm(
    null,
    gridForm({ productName: `Grid Pendant ${u}`, status: 'ACTIVE' }, [FINISH, SIZE], rows),
    { images: [new Uint8Array(await png())], content: null },
  );
  if (!saved.ok) throw new Error(JSON.stringify(saved));
  return saved.productId;
}

describe('the editor saves its variant grid', { timeout: 120_000 }, () => {
  it('creates a product with two options and six variants from the form, in one save', async () => {
    const pages = pagesFor(await ctxOf(owner));
    const u = unique();
    const productId = await newPendant(pages, u);
    const editor = await pages.productEditor(productId);
    const view = editor?.variants as ProductVariantsView;
    expect(view.options.map((o) => [o.name, o.values.map((v) => v.label)])).toEqual([
      ['Finish', ['Brass', 'Black']],
      ['Size', ['Small', 'Medium', 'Large']],
    ]);
    expect(view.options[0]?.values[0]?.swatchColor).toBe('#b08d57');
    const live = view.variants.filter((v) => !v.removed);
    expect(live.map((v) => [v.title, v.sku, v.listPrice, v.stock, v.enabled])).toEqual([
      ['Brass / Small', `GP-${u}-0`, 9900, 1, true],
      ['Brass / Medium', `GP-${u}-1`, 9900, 2, true],
      ['Brass / Large', `GP-${u}-2`, 9900, 3, true],
      ['Black / Small', `GP-${u}-3`, 14900, 4, true],
      ['Black / Medium', `GP-${u}-4`, 14900, 5, true],
      ['Black / Large', `GP-${u}-5`, 14900, 6, false],
    ]);
    // The product's own SKU and prices are its variants': "from" the cheapest, stock the total.
    expect(editor?.product).toMatchObject({ sku: `GP-${u}-0`, listPrice: 9900, stockQuantity: 21 });
  });

  it('changes cells, renames a value, picks a picture, and saves a count as the difference', async () => {
    const pages = pagesFor(await ctxOf(owner));
    const u = unique();
    const productId = await newPendant(pages, u);
    const editor = await pages.productEditor(productId);
    const view = editor?.variants as ProductVariantsView;
    const picture = editor?.product?.images[0]?.mediaId as string;
    const options = optionsOf(view);
    (options[0]?.values[1] as { label: string }).label = 'Matte black';
    const rows = rowsOf(view).map((r) => ({ ...r, values: r.values.map((l) => (l === 'Black' ? 'Matte black' : l)) }));
    Object.assign(rows[0] as Row, { price: '89.00', sale: '79.00', image: picture });
    Object.assign(rows[1] as Row, { stock: '10' });
    Object.assign(rows[5] as Row, { enabled: true });
    // A sale of Brass / Medium while the owner edits: the count typed is applied as a difference.
    const sold = view.variants[1] as ProductVariantsView['variants'][number];
    const sale = await t.app.inject({
      method: 'PUT',
      url: `/skulocity/api/v1/catalog/products/${productId}/variants/${sold.variantId}`,
      headers: { host: HOST, origin: `http://${HOST}`, ...owner },
      payload: {
        valueIds: sold.valueIds,
        sku: sold.sku,
        listPrice: sold.listPrice,
        enabled: true,
        stock: sold.stock - 1,
        stockSeen: sold.stock,
      },
    });
    expect(sale.statusCode, sale.body).toBe(200);
    const saved = await pages.saveProductForm(
      productId,
      gridForm(
        { productName: `Grid Pendant ${u}`, status: 'ACTIVE', slug: editor?.product?.slug ?? '', imageId: [picture] },
        options,
        rows,
      ),
      { images: [], content: null },
    );
    expect(saved, JSON.stringify(saved)).toMatchObject({ ok: true });
    const after = (await pages.productEditor(productId))?.variants as ProductVariantsView;
    const live = after.variants.filter((v) => !v.removed);
    expect(live.map((v) => v.variantId)).toEqual(view.variants.map((v) => v.variantId));
    expect(after.options[0]?.values.map((v) => v.valueId)).toEqual(view.options[0]?.values.map((v) => v.valueId));
    expect(live[0]).toMatchObject({ listPrice: 8900, salePrice: 7900, imageIds: [picture] });
    expect(live[1]).toMatchObject({ stock: 9 }); // 10 typed over 2 seen, after one sold: 1 + 8
    expect(live[5]).toMatchObject({ title: 'Matte black / Large', enabled: true });
  });

  it('refuses a SKU another product holds on that row, and writes nothing of the save', async () => {
    const pages = pagesFor(await ctxOf(owner));
    const u = unique();
    const other = await newPendant(pages, `${u}X`);
    const productId = await newPendant(pages, u);
    const editor = await pages.productEditor(productId);
    const before = editor?.variants as ProductVariantsView;
    const rows = rowsOf(before);
    Object.assign(rows[0] as Row, { price: '50.00' });
    Object.assign(rows[3] as Row, { sku: `GP-${u}X-2` });
    const audits = async () =>
      (
        await t.database.db
          .select()
          .from(schema.auditLog)
          .where(and(eq(schema.auditLog.entity, 'product'), eq(schema.auditLog.entityId, productId)))
      ).length;
    const auditsBefore = await audits();
    const refused = await pages.saveProductForm(
      productId,
      gridForm(
        { productName: `Renamed ${u}`, status: 'ACTIVE', slug: editor?.product?.slug ?? '' },
        optionsOf(before),
        rows,
      ),
      { images: [], content: null },
    );
    expect(refused).toMatchObject({
      ok: false,
      status: 409,
      fieldErrors: {
        'variants.3.sku': expect.stringMatching(
          new RegExp(`SKU GP-${u}X-2 is already used by Grid Pendant ${u}X, Brass / Large`),
        ),
        variants: expect.stringMatching(/row 4/),
      },
    });
    const now = await pages.productEditor(productId);
    expect(now?.variants).toEqual(before);
    expect(now?.product?.productName).toBe(editor?.product?.productName);
    expect(await audits()).toBe(auditsBefore);
    expect((await pages.productEditor(other))?.variants?.variants[2]?.sku).toBe(`GP-${u}X-2`);
  });

  it('writes the rows at once: two rows trade SKUs, two trade combinations, one audit entry per changed variant', async () => {
    const pages = pagesFor(await ctxOf(owner));
    const u = unique();
    const productId = await newPendant(pages, u);
    const editor = await pages.productEditor(productId);
    const before = editor?.variants as ProductVariantsView;
    const rows = rowsOf(before);
    const [a, b, c, d] = rows as [Row, Row, Row, Row];
    [a.sku, b.sku] = [b.sku, a.sku];
    [c.values, d.values] = [d.values, c.values];
    const changedAt = new Date();
    const saved = await pages.saveProductForm(
      productId,
      gridForm(
        { productName: `Grid Pendant ${u}`, status: 'ACTIVE', slug: editor?.product?.slug ?? '' },
        optionsOf(before),
        rows,
      ),
      { images: [], content: null },
    );
    expect(saved, JSON.stringify(saved)).toMatchObject({ ok: true });
    const after = (await pages.productEditor(productId))?.variants as ProductVariantsView;
    const byId = (id: string | undefined) => after.variants.find((v) => v.variantId === id);
    expect([byId(a.variantId)?.sku, byId(b.variantId)?.sku]).toEqual([a.sku, b.sku]);
    expect([byId(c.variantId)?.title, byId(d.variantId)?.title]).toEqual([c.values.join(' / '), d.values.join(' / ')]);
    const entries = await t.database.db
      .select({ action: schema.auditLog.action, changes: schema.auditLog.changes, at: schema.auditLog.createdAt })
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.entity, 'product'), eq(schema.auditLog.entityId, productId)));
    const fresh = entries.filter((e) => e.at >= new Date(changedAt.getTime() - 1000) && e.action === 'variant-changed');
    expect(fresh).toHaveLength(4);
  });

  it('marks cells it cannot read before writing, and an unchanged save writes nothing', async () => {
    const pages = pagesFor(await ctxOf(owner));
    const u = unique();
    const productId = await newPendant(pages, u);
    const editor = await pages.productEditor(productId);
    const view = editor?.variants as ProductVariantsView;
    const base = { productName: `Grid Pendant ${u}`, status: 'ACTIVE', slug: editor?.product?.slug ?? '' };
    const rows = rowsOf(view);
    Object.assign(rows[2] as Row, { price: 'ten' });
    Object.assign(rows[4] as Row, { stock: '-2', sku: rows[0]?.sku });
    const bad = await pages.saveProductForm(productId, gridForm(base, optionsOf(view), rows), {
      images: [],
      content: null,
    });
    expect(bad).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: {
        'variants.2.listPrice': expect.stringMatching(/price/i),
        'variants.4.stock': 'Enter a whole number, like 12.',
        'variants.4.sku': 'Row 1 has this SKU too.',
      },
    });
    const same = await pages.saveProductForm(productId, gridForm(base, optionsOf(view), rowsOf(view)), {
      images: [],
      content: null,
    });
    expect(same).toMatchObject({ ok: true });
    expect((await pages.productEditor(productId))?.product?.updatedAt).toBe(editor?.product?.updatedAt);
  });

  it("keeps a variant's other pictures: the grid picks only the first", async () => {
    const pages = pagesFor(await ctxOf(owner));
    const u = unique();
    const rows = combos.slice(0, 2).map((values, i) => ({ values, sku: `GQ-${u}-${i}`, price: '99.00', stock: '1' }));
    const created = await pages.saveProductForm(
      null,
      gridForm({ productName: `Grid Pictures ${u}`, status: 'ACTIVE' }, [FINISH, SIZE], rows),
      { images: [new Uint8Array(await png()), new Uint8Array(await png())], content: null },
    );
    if (!created.ok) throw new Error(JSON.stringify(created));
    const productId = created.productId;
    const editor = await pages.productEditor(productId);
    const [a, b] = (editor?.product?.images ?? []).map((i) => i.mediaId) as [string, string];
    const view = editor?.variants as ProductVariantsView;
    const first = view.variants[0]?.variantId as string;
    // Two pictures for the first variant, as the variant API or the CSV's variant_images give them.
    const given = await t.app.inject({
      method: 'PUT',
      url: `/skulocity/api/v1/catalog/products/${productId}/variants/${first}`,
      headers: { host: HOST, origin: `http://${HOST}`, ...owner },
      payload: {
        valueIds: view.variants[0]?.valueIds,
        sku: `GQ-${u}-0`,
        listPrice: 9900,
        enabled: true,
        imageIds: [a, b],
      },
    });
    expect(given.statusCode, given.body).toBe(200);
    const base = {
      productName: `Grid Pictures ${u}`,
      status: 'ACTIVE',
      slug: editor?.product?.slug ?? '',
      imageId: [a, b],
    };
    const now = async () => (await pages.productEditor(productId))?.variants as ProductVariantsView;
    const pictures = async () => (await now()).variants.find((v) => v.variantId === first)?.imageIds;

    // Saved unchanged: nothing written, both pictures there.
    const unchanged = await pages.saveProductForm(
      productId,
      gridForm(base, optionsOf(await now()), rowsOf(await now())),
      {
        images: [],
        content: null,
      },
    );
    expect(unchanged, JSON.stringify(unchanged)).toMatchObject({ ok: true });
    expect(await pictures()).toEqual([a, b]);

    // The row's price changed: the row is written, its pictures stay.
    const priced = rowsOf(await now());
    Object.assign(priced[0] as Row, { price: '89.00' });
    const saved = await pages.saveProductForm(productId, gridForm(base, optionsOf(await now()), priced), {
      images: [],
      content: null,
    });
    expect(saved, JSON.stringify(saved)).toMatchObject({ ok: true });
    expect((await now()).variants.find((v) => v.variantId === first)).toMatchObject({
      listPrice: 8900,
      imageIds: [a, b],
    });

    // Another picture chosen in the cell takes the first place (b was second: it moves up); none clears them.
    const swapped = rowsOf(await now());
    Object.assign(swapped[0] as Row, { image: b });
    expect(
      await pages.saveProductForm(productId, gridForm(base, optionsOf(await now()), swapped), {
        images: [],
        content: null,
      }),
    ).toMatchObject({ ok: true });
    expect(await pictures()).toEqual([b]);
    const cleared = rowsOf(await now());
    Object.assign(cleared[0] as Row, { image: '' });
    expect(
      await pages.saveProductForm(productId, gridForm(base, optionsOf(await now()), cleared), {
        images: [],
        content: null,
      }),
    ).toMatchObject({ ok: true });
    expect(await pictures()).toEqual([]);
  });

  it('reorders the options and their values; the variants follow', async () => {
    const pages = pagesFor(await ctxOf(owner));
    const u = unique();
    const productId = await newPendant(pages, u);
    const editor = await pages.productEditor(productId);
    const view = editor?.variants as ProductVariantsView;
    const options = optionsOf(view).reverse();
    options[0]?.values.reverse();
    const rows = rowsOf(view).map((r) => ({ ...r, values: [...r.values].reverse() }));
    const saved = await pages.saveProductForm(
      productId,
      gridForm(
        { productName: `Grid Pendant ${u}`, status: 'ACTIVE', slug: editor?.product?.slug ?? '' },
        options,
        rows,
      ),
      { images: [], content: null },
    );
    expect(saved, JSON.stringify(saved)).toMatchObject({ ok: true });
    const after = (await pages.productEditor(productId))?.variants as ProductVariantsView;
    expect(after.options.map((o) => [o.name, o.values.map((v) => v.label)])).toEqual([
      ['Size', ['Large', 'Medium', 'Small']],
      ['Finish', ['Brass', 'Black']],
    ]);
    const bySku = new Map(after.variants.map((v) => [v.sku, v]));
    expect(bySku.get(`GP-${u}-1`)).toMatchObject({
      variantId: view.variants[1]?.variantId,
      title: 'Medium / Brass',
      valueIds: [...(view.variants[1]?.valueIds ?? [])].reverse(),
    });
  });
});
