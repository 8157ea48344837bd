import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { seededDataDir } from '@app/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, freePort, http, type Proc, spawnNode, waitReady } from './test/processes';

// Drills (decisions 023 and 071): `npm start` is PID 1 in a container, or npm is; the orchestrator's
// SIGTERM goes to it. The server it started must get the signal, drain and stop, not be left running
// with nobody to stop it. And a server that dies when nobody asked is started again.

const dataDirs: string[] = [];
const pids: number[] = [];
afterAll(() => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = seededDataDir('sf-start-');
  dataDirs.push(dir);
  return dir;
};

const childrenOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
/** The server under a supervisor: its only child that runs server.mjs. */
const serverOf = (pid: number) =>
  childrenOf(pid).find((c) => {
    try {
      return readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('server.mjs');
    } catch {
      return false;
    }
  });

const FAULTS = `--import=${resolve('apps/api/src/test/fault-injection.mjs')}`;

interface SupervisorLine {
  name: string;
  msg: string;
  code: number | null;
  signal: string | null;
  cause: unknown;
}
const supervisorLines = (out: string): SupervisorLine[] =>
  out
    .split('\n')
    .filter((l) => l.includes('"name":"supervisor"'))
    .map((l) => JSON.parse(l));

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}
const ready = (port: number) => () =>
  http(port, { path: '/readyz' }).then(
    (r) => r.status === 200 || undefined,
    () => undefined,
  );

describe('scripts/start.mjs', () => {
  it('passes SIGTERM to the server and exits with its code: no server left behind, port free', async () => {
    const port = await freePort();
    // The build is present (npm test builds first), so start.mjs goes straight to the server.
    const start = spawnNode({ PORT: String(port), DATA_DIR: dataDir(), DATABASE_URL: '' }, ['scripts/start.mjs']);
    await waitReady(port, start);
    const serverPid = serverOf(start.child.pid as number) as number;
    pids.push(serverPid);
    expect(serverPid).toBeGreaterThan(0);

    start.child.kill('SIGTERM');
    const code = await start.exited;
    expect(code, start.output()).toBe(0);
    expect(alive(serverPid)).toBe(false);
    await expect(http(port, { path: '/healthz' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 90_000);

  it('starts a server that died again within half a second, and logs why it died', async () => {
    const port = await freePort();
    const start = spawnNode({ PORT: String(port), DATA_DIR: dataDir(), DATABASE_URL: '', NODE_OPTIONS: FAULTS }, [
      'scripts/start.mjs',
    ]);
    const supervisor = start.child.pid as number;
    await waitReady(port, start);
    const first = serverOf(supervisor) as number;
    pids.push(first);

    // An exception nobody caught: the server logs it at fatal level and exits 70 (decision 071).
    await http(port, { path: '/healthz?fault=throw' });
    const crashedAt = await until('the first server exits', () => (alive(first) ? undefined : Date.now()), 10_000);
    const second = await until(
      'a new server',
      () => {
        const pid = serverOf(supervisor);
        return pid && pid !== first ? pid : undefined;
      },
      1_500,
    );
    pids.push(second);
    const respawnMs = Date.now() - crashedAt;
    await until('the new server is ready', ready(port), 60_000);
    const backMs = Date.now() - crashedAt;
    expect(supervisorLines(start.output())).toEqual([
      expect.objectContaining({
        code: 70,
        signal: null,
        msg: 'the server exited unexpectedly: starting it again in 500 ms',
        cause: expect.objectContaining({ level: 60, msg: 'uncaught exception: exiting' }),
      }),
    ]);

    // Killed outright (the kernel's OOM killer, an operator's kill -9): the same, with the signal.
    process.kill(second, 'SIGKILL');
    const third = await until(
      'a third server',
      () => {
        const pid = serverOf(supervisor);
        return pid && pid !== second ? pid : undefined;
      },
      2_500,
    );
    pids.push(third);
    await until('the third server is ready', ready(port), 60_000);
    expect(supervisorLines(start.output()).at(-1)).toMatchObject({ code: null, signal: 'SIGKILL' });
    console.log(`respawned ${respawnMs} ms after the crash, serving again after ${backMs} ms`);

    start.child.kill('SIGTERM');
    expect(await start.exited, start.output()).toBe(0);
    expect(alive(third)).toBe(false);
  }, 180_000);

  it('backs off while the server keeps dying, and stops at once when told to meanwhile', async () => {
    const port = await freePort();
    const start = spawnNode(
      { PORT: String(port), DATA_DIR: dataDir(), DATABASE_URL: '', NODE_OPTIONS: FAULTS, FAULT_EXIT_AT_START: '1' },
      ['scripts/start.mjs'],
    );
    await until('three restarts', () => supervisorLines(start.output()).length >= 3 || undefined, 30_000);
    expect(supervisorLines(start.output()).map((l) => l.msg.match(/in (\d+) ms/)?.[1])).toEqual(
      expect.arrayContaining(['500', '1000', '2000']),
    );
    expect(supervisorLines(start.output())[0]).toMatchObject({ code: 1, cause: 'fault injection: exiting at start' });
    const asked = Date.now();
    start.child.kill('SIGTERM');
    expect(await start.exited).toBe(0);
    expect(Date.now() - asked).toBeLessThan(1_000);
    expect(childrenOf(start.child.pid as number)).toEqual([]);
  }, 90_000);

  it('SIGTERM to the `npm start` process drains the server and leaves nothing running', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir(),
        DATABASE_URL: '',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        NODE_ENV: 'development',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout?.on('data', (d) => (out += d));
    npm.stderr?.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => npm.on('exit', (code) => r(code)));
    const proc: Proc = { child: npm, output: () => out, exited };
    await waitReady(port, proc, 240_000);
    // npm's child is start.mjs itself (package.json execs it): no shell in between to swallow the signal.
    const supervisor = await until('start.mjs under npm', () => childrenOf(npm.pid as number)[0], 5_000);
    const server = serverOf(supervisor) as number;
    pids.push(supervisor, server);
    expect(server).toBeGreaterThan(0);

    npm.kill('SIGTERM');
    await exited;
    expect(out).toContain('every connection answered and closed');
    expect(alive(supervisor)).toBe(false);
    expect(alive(server)).toBe(false);
    await expect(http(port, { path: '/healthz' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 300_000);
});
