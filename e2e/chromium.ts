import { existsSync } from 'node:fs';

/**
 * How we launch Debian's Chromium everywhere (browser tests, Lighthouse): no sandbox as root, no
 * GPU, and nothing that phones home, so runs are offline and repeatable.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The browser tests' Chromium: Debian's headless shell (package chromium-headless-shell, the same
 * Blink without the desktop browser around it, and what Playwright itself runs headless) when it is
 * installed, else CHROMIUM_PATH. The full browser's "new" headless mode costs about 1.6 times the CPU
 * for the same tests (decision 084), and the browser tests are CPU-bound on a 2-core machine.
 * HEADLESS_SHELL_PATH names another one; HEADLESS_SHELL_PATH=none keeps the full browser.
 */
const HEADLESS_SHELL = process.env.HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell';
export const BROWSER_TESTS_CHROMIUM_PATH =
  HEADLESS_SHELL !== 'none' && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_PATH;
