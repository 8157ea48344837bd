/**
 * `npx tsx bench/variant-grid-bench.ts`: the editor's variant grid at 100 variants (decision 112), on
 * PGlite in process (the test harness's seeded database). A product with two options of ten values and
 * 100 variants; then, BENCH_ROUNDS times (default 5): the editor's read (the page function the
 * editor's loader calls), a save of the grid with every price changed (what "Set all prices" then Save
 * sends: 100 variant writes in the one transaction), and a save that changes nothing. The browser's
 * own time (drawing 100 rows) is not in it. A benchmark, not a test: it prints figures, asserts nothing.
 *
 * BENCH_STATEMENTS=1 also counts the SQL statements of one changed save and the time PGlite spent in
 * each kind (the profile that showed the per-row re-reads, decision 112, round three).
 */
import type { ProductEditorForm, ProductVariantsView } from '@app/contracts';
import type { RequestContext } from '../apps/api/src/lib/context';
import type { PageRequest } from '../apps/api/src/lib/page-request';
import { createAuditService } from '../apps/api/src/modules/audit/index';
import { createDiskStorage, createMediaService } from '../apps/api/src/modules/media/index';
// biome-ignore lint/style/noRestrictedImports: the bench times the editor's page functions themselves, which products' index does not export (the app wires them)
import { productAdminPages } from '../apps/api/src/modules/products/admin/product-admin.pages';
// biome-ignore lint/style/noRestrictedImports: as above, the service the page functions take
import { createProductAdminService } from '../apps/api/src/modules/products/admin/product-admin.service';
import { createTestApp, signIn } from '../apps/api/src/test/harness';
import { tallied } from './statement-tally';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const HOST = 'lighting.localhost';

async function main() {
  const seen: RequestContext[] = [];
  const t = await createTestApp({
    extraRoutes: async (app) => {
      app.get('/bench/ctx', async (req) => {
        seen.push(req.ctx);
        return {};
      });
    },
  });
  try {
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
    await t.app.inject({ method: 'GET', url: '/bench/ctx', headers: { host: HOST, ...owner } });
    const ctx = seen.at(-1) as RequestContext;
    const audit = createAuditService(t.database.db);
    const storage = createDiskStorage(`${t.dataDir}/media`);
    const media = createMediaService(t.database.db, { storage, audit });
    const productAdmin = createProductAdminService(t.database.db, { audit, events: t.services.events, media, storage });
    const page: PageRequest = { ctx, headers: {}, secure: false, assertFormFromStore() {}, cached: (_k, c) => c() };
    const pages = productAdminPages({ productAdmin })(page);

    const tens = Array.from({ length: 10 }, (_, i) => i + 1);
    const options = [
      { name: 'Length', values: tens.map((i) => ({ label: `${i}0 mm` })) },
      { name: 'Head', values: tens.map((i) => ({ label: `H${i}` })) },
    ];
    const rowsFor = (price: string) =>
      tens.flatMap((l) => tens.map((h) => ({ values: [`${l}0 mm`, `H${h}`], sku: `BG-${l}-${h}`, price })));
    const form = (base: ProductEditorForm, opts: unknown, rows: ReturnType<typeof rowsFor>, ids?: string[]) => ({
      ...base,
      gridOptions: JSON.stringify(opts),
      variantRow: rows.map((r, n) => JSON.stringify({ variantId: ids?.[n], values: r.values })),
      variantSku: rows.map((r) => r.sku),
      variantPrice: rows.map((r) => r.price),
      variantSalePrice: rows.map(() => ''),
      variantStock: rows.map(() => '5'),
      variantStockSeen: rows.map(() => (ids ? '5' : '')),
      variantImage: rows.map(() => ''),
      variantEnabled: rows.map((_, n) => String(n)),
    });
    let started = performance.now();
    const created = await pages.saveProductForm(
      null,
      form({ productName: 'Bolt assortment', status: 'ACTIVE' }, options, rowsFor('5.00')),
      { images: [], content: null },
    );
    if (!created.ok) throw new Error(JSON.stringify(created));
    const createMs = performance.now() - started;
    const productId = created.productId;

    const times = { read: [] as number[], change: [] as number[], same: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      started = performance.now();
      const editor = await pages.productEditor(productId);
      times.read.push(performance.now() - started);
      const view = editor?.variants as ProductVariantsView;
      const ids = view.variants.filter((v) => !v.removed).map((v) => v.variantId);
      const opts = view.options.map((o) => ({
        optionId: o.optionId,
        name: o.name,
        values: o.values.map((v) => ({ valueId: v.valueId, label: v.label })),
      }));
      const base = { productName: 'Bolt assortment', status: 'ACTIVE', slug: editor?.product?.slug ?? '' };
      const price = `${6 + round}.50`;
      started = performance.now();
      const save = () =>
        pages.saveProductForm(productId, form(base, opts, rowsFor(price), ids), { images: [], content: null });
      const changed = round === ROUNDS - 1 ? await tallied('one save, every price changed', save) : await save();
      times.change.push(performance.now() - started);
      if (!changed.ok) throw new Error(JSON.stringify(changed));
      started = performance.now();
      const same = await pages.saveProductForm(productId, form(base, opts, rowsFor(price), ids), {
        images: [],
        content: null,
      });
      times.same.push(performance.now() - started);
      if (!same.ok) throw new Error(JSON.stringify(same));
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const ms = (x: number) => `${Math.round(x)} ms`;
    console.table([
      { what: 'create with 100 variants (one save)', median: ms(createMs), max: ms(createMs) },
      { what: "editor's read (product + grid)", median: ms(med(times.read)), max: ms(Math.max(...times.read)) },
      { what: 'save, every price changed', median: ms(med(times.change)), max: ms(Math.max(...times.change)) },
      { what: 'save, nothing changed', median: ms(med(times.same)), max: ms(Math.max(...times.same)) },
    ]);
  } finally {
    await t.close();
  }
}

await main();
