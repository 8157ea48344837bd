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
