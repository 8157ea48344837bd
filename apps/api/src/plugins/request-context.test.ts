import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../lib/context';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../test/harness';
import { createStaff } from '../test/staff';

const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
let t: TestApp;
let calls = 0;

beforeAll(async () => {
  t = await createTestApp({
    extraRoutes: async (app) => {
      // An owner route of the catalog area, standing in for the catalog pages to come; it counts
      // the calls that reached it, so a refusal is seen to happen before the handler.
      app.post('/api/v1/test/catalog-change', { config: { permission: 'catalog' } }, async (req) => {
        calls++;
        return { data: { actor: req.ctx.actor.kind } };
      });
    },
  });
  await createStaff(t.database, 'lighting', 'catalog.staff@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'orders.staff@lighting.test', ['orders']);
});
afterAll(() => t.close());

const sessions: Record<string, BrowserSession> = {};
async function as(email: string, host = LIGHTING): Promise<BrowserSession> {
  const password = email.startsWith('shopper') ? 'shopper-demo-1' : 'owner-demo-1';
  sessions[`${email}@${host}`] ??= await signIn(t.app, email, password, host);
  return sessions[`${email}@${host}`] as BrowserSession;
}

describe('owner routes', () => {
  const change = (headers: Record<string, string> = {}, host = LIGHTING) =>
    t.app.inject({ method: 'POST', url: '/api/v1/test/catalog-change', headers: { host, ...headers }, payload: {} });

  it('let the owner and staff holding the permission through, and nobody else reaches the handler', async () => {
    const before = calls;
    expect((await change(await as('owner@lighting.test'))).json().data.actor).toBe('staff');
    expect((await change(await as('catalog.staff@lighting.test'))).statusCode).toBe(200);
    expect(calls - before).toBe(2);

    const visitor = await change();
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error).toBe(true);
    const shopper = await change(await as('shopper@lighting.test'));
    expect(shopper.statusCode).toBe(403);
    const otherStaff = await change(await as('orders.staff@lighting.test'));
    expect(otherStaff.statusCode).toBe(403);
    expect(otherStaff.json().message).toContain('catalog permission');
    // Garden's owner is nobody on lighting's host: its session does not exist there.
    const gardenOwner = await change(await as('owner@garden.test', GARDEN));
    expect(gardenOwner.statusCode).toBe(401);
    expect(calls - before).toBe(2);
  });

  it('refuse a cookie-borne change without the CSRF token even for the owner', async () => {
    const owner = await as('owner@lighting.test');
    const res = await change({ cookie: owner.cookie });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('did not come from this store');
  });

  it('are listed with their permission, and every one refuses visitors, shoppers and other stores', async () => {
    const real = t.app.ownerRoutes.filter((r) => !r.url.startsWith('/api/v1/test/'));
    expect(real.length).toBeGreaterThan(0);
    for (const r of real) {
      expect([...PERMISSIONS, 'staff']).toContain(r.permission);
      const url = r.url.replace(/:(\w+)/g, 'x');
      const send = async (headers: Record<string, string>, host = LIGHTING) =>
        (await t.app.inject({ method: r.method as 'GET', url, headers: { host, ...headers } })).statusCode;
      expect(await send({}), `${r.method} ${r.url} for a visitor`).toBe(401);
      expect(await send(await as('shopper@lighting.test')), `${r.method} ${r.url} for a shopper`).toBe(403);
      expect(await send(await as('owner@garden.test', GARDEN)), `${r.method} ${r.url} for garden's owner`).toBe(401);
      if (r.permission !== 'staff') {
        const without = r.permission === 'orders' ? 'catalog.staff@lighting.test' : 'orders.staff@lighting.test';
        expect(await send(await as(without)), `${r.method} ${r.url} for staff without ${r.permission}`).toBe(403);
      }
    }
  });
});
