import type { ProductImport } from '@app/contracts';
import { schema } from '@app/db';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../../test/harness';
import { csvFile } from '../../../test/product-csv-fixture';

// Decision 112, section 5: one row per variant, the product's columns on its first row; variants
// matched by variant_id, then SKU; the variants a file leaves out are kept and listed.

const HOST = SEEDED_HOSTS.power.host;
const BASE = '/skulocity/api/v1/catalog/products/import';
const EXPORT = '/api/v1/product-list/export.csv';

let t: TestApp;
let owner: BrowserSession;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@power.test', 'owner-demo-1', HOST);
}, 180_000);
afterAll(() => t?.close());

const headers = () => ({ host: HOST, origin: `http://${HOST}`, ...owner });
const data = (res: { json(): unknown }) => (res.json() as { data: ProductImport }).data;

async function dryRun(csv: string): Promise<ProductImport> {
  const up = await t.app.inject({
    method: 'POST',
    url: `${BASE}?fileName=products.csv`,
    headers: { ...headers(), 'content-type': 'text/csv' },
    payload: csv,
  });
  expect(up.statusCode, up.body).toBe(201);
  return data(up);
}

/** The dry run, then the run: both as the page shows them. */
async function importAll(csv: string) {
  const dry = await dryRun(csv);
  const started = await t.app.inject({ method: 'POST', url: `${BASE}/${dry.importId}/run`, headers: headers() });
  expect(started.statusCode, started.body).toBe(202);
  await t.services.jobs.drain({ timeoutMs: 60_000, dueWithinMs: 0 });
  const done = data(await t.app.inject({ url: `${BASE}/${dry.importId}`, headers: headers() }));
  expect(done.status).toBe('done');
  return { dry: dry.dryRun, run: done.run };
}

const variantsOf = (productId: string) =>
  t.database.db
    .select()
    .from(schema.productVariants)
    .where(and(eq(schema.productVariants.tenantId, 'power'), eq(schema.productVariants.productId, productId)))
    .orderBy(asc(schema.productVariants.position));
const productBySlug = async (slug: string) =>
  (
    await t.database.db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'power'), eq(schema.products.slug, slug)))
  )[0];

const COLUMNS = [
  'product_id',
  'slug',
  'name',
  'status',
  'option1_name',
  'option1_value',
  'option2_name',
  'option2_value',
  'variant_id',
  'sku',
  'list_price',
  'sale_price',
  'stock',
  'enabled',
] as const;

/** A drill with Battery × Colour, four variants, made by a file (the product's columns on its first row only). */
const drillFile = () =>
  csvFile(
    [
      {
        slug: 'csv-drill',
        name: 'CSV Drill',
        status: 'ACTIVE',
        option1_name: 'Battery',
        option1_value: '2 Ah',
        option2_name: 'Colour',
        option2_value: 'Black',
        sku: 'CSVD-2-BLK',
        list_price: '99.00',
        stock: '5',
      },
      { option1_value: '2 Ah', option2_value: 'Red', sku: 'CSVD-2-RED', list_price: '99.00', stock: '0' },
      { option1_value: '5 Ah', option2_value: 'Black', sku: 'CSVD-5-BLK', list_price: '149.00', stock: '7' },
      {
        option1_value: '5 Ah',
        option2_value: 'Red',
        sku: 'CSVD-5-RED',
        list_price: '149.00',
        stock: '2',
        enabled: 'false',
      },
    ],
    { columns: COLUMNS },
  );

/** The product's rows of the store's export, as records by column. */
async function exportedRows(productId: string) {
  const res = await t.app.inject({ url: `${EXPORT}?sort=name&dir=asc`, headers: { host: HOST, ...owner } });
  expect(res.statusCode).toBe(200);
  const all = parse(res.body, { bom: true, columns: true }) as Record<string, string>[];
  const at = all.findIndex((r) => r.product_id === productId);
  let end = at + 1;
  while (end < all.length && all[end]?.product_id === '') end++;
  return { header: Object.keys(all[0] as object), rows: all.slice(at, end) };
}
const fileOf = (header: string[], rows: Record<string, string>[]) =>
  `\uFEFF${stringify([header, ...rows.map((r) => header.map((h) => r[h] ?? ''))])}`;

describe('the product CSV with variants', { timeout: 180_000 }, () => {
  let drillId = '';

  it('creates a product with two options from its rows: the product columns on the first row, a variant per row, stock through the books', async () => {
    const { dry, run } = await importAll(drillFile());
    expect(dry).toMatchObject({ rows: 4, created: 4, updated: 0, refused: 0 });
    expect(dry.firstCreated.map((c) => [c.row, c.sku, c.name])).toEqual([
      [1, 'CSVD-2-BLK', 'CSV Drill, 2 Ah / Black'],
      [2, 'CSVD-2-RED', 'CSV Drill, 2 Ah / Red'],
      [3, 'CSVD-5-BLK', 'CSV Drill, 5 Ah / Black'],
      [4, 'CSVD-5-RED', 'CSV Drill, 5 Ah / Red'],
    ]);
    expect(run).toMatchObject({ created: 4, updated: 0, refused: 0 });
    const drill = await productBySlug('csv-drill');
    drillId = drill?.productId as string;
    expect(drill).toMatchObject({
      productName: 'CSV Drill',
      variantCount: 4,
      listPrice: 99_00,
      priceMax: 149_00,
      stockQuantity: 14,
      sellableStock: 12,
    });
    const variants = await variantsOf(drillId);
    expect(variants.map((v) => [v.title, v.sku, v.listPrice, v.stockQuantity, v.enabled])).toEqual([
      ['2 Ah / Black', 'CSVD-2-BLK', 99_00, 5, true],
      ['2 Ah / Red', 'CSVD-2-RED', 99_00, 0, true],
      ['5 Ah / Black', 'CSVD-5-BLK', 149_00, 7, true],
      ['5 Ah / Red', 'CSVD-5-RED', 149_00, 2, false],
    ]);
    // Every unit is in the books: each variant's count is the sum of its movements.
    const books = (await t.database.db.execute(sql`
      SELECT v.variant_id, v.stock_quantity, coalesce(sum(m.delta), 0)::int AS moved
      FROM product_variants v LEFT JOIN stock_movements m ON m.tenant_id = v.tenant_id AND m.variant_id = v.variant_id
      WHERE v.tenant_id = 'power' AND v.product_id = ${drillId} GROUP BY v.variant_id, v.stock_quantity`)) as unknown as {
      rows: { stock_quantity: number; moved: number }[];
    };
    for (const b of books.rows) expect(Number(b.moved)).toBe(Number(b.stock_quantity));
  });

  it('the same file again plans nothing and writes nothing', async () => {
    const before = await variantsOf(drillId);
    const { dry, run } = await importAll(drillFile());
    expect(dry).toMatchObject({ created: 0, updated: 0, unchanged: 4, refused: 0 });
    expect(run).toMatchObject({ created: 0, updated: 0, unchanged: 4, refused: 0 });
    expect(await variantsOf(drillId)).toEqual(before);
  });

  it('matches a variant by variant_id, then by SKU: a changed price and a new SKU by id, a new stock by SKU, a new variant created; left-out variants kept and listed', async () => {
    const { header, rows } = await exportedRows(drillId);
    const [first, red2, black5] = rows as [Record<string, string>, Record<string, string>, Record<string, string>];
    first.list_price = '89.00';
    red2.sku = 'CSVD-2-RED-NEW';
    // Matched by SKU: the id left empty.
    black5.variant_id = '';
    black5.stock = '9';
    const added = {
      option1_value: '9 Ah',
      option2_value: 'Black',
      sku: 'CSVD-9-BLK',
      list_price: '199.00',
      stock: '1',
      enabled: 'true',
    };
    const file = fileOf(header, [first, red2, black5, added]);
    const before = await variantsOf(drillId);
    const { dry, run } = await importAll(file);
    expect(dry.firstUpdated.map((u) => [u.row, u.sku, u.changes])).toEqual([
      // The new value 9 Ah is added to the product's Battery option.
      [1, 'CSVD-2-BLK', ['options', 'list_price']],
      [2, 'CSVD-2-RED-NEW', ['sku']],
      [3, 'CSVD-5-BLK', ['stock']],
    ]);
    expect(dry.firstCreated).toEqual([{ row: 4, sku: 'CSVD-9-BLK', name: 'CSV Drill, 9 Ah / Black' }]);
    expect(dry.leftOut).toBe(1);
    expect(dry.firstLeftOut).toEqual([
      { row: 1, product: 'CSV Drill', variantId: before[3]?.variantId, sku: 'CSVD-5-RED', title: '5 Ah / Red' },
    ]);
    expect(run).toMatchObject({ created: 1, updated: 3, unchanged: 0, refused: 0 });
    const after = await variantsOf(drillId);
    expect(after.map((v) => [v.variantId, v.title, v.sku, v.listPrice, v.stockQuantity])).toEqual([
      [before[0]?.variantId, '2 Ah / Black', 'CSVD-2-BLK', 89_00, 5],
      [before[1]?.variantId, '2 Ah / Red', 'CSVD-2-RED-NEW', 99_00, 0],
      [before[2]?.variantId, '5 Ah / Black', 'CSVD-5-BLK', 149_00, 9],
      // Left out of the file: kept as it was.
      [before[3]?.variantId, '5 Ah / Red', 'CSVD-5-RED', 149_00, 2],
      [after[4]?.variantId, '9 Ah / Black', 'CSVD-9-BLK', 199_00, 1],
    ]);
    // The stock change is a correction of the difference, noted as the import's.
    const moves = (await t.database.db.execute(sql`
      SELECT delta, reason, note FROM stock_movements
      WHERE tenant_id = 'power' AND variant_id = ${before[2]?.variantId as string} ORDER BY created_at DESC LIMIT 1`)) as unknown as {
      rows: { delta: number; reason: string; note: string }[];
    };
    expect(moves.rows[0]).toMatchObject({ delta: 2, reason: 'CORRECTION', note: 'CSV import' });
    expect(await productBySlug('csv-drill')).toMatchObject({ listPrice: 89_00, priceMax: 199_00, variantCount: 5 });
  });

  it('refuses a later row whose product column differs from the first row, naming the row and column; the product is not written', async () => {
    const { header, rows } = await exportedRows(drillId);
    const [first, second] = rows as [Record<string, string>, Record<string, string>];
    first.list_price = '79.00';
    // Filled down in a spreadsheet: the product's id names the product, the name differs.
    second.product_id = first.product_id ?? '';
    second.name = 'Another Drill';
    const before = await variantsOf(drillId);
    const { dry, run } = await importAll(fileOf(header, rows));
    expect(dry.refused).toBe(rows.length);
    expect(dry.firstRefused[1]).toEqual({
      row: 2,
      sku: second.sku,
      errors: [
        {
          column: 'name',
          message: `"Another Drill" differs from row 1, this product's first row; a product's columns are given once, on its first row.`,
        },
      ],
    });
    expect(dry.firstRefused[0]?.errors[0]?.message).toContain('row 2 of the same product is refused');
    expect(run.refused).toBe(rows.length);
    expect(await variantsOf(drillId)).toEqual(before);
  });

  it('a repeated identical product value on a later row is accepted', async () => {
    const { header, rows } = await exportedRows(drillId);
    for (const r of rows.slice(1)) {
      r.product_id = rows[0]?.product_id ?? '';
      r.name = rows[0]?.name ?? '';
    }
    const { dry } = await importAll(fileOf(header, rows));
    expect(dry).toMatchObject({ refused: 0, updated: 0, created: 0 });
  });

  it('refuses bad values by row and column: a price, a stock count, enabled, a barcode, a missing option value, a picture not of the store', async () => {
    const file = csvFile(
      [
        { name: 'Bad Saw', option1_name: 'Blade', option1_value: 'Fine', sku: 'CSVBAD-1', list_price: '12,5.0' },
        { option1_value: 'Coarse', sku: 'CSVBAD-2', list_price: '10.00', stock: '-3' },
        { option1_value: 'Medium', sku: 'CSVBAD-3', list_price: '10.00', enabled: 'maybe' },
        { option1_value: 'Thin', sku: 'CSVBAD-4', list_price: '10.00', barcode: '12AB' },
        { sku: 'CSVBAD-5', list_price: '10.00' },
        { option1_value: 'Wide', sku: 'CSVBAD-6', list_price: '10.00', variant_images: 'https://example.com/x.jpg' },
      ],
      { columns: [...COLUMNS, 'barcode', 'variant_images'] },
    );
    const dry = (await dryRun(file)).dryRun;
    expect(dry.refused).toBe(6);
    expect(dry.firstRefused.map((r) => [r.row, r.errors.map((e) => e.column)])).toEqual([
      [1, ['list_price']],
      [2, ['stock']],
      [3, ['enabled']],
      [4, ['barcode']],
      [5, ['option1_value']],
      [6, ['variant_images']],
    ]);
    expect(dry.firstRefused[5]?.errors[0]?.message).toContain('upload it to the media library first');
  });

  it('refuses in the dry run a product of more than 250 variants, naming its rows; at 250 it is taken', async () => {
    const rowsOf = (n: number, slug: string) =>
      Array.from({ length: n }, (_, i) => ({
        ...(i === 0 ? { slug, name: `Bolt ${slug}`, status: 'ACTIVE', option1_name: 'Length' } : {}),
        option1_value: `${i + 1} mm`,
        sku: `${slug}-${i + 1}`,
        list_price: '1.00',
      }));
    const over = await t.app.inject({
      method: 'POST',
      url: `${BASE}?fileName=products.csv`,
      headers: { ...headers(), 'content-type': 'text/csv' },
      payload: csvFile(
        [
          { slug: 'bolt-one', name: 'Bolt one', status: 'ACTIVE', sku: 'bolt-one', list_price: '1.00' },
          ...rowsOf(252, 'bolt-over'),
        ],
        { columns: COLUMNS },
      ),
    });
    expect(over.statusCode, over.body).toBe(422);
    expect(over.json().message).toMatch(/Rows 2 to 253 give Bolt bolt-over 252 variants; a product has at most 250/);

    const { dry, run } = await importAll(csvFile(rowsOf(250, 'bolt-max'), { columns: COLUMNS }));
    expect(dry).toMatchObject({ rows: 250, created: 250, refused: 0 });
    expect(run).toMatchObject({ created: 250, refused: 0 });
    const bolt = await productBySlug('bolt-max');
    expect((await variantsOf(bolt?.productId as string)).length).toBe(250);

    // One more, against the 250 it has: refused in the dry run naming the row, nothing written.
    const more = await dryRun(
      csvFile(
        [
          {
            slug: 'bolt-max',
            name: 'Bolt bolt-max',
            status: 'ACTIVE',
            option1_name: 'Length',
            option1_value: '251 mm',
            sku: 'bolt-max-251',
            list_price: '1.00',
          },
        ],
        { columns: COLUMNS },
      ),
    );
    expect(more.dryRun).toMatchObject({ rows: 1, created: 0, refused: 1 });
    expect(more.dryRun.firstRefused[0]?.errors[0]?.message).toMatch(
      /Bolt bolt-max would have 251 variants \(rows 1 to 1, with 250 it has\); a product has at most 250/,
    );
  });

  it('a file in the layout before variants still imports: each row a product matched by SKU', async () => {
    const file = csvFile(
      [
        { sku: 'CSVOLD-1', name: 'Old Layout Lamp', list_price: '12.00', stock: '4' },
        { sku: 'CSVD-2-BLK', name: 'CSV Drill', list_price: '89.00' },
      ],
      { columns: ['sku', 'name', 'list_price', 'stock'] },
    );
    const { dry, run } = await importAll(file);
    // The drill's variant, matched by its SKU, is as the row says: nothing to change.
    expect(dry).toMatchObject({ created: 1, updated: 0, unchanged: 1, refused: 0 });
    expect(run).toMatchObject({ created: 1, updated: 0, unchanged: 1, refused: 0 });
    const made = await t.database.db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'power'), eq(schema.products.sku, 'CSVOLD-1')));
    expect(made[0]).toMatchObject({ productName: 'Old Layout Lamp', stockQuantity: 4, variantCount: 1 });
  });
});
