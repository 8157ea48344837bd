// The server compiled ahead of time (decision 061): `apps/api/dist/server.mjs` and one file per
// worker thread's entry, with the workspace packages (@app/*) bundled in and every package from
// node_modules left to Node. Running it needs no TypeScript loader, so the process does not hold
// every module's source and source map in memory (about 130 MB of an idle server's RSS under tsx).
//
// `node apps/api/build.mjs [outdir]` from the repository root, or `npm run build` (every workspace).
// An outdir must be inside the repository: the bundle finds its packages in node_modules from there.
// Takes well under a second, so `npm start` runs it every time and never serves a stale build.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** Worker threads' entries, by the name their pools ask for (`new URL('./x.worker.ts', …)`). */
const workers = { 'invoice-pdf.worker': here('./src/modules/orders/invoice/invoice-pdf.worker.ts') };

export async function buildServer(outdir) {
  outdir ||= here('./dist');
  await build({
    // `server.mjs` is the process entry: it loads React's production build, then `server-main.mjs`,
    // the server itself (src/process-entry.ts says why they are two files).
    entryPoints: { server: here('./src/process-entry.ts'), 'server-main': here('./src/server.ts'), ...workers },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Not minified: a stack trace names our functions and lines a reader can find in the bundle.
    // The map is written beside it for `node --enable-source-maps` when a trace must name sources.
    sourcemap: 'linked',
    // Packages with files of their own (PGlite's WebAssembly, sharp's binary, pdfkit's fonts) are
    // loaded from node_modules as they are; only our workspace packages, which export source, are
    // compiled in.
    plugins: [
      {
        name: 'node-modules-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@app/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    logLevel: 'warning',
  });
  return outdir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer(process.argv[2] && resolve(process.argv[2]));
