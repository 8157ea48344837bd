import { Readable } from 'node:stream';
import { PRODUCT_IMPORT_MAX_BYTES, type ProductImport } from '@app/contracts';
import { schema } from '@app/db';
import { parse } from 'csv-parse/sync';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvents } from '../../../lib/events/index';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../../test/harness';
import { csvFile, productCsvFixture } from '../../../test/product-csv-fixture';
import { createStaff } from '../../../test/staff';
import { IMPORT_JOB } from './index';

const GARDEN = SEEDED_HOSTS.garden.host;
const LIGHTING = SEEDED_HOSTS.lighting.host;
const BASE = '/skulocity/api/v1/catalog/products/import';

let t: TestApp;
let owner: BrowserSession;
const seen: { name: string; payload: AppEvents['catalog.changed'] | AppEvents['stock.changed'] }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  for (const name of ['catalog.changed', 'stock.changed'] as const) {
    t.services.events.on(name, (payload) => {
      seen.push({ name, payload });
    });
  }
}, 180_000);
afterAll(() => t?.close());

const upload = (csv: string | Buffer | Readable, session: Partial<BrowserSession> = owner, host: string = GARDEN) =>
  t.app.inject({
    method: 'POST',
    url: `${BASE}?fileName=products.csv`,
    headers: { host, origin: `http://${host}`, 'content-type': 'text/csv', ...session },
    payload: csv,
  });
const run = (id: string, session: Partial<BrowserSession> = owner, host: string = GARDEN) =>
  t.app.inject({ method: 'POST', url: `${BASE}/${id}/run`, headers: { host, origin: `http://${host}`, ...session } });
const get = (url: string, session: Partial<BrowserSession> = owner, host: string = GARDEN) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...session } });
const data = (res: { json(): unknown }) => (res.json() as { data: ProductImport }).data;
const productsLike = (tenantId: string, prefix: string) =>
  t.database.db
    .select()
    .from(schema.products)
    .where(and(eq(schema.products.tenantId, tenantId), like(schema.products.sku, `${prefix}-%`)));
const bySku = (tenantId: string, sku: string) =>
  t.database.db
    .select()
    .from(schema.products)
    .where(and(eq(schema.products.tenantId, tenantId), eq(schema.products.sku, sku)));
const count = async (q: ReturnType<typeof sql>) =>
  Number(((await t.database.db.execute(q)) as unknown as { rows: { n: number | string }[] }).rows[0]?.n ?? 0);

/** Uploads, runs and waits for the job; the import as it ends. */
async function importAll(csv: string, session = owner, host: string = GARDEN): Promise<ProductImport> {
  const up = await upload(csv, session, host);
  expect(up.statusCode, up.body).toBe(201);
  const started = await run(data(up).importId, session, host);
  expect(started.statusCode, started.body).toBe(202);
  await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
  return data(await get(`${BASE}/${data(up).importId}`, session, host));
}

// Imports of hundreds of rows on a shared, loaded machine: generous time, the assertions are what count.
describe('product CSV import', { timeout: 180_000 }, () => {
  it('dry-runs a 200-row file with 3 bad rows without writing anything', async () => {
    const fixture = productCsvFixture('DRY', 200);
    const audits = await count(sql`SELECT count(*) AS n FROM audit_log WHERE tenant_id = 'garden'`);
    const res = await upload(fixture.csv);
    expect(res.statusCode, res.body).toBe(201);
    const body = data(res);
    expect(body.status).toBe('checked');
    expect(body.dryRun).toMatchObject({ rows: 200, created: 197, updated: 0, refused: 3 });
    expect(body.dryRun.firstRefused.map((r) => [r.row, r.errors[0]?.column])).toEqual(
      fixture.bad.map((b) => [b.row, b.column]),
    );
    expect(body.dryRun.firstRefused[0]?.errors[0]?.message).toContain('is not a price');
    expect(body.run).toMatchObject({ rowsDone: 0, created: 0 });
    expect(await productsLike('garden', 'DRY')).toHaveLength(0);
    expect(await count(sql`SELECT count(*) AS n FROM audit_log WHERE tenant_id = 'garden'`)).toBe(audits);
    // The page reads the same import.
    expect(data(await get(`${BASE}/${body.importId}`)).dryRun.refused).toBe(3);
  });

  it('runs as a job: valid rows applied with audit entries, stock movements and batched events; bad rows reported', async () => {
    seen.length = 0;
    const fixture = productCsvFixture('RUN', 200);
    const done = await importAll(fixture.csv);
    expect(done.status).toBe('done');
    expect(done.run).toMatchObject({ rowsDone: 200, rows: 200, created: 197, updated: 0, refused: 3 });
    const rows = await productsLike('garden', 'RUN');
    expect(rows).toHaveLength(197);
    const first = rows.find((r) => r.sku === 'RUN-0001');
    // "11.01" in USD is 1101 cents; commas, quotes and line breaks inside fields survive.
    expect(first).toMatchObject({
      productName: 'RUN Test Planter 1, "Large"',
      listPrice: 1101,
      salePrice: null,
      stockQuantity: 1,
      weightGrams: 101,
      status: 'ACTIVE',
    });
    expect(first?.description).toBe('<p>Planter 1, glazed.</p>\n<p>Holds "a lot" of soil.</p>');
    expect(rows.find((r) => r.sku === 'RUN-0005')?.salePrice).toBe(1450);
    for (const b of fixture.bad) expect(rows.some((r) => r.sku === fixture.skus[b.row - 1])).toBe(false);

    // One audit entry per product created, and the stock through the inventory's books.
    expect(
      await count(
        sql`SELECT count(*) AS n FROM audit_log a JOIN products p ON p.tenant_id = a.tenant_id AND p.product_id = a.entity_id
            WHERE a.tenant_id = 'garden' AND a.entity = 'product' AND a.action = 'create' AND p.sku LIKE 'RUN-%'`,
      ),
    ).toBe(197);
    const moves = await t.database.db
      .select()
      .from(schema.stockMovements)
      .where(
        and(eq(schema.stockMovements.tenantId, 'garden'), eq(schema.stockMovements.productId, first?.productId ?? '')),
      );
    expect(moves).toMatchObject([{ reason: 'CORRECTION', note: 'CSV import', quantityBefore: 0, quantityAfter: 1 }]);

    // Events after commit, a batch at a time (not one per row), naming the products.
    const catalog = seen.filter((e) => e.name === 'catalog.changed' && e.payload.tenantId === 'garden');
    expect(catalog.length).toBeGreaterThan(0);
    expect(catalog.length).toBeLessThanOrEqual(3);
    expect(new Set(catalog.flatMap((e) => e.payload.productIds ?? [])).size).toBe(197);
    expect(seen.some((e) => e.name === 'stock.changed')).toBe(true);

    // The error report: row, sku, column, message, one line per refusal.
    const report = await get(done.errorReportUrl);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toContain('text/csv');
    const lines = parse(report.body, { columns: true }) as {
      row: string;
      sku: string;
      column: string;
      message: string;
    }[];
    expect(lines.map((l) => [Number(l.row), l.column])).toEqual(fixture.bad.map((b) => [b.row, b.column]));
    expect(lines[1]?.message).toContain('SOMETIMES');
    expect(lines[2]?.message).toMatch(/productName|name/);

    // Running it again answers the finished run and writes nothing more.
    expect(data(await run(done.importId)).status).toBe('done');
  });

  it('reads a file with or without a BOM, quoted commas, quotes and line breaks, LF or CRLF', async () => {
    const cells = {
      sku: 'BOM-1',
      name: 'Trowel, "pro", steel',
      list_price: '1,299.00',
      description: 'line one\nline two, with "quotes"',
    };
    for (const [bom, eol, sku] of [
      [true, '\r\n', 'BOM-1'],
      [false, '\n', 'BOM-2'],
    ] as const) {
      const done = await importAll(
        csvFile([{ ...cells, sku }], { columns: ['sku', 'name', 'list_price', 'description'], bom, eol }),
      );
      expect(done.run).toMatchObject({ created: 1, refused: 0 });
      const [row] = await bySku('garden', sku);
      expect(row).toMatchObject({
        productName: 'Trowel, "pro", steel',
        listPrice: 129900,
        description: 'line one\nline two, with "quotes"',
        currencyUomId: 'USD',
        status: 'ACTIVE',
      });
    }
  });

  it('updates by SKU: the dry run names the changed columns, the run changes only those', async () => {
    const fixture = productCsvFixture('UPS', 3);
    await importAll(fixture.csv);
    const [before] = await bySku('garden', 'UPS-0002');
    const next = csvFile(
      [
        { sku: 'UPS-0002', name: before?.productName, list_price: '99.95', stock: '40' },
        { sku: 'UPS-0003', name: 'UPS Test Planter 3, "Large"', list_price: '13.03' },
      ],
      { columns: ['sku', 'name', 'list_price', 'stock'] },
    );
    const up = data(await upload(next));
    expect(up.dryRun).toMatchObject({ created: 0, updated: 1, unchanged: 1, refused: 0 });
    expect(up.dryRun.firstUpdated).toEqual([{ row: 1, sku: 'UPS-0002', changes: ['list_price', 'stock'] }]);
    await run(up.importId);
    await t.services.jobs.drain();
    const done = data(await get(`${BASE}/${up.importId}`));
    expect(done.run).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const [after] = await bySku('garden', 'UPS-0002');
    // Columns the file leaves out keep their values.
    expect(after).toMatchObject({
      productId: before?.productId,
      listPrice: 9995,
      stockQuantity: 40,
      brandName: 'Fixture Co',
      weightGrams: before?.weightGrams,
      slug: before?.slug,
      description: before?.description,
    });
    expect(await productsLike('garden', 'UPS')).toHaveLength(3);
    const updates = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(
        and(
          eq(schema.auditLog.tenantId, 'garden'),
          eq(schema.auditLog.entityId, before?.productId ?? ''),
          eq(schema.auditLog.action, 'update'),
        ),
      );
    expect(updates).toHaveLength(1);
  });

  it('refuses unknown columns and names missing required ones (422, nothing stored)', async () => {
    const unknown = await upload('sku,name,list_price,colour\nX-1,Pot,1.00,red\n');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0]).toContain('Unknown column "colour"');
    const missing = await upload('sku,brand\nX-1,Acme\n');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0]).toContain('Missing required columns: name, list_price');
    const broken = await upload('sku,name,list_price\n"X-1,Pot,1.00\n');
    expect(broken.statusCode).toBe(422);
    expect(broken.json().errors[0]).toContain('not valid CSV');
    expect((await upload('')).statusCode).toBe(422);
  });

  it('refuses a file over the limit while it streams (413)', async () => {
    const line = Buffer.from(`S-1,${'x'.repeat(1000)},1.00\n`);
    let sent = 0;
    const big = new Readable({
      read() {
        if (sent === 0) this.push('sku,name,list_price\n');
        if (sent > PRODUCT_IMPORT_MAX_BYTES + 1024 * 1024) return this.push(null);
        sent += line.length * 64;
        this.push(Buffer.concat(Array(64).fill(line)));
      },
    });
    const res = await upload(big);
    expect(res.statusCode).toBe(413);
    expect(res.json().errors[0]).toContain('larger than 50 MB');
  });

  it("never touches another store's product with the same SKU", async () => {
    const [lamp] = await t.database.db
      .select()
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'lighting'))
      .limit(1);
    const sku = lamp?.sku as string;
    const done = await importAll(csvFile([{ sku, name: 'Garden namesake', list_price: '1.00', stock: '7' }]));
    expect(done.run).toMatchObject({ created: 1, refused: 0 });
    const [still] = await t.database.db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, lamp?.productId ?? '')));
    expect(still).toEqual(lamp);
    // And another store's import is not found from this one.
    const lighting = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    expect((await get(`${BASE}/${done.importId}`, lighting, LIGHTING)).statusCode).toBe(404);
    expect((await run(done.importId, lighting, LIGHTING)).statusCode).toBe(404);
    expect((await get(done.errorReportUrl, lighting, LIGHTING)).statusCode).toBe(404);
  });

  it('is for the catalog permission: visitor 401, shopper 403, staff without catalog 403', async () => {
    const csv = csvFile([{ sku: 'PERM-1', name: 'Pot', list_price: '1.00' }]);
    const id = data(await upload(csv)).importId;
    expect((await upload(csv, {})).statusCode).toBe(401);
    expect((await get(`${BASE}/${id}`, {})).statusCode).toBe(401);
    expect((await get(`${BASE}/template.csv`, {})).statusCode).toBe(401);
    const shopper = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN);
    expect((await upload(csv, shopper)).statusCode).toBe(403);
    expect((await run(id, shopper)).statusCode).toBe(403);
    await createStaff(t.database, 'garden', 'settings.import@garden.test', ['settings']);
    const settings = await signIn(t.app, 'settings.import@garden.test', 'owner-demo-1', GARDEN);
    expect((await upload(csv, settings)).statusCode).toBe(403);
    expect((await get(`${BASE}/${id}/errors.csv`, settings)).statusCode).toBe(403);
    await createStaff(t.database, 'garden', 'catalog.import@garden.test', ['catalog']);
    const catalog = await signIn(t.app, 'catalog.import@garden.test', 'owner-demo-1', GARDEN);
    expect((await upload(csv, catalog)).statusCode).toBe(201);
    const template = await get(`${BASE}/template.csv`, catalog);
    expect(template.statusCode).toBe(200);
    expect(template.body.split('\r\n')[0]).toBe(
      'product_id,slug,name,status,brand,currency,categories,featured,short_description,description,seo_title,seo_description,images,tax_class,option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,variant_id,sku,barcode,list_price,sale_price,stock,weight_grams,enabled,variant_images',
    );
    expect(await productsLike('garden', 'PERM')).toHaveLength(0);
  });

  it('resumes after a restart from the last committed row, and fails an import whose worker kept dying', async () => {
    // The first 120 rows were committed before the worker died (rows_done = 120).
    const fixture = productCsvFixture('RES', 250);
    const head = fixture.csv.split('\r\n').slice(0, 121).join('\r\n');
    await importAll(`${head}\r\n`);
    // A change made after those rows: a resumed run must not write those rows again.
    await t.database.db.execute(
      sql`UPDATE products SET list_price = 1 WHERE tenant_id = 'garden' AND sku = 'RES-0005'`,
    );
    const up = data(await upload(fixture.csv));
    const dead = async (attempts: number) => {
      await t.database.db.execute(sql`
        UPDATE product_imports SET status = 'running', rows_done = 120
        WHERE tenant_id = 'garden' AND import_id = ${up.importId}`);
      const ctx = {
        tenantId: 'garden',
        productStoreId: '9001',
        hostName: GARDEN,
        origin: `http://${GARDEN}`,
        viaDevAlias: false,
      };
      const job = await t.services.jobs.enqueue(ctx, {
        type: IMPORT_JOB,
        payload: { importId: up.importId },
        runAt: new Date(Date.now() + 3_600_000),
      });
      // Claimed by a worker that is gone: its lease has run out.
      await t.database.db.execute(sql`
        UPDATE jobs SET status = 'running', attempts = ${attempts}, locked_by = 'dead-worker',
          lease_until = now() - interval '1 second', started_at = now()
        WHERE tenant_id = 'garden' AND job_id = ${job.id}`);
      await t.database.db.execute(sql`
        UPDATE product_imports SET job_id = ${job.id} WHERE tenant_id = 'garden' AND import_id = ${up.importId}`);
      return job.id;
    };
    await dead(1);
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    const resumed = data(await get(`${BASE}/${up.importId}`));
    expect(resumed.status).toBe('done');
    expect(resumed.run).toMatchObject({ rowsDone: 250, created: 129, refused: 1 });
    expect(await productsLike('garden', 'RES')).toHaveLength(247);
    const [kept] = await bySku('garden', 'RES-0005');
    expect(kept?.listPrice).toBe(1);

    // A worker that died on every attempt: the import is marked failed, not left half-way.
    const again = data(await upload(fixture.csv));
    up.importId = again.importId;
    await dead(3);
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    const failed = data(await get(`${BASE}/${again.importId}`));
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('stopped');
  });
});
