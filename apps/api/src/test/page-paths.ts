import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface RouteEntry {
  id: string;
  path?: string;
  parentId?: string;
}

/**
 * Every page path the storefront build declares (React Router's route manifest), parameters filled
 * with a value no store has, so a drill covers a page added tomorrow without being edited.
 */
export async function pagePaths(): Promise<string[]> {
  const entry = pathToFileURL(resolve('apps/web/build/server/index.js')).href;
  const { routes } = (await import(entry)) as { routes: Record<string, RouteEntry> };
  const full = (r: RouteEntry | undefined): string =>
    r ? [full(r.parentId ? routes[r.parentId] : undefined), r.path ?? ''].filter(Boolean).join('/') : '';
  const paths = new Set<string>();
  for (const r of Object.values(routes)) {
    const path = `/${full(r)}`.replace(/:[A-Za-z]+/g, 'no-such-thing').replace('*', 'no-such-page');
    paths.add(path.replace(/\/+$/, '') || '/');
  }
  return [...paths].sort();
}
