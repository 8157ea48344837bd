// `npm start`: build the storefront if it is not built or older than its sources, compile the
// server, then serve every store on one port.
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

// In a container this script (or npm above it) is PID 1 and receives the orchestrator's SIGTERM.
// The server must get it too, or it is left running with nobody to stop it: pass the signals on,
// wait for the server to drain, and exit with its code.
const server = spawn(process.execPath, ['apps/api/dist/server.mjs'], { stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    if (server.exitCode === null && server.signalCode === null) server.kill(signal);
  });
}
server.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 1) : 1));
});
server.on('error', (err) => {
  console.error(err);
  process.exit(1);
});
