import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, freePort, http, spawnNode, waitReady } from './test/processes';

// Drill (decision 023): `npm start` is PID 1 in a container; the orchestrator's SIGTERM goes to it.
// The server it started must get the signal and stop, not be left running with nobody to stop it.

const dataDir = mkdtempSync(join(tmpdir(), 'sf-start-'));
let serverPid: number | undefined;
afterAll(() => {
  if (serverPid && alive(serverPid)) process.kill(serverPid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

describe('scripts/start.mjs', () => {
  it('passes SIGTERM to the server and exits with its code: no server left behind, port free', async () => {
    const port = await freePort();
    // The build is present (npm test builds first), so start.mjs goes straight to the server.
    const start = spawnNode({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '' }, ['scripts/start.mjs']);
    await waitReady(port, start);
    [serverPid] = childrenOf(start.child.pid as number);
    expect(serverPid).toBeGreaterThan(0);

    start.child.kill('SIGTERM');
    const code = await start.exited;
    expect(code, start.output()).toBe(0);
    expect(alive(serverPid as number)).toBe(false);
    await expect(http(port, { path: '/healthz' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 90_000);
});
