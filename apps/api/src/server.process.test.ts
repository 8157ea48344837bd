import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guestCardOrder } from './test/guest-order';
import { freePort, type Proc, spawnNode, waitReady } from './test/processes';

// The real server as a separate process, compiled as `npm start` runs it (decision 061): start-up
// with migrations and the seed, host routing over HTTP, an invoice from a worker thread, the PGlite
// lock, data kept across a restart, and a clean SIGTERM. Runs on PGlite: it is about the process.

const dataDir = mkdtempSync(join(tmpdir(), 'sf-proc-'));
const started: ChildProcess[] = [];
afterAll(() => {
  // A failed assertion must not leave a server running.
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function startServer(port: number, env: Record<string, string> = {}): Proc {
  const proc = spawnNode({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', ...env });
  started.push(proc.child);
  return proc;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** node:http, because fetch drops a custom Host header. */
function send(
  port: number,
  path: string,
  host = 'localhost',
  opts: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = opts.json === undefined ? undefined : JSON.stringify(opts.json);
    const headers = { host, ...opts.headers, ...(payload ? { 'content-type': 'application/json' } : {}) };
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers }, (res) => {
      // latin1 keeps a PDF's bytes one character each.
      res.setEncoding('latin1');
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
const get = (port: number, path: string, host = 'localhost') => send(port, path, host);

describe('server process', () => {
  it('starts, serves each store by host, refuses a second process on the same data, keeps data, stops on SIGTERM', async () => {
    const port = await freePort();
    const first = startServer(port);
    await waitReady(port, first);

    for (const [host, store] of [
      ['lighting.localhost', '9000'],
      ['garden.localhost', '9001'],
      ['power.localhost', '9002'],
      ['localhost', '9000'],
    ]) {
      const res = await get(port, '/api/v1/store/config/fetch', host);
      expect(res.status, host).toBe(200);
      expect(JSON.parse(res.body).data.productStoreId).toBe(store);
    }

    // A guest buys, then downloads the invoice: rendered in a worker thread, whose entry is
    // compiled beside the server.
    const B = '/skulocity/api/v1';
    const found = await get(port, `${B}/public/ecommerce/product/search?searchText=lamp`, 'lighting.localhost');
    const product = JSON.parse(found.body).data.products.find((p: { inStock: boolean }) => p.inStock);
    const added = await send(port, `${B}/public/ecommerce/product/addToCart`, 'lighting.localhost', {
      method: 'POST',
      json: { productId: product.productId, quantity: 1 },
    });
    expect(added.status, added.body).toBe(200);
    const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    const placed = await send(port, `${B}/ecommerce/checkout/processorder`, 'lighting.localhost', {
      method: 'POST',
      headers: { cookie, 'idempotency-key': crypto.randomUUID() },
      json: guestCardOrder(),
    });
    expect(placed.status, placed.body).toBe(200);
    const order = JSON.parse(placed.body).data;
    expect(order.status).toBe('paid');
    const pdf = await get(
      port,
      `${B}/ecommerce/order/order/pdf?orderId=${order.orderId}&key=${encodeURIComponent(order.accessKey)}`,
      'lighting.localhost',
    );
    expect(pdf.status, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.startsWith('%PDF-')).toBe(true);
    expect(pdf.headers['content-disposition']).toContain(`invoice-${order.orderId}.pdf`);
    expect(pdf.body.trimEnd().endsWith('%%EOF')).toBe(true);

    // A second process on the same DATA_DIR stops at once with a message that says why.
    const second = startServer(await freePort());
    const code = await second.exited;
    expect(code).toBe(75);
    expect(second.output()).toMatch(/already open in process \d+/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // Restart on the same directory: the data is still there and the seed is not applied twice.
    const again = startServer(port);
    await waitReady(port, again);
    const tenant = await get(port, '/api/fetch/tenant?tenantId=garden', 'garden.localhost');
    expect(JSON.parse(tenant.body).data.productStores[0].productStoreId).toBe('9001');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 120_000);

  it('refuses to start with a bad setting and names it', async () => {
    const proc = startServer(await freePort(), { PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    expect(await proc.exited).toBe(78);
    expect(proc.output()).toContain('PORT');
    expect(proc.output()).toContain('DATABASE_URL');
  });
});
