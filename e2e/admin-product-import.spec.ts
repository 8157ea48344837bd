import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { csvFile, productCsvFixture } from '../apps/api/src/test/product-csv-fixture';
import { STORES, signIn, snap } from './helpers';

/** The owner imports a product CSV (dry run, run, progress, error report). */

const garden = STORES.garden.url;
const owner = { base: garden, email: 'owner@garden.test' };
const PATH = '/manage-store/products/import';
// SKUs only this spec creates, in the garden store.
const PREFIX = `E2EIMP${Date.now().toString(36).toUpperCase()}`;

test('the owner imports a 200-row CSV with 3 bad rows: dry run, run with progress, error report', async ({ page }) => {
  test.setTimeout(90_000);
  const fixture = productCsvFixture(PREFIX, 200, { bom: true });
  await signIn(page, owner, PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Import products' })).toBeVisible();
  const format = page.getByRole('region', { name: 'File format' });
  await expect(format.getByRole('cell', { name: /^list_price\s*required$/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download template' })).toHaveAttribute(
    'href',
    '/skulocity/api/v1/catalog/products/import/template.csv',
  );
  await snap(page, 'product-import-upload-1280');

  await page.getByLabel('CSV file', { exact: true }).setInputFiles({
    name: 'garden-products.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(fixture.csv),
  });
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await expect(page).toHaveURL(/\?import=/);

  // The dry run: what would happen, nothing written yet.
  const dry = page.getByRole('region', { name: 'Dry run' });
  await expect(dry.getByRole('status')).toHaveText('Checked 200 rows. Nothing has been changed yet.');
  await expect(dry.getByTestId('count-created')).toHaveText('197');
  await expect(dry.getByTestId('count-refused')).toHaveText('3');
  const refused = page.getByRole('region', { name: 'Refused rows' }).getByRole('row');
  await expect(refused).toHaveCount(4);
  await expect(refused.nth(1)).toContainText('50');
  await expect(refused.nth(1)).toContainText('list_price');
  await expect(refused.nth(2)).toContainText('SOMETIMES');
  await snap(page, 'product-import-dry-run-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'product-import-dry-run-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The run: progress until it has finished (the page follows the job), then the result.
  await page.getByRole('button', { name: 'Import 197 rows' }).click();
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({ timeout: 60_000 });
  const result = page.getByRole('region', { name: 'Import finished' });
  await expect(result.getByTestId('count-created')).toHaveText('197');
  await expect(result.getByTestId('count-refused')).toHaveText('3');
  await snap(page, 'product-import-done-1280');

  // The error report: one line per bad row, with row, column and message.
  const download = page.waitForEvent('download');
  await result.getByRole('link', { name: 'Download error report (3 rows)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^import-.+-errors\.csv$/);
  const lines = readFileSync((await file.path()) as string, 'utf8')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('row,sku,column,message');
  expect(lines).toHaveLength(4);
  expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(
    fixture.bad.map((b) => `${b.row},${fixture.skus[b.row - 1]},${b.column}`),
  );

  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'product-import-done-375');

  // The imported products are on the storefront.
  await page.goto(`${garden}/product/search/${encodeURIComponent(`${PREFIX} Test Planter 7`)}`);
  await expect(page.getByText(`${PREFIX} Test Planter 7, "Large"`).first()).toBeVisible();
});

test('the owner exports the whole catalog and imports the file back: every row unchanged', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, owner, '/manage-store/products');
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export', exact: true }).click();
  const exported = await downloading;
  const csv = readFileSync((await exported.path()) as string);
  // Every product of the store, one row each (quoted newlines inside descriptions stay inside a row).
  const rows: Record<string, string>[] = parse(csv, { bom: true, columns: true });
  expect(rows.length).toBeGreaterThan(40);
  expect(rows.filter((r) => r.sku?.startsWith('GRD-')).length).toBeGreaterThan(40);

  await page.goto(`${garden}${PATH}`);
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({
    name: exported.suggestedFilename(),
    mimeType: 'text/csv',
    buffer: csv,
  });
  await page.getByRole('button', { name: 'Upload and check' }).click();
  const dry = page.getByRole('region', { name: 'Dry run' });
  await expect(dry.getByRole('status')).toHaveText(`Checked ${rows.length} rows. Nothing has been changed yet.`);
  // Other specs may add products to this store meanwhile; none of them is in this file.
  await expect(dry.getByTestId('count-unchanged')).toHaveText(String(rows.length));
  await expect(dry.getByTestId('count-created')).toHaveText('0');
  await expect(dry.getByTestId('count-updated')).toHaveText('0');
  await expect(dry.getByTestId('count-refused')).toHaveText('0');
  await expect(page.getByRole('button', { name: 'Nothing to import' })).toBeDisabled();
});

test('a product with variants: the dry run lists the new variants, the changed columns and the variants left out', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sku = (s: string) => `${PREFIX}DRL-${s}`;
  const slug = `${PREFIX.toLowerCase()}-drill`;
  const columns = ['slug', 'name', 'option1_name', 'option1_value', 'variant_id', 'sku', 'list_price', 'stock'];
  const upload = async (name: string, csv: string) => {
    await page.goto(`${garden}${PATH}`);
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload and check' }).click();
    return page.getByRole('region', { name: 'Dry run' });
  };
  await signIn(page, owner, PATH);
  // A drill with three batteries, one row each; the product's columns on the first row only.
  const made = await upload(
    'drill.csv',
    csvFile(
      [
        {
          slug,
          name: `${PREFIX} Drill`,
          option1_name: 'Battery',
          option1_value: '2 Ah',
          sku: sku('2'),
          list_price: '99.00',
          stock: '4',
        },
        { option1_value: '5 Ah', sku: sku('5'), list_price: '149.00', stock: '2' },
        { option1_value: '8 Ah', sku: sku('8'), list_price: '189.00', stock: '0' },
      ],
      { columns },
    ),
  );
  await expect(made.getByTestId('count-created')).toHaveText('3');
  const created = page.getByRole('region', { name: 'New products and variants' });
  await expect(created.getByRole('row', { name: `1 ${sku('2')} ${PREFIX} Drill, 2 Ah` })).toBeVisible();
  await expect(created.getByRole('row', { name: `3 ${sku('8')} ${PREFIX} Drill, 8 Ah` })).toBeVisible();
  await page.getByRole('button', { name: 'Import 3 rows' }).click();
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({ timeout: 60_000 });

  // Again, with the 2 Ah's price changed, the 8 Ah left out and a 12 Ah added.
  const dry = await upload(
    'drill-2.csv',
    csvFile(
      [
        {
          slug,
          name: `${PREFIX} Drill`,
          option1_name: 'Battery',
          option1_value: '2 Ah',
          sku: sku('2'),
          list_price: '89.00',
          stock: '4',
        },
        { option1_value: '5 Ah', sku: sku('5'), list_price: '149.00', stock: '2' },
        { option1_value: '12 Ah', sku: sku('12'), list_price: '239.00', stock: '1' },
      ],
      { columns },
    ),
  );
  await expect(dry.getByTestId('count-created')).toHaveText('1');
  await expect(dry.getByTestId('count-updated')).toHaveText('1');
  await expect(dry.getByTestId('count-unchanged')).toHaveText('1');
  await expect(
    page.getByRole('region', { name: 'Updates' }).getByRole('row', { name: `1 ${sku('2')} options, list_price` }),
  ).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'New products and variants' })
      .getByRole('row', { name: `3 ${sku('12')} ${PREFIX} Drill, 12 Ah` }),
  ).toBeVisible();
  const leftOut = page.getByRole('region', { name: 'Variants not in the file' });
  await expect(leftOut).toContainText('kept as they are');
  await expect(leftOut.getByRole('row', { name: `1 ${PREFIX} Drill 8 Ah ${sku('8')}` })).toBeVisible();
  await snap(page, 'product-import-variants-dry-run-1280');
  await page.setViewportSize({ width: 375, height: 900 });
  await snap(page, 'product-import-variants-dry-run-375');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({ timeout: 60_000 });
});

test('a price changed in the exported file is one update, and the product page shows & as written', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sku = (n: number) => `${PREFIX}AMP-${n}`;
  const awkward = 'Made by Halden & Co. in Λάμψη 🌞.\n\nSize < 40 cm & > 20 cm, "really".';
  const upload = async (name: string, csv: string | Buffer) => {
    await page.goto(`${garden}${PATH}`);
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload and check' }).click();
    return page.getByRole('region', { name: 'Dry run' });
  };
  await signIn(page, owner, PATH);
  // Two products of this spec's own, one with ampersands, brackets, quotes, Greek and emoji in its text.
  const first = await upload(
    'amp.csv',
    csvFile(
      [
        { sku: sku(1), name: `${PREFIX} Lamp by Halden & Co.`, list_price: '10.00', description: awkward },
        { sku: sku(2), name: `${PREFIX} Shade`, list_price: '5.00', description: 'Plain.' },
      ],
      { columns: ['sku', 'name', 'list_price', 'description'] },
    ),
  );
  await expect(first.getByTestId('count-created')).toHaveText('2');
  await page.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({ timeout: 60_000 });

  // Exported, only these two rows kept (other specs change the store meanwhile), one price changed.
  await page.goto(`${garden}/manage-store/products`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export', exact: true }).click();
  const all: Record<string, string>[] = parse(readFileSync((await (await downloading).path()) as string), {
    bom: true,
    columns: true,
  });
  const mine = all.filter((r) => r.sku?.startsWith(`${PREFIX}AMP-`)).sort((a, b) => a.sku!.localeCompare(b.sku!));
  expect(mine.map((r) => r.description)).toEqual([awkward, 'Plain.']);
  const edited = mine.map((r) => (r.sku === sku(2) ? { ...r, list_price: '6.00' } : r));
  const dry = await upload('edited.csv', csvFile(edited, { columns: Object.keys(mine[0] as object) }));
  await expect(dry.getByTestId('count-updated')).toHaveText('1');
  await expect(dry.getByTestId('count-unchanged')).toHaveText('1');
  await page.getByRole('button', { name: 'Import 1 row' }).click();
  const result = page.getByRole('region', { name: 'Import finished' });
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(result.getByTestId('count-updated')).toHaveText('1');
  await expect(result.getByTestId('count-unchanged')).toHaveText('1');

  // The shopper's page: the text as the owner wrote it, no entity shown.
  const lamp = mine[0] as Record<string, string>;
  await page.goto(`${garden}/${lamp.slug}/${lamp.product_id}`);
  const description = page.getByTestId('description');
  await expect(description).toContainText('Made by Halden & Co. in Λάμψη 🌞.');
  await expect(description).toContainText('Size < 40 cm & > 20 cm, "really".');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${PREFIX} Lamp by Halden & Co.`);
  await expect(page.locator('main')).not.toContainText('&amp;');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('upload, dry run and confirm are plain forms; the progress page refreshes itself', async ({ page }) => {
    test.setTimeout(60_000);
    const fixture = productCsvFixture(`${PREFIX}NJ`, 12);
    await signIn(page, owner, PATH);
    // A file with an unknown column is refused next to the field.
    await page.getByLabel('CSV file', { exact: true }).setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('sku,name,list_price,colour\nX-1,Pot,1.00,red\n'),
    });
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await expect(page.getByTestId('error-file')).toContainText('Unknown column "colour"');

    await page.getByLabel('CSV file', { exact: true }).setInputFiles({
      name: 'nojs.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(fixture.csv),
    });
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await expect(page.getByRole('region', { name: 'Dry run' }).getByTestId('count-created')).toHaveText('12');
    await page.getByRole('button', { name: 'Import 12 rows' }).click();
    // Waiting or importing: the page refreshes itself until the result shows.
    await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('region', { name: 'Import finished' }).getByTestId('count-created')).toHaveText('12');
  });
});
