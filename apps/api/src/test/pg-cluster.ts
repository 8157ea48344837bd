import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes';

/**
 * A PostgreSQL cluster of a test's own, in a temporary directory on a free port of 127.0.0.1, for
 * drills that stop the database (the shared test server must never be stopped). Uses Debian's
 * binaries as CI does (.ci/run); run as root, the server runs as the postgres user.
 */
export interface Cluster {
  url: string;
  port: number;
  /** `immediate` is a crash as the app sees it: connections cut, no goodbye. */
  stop(mode?: 'immediate' | 'fast'): void;
  start(): void;
  destroy(): void;
}

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin/initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  return join(root, versions[0], 'bin');
}

function uidOf(user: string): { uid: number; gid: number } {
  const r = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', user], { encoding: 'utf8' });
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

export async function startCluster(): Promise<Cluster> {
  const bin = pgBin();
  const dir = mkdtempSync(join(tmpdir(), 'sf-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = uidOf('postgres');
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => {
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { encoding: 'utf8' })
      : spawnSync(join(bin, cmd), args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  const port = await freePort();
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=100`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
    ]);
  start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop(mode = 'immediate') {
      run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
      running = false;
    },
    start() {
      start();
      running = true;
    },
    destroy() {
      try {
        if (running) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
