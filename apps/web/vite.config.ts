import { mkdirSync, writeFileSync } from 'node:fs';
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
 * React, React DOM and React Router in one chunk, `framework`: every page loads all three, and as
 * three files (entry, "jsx-runtime", a small index) they compressed worse than as one.
 */
function frameworkChunk(id: string) {
  return FRAMEWORK.test(id) ? 'framework' : undefined;
}
const FRAMEWORK = /\/node_modules\/(react|react-dom|react-router|scheduler|cookie|set-cookie-parser)\//;

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), moduleSizes()],
  // The hot-reload socket listens on loopback only (it opens on every interface otherwise).
  server: { host: '127.0.0.1', hmr: { host: '127.0.0.1' } },
  build: {
    target: 'es2022',
    cssMinify: true,
    rollupOptions: { output: { manualChunks: frameworkChunk } },
  },
});
