/**
 * `npm run bench:js`: the bundle analysis of the storefront's app. Reads the browser build
 * (run `npm run build -w @app/web` first; this script builds nothing) and prints, for each
 * storefront page, the JavaScript its app loads: the entry, its imports, the route manifest, and
 * the root's and the page's route modules with their imports (exactly the module preloads React
 * Router writes). Sizes are brotli (quality 11, as the server sends them).
 * On shop pages none of it loads with the page: the inline starter (paint-first.ts) loads it at
 * the shopper's first intent (decision 065). On load the page runs the starter alone, which
 * this script measures too, in the document as the server writes it.
 * Then the chunks shared by all six pages and the modules inside the largest chunks, from
 * build/bundle-modules.json (written by the module-sizes plugin in apps/web/vite.config.ts).
 * A benchmark, not a test: it prints figures. BENCH_JS_BUDGET (KB, default 90) marks pages over it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { paintFirst } from '../apps/web/app/lib/paint-first';

const BUILD = 'apps/web/build';
const CLIENT = join(BUILD, 'client');
const BUDGET = Number(process.env.BENCH_JS_BUDGET ?? 90);

/** The six storefront pages of the budget, by route id. */
const PAGES: Record<string, string> = {
  home: 'routes/storefront/home',
  category: 'routes/storefront/category',
  product: 'routes/storefront/product',
  search: 'routes/storefront/search',
  cart: 'routes/storefront/cart',
  checkout: 'routes/storefront/checkout',
};

interface RouteEntry {
  module: string;
  imports?: string[];
  parentId?: string;
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, RouteEntry>;
  url?: string;
}

const manifestFile = readdirSync(join(CLIENT, 'assets')).find((f) => /^manifest-.*\.js$/.test(f));
if (!manifestFile) throw new Error(`no React Router manifest in ${CLIENT}/assets: build the web app first`);
const manifestText = readFileSync(join(CLIENT, 'assets', manifestFile), 'utf8');
const manifest = JSON.parse(
  manifestText.slice(manifestText.indexOf('{'), manifestText.lastIndexOf('}') + 1),
) as Manifest;

const sizes = new Map<string, { raw: number; brotli: number }>();
function size(url: string) {
  let s = sizes.get(url);
  if (!s) {
    const body = readFileSync(join(CLIENT, url));
    s = { raw: body.length, brotli: brotliCompressSync(body).length };
    sizes.set(url, s);
  }
  return s;
}

function firstLoad(routeId: string): string[] {
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports, `/assets/${manifestFile}`]);
  const chain: RouteEntry[] = [];
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the manifest`);
    chain.unshift(route);
  }
  for (const route of chain) for (const f of [route.module, ...(route.imports ?? [])]) files.add(f);
  return [...files];
}

/** The starter as a shop page carries it inline, for a page whose app loads `preloads`. */
async function starterBytes(preloads: string[]): Promise<number> {
  const links = preloads.map((href) => `<link rel="modulepreload" href="${href}" nonce="n"/>`).join('');
  const page = `<html><head>${links}</head><body><script nonce="n" type="module" async="">import("${manifest.entry.module}");</script></body></html>`;
  const t = paintFirst('intent');
  const out: Buffer[] = [];
  t.on('data', (c: Buffer | string) => out.push(Buffer.from(c)));
  const ended = new Promise((resolve) => t.on('end', resolve));
  t.end(page);
  await ended;
  const html = Buffer.concat(out).toString();
  const code = /<script nonce="n">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  return brotliCompressSync(Buffer.from(code)).length;
}

const kb = (n: number) => (n / 1024).toFixed(1);
const short = (url: string) => url.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '.js');

const loads = Object.entries(PAGES).map(([page, id]) => ({ page, files: firstLoad(id) }));
const shared = loads.map((l) => l.files).reduce((a, b) => a.filter((f) => b.includes(f)));

const rows = [];
for (const { page, files } of loads) {
  const brotli = files.reduce((n, f) => n + size(f).brotli, 0);
  const own = files.filter((f) => !shared.includes(f));
  // Files the starter names; the manifest is imported by the app script itself.
  const onLoad = await starterBytes(files.filter((f) => !f.includes('/manifest-')));
  rows.push({
    page,
    'on load br KB': Number(kb(onLoad)),
    budget: onLoad / 1024 <= BUDGET ? 'ok' : `over by ${kb(onLoad - BUDGET * 1024)}`,
    'app files': files.length,
    'app raw KB': Number(kb(files.reduce((n, f) => n + size(f).raw, 0))),
    'app br KB': Number(kb(brotli)),
    'shared br KB': Number(kb(shared.reduce((n, f) => n + size(f).brotli, 0))),
    'own br KB': Number(kb(own.reduce((n, f) => n + size(f).brotli, 0))),
  });
}
console.log(
  `JavaScript per storefront page (budget ${BUDGET} KB brotli on load): on load, the inline starter; ` +
    'at the first intent, the app',
);
console.table(rows);

console.log('Chunks every page loads (brotli KB):');
for (const f of [...shared].sort((a, b) => size(b).brotli - size(a).brotli))
  console.log(`  ${kb(size(f).brotli).padStart(6)}  ${short(f)}`);

for (const { page, files } of loads) {
  const own = files.filter((f) => !shared.includes(f)).sort((a, b) => size(b).brotli - size(a).brotli);
  console.log(`Chunks of ${page} beyond the shared ones (brotli KB):`);
  console.log(own.map((f) => `  ${kb(size(f).brotli).padStart(6)}  ${short(f)}`).join('\n'));
}

const modulesFile = join(BUILD, 'bundle-modules.json');
if (existsSync(modulesFile)) {
  const modules = JSON.parse(readFileSync(modulesFile, 'utf8')) as Record<
    string,
    { module: string; raw: number; brotli: number }[]
  >;
  const all = [...new Set(loads.flatMap((l) => l.files))].sort((a, b) => size(b).brotli - size(a).brotli);
  // Rollup reports each module's code before minification: each is compressed alone, and the
  // chunk's brotli size is shared out in proportion, an estimate of what the module costs.
  console.log('\nModules inside the largest first-load chunks (est. share of the chunk, brotli KB):');
  for (const f of all.slice(0, Number(process.env.BENCH_JS_CHUNKS ?? 8))) {
    const list = modules[f.replace(/^\//, '')] ?? [];
    const total = list.reduce((n, m) => n + m.brotli, 0) || 1;
    console.log(`${short(f)}: ${kb(size(f).brotli)} KB brotli, ${list.length} modules`);
    for (const m of list.slice(0, 12))
      console.log(`  ${kb((m.brotli / total) * size(f).brotli).padStart(6)}  ${m.module}`);
  }
}
