// `npm start`: build the storefront if it is not built or older than its sources, compile the
// server, then serve every store on one port, and keep serving: the server is supervised.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { webBuildStale } from './web-build-stale.mjs';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

const stale = existsSync('apps/web/package.json') ? webBuildStale(process.cwd()) : null;
if (stale) {
  console.log(`Building the storefront (${stale})…`);
  run('npm', ['run', 'build', '--workspaces', '--if-present']);
} else {
  // The server is compiled on every start (well under a second), so it is never older than its source.
  run(process.execPath, ['apps/api/build.mjs']);
}

/**
 * Supervision (decision 071). A server that exits when nobody asked it to is started again: at once
 * after a minute or more up, else after 0.5 s, 1, 2, 4 … 30 s while it keeps failing, so a crash
 * loop neither spins nor gives up. Each exit is logged with its cause: the code or signal and the
 * server's last fatal log line. A configuration error (78) on the first start is not retried: it
 * stays wrong until someone changes it.
 */
const SERVER = ['apps/api/dist/server.mjs'];
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
const STABLE_AFTER_MS = 60_000;
const EX_CONFIG = 78;

/** A JSON line like the server's own, so one log pipeline reads both. */
const log = (level, msg, fields = {}) =>
  process.stderr.write(
    `${JSON.stringify({ level, time: Date.now(), pid: process.pid, name: 'supervisor', ...fields, msg })}\n`,
  );

let server = null;
let stopping = null; // the signal that asked us to stop
let restartTimer = null;
let backoffMs = 0;
let starts = 0;

/** Copies the server's output through, remembering its last fatal line (or last stderr line). */
function follow(stream, out, last) {
  let partial = '';
  stream.on('data', (chunk) => {
    out.write(chunk);
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"level":60')) last.fatal = line;
      else if (out === process.stderr && line.trim()) last.stderr = line;
    }
  });
}

function startServer() {
  restartTimer = null;
  starts += 1;
  const startedAt = Date.now();
  const last = { fatal: null, stderr: null };
  const child = spawn(process.execPath, SERVER, { stdio: ['inherit', 'pipe', 'pipe'] });
  server = child;
  follow(child.stdout, process.stdout, last);
  follow(child.stderr, process.stderr, last);
  child.on('error', (err) => log(50, 'the server could not be started', { err: String(err) }));
  child.on('close', (code, signal) => {
    server = null;
    const exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 1) : 1);
    if (stopping) process.exit(exitCode);
    if (starts === 1 && code === EX_CONFIG) process.exit(code);
    const upMs = Date.now() - startedAt;
    backoffMs = upMs >= STABLE_AFTER_MS ? 0 : Math.min(MAX_BACKOFF_MS, backoffMs ? backoffMs * 2 : FIRST_BACKOFF_MS);
    let cause = last.fatal ?? last.stderr;
    try {
      if (last.fatal) cause = JSON.parse(last.fatal);
    } catch {}
    log(50, `the server exited unexpectedly: starting it again in ${backoffMs} ms`, {
      code,
      signal,
      upMs,
      cause,
    });
    restartTimer = setTimeout(startServer, backoffMs);
  });
}

// In a container this script is PID 1 (README, "Deploying") or npm's only child: the
// orchestrator's SIGTERM must reach the server, which drains, and this exits with its code.
function stop(signal) {
  if (!stopping) stopping = signal;
  if (restartTimer) {
    clearTimeout(restartTimer);
    process.exit(0);
  }
  if (server && server.exitCode === null && server.signalCode === null) server.kill(signal);
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(signal));

// Run by npm, the parent is npm (package.json execs this script) or, if the script line was
// changed, a shell that dies of npm's SIGTERM without passing it on. Either way, a parent gone
// means whoever ran `npm start` wants it stopped: drain rather than serve on as an orphan.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('SIGTERM');
  }, 200).unref();
}

startServer();
