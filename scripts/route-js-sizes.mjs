// The JavaScript each page's route chain loads in the browser, from the web build's asset manifest
// (apps/web/build/server/index.js `assets`): entry, root, the route's parents and the route, with
// every chunk they import. Used to check that dashboard code never reaches a storefront page:
//   node scripts/route-js-sizes.mjs [--json] [apps/web/build]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const buildDir = resolve(
  process.argv.slice(2).find((a) => !a.startsWith('--')) ?? join(import.meta.dirname, '../apps/web/build'),
);
const { assets } = await import(pathToFileURL(join(buildDir, 'server/index.js')).href);
const size = new Map();
function bytes(file) {
  if (!size.has(file)) {
    const body = readFileSync(join(buildDir, 'client', file));
    size.set(file, { raw: body.length, gzip: gzipSync(body).length });
  }
  return size.get(file);
}
function chain(id) {
  const out = [];
  for (let r = assets.routes[id]; r; r = r.parentId ? assets.routes[r.parentId] : undefined) out.unshift(r);
  return out;
}
const DASHBOARD = (id) => id.startsWith('routes/manage-store/');
const rows = [];
for (const id of Object.keys(assets.routes)) {
  if (id === 'root' || (!assets.routes[id].index && !assets.routes[id].path && id !== 'root')) continue;
  const files = new Set([assets.entry.module, ...assets.entry.imports, assets.url]);
  for (const r of chain(id)) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    raw += bytes(f).raw;
    gzip += bytes(f).gzip;
  }
  rows.push({ id, dashboard: DASHBOARD(id), files: [...files].sort(), raw, gzip });
}
// Chunks a storefront page loads that only dashboard routes import besides: should be none.
const storefront = new Set(rows.filter((r) => !r.dashboard).flatMap((r) => r.files));
const dashboardModules = rows.filter((r) => r.dashboard).map((r) => assets.routes[r.id].module);
const leaked = dashboardModules.filter((m) => storefront.has(m));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ rows, leaked, manifest: { file: assets.url, ...bytes(assets.url) } }, null, 1));
} else {
  for (const r of rows)
    console.log(
      `${r.dashboard ? 'D' : 'S'} ${r.id.padEnd(48)} ${String(r.raw).padStart(7)} B ${String(r.gzip).padStart(6)} B gz  ${r.files.length} files`,
    );
  console.log(`route manifest ${assets.url}: ${bytes(assets.url).raw} B, ${bytes(assets.url).gzip} B gz`);
  console.log(
    leaked.length
      ? `LEAK: storefront pages load ${leaked.join(', ')}`
      : 'no storefront page loads a dashboard route module',
  );
}
process.exitCode = leaked.length ? 1 : 0;
