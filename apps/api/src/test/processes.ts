import { type ChildProcess, spawn } from 'node:child_process';
import { type IncomingHttpHeaders, request } from 'node:http';
import { createServer } from 'node:net';
import { COMPILED_SERVER_ENV } from './compiled-server-setup';

/** What process drills share: a free port, the real server as a child, and plain HTTP to it. */

/** The server compiled as `npm start` runs it, by Vitest's global setup (compiled-server-setup.ts). */
export function compiledServer(): string {
  const path = process.env[COMPILED_SERVER_ENV];
  if (!path) throw new Error(`${COMPILED_SERVER_ENV} is not set: run the drills through Vitest (vitest.config.ts)`);
  return path;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Spawns `args` under node (by default the real server, compiled) with its output captured. */
export function spawnNode(env: Record<string, string>, args = [compiledServer()]): Proc {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** node:http, because fetch drops a custom Host header. Rejects on a reset or a cut-off answer. */
export function http(
  port: number,
  opts: { method?: string; path: string; host?: string; headers?: Record<string, string>; body?: unknown },
): Promise<HttpAnswer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        // A fresh connection each: a drill is about what each request gets, not about pooling.
        agent: false,
        headers: {
          host: opts.host ?? 'localhost',
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('answer cut off')));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: Date.now() - started }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export async function waitReady(port: number, proc: Proc, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`server exited early:\n${proc.output()}`);
    try {
      if ((await http(port, { path: '/readyz' })).status === 200) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready in time:\n${proc.output()}`);
}

/** Whether a process of this id still exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
