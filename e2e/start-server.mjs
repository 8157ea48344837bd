// Starts the production server for browser tests on a fresh embedded database: the compiled server
// that `npm start` runs (`npm test` builds it first).
//
// The run must fail if the server meets a fault no test looks for: a fatal log line (an unhandled
// rejection, which the server survives, decision 071) or an exit nobody asked for. Both are written
// to SERVER_FAULTS_FILE, which the run's global teardown (global-teardown.ts) turns into a failure.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// One per port (playwright.config.ts), so runs on different ports never share a database.
const dataDir = process.env.DATA_DIR || '.e2e-data';
rmSync(dataDir, { recursive: true, force: true });
// Under `npm test` the unit suite has just built this run's migrated and seeded database, the one
// the server would build on an empty directory (scripts/test.mjs, E2E_SEEDED_DATA_DIR): the server
// starts on a copy, and finds no migration and no seed to do (3 CPU seconds instead of 10).
// Anywhere else it starts empty, as `npm start` does the first time.
const seeded = process.env.E2E_SEEDED_DATA_DIR;
if (seeded && existsSync(join(seeded, 'pg'))) cpSync(seeded, dataDir, { recursive: true });
const faults = process.env.SERVER_FAULTS_FILE;
if (faults) rmSync(faults, { force: true });
const fault = (line) => {
  if (faults) appendFileSync(faults, `${line}\n`);
};

const child = spawn(process.execPath, ['apps/api/dist/server.mjs'], {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    NODE_ENV: 'development',
    // Every browser test signs in from 127.0.0.1: the owner specs alone pass the 30 a real client gets.
    LOGIN_ATTEMPTS_PER_IP: '1000',
  },
});

/** Passes the server's output on, noting every fatal line. */
function watch(stream, out) {
  let partial = '';
  stream.on('data', (chunk) => {
    out.write(chunk);
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.includes('"level":60')) fault(line);
  });
}
watch(child.stdout, process.stdout);
watch(child.stderr, process.stderr);

let stopping = false;
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => {
    stopping = true;
    child.kill(sig);
  });
}
child.on('exit', (code, signal) => {
  if (!stopping) fault(`the server exited during the run (code ${code}, signal ${signal})`);
  process.exit(code ?? 0);
});
