import { rmSync } from 'node:fs';
import { seededDataDir } from '@app/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { pagePaths } from './test/page-paths';
import { freePort, http, type Proc, spawnNode, waitReady } from './test/processes';

// One anonymous GET of /manage-store/settings/banners ended the server, and every store
// with it. Its loader started one page function that later rejected, and the next one threw
// before Promise.all could watch the first. This opens every page the storefront build declares,
// as a visitor, against the real server, and checks the process is still there and logged no
// unhandled rejection (the server now survives one: the log is what shows it happened).

const dataDir = seededDataDir('sf-visitor-');
let server: Proc | undefined;
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('pages opened by a visitor', () => {
  it('every page answers, and none ends the process or leaves an unhandled rejection', async () => {
    const paths = await pagePaths();
    expect(paths).toContain('/manage-store/settings/banners');
    expect(paths).toContain('/manage-store/settings/other');

    const port = await freePort();
    server = spawnNode({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '' });
    await waitReady(port, server);

    const statuses: Record<string, number | string> = {};
    for (const path of paths) {
      if (server.child.exitCode !== null) break;
      statuses[path] = await http(port, { path, host: 'lighting.localhost' }).then(
        (res) => res.status,
        (err: NodeJS.ErrnoException) => err.code ?? String(err),
      );
    }
    // A rejection nobody watched surfaces after its query ends: give the last ones time to.
    await new Promise((r) => setTimeout(r, 500));

    expect(server.child.exitCode, server.output()).toBeNull();
    expect((await http(port, { path: '/healthz' })).status).toBe(200);
    const fatal = server
      .output()
      .split('\n')
      .filter((line) => /"level":60|unhandled/i.test(line));
    expect(fatal).toEqual([]);
    // The dashboard sends a visitor to login; nothing answers 5xx.
    expect(statuses['/manage-store/settings/banners']).toBe(302);
    expect(Object.entries(statuses).filter(([, s]) => typeof s !== 'number' || s >= 500)).toEqual([]);
  }, 120_000);
});
