// `npm test`: the whole suite. Unit and integration tests (Vitest, on PGlite and, when
// TEST_DATABASE_URL is set, on PostgreSQL too), then browser tests in Chromium (Playwright).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * What a stage cost the machine, on Linux, from /proc/stat: the CPU seconds the machine's cores spent
 * busy meanwhile, and their share of the cores' time. Counted for the whole machine, not for the
 * stage's processes: the browser's renderers are not reaped by our process tree, so a per-process sum
 * misses most of the browser stage. A stage whose cores were nearly all busy is shortened only by doing
 * less work; one that left them idle, by doing its work at once.
 */
const cpuNow = () => {
  if (!existsSync('/proc/stat')) return undefined;
  // user nice system idle iowait irq softirq steal (guest time is already inside user)
  const all = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return { idle: all[3] + all[4], total: all.reduce((a, b) => a + b, 0) };
};

/** Runs a stage, says how long it took and what it cost (the CI note compares stages), and stops at its failure. */
const run = (cmd, args, env = {}) => {
  const started = Date.now();
  const before = cpuNow();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const after = cpuNow();
  let cost = '';
  if (before && after) {
    const total = Math.max(1, after.total - before.total);
    const busy = total - (after.idle - before.idle);
    // /proc/stat counts in USER_HZ, 100 per second on Linux.
    cost = ` (cores ${Math.round((100 * busy) / total)}% busy: ${Math.round(busy / 100)} CPU-s on the machine)`;
  }
  console.log(`== ${[cmd, ...args].join(' ')}: ${Math.round((Date.now() - started) / 1000)} s${cost}`);
  if (r.status !== 0) process.exit(r.status ?? 1);
};

function findChromium() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/snap/bin/chromium',
  ];
  return candidates.find((p) => p && existsSync(p));
}

function ensureChromium() {
  let found = findChromium();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  const isDebian = existsSync('/etc/debian_version');
  if (isRoot && isDebian) {
    console.log("Chromium not found: installing Debian's chromium package…");
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' });
    found = findChromium();
    if (found) return found;
  }
  console.error(
    'The browser tests need Chromium and none was found.\n' +
      'Install it with:  sudo apt-get update && sudo apt-get install -y chromium\n' +
      'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
  );
  process.exit(1);
}

/**
 * The browser tests prefer Debian's Chromium headless shell (e2e/chromium.ts, decision 084): as root
 * on Debian it is installed when missing; elsewhere, or if that fails, they run in the full browser.
 */
function ensureHeadlessShell() {
  if (existsSync('/usr/bin/chromium-headless-shell')) return;
  if (process.getuid?.() !== 0 || !existsSync('/etc/debian_version')) return;
  const r = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.status !== 0) console.log('No headless shell: the browser tests run in the full Chromium (slower).');
}

const hasBrowserTests = existsSync('e2e/playwright.config.ts');
const chromium = hasBrowserTests ? ensureChromium() : undefined;
if (hasBrowserTests) ensureHeadlessShell();

// The unit suite's global setup migrates and seeds a database anyway: it leaves a copy here, and the
// browser tests' server starts on it (e2e/start-server.mjs). Removed first, so a copy is never
// older than this run's migrations and seed.
const seeded = resolve('.e2e-data-seeded');
rmSync(seeded, { recursive: true, force: true });

// The production build first: the server process test and the browser tests both serve it.
run('npm', ['run', 'build', '--workspaces', '--if-present']);
run('npx', ['vitest', 'run'], { E2E_SEEDED_DATA_DIR: seeded });
if (hasBrowserTests) {
  run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
    CHROMIUM_PATH: chromium,
    E2E_SEEDED_DATA_DIR: seeded,
  });
}
rmSync(seeded, { recursive: true, force: true });
