import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProductImport } from '@app/contracts';
import { schema } from '@app/db';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, asc, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../lib/context';
import {
  type BrowserSession,
  createTestApp,
  SEEDED_HOSTS,
  type SeededTenant,
  signIn,
  type TestApp,
} from '../../../test/harness';
import { csvFile } from '../../../test/product-csv-fixture';
import { givenStorefrontVariants } from '../storefront-variants-test-setup';
import { givenVariants } from '../variants-test-setup';

// Decision 074: a products CSV exported and imported back changes nothing,
// the dry run says what the run does, and text comes back as the owner wrote it. The product page's
// side is product-import-storefront.test.ts.

const BASE = '/skulocity/api/v1/catalog/products/import';
const EXPORT = '/api/v1/product-list/export.csv';

let t: TestApp;
const owners = {} as Record<SeededTenant, BrowserSession>;

beforeAll(async () => {
  t = await createTestApp();
  for (const [tenant, { host }] of Object.entries(SEEDED_HOSTS) as [SeededTenant, { host: string }][]) {
    owners[tenant] = await signIn(t.app, `owner@${tenant}.test`, 'owner-demo-1', host);
  }
}, 180_000);
afterAll(() => t?.close());

const hostOf = (tenant: SeededTenant) => SEEDED_HOSTS[tenant].host;
const data = (res: { json(): unknown }) => (res.json() as { data: ProductImport }).data;

async function exportCsv(tenant: SeededTenant, query = ''): Promise<string> {
  const res = await t.app.inject({ url: `${EXPORT}${query}`, headers: { host: hostOf(tenant), ...owners[tenant] } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

/** Uploads (the dry run), runs and waits: the dry run's counts and the run's, side by side. */
async function importCsv(tenant: SeededTenant, csv: string) {
  const host = hostOf(tenant);
  const headers = { host, origin: `http://${host}`, ...owners[tenant] };
  const up = await t.app.inject({
    method: 'POST',
    url: `${BASE}?fileName=products.csv`,
    headers: { ...headers, 'content-type': 'text/csv' },
    payload: csv,
  });
  expect(up.statusCode, up.body).toBe(201);
  const dry = data(up);
  const started = await t.app.inject({ method: 'POST', url: `${BASE}/${dry.importId}/run`, headers });
  expect(started.statusCode, started.body).toBe(202);
  await t.services.jobs.drain({ timeoutMs: 60_000, dueWithinMs: 0 });
  const done = data(await t.app.inject({ url: `${BASE}/${dry.importId}`, headers }));
  expect(done.status).toBe('done');
  const counts = (c: { created: number; updated: number; unchanged: number; refused: number }) => ({
    created: c.created,
    updated: c.updated,
    unchanged: c.unchanged,
    refused: c.refused,
  });
  return { dry: dry.dryRun, planned: counts(dry.dryRun), applied: counts(done.run) };
}

/** Everything an import could touch in a store: products (with `updated_at`), memberships, audit, stock books. */
async function catalogOf(tenant: string) {
  const rows = (q: ReturnType<typeof sql>) =>
    t.database.db.execute(q).then((r) => (r as unknown as { rows: Record<string, unknown>[] }).rows);
  return {
    products: await t.database.db
      .select()
      .from(schema.products)
      .where(eq(schema.products.tenantId, tenant))
      .orderBy(asc(schema.products.productId)),
    memberships: await rows(
      sql`SELECT * FROM product_categories WHERE tenant_id = ${tenant} ORDER BY product_id, product_category_id`,
    ),
    audit: await rows(sql`SELECT count(*)::int AS n FROM audit_log WHERE tenant_id = ${tenant}`),
    stock: await rows(sql`SELECT count(*)::int AS n FROM stock_movements WHERE tenant_id = ${tenant}`),
  };
}

describe('the products CSV round trip', { timeout: 180_000 }, () => {
  it.each(['lighting', 'garden', 'power'] as const)(
    'the %s demo catalog exported and imported back: 0 updated in the dry run and the run, nothing written',
    async (tenant) => {
      const csv = await exportCsv(tenant);
      const lines = (parse(csv, { bom: true, columns: true }) as unknown[]).length;
      expect(lines).toBeGreaterThan(40);
      const before = await catalogOf(tenant);
      const { planned, applied } = await importCsv(tenant, csv);
      expect(planned).toEqual({ created: 0, updated: 0, unchanged: lines, refused: 0 });
      expect(applied).toEqual(planned);
      // No product row (not its descriptions, category names or updated_at), membership, audit entry or stock movement changed.
      expect(await catalogOf(tenant)).toEqual(before);
    },
  );

  // The file has no variant columns yet (one row per product): a product with several variants goes
  // out with its totals and comes back to no change, its variants, their stock and books included.
  it('a product with variants exported and imported back: nothing written, its variants as they were', async () => {
    const [product] = await t.database.db
      .select()
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'lighting'))
      .orderBy(asc(schema.products.productId))
      .limit(1);
    const host = hostOf('lighting');
    const ctx = systemContext(
      { tenantId: 'lighting', productStoreId: '9000', hostName: host, viaDevAlias: false, origin: `http://${host}` },
      'round-trip-variants',
    );
    await givenVariants(t.database.db, ctx, product?.productId as string, 'Finish', [
      { label: 'Brass', stock: 3, listPrice: 10_00 },
      { label: 'Black', stock: 5, listPrice: 20_00 },
    ]);
    const variantsOf = () =>
      t.database.db
        .select()
        .from(schema.productVariants)
        .where(eq(schema.productVariants.productId, product?.productId as string))
        .orderBy(asc(schema.productVariants.variantId));
    const variants = await variantsOf();
    expect(variants).toHaveLength(2);
    const csv = await exportCsv('lighting');
    const before = await catalogOf('lighting');
    const { planned, applied } = await importCsv('lighting', csv);
    expect(planned.updated).toBe(0);
    expect(applied).toEqual(planned);
    expect(await catalogOf('lighting')).toEqual(before);
    expect(await variantsOf()).toEqual(variants);
  });

  // One row per variant: two options, a combination left out, a disabled variant, a sold-out one and
  // pictures per variant all go out in the file and come back to no change.
  it('a product with two options, a disabled, a sold-out variant and variant pictures: exported and imported back, nothing written', async () => {
    const [, product] = await t.database.db
      .select()
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'garden'))
      .orderBy(asc(schema.products.productId))
      .limit(2);
    const host = hostOf('garden');
    const ctx = systemContext(
      { tenantId: 'garden', productStoreId: '9001', hostName: host, viaDevAlias: false, origin: `http://${host}` },
      'round-trip-two-options',
    );
    const id = product?.productId as string;
    await givenStorefrontVariants(t.database.db, ctx, id, {
      options: [
        { name: 'Finish', values: [{ label: 'Brass' }, { label: 'Black' }] },
        { name: 'Size', values: [{ label: 'Small' }, { label: 'Large' }] },
      ],
      variants: [
        { values: ['Brass', 'Small'], stock: 3, listPrice: 40_00, pictures: [0] },
        { values: ['Brass', 'Large'], stock: 0, listPrice: 60_00, salePrice: 55_00, pictures: [1, 0] },
        { values: ['Black', 'Small'], stock: 2, listPrice: 40_00, enabled: false },
      ],
      pictures: 2,
    });
    const variantsOf = () =>
      t.database.db
        .select()
        .from(schema.productVariants)
        .where(eq(schema.productVariants.productId, id))
        .orderBy(asc(schema.productVariants.variantId));
    const variants = await variantsOf();
    const csv = await exportCsv('garden');
    const rows = (parse(csv, { bom: true, columns: true }) as Record<string, string>[]).filter(
      (r, i, all) =>
        r.product_id === id ||
        (r.product_id === '' &&
          all
            .slice(0, i)
            .reverse()
            .find((x) => x.product_id)?.product_id === id),
    );
    // One row per variant, the product's columns on the first only, option names there too.
    expect(
      rows.map((r) => [
        r.name !== '',
        r.option1_name,
        r.option1_value,
        r.option2_name,
        r.option2_value,
        r.enabled,
        r.stock,
      ]),
    ).toEqual([
      [true, 'Finish', 'Brass', 'Size', 'Small', 'true', '3'],
      [false, '', 'Brass', '', 'Large', 'true', '0'],
      [false, '', 'Black', '', 'Small', 'false', '2'],
    ]);
    const pictures = (rows[0]?.images ?? '').split('|');
    expect(pictures).toHaveLength(2);
    expect((rows[1]?.variant_images ?? '').split('|')).toEqual([pictures[1], pictures[0]]);
    const before = await catalogOf('garden');
    const { planned, applied } = await importCsv('garden', csv);
    expect(planned).toMatchObject({ created: 0, updated: 0, refused: 0 });
    expect(applied).toEqual(planned);
    expect(await catalogOf('garden')).toEqual(before);
    expect(await variantsOf()).toEqual(variants);
  });

  it('one price changed in the export: exactly that product changes, in the dry run and in the run', async () => {
    const csv = await exportCsv('garden');
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    // A product whose description has an ampersand (the demo's "Halden & Co." kind), so it would show.
    const target = rows.find((r) => r.description?.includes('&')) ?? (rows[3] as Record<string, string>);
    target.list_price = (Number(target.list_price) + 1).toFixed(2);
    const header = Object.keys(rows[0] as object);
    const edited = `\uFEFF${stringify([header, ...rows.map((r) => header.map((h) => r[h]))])}`;
    const before = await catalogOf('garden');

    const { dry, planned, applied } = await importCsv('garden', edited);
    expect(planned).toEqual({ created: 0, updated: 1, unchanged: rows.length - 1, refused: 0 });
    expect(dry.firstUpdated).toEqual([{ row: rows.indexOf(target) + 1, sku: target.sku, changes: ['list_price'] }]);
    expect(applied).toEqual(planned);

    const after = await catalogOf('garden');
    const changed = after.products.filter((p, i) => JSON.stringify(p) !== JSON.stringify(before.products[i]));
    expect(changed.map((p) => p.sku)).toEqual([target.sku]);
    const was = before.products.find((p) => p.sku === target.sku);
    expect(changed[0]).toEqual({
      ...was,
      listPrice: Math.round(Number(target.list_price) * 100),
      updatedAt: changed[0]?.updatedAt,
      // Generated from the price and the text.
      effectivePrice: changed[0]?.effectivePrice,
      // The rollup of its one variant, which sells at the new price.
      priceMax: changed[0]?.effectivePrice,
      searchVector: changed[0]?.searchVector,
    });
    expect(changed[0]?.updatedAt.getTime()).toBeGreaterThan(was?.updatedAt.getTime() ?? 0);
    expect(after.memberships).toEqual(before.memberships);
    expect(after.audit[0]?.n).toBe(Number(before.audit[0]?.n) + 1);
    expect(after.stock).toEqual(before.stock);
  });

  // Decision 116's class travels in the file: export → import → export keeps a non-standard class;
  // a changed cell writes exactly the class (audited), a blank one keeps it, a wrong one names the column.
  it('the tax class goes out in tax_class and comes back: kept, changed alone, kept when blank, refused when unknown', async () => {
    const pr = schema.products;
    const [reduced, exempt] = await t.database.db
      .select({ productId: pr.productId, sku: pr.sku })
      .from(pr)
      .where(eq(pr.tenantId, 'power'))
      .orderBy(asc(pr.productId))
      .limit(2);
    const classOf = async (productId: string | undefined) =>
      (
        await t.database.db
          .select({ c: pr.taxClass })
          .from(pr)
          .where(and(eq(pr.tenantId, 'power'), eq(pr.productId, productId as string)))
      )[0]?.c;
    for (const [row, taxClass] of [
      [reduced, 'reduced'],
      [exempt, 'exempt'],
    ] as const) {
      await t.database.db
        .update(pr)
        .set({ taxClass })
        .where(and(eq(pr.tenantId, 'power'), eq(pr.productId, row?.productId as string)));
    }
    const csv = await exportCsv('power');
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    const rowOf = (productId: string | undefined) =>
      rows.find((r) => r.product_id === productId) as Record<string, string>;
    expect(rowOf(reduced?.productId).tax_class).toBe('reduced');
    expect(rowOf(exempt?.productId).tax_class).toBe('exempt');
    expect(
      rows
        .filter((r) => r.product_id !== '')
        .every((r) => ['standard', 'reduced', 'exempt'].includes(r.tax_class ?? '')),
    ).toBe(true);

    // Imported back as exported: nothing written, and the next export is the same file.
    const before = await catalogOf('power');
    const back = await importCsv('power', csv);
    expect(back.planned).toEqual({ created: 0, updated: 0, unchanged: rows.length, refused: 0 });
    expect(back.applied).toEqual(back.planned);
    expect(await catalogOf('power')).toEqual(before);
    expect(await exportCsv('power')).toBe(csv);

    // The reduced product made exempt, the exempt one's cell left blank, a third typed wrong.
    rowOf(reduced?.productId).tax_class = 'Exempt';
    rowOf(exempt?.productId).tax_class = '';
    // A product of one row, so the refusal is that row's alone.
    const wrong = rows.find(
      (r, i) =>
        r.product_id !== '' &&
        r.product_id !== reduced?.productId &&
        r.product_id !== exempt?.productId &&
        (rows[i + 1]?.product_id ?? 'end') !== '',
    ) as Record<string, string>;
    wrong.tax_class = 'zero-rated';
    const header = Object.keys(rows[0] as object);
    const edited = `\uFEFF${stringify([header, ...rows.map((r) => header.map((h) => r[h]))])}`;
    const { dry, planned, applied } = await importCsv('power', edited);
    expect(planned).toEqual({ created: 0, updated: 1, unchanged: rows.length - 2, refused: 1 });
    expect(applied).toEqual(planned);
    expect(dry.firstUpdated).toEqual([
      { row: rows.indexOf(rowOf(reduced?.productId)) + 1, sku: reduced?.sku, changes: ['tax_class'] },
    ]);
    expect(dry.firstRefused).toEqual([
      {
        row: rows.indexOf(wrong) + 1,
        sku: wrong.sku,
        errors: [{ column: 'tax_class', message: '"zero-rated" is not a tax class: use standard, reduced, exempt.' }],
      },
    ]);
    expect(await classOf(reduced?.productId)).toBe('exempt');
    expect(await classOf(exempt?.productId)).toBe('exempt');
    const after = await catalogOf('power');
    // Only the class moved: one audit entry, the product's other columns (and updated_at) as they were.
    expect(after.audit[0]?.n).toBe(Number(before.audit[0]?.n) + 1);
    const changed = after.products.filter((p, i) => JSON.stringify(p) !== JSON.stringify(before.products[i]));
    expect(changed.map((p) => [p.productId, p.taxClass])).toEqual([[reduced?.productId, 'exempt']]);
  });

  // What owners type: ampersands, angle brackets, quotes, commas, line breaks, Greek, Japanese, emoji.
  const awkward = [
    {
      sku: 'RT-AMP',
      name: 'Lamp by Halden & Co., "Brass" <small>',
      brand: 'Halden & Co.',
      short_description: 'Bright & warm, 2 < 3 > 1, "quoted", it\'s fine',
      description: 'The Lamp by Halden & Co. Statement light.\n\nSize < 40 cm & > 20 cm; "really", it\'s\r\nbright.',
      seo_title: 'Halden & Co. <Lamp>',
      seo_description: 'Fish & chips, "quotes", commas, and\nnew lines',
    },
    {
      sku: 'RT-HTML',
      name: 'Φωτιστικό οροφής — 天井照明 💡',
      brand: 'Λάμψη & 光',
      short_description: 'Ελληνικά, 日本語 and emoji 🌱✨ together',
      description:
        '<p>Ελαφρύ &amp; φωτεινό: 明るい&nbsp;光 🌞</p>\n<ul><li>Tom &amp; Jerry’s “lamp”</li><li>a &lt; b</li></ul>',
      seo_title: '天井照明 & more',
      seo_description: '🌱 & 🌞',
    },
  ];
  const awkwardFile = () =>
    csvFile(
      awkward.map((r) => ({ ...r, list_price: '12.50', status: 'ACTIVE', stock: '3' })),
      {
        columns: [
          'sku',
          'name',
          'brand',
          'list_price',
          'status',
          'stock',
          'short_description',
          'description',
          'seo_title',
          'seo_description',
        ],
        bom: true,
      },
    );

  it('text with &, <, quotes, commas, line breaks, Greek, Japanese and emoji is stored as written, exported as stored, and imports back unchanged', async () => {
    const first = await importCsv('garden', awkwardFile());
    expect(first.planned).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 0 });
    expect(first.applied).toEqual(first.planned);
    const stored = await t.database.db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'garden'), like(schema.products.sku, 'RT-%')))
      .orderBy(asc(schema.products.sku));
    // Read back equal to what was written (a CSV cell's ends are trimmed, as every way in trims).
    expect(
      stored.map((p) => ({
        sku: p.sku,
        name: p.productName,
        brand: p.brandName,
        short_description: p.shortDescription,
        description: p.description,
        seo_title: p.seoTitle,
        seo_description: p.seoDescription,
      })),
    ).toEqual(awkward);

    // The export writes them back as they are; imported again, nothing changes.
    const csv = await exportCsv('garden');
    const exported = (parse(csv, { bom: true, columns: true }) as Record<string, string>[])
      .filter((r) => r.sku?.startsWith('RT-'))
      .sort((a, b) => (a.sku ?? '').localeCompare(b.sku ?? ''));
    expect(exported.map((r) => Object.fromEntries(Object.keys(awkward[0] as object).map((k) => [k, r[k]])))).toEqual(
      awkward,
    );
    const before = await catalogOf('garden');
    const again = await importCsv('garden', csv);
    expect(again.planned).toMatchObject({ created: 0, updated: 0, refused: 0 });
    expect(again.applied).toEqual(again.planned);
    expect(await catalogOf('garden')).toEqual(before);

    // The same file imported again: unchanged too.
    const third = await importCsv('garden', awkwardFile());
    expect(third.planned).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 0 });
    expect(third.applied).toEqual(third.planned);
  });
  it('a file that repeats a SKU or types a slug another product holds: the dry run plans what the run does', async () => {
    const demo = await t.database.db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'garden'), like(schema.products.sku, 'GRD-%')))
      .orderBy(asc(schema.products.sku))
      .limit(3);
    const [a, b, c] = demo as [(typeof demo)[number], (typeof demo)[number], (typeof demo)[number]];
    const price = (minor: number) => (minor / 100).toFixed(2);
    const csv = csvFile(
      [
        { sku: 'RT-DUP', name: 'Twice', list_price: '1.00' },
        { sku: 'RT-DUP', name: 'Twice', list_price: '2.00' },
        { sku: 'RT-DUP', name: 'Twice', list_price: '2.00' },
        { sku: a.sku, name: a.productName, list_price: price(a.listPrice), slug: b.slug },
        { sku: c.sku, name: c.productName, list_price: price(c.listPrice + 100) },
        { sku: c.sku, name: c.productName, list_price: price(c.listPrice) },
      ],
      { columns: ['sku', 'name', 'list_price', 'slug'] },
    );
    const { dry, planned, applied } = await importCsv('garden', csv);
    expect(planned).toEqual({ created: 1, updated: 3, unchanged: 1, refused: 1 });
    expect(applied).toEqual(planned);
    expect(dry.firstUpdated.map((u) => [u.row, u.changes])).toEqual([
      [2, ['list_price']],
      [5, ['list_price']],
      [6, ['list_price']],
    ]);
    expect(dry.firstRefused).toEqual([
      {
        row: 4,
        sku: a.sku,
        errors: [
          {
            column: 'slug',
            message: `The address /${b.slug} is already used by another product; choose another slug.`,
          },
        ],
      },
    ]);
  });
  it('a stored file that is gone fails its import, and the server stays up', async () => {
    const host = hostOf('garden');
    const headers = { host, origin: `http://${host}`, ...owners.garden };
    const up = await t.app.inject({
      method: 'POST',
      url: `${BASE}?fileName=products.csv`,
      headers: { ...headers, 'content-type': 'text/csv' },
      payload: csvFile([{ sku: 'RT-GONE', name: 'Gone', list_price: '1.00' }]),
    });
    expect(up.statusCode, up.body).toBe(201);
    const { importId } = data(up);
    // Another process cleaned the data folder meanwhile (a reset, a disk swap).
    await rm(join(t.dataDir, 'imports', 'garden', `${importId}.csv`));
    expect((await t.app.inject({ method: 'POST', url: `${BASE}/${importId}/run`, headers })).statusCode).toBe(202);
    // The job fails and is retried (tests retry within milliseconds) until its last attempt fails:
    // a horizon of a few seconds takes in the retries, not the sitemap run queued for later.
    await t.services.jobs.drain({ timeoutMs: 60_000, dueWithinMs: 5_000 });
    const done = data(await t.app.inject({ url: `${BASE}/${importId}`, headers }));
    expect(done.status).toBe('failed');
    expect(done.error).toBe(
      'The import stopped: the uploaded file is no longer on the server; upload it again. The rows before it were applied.',
    );
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
