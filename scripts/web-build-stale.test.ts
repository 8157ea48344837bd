import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { webBuildStale } from './web-build-stale.mjs';

// `npm start` rebuilds the storefront when this says so: after a pull that changed its sources,
// not on every start.
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const HOUR = 3600;
function tree(files: Record<string, number>) {
  const root = mkdtempSync(join(tmpdir(), 'sf-web-build-'));
  roots.push(root);
  const now = Date.now() / 1000;
  for (const [file, ageHours] of Object.entries(files)) {
    const path = join(root, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    utimesSync(path, now - ageHours * HOUR, now - ageHours * HOUR);
  }
  // Directories as old as the oldest file: as after a clone, nothing added since.
  const oldest = now - Math.max(...Object.values(files)) * HOUR;
  for (const dir of ['apps/web/app/routes', 'apps/web/app', 'apps/web/public', 'packages/contracts/src'])
    if (Object.keys(files).some((f) => f.startsWith(`${dir}/`))) utimesSync(join(root, dir), oldest, oldest);
  return root;
}

describe('webBuildStale', () => {
  it('asks for a build when there is none', () => {
    expect(webBuildStale(tree({ 'apps/web/app/root.tsx': 2 }))).toBe('not built yet');
  });

  it('is satisfied by a build newer than every source', () => {
    const root = tree({
      'apps/web/app/root.tsx': 3,
      'apps/web/app/routes/home.tsx': 3,
      'packages/contracts/src/money.ts': 3,
      'apps/web/build/server/index.js': 1,
    });
    expect(webBuildStale(root)).toBeNull();
  });

  it('names a page changed after the build, deep in the app', () => {
    const root = tree({
      'apps/web/app/root.tsx': 3,
      'apps/web/app/routes/home.tsx': 0,
      'apps/web/build/server/index.js': 1,
    });
    expect(webBuildStale(root)).toBe('apps/web/app/routes/home.tsx changed since the last build');
  });

  it('rebuilds for a changed contract the pages import, a changed public file, and a removed page', () => {
    const contract = tree({
      'apps/web/app/root.tsx': 3,
      'packages/contracts/src/money.ts': 0,
      'apps/web/build/server/index.js': 1,
    });
    expect(webBuildStale(contract)).toBe('packages/contracts/src/money.ts changed since the last build');

    const icon = tree({
      'apps/web/app/root.tsx': 3,
      'apps/web/public/favicon.svg': 0,
      'apps/web/build/server/index.js': 1,
    });
    expect(webBuildStale(icon)).toBe('apps/web/public/favicon.svg changed since the last build');

    const removed = tree({
      'apps/web/app/root.tsx': 3,
      'apps/web/app/routes/old-page.tsx': 3,
      'apps/web/build/server/index.js': 1,
    });
    rmSync(join(removed, 'apps/web/app/routes/old-page.tsx'));
    expect(webBuildStale(removed)).toBe('apps/web/app/routes changed since the last build');
  });
});
