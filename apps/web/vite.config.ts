import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync } from 'node:zlib';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes what each module of the browser build costs (minified and brotli, compressed alone) to
 * build/bundle-modules.json, outside the served folder; `npm run bench:js` reads it for the bundle
 * analysis. Costs about a second of build time.
 */
function moduleSizes(): Plugin {
  let ssr = false;
  return {
    name: 'module-sizes',
    apply: 'build',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      const chunks: Record<string, { module: string; raw: number; brotli: number }[]> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        chunks[chunk.fileName] = Object.entries(chunk.modules)
          .filter(([, m]) => m.renderedLength > 0)
          .map(([id, m]) => ({
            module: id.replace(/^.*\/node_modules\//, '').replace(`${process.cwd()}/`, ''),
            raw: m.renderedLength,
            brotli: m.code ? brotliCompressSync(m.code).length : 0,
          }))
          .sort((a, b) => b.brotli - a.brotli);
      }
      mkdirSync('build', { recursive: true });
      writeFileSync('build/bundle-modules.json', JSON.stringify(chunks));
    },
  };
}

/**
 * `import { Heart } from 'lucide-react'` becomes `import Heart from 'lucide-react/dist/esm/icons/heart.mjs'`
 * in the app's modules, so a module depends on the icons it draws and not on the barrel of all
 * 1,600 (what Next.js calls optimizePackageImports). Tree-shaking gave the same code either way;
 * the point is the chunking below, which follows dependencies.
 *
 * The server build leaves lucide-react to Node, which loaded the CommonJS barrel: every icon made
 * at start, about 6 MB of an idle server's heap. There it becomes `lucide-react/icons/heart`, the
 * package's own export of one icon's ES module (decision 061).
 */
function lucideDirect(): Plugin {
  // The ES build's barrel (Node's own resolution picks the CommonJS one).
  const barrel = readFileSync(
    new URL('dist/esm/lucide-react.mjs', import.meta.resolve('lucide-react/package.json')),
    'utf8',
  );
  const files = new Map<string, string>();
  for (const e of barrel.matchAll(/export \{([^}]+)\} from '\.\/icons\/([\w-]+)\.mjs'/g))
    for (const name of (e[1] as string).split(',')) files.set(name.replace('default as', '').trim(), e[2] as string);
  return {
    name: 'lucide-direct',
    enforce: 'pre',
    // Builds only: the dev server keeps the package's own entry.
    apply: 'build',
    transform(code, id, options) {
      if (!/\/apps\/web\/app\/.*\.tsx?$/.test(id) || !code.includes('lucide-react')) return null;
      const icon = (file: string) =>
        options?.ssr ? `lucide-react/icons/${file}` : `lucide-react/dist/esm/icons/${file}.mjs`;
      const out = code.replace(/import\s*\{([^}]+)\}\s*from\s*'lucide-react';/g, (whole, names: string) => {
        const parts = names
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean);
        const direct = parts.map((n) => {
          // A type (`type LucideIcon`) is erased by the TypeScript step after this one.
          if (n.startsWith('type ')) return `import ${n.replace('type ', 'type { ')} } from 'lucide-react';`;
          const [name, local = name] = n.split(/\s+as\s+/) as [string, string?];
          const file = files.get(name);
          return file ? `import ${local} from '${icon(file)}';` : null;
        });
        return direct.every(Boolean) ? direct.join('') : whole;
      });
      return out === code ? null : { code: out, map: null };
    },
  };
}

/**
 * Two chunks of our own making; everything else Rollup splits as it does by default.
 * - `framework`: React, React DOM and React Router. Every page loads all three; as three files
 *   (the entry, "jsx-runtime", a small "index") they compressed 1.6 KB worse than as one.
 * - `shell`: the app's own modules the root route imports (header, footer, category bar, toasts and
 *   their helpers), the icons they draw and lucide's icon-drawing code. Every page loads them, as
 *   the root is every page's parent; Rollup made two dozen chunks of them, most a few hundred bytes
 *   (each shared with some other route), which compressed about 4 KB worse and lengthened every
 *   route's entry in the route manifest.
 * Rollup puts every dependency of a manual chunk into it unless it has a manual chunk of its own.
 * Through the `@app/contracts/client` barrel that would be every display helper any page uses,
 * dashboard ones included, so each of its modules the shell takes nothing from gets a chunk of its
 * own (what Rollup mostly does with them anyway, as several routes share each). Decision 060.
 */
function chunkOf(): (id: string, meta: { getModuleInfo: ModuleInfoOf }) => string | undefined {
  let shell: Set<string> | undefined;
  let contracts: Set<string> | undefined;
  return (id, { getModuleInfo }) => {
    if (FRAMEWORK.test(id)) return 'framework';
    if (!shell || !contracts) {
      contracts = new Set(getModuleInfo(CONTRACTS_CLIENT)?.importedIds);
      shell = shellModules(getModuleInfo, contracts);
    }
    if (shell.has(id) || LUCIDE_CORE.test(id)) return 'shell';
    // (A module of types alone has nothing left to put in a chunk.)
    if (!contracts.has(id) || !getModuleInfo(id)?.exports?.length) return undefined;
    return `contracts-${id.replace(/^.*\/|\.ts$/g, '')}`;
  };
}

/**
 * The app's modules the root imports, directly or not, with the icons they draw and the modules of
 * the contracts' client barrel they take names from.
 */
function shellModules(info: ModuleInfoOf, contracts: Set<string>): Set<string> {
  const shell = new Set<string>();
  const stack = [...(info(ROOT)?.importedIds ?? [])];
  while (stack.length) {
    const m = stack.pop() as string;
    if (shell.has(m) || m.includes('?') || !(m.includes('/apps/web/app/') || LUCIDE_ICON.test(m))) continue;
    shell.add(m);
    stack.push(...(info(m)?.importedIds ?? []));
  }
  const names = new Set<string>();
  for (const m of [...shell, ROOT])
    for (const i of info(m)?.code?.matchAll(/import\s*\{([^}]+)\}\s*from\s*["']@app\/contracts\/client["']/g) ?? [])
      for (const n of (i[1] as string).split(',')) names.add(n.replace(/\s+as\s+\w+/, '').trim());
  for (const c of contracts) if (info(c)?.exports?.some((e) => names.has(e))) shell.add(c);
  return shell;
}
/** What the chunking reads of a module (Rollup's ModuleInfo; Vite 8's Rolldown types differ). */
type ModuleInfoOf = (
  id: string,
) => { importedIds: readonly string[]; code: string | null; exports?: readonly string[] | null } | null;
const ROOT = fileURLToPath(new URL('app/root.tsx', import.meta.url));
const CONTRACTS_CLIENT = fileURLToPath(new URL('../../packages/contracts/src/client.ts', import.meta.url));
const FRAMEWORK = /\/node_modules\/(react|react-dom|react-router|scheduler|cookie|set-cookie-parser)\//;
const LUCIDE_ICON = /\/node_modules\/lucide-react\/dist\/esm\/icons\/[\w-]+\.mjs$/;
const LUCIDE_CORE =
  /\/node_modules\/lucide-react\/dist\/esm\/(shared\/|createLucideIcon|Icon\.|defaultAttributes|context)/;

export default defineConfig({
  plugins: [lucideDirect(), tailwindcss(), reactRouter(), moduleSizes()],
  // The hot-reload socket listens on loopback only (it opens on every interface otherwise).
  server: { host: '127.0.0.1', hmr: { host: '127.0.0.1' } },
  build: {
    target: 'es2022',
    cssMinify: true,
    rollupOptions: { output: { manualChunks: chunkOf() } },
  },
});
