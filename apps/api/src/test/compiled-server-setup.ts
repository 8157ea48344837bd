import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** Where the process drills find the compiled server (test/processes.ts). */
export const COMPILED_SERVER_ENV = 'TEST_COMPILED_SERVER';

/**
 * Vitest's global setup: compiles the server once per run, as `npm start` runs it (decision 061),
 * so the process drills exercise what is deployed, built from the sources as they are now. Inside
 * the repository, as the bundle finds its packages from where it lies, and apart from
 * apps/api/dist, which `npm start` and the browser tests use. Under a second.
 */
export default function setup(): () => void {
  const dir = join('node_modules', '.cache', `compiled-server-${process.pid}`);
  const built = spawnSync(process.execPath, ['apps/api/build.mjs', dir], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`apps/api/build.mjs failed:\n${built.stderr}`);
  // Read by the test processes, which Vitest starts after this with this process's environment.
  process.env[COMPILED_SERVER_ENV] = join(dir, 'server.mjs');
  return () => rmSync(dir, { recursive: true, force: true });
}
