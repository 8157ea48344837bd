/**
 * `npm run bench:intent`: what starting the app at the shopper's first intent costs the shopper
 * (decision 065). Shop pages load no app JavaScript until the first touch, pointer move, key,
 * focus or wheel (paint-first.ts); a button that needs React, pressed before the app runs,
 * is pressed again once it has. This measures, on a product page, the time from pressing "Increase
 * quantity" to the quantity showing 2:
 * - `first gesture at load`: the press is the visit's first gesture, as the page's load event fires,
 *   nothing in the browser's cache;
 * - `first gesture 5 s after load`: the shopper looked for 5 s without touching, then pressed (the
 *   worst case of decision 065: before it, the app had long run by then);
 * - `scroll, press 1 s later`: after 5 s a scroll (the usual first gesture on a phone), then the press;
 * - `first gesture, app cached`: the press is the first gesture, 5 s after load, on a landing after
 *   another page of the store ran the app (the modules come from the HTTP cache: only compiling and
 *   hydrating wait);
 * - `app already running`: the pointer moved first and the app had hydrated (what every press costs
 *   once the app runs).
 * Each in Lighthouse's mobile conditions (CPU 4x slower, 150 ms round trips, 1.6 Mbit/s down) and
 * unthrottled. Median and worst of BENCH_RUNS (default 5) fresh browser contexts.
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { fetchBody, startServer, stopServer } from './lib';

const PORT = 3294;
const HOST = 'lighting.localhost';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const ORIGIN = `http://${HOST}:${PORT}`;

/** Lighthouse's mobile throttling (its "simulated" figures, applied for real here). */
async function throttle(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
}

/** Milliseconds from the press to the quantity showing 2, measured in the page's own clock. */
async function pressPlus(page: Page): Promise<number> {
  const plus = page.getByRole('button', { name: 'Increase quantity' });
  const start = await page.evaluate(() => performance.now());
  await plus.click({ noWaitAfter: true });
  await page.waitForFunction(
    () => {
      const q = document.querySelector<HTMLInputElement>('[data-testid=quantity]');
      return q?.value === '2';
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await page.evaluate(() => performance.now())) - start;
}

const server = await startServer(PORT);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const json = async (path: string) => JSON.parse((await fetchBody(PORT, path, HOST)).body.toString()).data;
  const featured = (await json('/skulocity/api/v1/public/ecommerce/product?featured=true&pageSize=1')).products[0];
  const product = `${ORIGIN}/${featured.slug}/${featured.productId}`;
  // The server draws pictures on first request: let it, before anything is timed.
  for (let i = 0; i < 3; i++) await fetchBody(PORT, `/${featured.slug}/${featured.productId}`, HOST);

  const scenarios: Record<string, (page: Page) => Promise<number>> = {
    'first gesture at load': async (page) => {
      await page.goto(product, { waitUntil: 'load' });
      return pressPlus(page);
    },
    'first gesture 5 s after load': async (page) => {
      await page.goto(product, { waitUntil: 'load' });
      await page.waitForTimeout(5000);
      return pressPlus(page);
    },
    'scroll, press 1 s later': async (page) => {
      await page.goto(product, { waitUntil: 'load' });
      await page.waitForTimeout(5000);
      await page.mouse.wheel(0, 40);
      await page.waitForTimeout(1000);
      return pressPlus(page);
    },
    'first gesture, app cached': async (page) => {
      await page.goto(`${ORIGIN}/`, { waitUntil: 'load' });
      await page.mouse.move(5, 5);
      await page.waitForFunction(() => localStorage.getItem('productStoreId') !== null, undefined, {
        timeout: 60_000,
      });
      await page.goto(product, { waitUntil: 'load' });
      await page.waitForTimeout(5000);
      return pressPlus(page);
    },
    'app already running': async (page) => {
      await page.goto(product, { waitUntil: 'load' });
      await page.mouse.move(5, 5);
      await page.waitForFunction(() => localStorage.getItem('productStoreId') !== null, undefined, {
        timeout: 60_000,
      });
      return pressPlus(page);
    },
  };

  const rows = [];
  for (const throttled of [true, false]) {
    for (const [name, run] of Object.entries(scenarios)) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        // A phone's width, tall enough that the button shows without a scroll (a scroll is intent).
        const context = await browser.newContext({ viewport: { width: 412, height: 1600 } });
        const page = await context.newPage();
        if (throttled) await throttle(page);
        times.push(await run(page));
        await context.close();
      }
      times.sort((a, b) => a - b);
      rows.push({
        conditions: throttled ? 'Lighthouse mobile' : 'unthrottled',
        press: name,
        'median ms': Math.round(times[Math.floor(times.length / 2)]!),
        'worst ms': Math.round(times.at(-1)!),
      });
    }
  }
  console.log(`Press "Increase quantity" on ${product} until it shows 2 (${RUNS} runs each)`);
  if (process.env.BENCH_LABEL) console.log(process.env.BENCH_LABEL);
  console.table(rows);
} finally {
  await browser.close();
  await stopServer(server);
}
