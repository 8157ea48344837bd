/**
 * `npm run bench:catalog`: the catalog administration figures (decision 036), on PGlite.
 *
 * - CSV import: 10,000 rows (target <= 20 s including index updates), then 50,000 rows, each through
 *   the real API (upload streamed to DATA_DIR and dry-run, then the run as a job), with peak RSS and
 *   heap sampled while it runs, to show memory does not grow with the file.
 * - A single product edit (writeProduct + catalog.changed) visible in storefront search at 100,000
 *   products (target <= 1 s), through the search service wired to the event as app.ts wires it.
 *
 * Each measurement is a function returning rows of the one table printed at the end, so other rows
 * (the product list's bench/catalog-list-bench.ts, the export) join by adding their function to ROWS.
 * BENCH_IMPORT_ROWS="10000,50000" and BENCH_PRODUCTS=100000 change the sizes. A benchmark, not a test:
 * it prints figures and asserts nothing.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProductImport, productFieldsSchema } from '@app/contracts';
import { openDatabase, schema } from '@app/db';
import { seedDatabase } from '@app/db/seed';
import { and, eq } from 'drizzle-orm';
import type { TenantContext } from '../apps/api/src/lib/context';
import { systemContext } from '../apps/api/src/lib/context';
import { createEventBus } from '../apps/api/src/lib/events/index';
import { createAuditService } from '../apps/api/src/modules/audit/index';
import { createProductsService, writeProduct } from '../apps/api/src/modules/products/index';
import { createTestApp, signIn } from '../apps/api/src/test/harness';
import { benchCatalogList } from './catalog-list-bench';
import { COUNT, fill, TENANT, writeScaleCsv } from './scale-data';
import { tallied } from './statement-tally';

/** One line of the printed table. */
export interface BenchRow {
  what: string;
  figure: string;
  target: string;
  note?: string;
}

const IMPORT_SIZES = (process.env.BENCH_IMPORT_ROWS ?? '10000,50000').split(',').map(Number);
/** Files larger than this are uploaded and dry-run only (the memory figure), not run: BENCH_IMPORT_RUN_MAX. */
const RUN_MAX = Number(process.env.BENCH_IMPORT_RUN_MAX ?? 10_000);
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Peak memory while `work` runs (sampled every 25 ms), and the CPU time it took (apart from waiting on a busy machine). */
async function peakMemory<T>(work: () => Promise<T>) {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const start = process.memoryUsage();
  const cpu0 = process.cpuUsage();
  const peak = { rss: start.rss, heapUsed: start.heapUsed };
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  }, 25);
  try {
    const value = await work();
    const cpu = process.cpuUsage(cpu0);
    gc?.();
    const retained = process.memoryUsage().heapUsed - start.heapUsed;
    return { value, start, peak, retained, cpuMs: (cpu.user + cpu.system) / 1000 };
  } finally {
    clearInterval(timer);
  }
}

/**
 * BENCH_VARIANTS="2000x5": a file of 2,000 products with 5 variants each (one row per variant, two
 * options), imported the same way, then the store's export timed (decision 112's figures).
 */
const VARIANTS = (process.env.BENCH_VARIANTS ?? '2000x5').split('x').map(Number) as [number, number];

/** A product CSV in the variant layout: `products` products × `perProduct` variants (Size × Colour), streamed. */
async function writeVariantCsv(path: string, products: number, perProduct: number, prefix: string) {
  const out = createWriteStream(path);
  const write = (x: string) => (out.write(x) ? Promise.resolve() : once(out, 'drain').then(() => undefined));
  await write(
    '\uFEFFslug,name,status,option1_name,option1_value,option2_name,option2_value,sku,list_price,stock,enabled\r\n',
  );
  const colours = ['Black', 'Brass', 'Opal', 'Red', 'Green'];
  for (let i = 0; i < products; i++) {
    for (let v = 0; v < perProduct; v++) {
      const first = v === 0;
      const product = first ? `${prefix.toLowerCase()}-${i},${prefix} Lamp ${i},ACTIVE,Size,` : ',,,,';
      const size = ['Small', 'Large'][v % 2];
      const colour = colours[Math.floor(v / 2) % colours.length];
      await write(
        `${product}${size},${first ? 'Colour' : ''},${colour},${prefix}-${i}-${v},${(20 + (v % 7)).toFixed(2)},${(i + v) % 9},${v === 3 ? 'false' : 'true'}\r\n`,
      );
    }
  }
  out.end();
  await once(out, 'finish');
}

/** CSV import of `rows` rows into the garden store of a fresh file-backed PGlite, through the API. */
async function importRows(
  rows: number,
  variants: { products: number; perProduct: number } | null = null,
): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bench-'));
  const database = await openDatabase({ dataDir: join(dir, 'pglite') });
  await database.migrate();
  await seedDatabase(database.db);
  const t = await createTestApp({ database, jobs: { pollMs: 50 } });
  try {
    const csv = join(dir, 'products.csv');
    if (variants) await writeVariantCsv(csv, variants.products, variants.perProduct, `BV${rows}`);
    else await writeScaleCsv(csv, rows, `B${rows}`);
    const bytes = statSync(csv).size;
    const host = 'garden.localhost';
    const owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', host);
    const headers = { host, origin: `http://${host}`, ...owner };
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;

    const upload = await peakMemory(async () => {
      const t0 = performance.now();
      // Over a real socket, the file streamed from disk: as a browser sends it.
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/skulocity/api/v1/catalog/products/import?fileName=bench.csv',
            headers: { ...headers, 'content-type': 'text/csv', 'content-length': String(bytes) },
          },
          (r) => {
            let body = '';
            r.setEncoding('utf8');
            r.on('data', (c: string) => {
              body += c;
            });
            r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        createReadStream(csv).pipe(req);
      });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.body}`);
      return { ms: performance.now() - t0, imp: (JSON.parse(res.body) as { data: ProductImport }).data };
    });
    const imp = upload.value.imp;
    const growth = (p: {
      peak: { rss: number; heapUsed: number };
      start: NodeJS.MemoryUsage;
      cpuMs: number;
      retained: number;
    }) =>
      `CPU ${s(p.cpuMs)}; peak RSS ${mb(p.peak.rss)} (+${mb(p.peak.rss - p.start.rss)}), peak heap ${mb(p.peak.heapUsed)} (from ${mb(p.start.heapUsed)}; retained after GC ${mb(p.retained)})`;
    const kind = variants
      ? ` (${variants.products.toLocaleString('en-US')} products × ${variants.perProduct} variants)`
      : '';
    const uploadRow: BenchRow = {
      what: `CSV import ${rows.toLocaleString('en-US')} rows${kind} (${mb(bytes)}): upload + dry run`,
      figure: s(upload.value.ms),
      target: '-',
      note: growth(upload),
    };
    if (rows > RUN_MAX) return [uploadRow];
    const run = await peakMemory(() =>
      tallied(`the import's run, ${rows} rows`, async () => {
        const t0 = performance.now();
        const res = await t.app.inject({
          method: 'POST',
          url: `/skulocity/api/v1/catalog/products/import/${imp.importId}/run`,
          headers,
        });
        if (res.statusCode !== 202) throw new Error(`run: ${res.statusCode} ${res.body}`);
        // Until the import is done, not until the queue is empty: drain() would also wait for jobs the
        // import's events schedule later (the sitemap runs at the next hour), timing the clock, not the run.
        for (;;) {
          const ran = await t.services.jobs.runNext();
          const now = await t.app.inject({
            method: 'GET',
            url: `/skulocity/api/v1/catalog/products/import/${imp.importId}`,
            headers,
          });
          const status = (now.json() as { data: ProductImport }).data.status;
          if (status === 'done' || status === 'failed') break;
          if (performance.now() - t0 > 30 * 60_000) throw new Error(`import still ${status} after 30 minutes`);
          if (!ran) await new Promise((r) => setTimeout(r, 10));
        }
        return performance.now() - t0;
      }),
    );
    const done = await t.app.inject({
      method: 'GET',
      url: `/skulocity/api/v1/catalog/products/import/${imp.importId}`,
      headers,
    });
    const result = (done.json() as { data: ProductImport }).data;
    if (result.status !== 'done' || result.run.created + result.run.refused !== rows) {
      throw new Error(`import ended ${result.status} with ${JSON.stringify(result.run)}`);
    }
    const exportRows: BenchRow[] = [];
    if (variants) {
      const exported = await peakMemory(async () => {
        const t0 = performance.now();
        const res = await t.app.inject({ method: 'GET', url: '/api/v1/product-list/export.csv', headers });
        if (res.statusCode !== 200) throw new Error(`export: ${res.statusCode}`);
        return { ms: performance.now() - t0, lines: res.body.split('\n').length - 2 };
      });
      exportRows.push({
        what: `CSV export of the store after it (${exported.value.lines.toLocaleString('en-US')} rows)`,
        figure: s(exported.value.ms),
        target: '-',
        note: growth(exported),
      });
    }
    return [
      uploadRow,
      ...exportRows,
      {
        what: `CSV import ${rows.toLocaleString('en-US')} rows${kind}: run (job, writes, audit, stock, events)`,
        figure: `${s(run.value)} (${Math.round(rows / (run.value / 1000))} rows/s)`,
        target: rows === 10_000 ? '<= 20 s' : '-',
        note: `${growth(run)}; ${result.run.created} created, ${result.run.refused} refused`,
      },
    ];
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A single product edit at 100,000 products: how long until storefront search finds it. */
async function editVisibleInSearch(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bench-'));
  const database = await openDatabase({ dataDir: join(dir, 'pglite') });
  try {
    await database.migrate();
    const t0 = Date.now();
    await fill(database);
    await database.db.execute('VACUUM ANALYZE products' as never);
    const loaded = Date.now() - t0;
    const log = { error: console.error, warn: console.warn, info: () => {} };
    const events = createEventBus({ database, log });
    const products = createProductsService(database.db);
    const audit = createAuditService(database.db);
    // As app.ts wires it: writers emit, the search index follows.
    events.on('catalog.changed', ({ tenantId }) => products.catalogChanged(tenantId));
    const tenant: TenantContext = {
      tenantId: TENANT,
      productStoreId: 'none',
      hostName: 'scale.test',
      viaDevAlias: false,
      origin: 'http://scale.test',
    };
    const ctx = systemContext(tenant, 'catalog-bench');
    const q = (searchText: string) => ({ searchText, sort: 'relevance' as const, page: 1, pageSize: 24 });
    await products.search(tenant, q('lamp'));
    const times: number[] = [];
    const words = ['Zanzibarite', 'Quokkaglow', 'Marzipanel', 'Vortexa', 'Lumiquill'];
    for (const [n, word] of words.entries()) {
      const id = `S-${1000 + n * 7919}`;
      const [row] = await database.db
        .select()
        .from(schema.products)
        .where(and(eq(schema.products.tenantId, TENANT), eq(schema.products.productId, id)));
      if (!row) throw new Error(`no product ${id}`);
      const fields = productFieldsSchema.parse({
        productName: `${row.productName} ${word}`,
        slug: row.slug,
        sku: row.sku,
        listPrice: row.listPrice,
        salePrice: row.salePrice,
        status: row.status,
        brandName: row.brandName,
      });
      const start = performance.now();
      await events.transaction(async (tx) => {
        const written = await writeProduct(tx, ctx, { audit }, { productId: id, fields });
        if (!written.ok) throw new Error(written.message);
        events.emitAfterCommit(tx, 'catalog.changed', { tenantId: TENANT, productIds: [id] });
      });
      for (;;) {
        const found = await products.search(tenant, q(word));
        if (found.products.some((p) => p.productId === id)) break;
        if (performance.now() - start > 30_000) throw new Error(`${word} not found in 30 s`);
      }
      times.push(performance.now() - start);
    }
    await events.close();
    times.sort((a, b) => a - b);
    return [
      {
        what: `Product edit visible in search, ${COUNT.toLocaleString('en-US')} products (${times.length} edits)`,
        figure: `median ${Math.round(times[Math.floor(times.length / 2)] as number)} ms, max ${Math.round(times[times.length - 1] as number)} ms`,
        target: '<= 1 s',
        note: `catalog loaded in ${s(loaded)}; edit through writeProduct + catalog.changed, read through the search service`,
      },
    ];
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows of the table, in order; the list and export benches add theirs here. */
export const ROWS: { name: string; run: () => Promise<BenchRow[]> }[] = [
  { name: 'list', run: listRows },
  ...IMPORT_SIZES.map((n) => ({ name: `import-${n}`, run: () => importRows(n) })),
  {
    name: 'import-variants',
    run: () => importRows(VARIANTS[0] * VARIANTS[1], { products: VARIANTS[0], perProduct: VARIANTS[1] }),
  },
  { name: 'edit-visible', run: editVisibleInSearch },
];

/** The dashboard's product list and export at COUNT products (bench/catalog-list-bench.ts), as table rows. */
async function listRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const f of await benchCatalogList()) {
    const db = f.database;
    rows.push(
      {
        what: `list, first page p95 (${db})`,
        figure: `${f['first page p95 ms']} ms`,
        target: '<= 50 ms',
        note: `p50 ${f['first page p50 ms']} ms`,
      },
      {
        what: `list, filtered page p95 (${db})`,
        figure: `${f['filtered p95 ms']} ms`,
        target: '<= 50 ms',
        note: `p50 ${f['filtered p50 ms']} ms`,
      },
      {
        what: `list, search page p95 (${db})`,
        figure: `${f['search p95 ms']} ms`,
        target: '<= 50 ms',
        note: `p50 ${f['search p50 ms']} ms`,
      },
      { what: `list, largest page (${db})`, figure: `${f['largest page KB']} KB`, target: '<= 50 KB' },
      {
        what: `export ${f['export rows']} rows (${db})`,
        figure: `${f['export s']} s`,
        target: '<= 10 s',
        note: `${f['export MB']} MB file, RSS +${f['export RSS growth MB']} MB`,
      },
    );
  }
  return rows;
}

export function printTable(rows: BenchRow[]) {
  const cols = ['what', 'figure', 'target', 'note'] as const;
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((x, i) => x.padEnd(width[i] as number)).join(' | ')} |`;
  console.log(line([...cols]));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(cols.map((c) => r[c] ?? '')));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.env.BENCH_ONLY?.split(',');
  const out: BenchRow[] = [];
  for (const step of ROWS) {
    if (only && !only.includes(step.name)) continue;
    console.log(`running ${step.name}…`);
    const rows = await step.run();
    for (const r of rows) console.log(r);
    out.push(...rows);
  }
  printTable(out);
}
