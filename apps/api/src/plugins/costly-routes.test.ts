import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../test/harness';

const PDF = '/skulocity/api/v1/ecommerce/order/order/pdf';
const SEARCH = '/skulocity/api/v1/public/ecommerce/product/search';
const lighting = SEEDED_HOSTS.lighting.host;
const garden = SEEDED_HOSTS.garden.host;

let t: TestApp;
beforeAll(async () => {
  // One invoice and one search at a time per store, one more waiting: the smallest limits.
  t = await createTestApp({
    config: { STORE_PDF_CONCURRENCY: 1, STORE_SEARCH_CONCURRENCY: 1, STORE_COSTLY_QUEUE: 1 },
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
});
