import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { seededDataDir } from '@app/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { guestCardOrder } from './test/guest-order';
import { freePort, http, type Proc, spawnNode, waitReady } from './test/processes';

// Drill (decision 023): SIGTERM while checkouts are arriving. Everything the server has accepted
// gets a whole answer; nothing is reset; the process exits 0 within its grace period.

const B = '/skulocity/api/v1';
const HOST = 'lighting.localhost';
const dataDir = seededDataDir('sf-term-');
let server: Proc | undefined;
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const order = guestCardOrder();

describe('SIGTERM with checkouts arriving', () => {
  it('answers every request it accepted (200, or 503 in the envelope), resets none, exits 0 in time', async () => {
    const port = await freePort();
    const GRACE_S = 10;
    server = spawnNode({
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SHUTDOWN_GRACE_SECONDS: String(GRACE_S),
    });
    await waitReady(port, server);

    // An in-stock simple product, then one guest cart per checkout.
    const list = await http(port, { path: `${B}/public/ecommerce/product?inStock=true&pageSize=40`, host: HOST });
    const products = (JSON.parse(list.body).data.products as { productId: string; productType: string }[]).filter(
      (p) => p.productType !== 'CONFIGURABLE',
    );
    const N = 8;
    const carts: string[] = [];
    for (const p of products) {
      if (carts.length === N) break;
      const res = await http(port, {
        method: 'POST',
        path: `${B}/public/ecommerce/product/addToCart`,
        host: HOST,
        body: { productId: p.productId, quantity: 1 },
      });
      if (res.status === 200) carts.push(String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string);
    }
    expect(carts).toHaveLength(N);

    // A browser-like client holds an idle keep-alive connection: it must not hold up the exit.
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    await new Promise<void>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get({ host: '127.0.0.1', port, path: '/healthz', agent: keepAlive }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        }).on('error', reject),
      );
    });

    const sent = carts.map((cookie) =>
      http(port, {
        method: 'POST',
        path: `${B}/ecommerce/checkout/processorder`,
        host: HOST,
        headers: { cookie, 'idempotency-key': randomUUID() },
        body: order,
      }).catch((err: NodeJS.ErrnoException) => err),
    );
    await new Promise((r) => setTimeout(r, 30));
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');

    const answers = await Promise.all(sent);
    const code = await server.exited;
    const exitMs = Date.now() - signalledAt;
    keepAlive.destroy();

    const problems = answers.filter((a) => a instanceof Error).map((a) => (a as NodeJS.ErrnoException).code ?? a);
    expect(problems, server.output()).toEqual([]);
    for (const a of answers) {
      if (a instanceof Error) continue;
      if (a.status === 503) {
        const body = JSON.parse(a.body);
        expect(body).toMatchObject({ error: true, data: { message: body.message } });
        expect(body.requestId).toBeTruthy();
      } else {
        expect(a.status, a.body).toBe(200);
        expect(JSON.parse(a.body).data.status).toBe('paid');
      }
    }
    // In-flight checkouts complete rather than being cut short.
    expect(answers.filter((a) => !(a instanceof Error) && a.status === 200).length).toBeGreaterThan(0);
    expect(code, server.output()).toBe(0);
    expect(exitMs).toBeLessThan(GRACE_S * 1000);
  }, 90_000);
});
