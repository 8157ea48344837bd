import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { seededDataDir } from '@app/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledServer, freePort, http, type Proc, spawnNode, waitReady } from './test/processes';

// Decision 071: what the server does when an error escapes every handler. The faults are injected
// by a preloaded module (test/fault-injection.mjs): no request of the app makes them any more.

const dataDir = seededDataDir('sf-faults-');
const started: Proc[] = [];
afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const REQUEST_ID = 'FaultDrill000001';
const fatalLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; reqId?: string; err?: { message: string } })
    .filter((l) => l.level === 60);

describe('faults no handler caught', () => {
  it('a rejection nobody handled is logged at fatal level with its request id; the server keeps serving', async () => {
    const port = await freePort();
    const server = spawnNode({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '' }, [
      '--import',
      resolve('apps/api/src/test/fault-injection.mjs'),
      compiledServer(),
    ]);
    started.push(server);
    await waitReady(port, server);

    const res = await http(port, { path: '/healthz?fault=reject', headers: { 'x-request-id': REQUEST_ID } });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));

    expect(server.child.exitCode, server.output()).toBeNull();
    expect(fatalLines(server.output())).toEqual([
      expect.objectContaining({
        msg: 'unhandled rejection',
        reqId: REQUEST_ID,
        err: expect.objectContaining({ message: 'a rejection nobody handles' }),
      }),
    ]);
    expect((await http(port, { path: '/healthz' })).status).toBe(200);

    // An exception that unwound to the top stopped something half-way: logged, then the process ends.
    await http(port, { path: '/healthz?fault=throw' });
    expect(await server.exited).toBe(70);
    expect(fatalLines(server.output()).at(-1)).toMatchObject({
      msg: 'uncaught exception: exiting',
      err: { message: 'an exception nobody catches' },
    });
  }, 90_000);
});
