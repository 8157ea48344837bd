import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../test/harness';

const PDF = '/skulocity/api/v1/ecommerce/order/order/pdf';
const SEARCH = '/skulocity/api/v1/public/ecommerce/product/search';
const OWNER_COSTLY = '/skulocity/api/v1/test/costly-owner-route';
const lighting = SEEDED_HOSTS.lighting.host;
const garden = SEEDED_HOSTS.garden.host;

let t: TestApp;
beforeAll(async () => {
  // One invoice and one search at a time per store, one more waiting: the smallest limits.
  t = await createTestApp({
    config: { STORE_PDF_CONCURRENCY: 1, STORE_SEARCH_CONCURRENCY: 1, STORE_COSTLY_QUEUE: 1, STORE_SEARCH_QUEUE: 1 },
    // A costly owner route: the request context refuses a visitor with 401, unless the slot comes first.
    extraRoutes: async (app) => {
      app.get(OWNER_COSTLY, { config: { costly: 'pdf', permission: 'orders' } }, async () => ({ ok: true }));
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('per-store limits of costly routes', () => {
  it("past its limit a store's extra invoices get 429 with Retry-After, while another store's invoice is served", async () => {
    const shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', lighting);
    const other = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', garden);
    const flood = Array.from({ length: 6 }, () =>
      t.app.inject({ method: 'GET', url: `${PDF}?orderId=LIG-DEMO-S1`, headers: { host: lighting, ...shopper } }),
    );
    const neighbour = t.app.inject({
      method: 'GET',
      url: `${PDF}?orderId=GAR-DEMO-S1`,
      headers: { host: garden, ...other },
    });
    const [mine, theirs] = await Promise.all([Promise.all(flood), neighbour]);

    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['content-type']).toBe('application/pdf');
    expect(theirs.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const statuses = mine.map((r) => r.statusCode).sort();
    // One rendering and one waiting are served; the others are refused at once.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    for (const refused of mine.filter((r) => r.statusCode === 429)) {
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({
        error: true,
        code: 'RATE_LIMITED',
        message: expect.stringContaining('try again'),
        errors: [expect.stringContaining('try again')],
        data: { message: expect.stringContaining('try again') },
        requestId: refused.headers['x-request-id'],
      });
    }
    // Every slot was given back: the store's next invoice is served.
    expect(t.app.costlyLimiters.pdf.activeKeys).toBe(0);
    const after = await t.app.inject({
      method: 'GET',
      url: `${PDF}?orderId=LIG-DEMO-S1`,
      headers: { host: lighting, ...shopper },
    });
    expect(after.statusCode).toBe(200);
  });

  it('search is limited per store the same way, and a refusal costs the other store nothing', async () => {
    // Distinct texts: the public read cache would answer a repeated one without searching.
    const words = ['pendant', 'brass', 'lamp', 'glass', 'sconce', 'floor', 'table', 'chandelier'];
    const flood = words.map((w) =>
      t.app.inject({ method: 'GET', url: `${SEARCH}?searchText=${w}`, headers: { host: lighting } }),
    );
    const neighbour = t.app.inject({ method: 'GET', url: `${SEARCH}?searchText=rose`, headers: { host: garden } });
    const [mine, theirs] = await Promise.all([Promise.all(flood), neighbour]);
    expect(theirs.statusCode).toBe(200);
    const statuses = mine.map((r) => r.statusCode);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(t.app.costlyLimiters.search.activeKeys).toBe(0);
  });

  it('the slot is taken before the session is looked up, and given back once the response is sent', async () => {
    const binding = await t.services.tenants.resolveHost(lighting);
    const key = binding?.tenantId ?? '';
    expect(key).not.toBe('');
    // Fill the store's one slot and its one queue place from outside.
    const holder = await t.app.costlyLimiters.pdf.acquire(key);
    expect(holder).not.toBeNull();
    const queued = t.app.costlyLimiters.pdf.acquire(key);
    expect(t.app.costlyLimiters.pdf.load(key)).toEqual({ running: 1, waiting: 1 });

    // A visitor: were the session and the permission checked first, this would be 401.
    const refused = await t.app.inject({ method: 'GET', url: OWNER_COSTLY, headers: { host: lighting } });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', requestId: refused.headers['x-request-id'] });
    // Another store is not held up: its visitor gets the request context's answer.
    const other = await t.app.inject({ method: 'GET', url: OWNER_COSTLY, headers: { host: garden } });
    expect(other.statusCode).toBe(401);

    holder?.();
    holder?.(); // a second release gives nothing back twice
    const next = await queued;
    expect(t.app.costlyLimiters.pdf.load(key)).toEqual({ running: 1, waiting: 0 });
    // A request waits in the queue (no session lookup yet), is let in when the slot is handed over,
    // and gives its own slot back when its answer (here the 401) has been sent.
    const waiting = t.app.inject({ method: 'GET', url: OWNER_COSTLY, headers: { host: lighting } });
    await new Promise((r) => setTimeout(r, 20));
    expect(t.app.costlyLimiters.pdf.load(key)).toEqual({ running: 1, waiting: 1 });
    next?.();
    expect((await waiting).statusCode).toBe(401);
    expect(t.app.costlyLimiters.pdf.activeKeys).toBe(0);
  });

  it('a request whose client goes away while it waits in the queue hands its slot on', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const key = (await t.services.tenants.resolveHost(lighting))?.tenantId ?? '';
    const holder = await t.app.costlyLimiters.pdf.acquire(key);
    const req = request({ host: '127.0.0.1', port, path: OWNER_COSTLY, headers: { host: lighting } });
    req.on('error', () => {});
    req.end();
    const until = Date.now() + 2000;
    while (t.app.costlyLimiters.pdf.load(key).waiting === 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(t.app.costlyLimiters.pdf.load(key)).toEqual({ running: 1, waiting: 1 });
    req.destroy();
    await new Promise((r) => setTimeout(r, 50));
    holder?.();
    // The abandoned request gets the slot and gives it straight back: the store is free again.
    while (t.app.costlyLimiters.pdf.activeKeys > 0 && Date.now() < until + 2000) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(t.app.costlyLimiters.pdf.activeKeys).toBe(0);
    const after = await t.app.inject({ method: 'GET', url: OWNER_COSTLY, headers: { host: lighting } });
    expect(after.statusCode).toBe(401);
  });
});

describe('at the default limits', () => {
  let d: TestApp;
  beforeAll(async () => {
    d = await createTestApp();
  });
  afterAll(async () => {
    await d.close();
  });

  it('fifty shoppers of one store searching at once are all answered, none refused', async () => {
    // Fifty distinct texts, so the public read cache answers none of them: every one takes a slot.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        d.app.inject({ method: 'GET', url: `${SEARCH}?searchText=lamp+${i}`, headers: { host: lighting } }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(d.app.costlyLimiters.search.activeKeys).toBe(0);
  });
});
