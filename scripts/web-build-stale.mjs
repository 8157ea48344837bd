// Whether the storefront's production build is older than what it is built from, so `npm start`
// rebuilds it after a pull rather than serve yesterday's pages beside today's server.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the storefront build is made from, relative to the repository's root. */
export const WEB_BUILD_INPUTS = [
  'apps/web/app',
  // Copied into the build as it is (the favicon, robots.txt).
  'apps/web/public',
  'apps/web/vite.config.ts',
  'apps/web/react-router.config.ts',
  'apps/web/package.json',
  // The web app imports the shared contracts.
  'packages/contracts/src',
  // Not package-lock.json: `npm install` rewrites it every time, changed or not, and the README's
  // `npm install && npm start` would rebuild on every start. A dependency upgrade that leaves
  // apps/web/package.json as it was needs `npm run build`.
];
const BUILD_STAMP = 'apps/web/build/server/index.js';

/**
 * The reason the build at `root` must be made (again), or null when it is up to date: missing, or
 * older than the newest of its inputs. A file's time is its modification time, which git sets to
 * the checkout's time for every file a pull changes; a directory's changes when an entry is added
 * or removed, so a deleted source counts too.
 * @param {string} root
 * @returns {string | null}
 */
export function webBuildStale(root) {
  const built = statSync(join(root, BUILD_STAMP), { throwIfNoEntry: false });
  if (!built) return 'not built yet';
  for (const input of WEB_BUILD_INPUTS) {
    const changed = newerThan(join(root, input), built.mtimeMs);
    if (changed) return `${changed.slice(root.length + 1)} changed since the last build`;
  }
  return null;
}

/**
 * @param {string} path
 * @param {number} time
 * @returns {string | null} the first file or directory under `path` modified after `time`
 */
function newerThan(path, time) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return null;
  if (st.mtimeMs > time) return path;
  if (!st.isDirectory()) return null;
  for (const entry of readdirSync(path)) {
    const found = newerThan(join(path, entry), time);
    if (found) return found;
  }
  return null;
}
