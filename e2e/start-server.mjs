// Starts the production server for browser tests on a fresh embedded database: the compiled server
// that `npm start` runs (`npm test` builds it first).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const dataDir = '.e2e-data';
rmSync(dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, ['apps/api/dist/server.mjs'], {
  stdio: 'inherit',
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
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
