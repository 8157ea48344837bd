import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openSecondHandle, signIn, type TestApp } from '../../test/harness';

// Decision 027 across app processes: two apps on one PostgreSQL, each with its own caches. The
// owner closes the store through one; the other stops serving visitors within a second, although
// it had the store's visibility and a catalog answer cached.

const LIGHTING = 'lighting.localhost';
const CATEGORIES = '/skulocity/api/v1/public/ecommerce/categories?productStoreId=9000';
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: await openSecondHandle(a.database) });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const visitorOfB = async () => (await b.app.inject({ url: CATEGORIES, headers: { host: LIGHTING } })).statusCode;

async function within(ms: number, want: number) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if ((await visitorOfB()) === want) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`app b did not answer ${want} within ${ms} ms`);
}

describe('visibility across app processes', () => {
  it('closes and reopens the store on the other process within a second, whatever it had cached', async () => {
    expect(await visitorOfB()).toBe(200);
    expect(await visitorOfB()).toBe(200); // cached now
    const owner = await signIn(a.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const send = (url: string) =>
      a.app.inject({ method: 'POST', url, headers: { host: LIGHTING, ...owner }, payload: { tenantId: 'lighting' } });
    expect((await send('/api/tenant/add/constraints')).statusCode).toBe(200);
    expect(await within(1000, 401)).toBeLessThan(1000);
    const lookup = await b.app.inject({ url: '/api/fetch/tenantid/by/hostname?hostName=lighting.shop.test' });
    expect(lookup.json().isWs2Public).toBe(false);
    expect((await send('/api/tenant/remove/constraints')).statusCode).toBe(200);
    expect(await within(1000, 200)).toBeLessThan(1000);
  });
});
