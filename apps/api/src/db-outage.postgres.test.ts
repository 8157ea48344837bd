import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRawClient } from '@app/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestCardOrder } from './test/guest-order';
import { pagePaths } from './test/page-paths';
import { type Cluster, startCluster } from './test/pg-cluster';
import { alive, freePort, type HttpAnswer, http, type Proc, spawnNode, waitReady } from './test/processes';

// Drill (decision 023): PostgreSQL stops while the server runs and checkouts are in flight. The
// server is a real process on a PostgreSQL cluster of this test's own (the shared one must never be
// stopped), so the crash is a real one: connections cut mid-transaction.

const B = '/skulocity/api/v1';
const HOST = 'lighting.localhost';
const IN_FLIGHT = 6;

let cluster: Cluster;
let server: Proc;
let port: number;
const dataDir = mkdtempSync(join(tmpdir(), 'sf-outage-'));

beforeAll(async () => {
  cluster = await startCluster();
  port = await freePort();
  server = spawnNode({
    PORT: String(port),
    DATABASE_URL: cluster.url,
    DATA_DIR: dataDir,
    // The drill stops the database; a job worker or sweep waking up meanwhile is part of it.
    SHUTDOWN_GRACE_SECONDS: '5',
  });
  await waitReady(port, server);
}, 60_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  cluster?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const order = guestCardOrder();

async function guestCart(productId: string): Promise<string> {
  const res = await http(port, {
    method: 'POST',
    path: `${B}/public/ecommerce/product/addToCart`,
    host: HOST,
    body: { productId, quantity: 1 },
  });
  expect(res.status, res.body).toBe(200);
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}

const checkout = (cookie: string, key: string) =>
  http(port, {
    method: 'POST',
    path: `${B}/ecommerce/checkout/processorder`,
    host: HOST,
    headers: { cookie, 'idempotency-key': key },
    body: order,
  });

function expectUnavailable(res: HttpAnswer) {
  expect(res.status, res.body).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ error: true, code: 'UNAVAILABLE', data: { message: body.message } });
  expect(body.errors).toEqual([body.message]);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  // Nothing of the driver's message reaches the caller.
  expect(res.body).not.toMatch(/ECONNREFUSED|terminat|57P01|postgres/i);
}

interface SweepRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  page: boolean;
}

/**
 * What the outage sweep sends: every page of the build and every operation of the API document,
 * as a visitor and as the signed-in owner (the session's own lookup needs the database too).
 */
async function sweepRequests(ownerCookie: string, ownerToken: string): Promise<SweepRequest[]> {
  const doc = JSON.parse((await http(port, { path: '/api/openapi.json', host: HOST })).body) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const out: SweepRequest[] = [];
  for (const path of await pagePaths()) {
    out.push({ method: 'GET', path, headers: {}, page: true });
    out.push({ method: 'GET', path, headers: { cookie: ownerCookie }, page: true });
  }
  for (const [template, ops] of Object.entries(doc.paths)) {
    const path = template.replace(/\{[^}]+\}/g, 'x');
    for (const method of Object.keys(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const body = method === 'get' || method === 'delete' ? undefined : {};
      out.push({ method: method.toUpperCase(), path, headers: {}, body, page: false });
      out.push({
        method: method.toUpperCase(),
        path,
        headers: { authorization: `Bearer ${ownerToken}` },
        body,
        page: false,
      });
    }
  }
  return out;
}

/** Sends them (one at a time, or all in flight at once) and says what came back that must not. */
async function sweep(requests: SweepRequest[], burst: boolean) {
  const send = (r: SweepRequest) =>
    http(port, { method: r.method, path: r.path, host: HOST, headers: r.headers, body: r.body }).then(
      (res) => ({ r, res }),
      (err: Error) => ({ r, res: err }),
    );
  const answers = [];
  if (burst) answers.push(...(await Promise.all(requests.map(send))));
  else for (const r of requests) answers.push(await send(r));
  const statuses: Record<string, number> = {};
  const wrong: string[] = [];
  for (const { r, res } of answers) {
    const what = `${r.method} ${r.path}${r.headers.cookie || r.headers.authorization ? ' (owner)' : ''}`;
    if (res instanceof Error) {
      wrong.push(`${what}: ${res.message}`);
      continue;
    }
    const key = `${r.headers.cookie || r.headers.authorization ? 'owner' : 'visitor'} ${res.status}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (res.status >= 500 && res.status !== 503) wrong.push(`${what}: ${res.status} ${res.body.slice(0, 200)}`);
    if (res.status !== 503) continue;
    if (!res.headers['retry-after']) wrong.push(`${what}: 503 without Retry-After`);
    if (r.page) {
      const html = String(res.headers['content-type']).startsWith('text/html');
      if (!html || !/briefly unavailable/i.test(res.body)) wrong.push(`${what}: 503 is not the friendly page`);
    } else if (JSON.parse(res.body).code !== 'UNAVAILABLE') wrong.push(`${what}: 503 ${res.body.slice(0, 200)}`);
  }
  return { sent: requests.length, statuses, wrong };
}

describe('PostgreSQL stops while the server runs', () => {
  it('keeps the process up, answers 503 with Retry-After, recovers by itself, leaves no half-written order', async () => {
    const sql = await openRawClient(cluster.url);
    const [product] = (
      await sql.query(
        `SELECT product_id FROM products WHERE tenant_id = 'lighting' AND product_type <> 'CONFIGURABLE'
         ORDER BY product_id LIMIT 1`,
      )
    ).rows as { product_id: string }[];
    if (!product) throw new Error('no product');
    // The count lives on the variant, the product keeps the totals (decision 112): both staged.
    await sql.query(
      `UPDATE product_variants SET stock_quantity = 100 WHERE tenant_id = 'lighting' AND variant_id = $1`,
      [product.product_id],
    );
    await sql.query(
      `UPDATE products SET stock_quantity = 100, sellable_stock = 100 WHERE tenant_id = 'lighting' AND product_id = $1`,
      [product.product_id],
    );
    const carts = await Promise.all(Array.from({ length: IN_FLIGHT }, () => guestCart(product.product_id)));
    const login = await http(port, {
      method: 'POST',
      path: `${B}/login`,
      host: HOST,
      headers: { origin: `http://${HOST}` },
      body: { email: 'owner@lighting.test', password: 'owner-demo-1' },
    });
    expect(login.status, login.body).toBe(200);
    const ownerCookie = String([login.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    const requests = await sweepRequests(ownerCookie, JSON.parse(login.body).data.token);
    const keys = carts.map(() => randomUUID());

    // Hold the product's row: every checkout then waits inside its open transaction (the reserve
    // step's stock update), which is exactly where a lost connection used to end the process.
    await sql.query('BEGIN');
    await sql.query(`SELECT 1 FROM products WHERE tenant_id = 'lighting' AND product_id = $1 FOR UPDATE`, [
      product.product_id,
    ]);
    const inFlight = carts.map((cookie, i) => checkout(cookie, keys[i] as string).catch((err: Error) => err));
    const until = Date.now() + 15_000;
    for (;;) {
      // Inside a transaction PostgreSQL answers pg_stat_activity from the snapshot it took at its
      // first read: without clearing it, the count would stay what it was on the first pass.
      await sql.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await sql.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n >= IN_FLIGHT) break;
      if (Date.now() > until) throw new Error(`only ${rows[0].n} checkouts waiting:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    const stoppedAt = Date.now();
    cluster.stop('immediate');
    const answers = await Promise.all(inFlight);
    for (const a of answers) {
      if (a instanceof Error) throw new Error(`a checkout got no answer (${a.message}):\n${server.output()}`);
      expectUnavailable(a);
    }
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    // Give a late 'error' event the chance to end the process, as it did.
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(server.child.pid as number), server.output()).toBe(true);
    expect(server.child.exitCode).toBeNull();

    // While it is gone: the process is up, it is not ready, and requests are refused quickly.
    expect((await http(port, { path: '/healthz' })).status).toBe(200);
    expectUnavailable(await http(port, { path: '/readyz' }));
    const cart = await http(port, {
      path: `${B}/public/ecommerce/cart/showcart`,
      host: HOST,
      headers: { cookie: carts[0] as string },
    });
    expectUnavailable(cart);
    expect(cart.ms).toBeLessThan(2_000);
    const during = await checkout(carts[0] as string, keys[0] as string);
    expectUnavailable(during);
    expect(during.ms).toBeLessThan(2_000);

    // Every page and every operation, as a visitor and as the owner: none answers a 5xx but 503,
    // each 503 with Retry-After, the envelope for the API and the friendly page for pages. One at a
    // time, then all at once (33 of 329 and 57 of 380 answered 500).
    const quiet = await sweep(requests, false);
    const burst = await sweep(requests, true);
    console.log(`outage sweep: quiet ${JSON.stringify(quiet.statuses)}, burst ${JSON.stringify(burst.statuses)}`);
    expect(quiet.wrong, server.output().slice(-20_000)).toEqual([]);
    expect(burst.wrong).toEqual([]);
    expect(alive(server.child.pid as number)).toBe(true);
    // An outage is not a bug: a request that meets it logs a warning, not an error or a fatal line.
    expect(server.output().match(/^.*"level":[56]0.*"reqId".*$/gm) ?? []).toEqual([]);

    // It comes back: the same process serves again, without a restart.
    cluster.start();
    const back = Date.now() + 15_000;
    while ((await http(port, { path: '/readyz' })).status !== 200) {
      if (Date.now() > back) throw new Error(`not ready after the database came back:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The shoppers retry with their keys: each gets one paid order.
    for (const [i, cookie] of carts.entries()) {
      const res = await checkout(cookie, keys[i] as string);
      expect(res.status, res.body).toBe(200);
      expect(JSON.parse(res.body).data.status).toBe('paid');
    }

    // No half-written order: each is paid with its lines, or cancelled; none stuck in between.
    const after = await openRawClient(cluster.url);
    const { rows } = await after.query(
      `SELECT o.order_id, o.status, count(l.line_no)::int AS lines FROM orders o
       LEFT JOIN order_lines l ON l.tenant_id = o.tenant_id AND l.order_id = o.order_id
       WHERE o.tenant_id = 'lighting' AND o.email = 'grace@example.com' GROUP BY o.order_id, o.status`,
    );
    expect(rows).toHaveLength(IN_FLIGHT);
    for (const r of rows) {
      expect(['paid', 'cancelled'], JSON.stringify(r)).toContain(r.status);
      if (r.status === 'paid') expect(r.lines).toBe(1);
    }
    const stock = await after.query(
      `SELECT stock_quantity FROM products WHERE tenant_id = 'lighting' AND product_id = $1`,
      [product.product_id],
    );
    expect(stock.rows[0].stock_quantity).toBe(100 - IN_FLIGHT);
    await after.end();
    await sql.end().catch(() => {});

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 240_000);
});
