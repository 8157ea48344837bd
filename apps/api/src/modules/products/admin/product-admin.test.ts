import { randomBytes } from 'node:crypto';
import type { ProductEditorForm, ProductEditorPayload } from '@app/contracts';
import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../lib/context';
import type { PageRequest } from '../../../lib/page-request';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';
import { createAuditService } from '../../audit/index';
import { createDiskStorage, createMediaService } from '../../media/index';
import { editorPayloadFromForm, parseChoiceLine, productAdminPages } from './product-admin.pages';
import { createProductAdminService } from './product-admin.service';

/**
 * The product editor's API: create, read, update, duplicate, delete or archive,
 * pictures and downloads; every rule (unique slug and SKU, prices, permission, tenant isolation),
 * audit entries and catalog.changed.
 */
const HOST = 'lighting.localhost';
const BASE = '/skulocity/api/v1/catalog/products';
let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let gardenOwner: BrowserSession;
let catalogStaff: BrowserSession;
let settingsStaff: BrowserSession;
const heard: { productIds?: string[] }[] = [];
const stockHeard: string[][] = [];

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
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', 'garden.localhost');
  await createStaff(t.database, 'lighting', 'pe-catalog@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'pe-settings@lighting.test', ['settings']);
  catalogStaff = await signIn(t.app, 'pe-catalog@lighting.test', 'owner-demo-1', HOST);
  settingsStaff = await signIn(t.app, 'pe-settings@lighting.test', 'owner-demo-1', HOST);
  t.services.events.on('catalog.changed', (p) => {
    if (p.tenantId === 'lighting') heard.push({ productIds: p.productIds });
  });
  t.services.events.on('stock.changed', (p) => {
    if (p.tenantId === 'lighting') stockHeard.push(p.productIds ?? []);
  });
});
afterAll(async () => t?.close());

type Session = BrowserSession | null;
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  opts: { session?: Session; payload?: unknown; host?: string } = {},
) => {
  const host = opts.host ?? HOST;
  const session = opts.session === undefined ? owner : opts.session;
  return t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...(session ?? {}) },
    ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}),
  });
};
const unique = () => randomBytes(4).toString('hex');
const payload = (over: Partial<ProductEditorPayload['fields']> = {}, rest: Partial<ProductEditorPayload> = {}) => {
  const u = unique();
  return {
    fields: { productName: `Test Lamp ${u}`, sku: `TL-${u}`, listPrice: 4999, status: 'ACTIVE', ...over },
    ...rest,
  } as ProductEditorPayload;
};
const create = async (body: ProductEditorPayload = payload(), session: Session = owner) => {
  const res = await call('POST', BASE, { payload: body, session });
  return res;
};
const created = async (body: ProductEditorPayload = payload()) => {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { productId: string; slug: string; sku: string } & Record<string, unknown>;
};
const auditOf = (entityId: string) =>
  t.database.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entityId, entityId)))
    .orderBy(desc(schema.auditLog.id));
const rowOf = async (productId: string, tenantId = 'lighting') =>
  (
    await t.database.db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, tenantId), eq(schema.products.productId, productId)))
  )[0];

/** Waits for an event the bus delivers after the commit (same process: within a tick or two). */
async function heardFor(productId: string) {
  for (let i = 0; i < 50 && !heard.some((h) => h.productIds?.includes(productId)); i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return heard.some((h) => h.productIds?.includes(productId));
}

/** A multipart body with one file and some fields. */
function multipartFile(file: Buffer, fields: Record<string, string> = {}) {
  const boundary = `----pe${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
const uploadTo = (url: string, file: Buffer, fields: Record<string, string> = {}, session: Session = owner) => {
  const { payload: body, contentType } = multipartFile(file, fields);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { host: HOST, origin: `http://${HOST}`, 'content-type': contentType, ...(session ?? {}) },
    payload: body,
  });
};
const png = (r: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g: 120, b: 40 } } })
    .png()
    .toBuffer();
const uploadPicture = async (r: number, session: Session = owner) => {
  const res = await uploadTo(`${BASE}/images/upload`, await png(r), {}, session);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { mediaId: string; url: string };
};

describe('create and read', () => {
  it('creates a product with pictures, features, an option, related products and first stock', async () => {
    const [a, b] = [await uploadPicture(10), await uploadPicture(200)];
    const [related] = await t.database.db
      .select({ id: schema.products.productId })
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'lighting'))
      .limit(1);
    const body = payload(
      { description: '<p>Warm <b>light</b><script>alert(1)</script></p>', salePrice: 3999, weightGrams: 1200 },
      {
        images: [
          { mediaId: b.mediaId, altText: 'Lit' },
          { mediaId: a.mediaId, altText: 'Side' },
        ],
        features: [{ label: 'Finish', value: 'Brass' }],
        options: [
          {
            optionName: 'Shade',
            choices: [
              { label: 'Linen', priceDelta: 0 },
              { label: 'Glass', priceDelta: 1250 },
            ],
          },
        ],
        relatedProductIds: [related?.id as string],
        initialStock: 7,
      },
    );
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(201);
    const view = res.json().data;
    expect(view).toMatchObject({
      productName: body.fields.productName,
      sku: body.fields.sku,
      listPrice: 4999,
      salePrice: 3999,
      currencyUomId: 'USD',
      productType: 'CONFIGURABLE',
      stockQuantity: 7,
      description: '<p>Warm <b>light</b></p>',
      features: [{ label: 'Finish', value: 'Brass' }],
      related: [{ productId: related?.id }],
      hasOrders: false,
    });
    expect(view.images.map((i: { mediaId: string }) => i.mediaId)).toEqual([b.mediaId, a.mediaId]);
    expect(view.options[0].choices.map((c: { label: string; priceDelta: number }) => [c.label, c.priceDelta])).toEqual([
      ['Linen', 0],
      ['Glass', 1250],
    ]);
    // Every reader of the product shows the first picture.
    const row = await rowOf(view.productId);
    expect(row).toMatchObject({ smallImageUrl: b.url, mediumImageUrl: b.url, detailImageUrl: b.url });
    // The first stock went through the books, reason RECEIVED.
    const moves = await t.database.db
      .select()
      .from(schema.stockMovements)
      .where(and(eq(schema.stockMovements.tenantId, 'lighting'), eq(schema.stockMovements.productId, view.productId)));
    expect(moves.map((mv) => [mv.reason, mv.delta, mv.quantityAfter])).toEqual([['RECEIVED', 7, 7]]);
    expect((await auditOf(view.productId)).map((e) => e.action).sort()).toEqual(['create', 'update-details']);
    expect(await heardFor(view.productId)).toBe(true);
    expect(stockHeard.some((ids) => ids.includes(view.productId))).toBe(true);

    const read = await call('GET', `${BASE}/${view.productId}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(view);
  });

  it('lets staff with the catalog permission in, and nobody else', async () => {
    expect((await create(payload(), catalogStaff)).statusCode).toBe(201);
    expect((await create(payload(), null)).statusCode).toBe(401);
    expect((await create(payload(), shopper)).statusCode).toBe(403);
    expect((await create(payload(), settingsStaff)).statusCode).toBe(403);
    const mine = await created();
    expect((await call('GET', `${BASE}/${mine.productId}`, { session: null })).statusCode).toBe(401);
    expect((await call('GET', `${BASE}/${mine.productId}`, { session: shopper })).statusCode).toBe(403);
    expect((await call('GET', `${BASE}/${mine.productId}`, { session: settingsStaff })).statusCode).toBe(403);
    expect((await uploadTo(`${BASE}/images/upload`, await png(3), {}, settingsStaff)).statusCode).toBe(403);
    expect((await uploadTo(`${BASE}/images/upload`, await png(3), {}, catalogStaff)).statusCode).toBe(200);
  });
});

describe('rules', () => {
  it('refuses a taken SKU and a typed taken slug with 409 naming the field', async () => {
    const first = await created(payload({ slug: `lamp-${unique()}` }));
    const sku = await create(payload({ sku: first.sku }));
    expect(sku.statusCode).toBe(409);
    expect(sku.json().errors.join(' ')).toMatch(/^sku: /);
    const slug = await create(payload({ slug: first.slug }));
    expect(slug.statusCode).toBe(409);
    expect(slug.json().errors.join(' ')).toMatch(/^slug: /);
    // Nothing was written by the refused creates.
    const same = await t.database.db
      .select({ id: schema.products.productId })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.sku, first.sku)));
    expect(same).toHaveLength(1);
  });

  it('refuses bad prices, a sale above the list price and unknown pictures, naming the field', async () => {
    const negative = await create(payload({ listPrice: -1 }));
    expect(negative.statusCode).toBe(400);
    expect(JSON.stringify(negative.json())).toContain('listPrice');
    const fraction = await create(payload({ listPrice: 12.5 }));
    expect(fraction.statusCode).toBe(400);
    expect(JSON.stringify(fraction.json())).toContain('listPrice');
    const sale = await create(payload({ listPrice: 1000, salePrice: 2000 }));
    expect(sale.statusCode).toBe(400);
    expect(JSON.stringify(sale.json())).toContain('salePrice');
    const picture = await create(payload({}, { images: [{ mediaId: 'a'.repeat(32) }] }));
    expect(picture.statusCode).toBe(422);
    expect(picture.json().errors.join(' ')).toMatch(/^images: /);
    const category = await create(payload({ categoryIds: ['NO_SUCH_CAT'] }));
    expect(category.statusCode).toBe(422);
    expect(category.json().errors.join(' ')).toMatch(/^categoryIds: /);
  });

  it('updates: a changed slug keeps the old one for redirects; a changed price is audited and announced', async () => {
    const p = await created();
    heard.length = 0;
    const res = await call('PUT', `${BASE}/${p.productId}`, {
      payload: {
        fields: { productName: 'Renamed', sku: p.sku, slug: `renamed-${unique()}`, listPrice: 2500, status: 'ACTIVE' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ productName: 'Renamed', listPrice: 2500 });
    const history = await t.database.db
      .select()
      .from(schema.productSlugHistory)
      .where(and(eq(schema.productSlugHistory.tenantId, 'lighting'), eq(schema.productSlugHistory.slug, p.slug)));
    expect(history[0]?.productId).toBe(p.productId);
    const update = (await auditOf(p.productId)).find((e) => e.action === 'update');
    expect(JSON.stringify(update?.changes)).toContain('2500');
    expect(await heardFor(p.productId)).toBe(true);
  });

  it("another store's product is 404 and stays untouched", async () => {
    const p = await created();
    const before = await rowOf(p.productId);
    const asGarden = { session: gardenOwner, host: 'garden.localhost' };
    expect((await call('GET', `${BASE}/${p.productId}`, asGarden)).statusCode).toBe(404);
    const put = await call('PUT', `${BASE}/${p.productId}`, {
      ...asGarden,
      payload: { fields: { productName: 'Hijack', sku: 'HJ-1', listPrice: 1, status: 'ACTIVE' } },
    });
    expect(put.statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/${p.productId}`, asGarden)).statusCode).toBe(404);
    expect((await call('POST', `${BASE}/${p.productId}/duplicate`, { ...asGarden, payload: {} })).statusCode).toBe(404);
    expect(await rowOf(p.productId)).toEqual(before);
    // And a picture of another store cannot be put on a product.
    const gardenPicture = await (async () => {
      const { payload: body, contentType } = multipartFile(await png(90));
      const res = await t.app.inject({
        method: 'POST',
        url: `${BASE}/images/upload`,
        headers: {
          host: 'garden.localhost',
          origin: 'http://garden.localhost',
          'content-type': contentType,
          ...gardenOwner,
        },
        payload: body,
      });
      return res.json().data as { mediaId: string };
    })();
    const foreign = await call('PUT', `${BASE}/${p.productId}`, {
      payload: {
        fields: { productName: 'X', sku: p.sku, listPrice: 1, status: 'ACTIVE' },
        images: [{ mediaId: gardenPicture.mediaId }],
      },
    });
    expect(foreign.statusCode).toBe(422);
  });
});

describe('duplicate and delete', () => {
  it('duplicates as a DRAFT "Copy of" with a suffixed SKU, or the SKU given', async () => {
    const pic = await uploadPicture(150);
    const p = await created(
      payload(
        {},
        {
          images: [{ mediaId: pic.mediaId, altText: 'x' }],
          options: [{ optionName: 'Size', choices: [{ label: 'S' }] }],
        },
      ),
    );
    const copy = await call('POST', `${BASE}/${p.productId}/duplicate`, { payload: {} });
    expect(copy.statusCode, copy.body).toBe(201);
    expect(copy.json().data).toMatchObject({
      productName: `Copy of ${p.productName}`,
      sku: `${p.sku}-COPY`,
      status: 'DRAFT',
      stockQuantity: 0,
      productType: 'CONFIGURABLE',
    });
    expect(copy.json().data.images).toHaveLength(1);
    const second = await call('POST', `${BASE}/${p.productId}/duplicate`, { payload: {} });
    expect(second.json().data.sku).toBe(`${p.sku}-COPY-2`);
    const named = await call('POST', `${BASE}/${p.productId}/duplicate`, { payload: { sku: `NEW-${unique()}` } });
    expect(named.statusCode).toBe(201);
    const taken = await call('POST', `${BASE}/${p.productId}/duplicate`, { payload: { sku: p.sku } });
    expect(taken.statusCode).toBe(409);
    expect((await auditOf(copy.json().data.productId)).map((e) => e.action)).toContain('duplicate');
    expect((await call('POST', `${BASE}/${p.productId}/duplicate`, { session: shopper, payload: {} })).statusCode).toBe(
      403,
    );
  });

  it('deletes a product without orders, and archives one with orders instead', async () => {
    const p = await created();
    const del = await call('DELETE', `${BASE}/${p.productId}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().data).toEqual({ productId: p.productId, outcome: 'deleted' });
    expect(await rowOf(p.productId)).toBeUndefined();
    expect((await auditOf(p.productId)).map((e) => e.action)).toContain('delete');
    expect(await heardFor(p.productId)).toBe(true);

    const [line] = await t.database.db
      .select({ productId: schema.orderLines.productId })
      .from(schema.orderLines)
      .where(eq(schema.orderLines.tenantId, 'lighting'))
      .limit(1);
    const ordered = line?.productId as string;
    expect(ordered).toBeTruthy();
    expect((await call('DELETE', `${BASE}/${ordered}`, { session: shopper })).statusCode).toBe(403);
    expect((await call('DELETE', `${BASE}/${ordered}`, { session: null })).statusCode).toBe(401);
    const archived = await call('DELETE', `${BASE}/${ordered}`);
    expect(archived.json().data).toEqual({ productId: ordered, outcome: 'archived' });
    expect((await rowOf(ordered))?.status).toBe('ARCHIVED');
    expect((await call('GET', `${BASE}/${ordered}`)).json().data.hasOrders).toBe(true);
  });
});

describe('downloads', () => {
  it('takes a PDF by its bytes, refuses anything else, and removes it', async () => {
    const p = await created();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const ok = await uploadTo(`${BASE}/${p.productId}/contents`, pdf, { title: 'Spec sheet', fileName: 'spec.pdf' });
    expect(ok.statusCode, ok.body).toBe(200);
    const content = ok.json().data.contents[0];
    expect(content).toMatchObject({ title: 'Spec sheet', fileName: 'spec.pdf', contentType: 'application/pdf' });
    const served = await t.app.inject({ method: 'GET', url: content.url, headers: { host: HOST } });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const html = await uploadTo(`${BASE}/${p.productId}/contents`, Buffer.from('<html><script>x</script></html>'));
    expect(html.statusCode).toBe(415);
    expect(html.json().errors.join(' ')).toMatch(/^contentFile: /);
    const removed = await call('DELETE', `${BASE}/${p.productId}/contents/${content.contentId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.contents).toEqual([]);
    expect((await auditOf(p.productId)).map((e) => e.action)).toEqual(
      expect.arrayContaining(['add-content', 'remove-content']),
    );
  });
});

describe('the editor form', () => {
  const parse = (form: ProductEditorForm, relatedIds = new Map<string, string>()) =>
    editorPayloadFromForm(form, { currency: 'USD', creating: true, relatedIds });

  it('turns decimal prices, choice lines and parallel rows into the payload', () => {
    const r = parse(
      {
        productName: 'Desk Lamp',
        sku: 'DL-9',
        listPrice: '1,299.50',
        salePrice: '',
        status: 'DRAFT',
        initialStock: '4',
        imageId: ['b'.repeat(32), 'a'.repeat(32)],
        imageAlt: ['B', ''],
        imageRemove: ['a'.repeat(32)],
        featureLabel: ['Finish', ''],
        featureValue: ['Brass', ''],
        optionName: ['Shade', ''],
        optionChoices: ['Linen\nGlass +12.50\nPaper -2', ''],
        relatedSkus: 'R-1',
        // As a browser posts any form's line breaks, whatever the text held.
        description: 'The lamp.\r\n\r\nBrass and linen.',
      },
      new Map([['R-1', 'PR1']]),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
    expect(r.payload).toMatchObject({
      fields: { listPrice: 129950, salePrice: null, status: 'DRAFT', description: 'The lamp.\n\nBrass and linen.' },
      images: [{ mediaId: 'b'.repeat(32), altText: 'B' }],
      features: [{ label: 'Finish', value: 'Brass' }],
      options: [
        {
          optionName: 'Shade',
          choices: [
            { label: 'Linen', priceDelta: 0 },
            { label: 'Glass', priceDelta: 1250 },
            { label: 'Paper', priceDelta: -200 },
          ],
        },
      ],
      relatedProductIds: ['PR1'],
      initialStock: 4,
    });
  });

  it('names every field at fault', () => {
    const r = parse({
      productName: '',
      sku: 'bad sku',
      listPrice: '12.345',
      salePrice: 'abc',
      status: 'ACTIVE',
      weightGrams: '1.5',
      relatedSkus: 'NOPE',
      optionName: ['Size'],
      optionChoices: [''],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.fieldErrors).sort()).toEqual(
      ['listPrice', 'options', 'productName', 'relatedProductIds', 'salePrice', 'sku', 'weightGrams'].sort(),
    );
    expect(r.fieldErrors.listPrice).toMatch(/more than 2 decimals/);
  });

  it('says a schema refusal in the words of the form', () => {
    const r = parse({ productName: 'Lamp', sku: 'L-1', listPrice: '10', salePrice: '20', status: 'ACTIVE' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.fieldErrors).toEqual({ salePrice: 'Sale price cannot be more than Price' });
  });

  it('reads a choice line with a price change', () => {
    expect(parseChoiceLine('Extra long +5', 'USD')).toEqual({ ok: true, label: 'Extra long', priceDelta: 500 });
    expect(parseChoiceLine('Short', 'USD')).toEqual({ ok: true, label: 'Short', priceDelta: 0 });
    expect(parseChoiceLine('X +1.234', 'USD').ok).toBe(false);
  });
});

describe('the page functions', () => {
  const ctxOf = (session: BrowserSession | null) =>
    t.app
      .inject({ method: 'GET', url: '/test/ctx', headers: { host: HOST, ...(session ?? {}) } })
      .then(() => seenCtx.at(-1) as RequestContext);
  const pagesFor = (ctx: RequestContext) => {
    const audit = createAuditService(t.database.db);
    const storage = createDiskStorage(`${t.dataDir}/media`);
    const media = createMediaService(t.database.db, { storage, audit });
    const productAdmin = createProductAdminService(t.database.db, { audit, events: t.services.events, media, storage });
    const page: PageRequest = { ctx, headers: {}, secure: false, assertFormFromStore() {}, cached: (_k, c) => c() };
    return productAdminPages({ productAdmin })(page);
  };

  it('saves the form with an uploaded picture, and keeps the fields at fault', async () => {
    const pages = pagesFor(await ctxOf(owner));
    const u = unique();
    const bad = await pages.saveProductForm(
      null,
      { productName: `Form Lamp ${u}`, sku: `FL-${u}`, listPrice: 'ten', status: 'ACTIVE' },
      { images: [], content: null },
    );
    expect(bad).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { listPrice: expect.stringMatching(/not a price/) },
    });
    const good = await pages.saveProductForm(
      null,
      { productName: `Form Lamp ${u}`, sku: `FL-${u}`, listPrice: '10.50', status: 'ACTIVE', initialStock: '3' },
      { images: [new Uint8Array(await png(60))], content: null },
    );
    if (!good.ok) throw new Error(JSON.stringify(good));
    const editor = await pages.productEditor(good.productId);
    expect(editor?.product).toMatchObject({ listPrice: 1050, stockQuantity: 3 });
    expect(editor?.product?.images).toHaveLength(1);
    const taken = await pages.saveProductForm(
      null,
      { productName: `Other ${u}`, sku: `FL-${u}`, listPrice: '1', status: 'ACTIVE' },
      { images: [], content: null },
    );
    expect(taken).toMatchObject({
      ok: false,
      status: 409,
      fieldErrors: { sku: expect.stringMatching(/already used/) },
    });
  });

  it('adds a download posted with the form, and names the file when it is not a PDF or ZIP', async () => {
    const pages = pagesFor(await ctxOf(owner));
    const p = await created();
    const form = { productName: p.productName as string, sku: p.sku, listPrice: '49.99', status: 'ACTIVE' };
    const pdf = new Uint8Array(Buffer.from('%PDF-1.7\n%%EOF\n'));
    const ok = await pages.saveProductForm(p.productId, form, {
      images: [],
      content: { bytes: pdf, fileName: 'manual.pdf', title: 'Manual' },
    });
    expect(ok).toMatchObject({ ok: true });
    expect((await pages.productEditor(p.productId))?.product?.contents).toMatchObject([
      { title: 'Manual', fileName: 'manual.pdf' },
    ]);
    const exe = await pages.saveProductForm(p.productId, form, {
      images: [],
      content: { bytes: new Uint8Array(Buffer.from('MZ\x90\x00')), fileName: 'setup.exe', title: 'Setup' },
    });
    expect(exe).toMatchObject({ ok: false, fieldErrors: { contentFile: expect.stringMatching(/^Only PDF and ZIP/) } });
  });

  it('refuses a visitor, a shopper and staff without the catalog permission', async () => {
    for (const [session, status] of [
      [null, 401],
      [shopper, 403],
      [settingsStaff, 403],
    ] as const) {
      const pages = pagesFor(await ctxOf(session));
      await expect(pages.productEditor(null)).rejects.toMatchObject({ statusCode: status });
    }
  });
});
