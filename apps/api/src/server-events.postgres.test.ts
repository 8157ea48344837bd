import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDatabaseUrl } from './test/harness';
import { setTestStock } from './test/stock';

// A real second API process on the same PostgreSQL database as the test's app: a change made
// through the app shows in the process's answers within a second (events over LISTEN/NOTIFY).
// The process is test/api-server.ts: server.ts's app without the storefront build.

let a: TestApp;
let server: { child: ChildProcess; output: () => string; exited: Promise<number | null> } | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'sf-proc-pg-'));

beforeAll(async () => {
  a = await createTestApp();
});
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await a?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** node:http, because fetch drops a custom Host header. */
function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a second server process on the same PostgreSQL', () => {
  it('shows a stock change made through another app within a second', async () => {
    const p = schema.products;
    const [row] = await a.database.db
      .select()
      .from(p)
      .where(and(eq(p.tenantId, 'garden'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
      .orderBy(asc(p.productId))
      .limit(1);
    if (!row) throw new Error('no product');
    await setTestStock(a.database.db, 4, { tenantId: 'garden', productId: row.productId });

    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/test/api-server.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        DATABASE_URL: testDatabaseUrl(a.database),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    server = { child, output: () => out, exited };

    const path = `/skulocity/api/v1/public/ecommerce/getproductdetails?productId=${encodeURIComponent(row.productId)}`;
    const lowStock = async () => JSON.parse((await get(port, path, 'garden.localhost')).body).data.lowStock;
    const ready = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
      const up = await get(port, '/readyz', 'garden.localhost').catch(() => null);
      if (up?.status === 200) break;
      if (Date.now() > ready) throw new Error(`server not ready in time:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await lowStock()).toBe(4); // now in the process's read cache

    await setTestStock(a.database.db, 2, { tenantId: 'garden', productId: row.productId });
    a.services.events.emit('stock.changed', { tenantId: 'garden', productIds: [row.productId] });
    const t0 = performance.now();
    while ((await lowStock()) !== 2) {
      if (performance.now() - t0 > 1000) throw new Error(`the other process still shows the old stock:\n${out}`);
      await new Promise((r) => setTimeout(r, 5));
    }

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
