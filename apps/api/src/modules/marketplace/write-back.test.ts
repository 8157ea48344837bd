import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, type SeededTenant, type TestApp } from '../../test/harness';
import { auditEntries, ownerCaller, signInOwners } from '../../test/owners';

/**
 * What the marketplace fetch answers can be written back to connect: the GET's
 * `data` sent back (no token: the stored one is kept) changes nothing (no audit entry, no event,
 * updatedAt kept); a body changing the booth changes only the booth; read-only and unknown fields
 * are refused naming them; another store is 404 whatever the body.
 */
const FETCH = '/api/marketplace/bonanza/fetch';
const CONNECT = '/api/marketplace/bonanza/connect';
const TOKEN = 'bonanza-token-0123456789abcdef';
let t: TestApp;
const owners = {} as Record<SeededTenant, BrowserSession>;
const heard: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await signInOwners(t.app, owners, ['lighting', 'garden']);
  t.services.events.on('settings.changed', ({ tenantId }) => {
    heard.push(tenantId);
  });
  const res = await call('lighting', 'POST', CONNECT, {
    tenantId: 'lighting',
    accountEmail: 'seller@lighting.test',
    boothName: 'Lighting Booth',
    token: TOKEN,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t?.close());

const call = ownerCaller(() => t.app, owners);

async function read() {
  const res = await call('lighting', 'GET', `${FETCH}?tenantId=lighting`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function stored() {
  const [row] = await t.database.db
    .select()
    .from(schema.marketplaceConnections)
    .where(eq(schema.marketplaceConnections.tenantId, 'lighting'));
  return row;
}

const auditCount = () => auditEntries(t.database.db, 'lighting', 'marketplace.connection');

describe('the marketplace connection: read, then write back', () => {
  it('the fetch written back to connect changes nothing and keeps the stored token', async () => {
    const state = await read();
    const before = await stored();
    const audits = await auditCount();
    heard.length = 0;
    const res = await call('lighting', 'POST', CONNECT, state);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(state);
    const after = await stored();
    expect(after?.tokenSealed).toBe(before?.tokenSealed);
    expect(after?.updatedAt).toEqual(before?.updatedAt);
    expect(await auditCount()).toBe(audits);
    expect(heard).toEqual([]);
  });

  it('the read with the booth changed changes only the booth, keeping the token', async () => {
    const state = await read();
    const sealed = (await stored())?.tokenSealed;
    const res = await call('lighting', 'POST', CONNECT, {
      ...state,
      connection: { ...state.connection, boothName: 'Bright Lamps' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await stored();
    expect(after).toMatchObject({ boothName: 'Bright Lamps', accountEmail: 'seller@lighting.test' });
    expect(after?.tokenSealed).toBe(sealed);
  });

  it('a read-only field sent different is refused, naming it; an unknown field too', async () => {
    const state = await read();
    const cases: [object, string][] = [
      [{ ...state, connection: { ...state.connection, tokenSet: false } }, 'tokenSet'],
      [{ ...state, connection: { ...state.connection, status: 'disconnected' } }, 'status'],
      [{ ...state, feed: { ...state.feed, productCount: 12345 } }, 'feed'],
      [{ ...state, connection: { ...state.connection, region: 'US' } }, 'region'],
    ];
    for (const [body, field] of cases) {
      const res = await call('lighting', 'POST', CONNECT, body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().message, field).toContain(field);
    }
  });

  it("another store's owner is refused whatever the body", async () => {
    const state = await read();
    for (const body of [state, { ...state, feed: 5 }]) {
      const res = await call('garden', 'POST', CONNECT, body);
      expect([401, 403, 404], res.body).toContain(res.statusCode);
    }
  });
});
