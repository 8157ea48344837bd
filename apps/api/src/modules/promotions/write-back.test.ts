import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, type SeededTenant, type TestApp } from '../../test/harness';
import { auditEntries, ownerCaller, signInOwners } from '../../test/owners';

/**
 * What the promo code read answers can be written back: the GET's `data` (or the
 * one code in it) sent back is taken and changes nothing (no audit entry, updatedAt kept); a body
 * naming one rule changes only that rule; read-only and unknown fields are refused naming them;
 * another store's owner gets 404 whatever the body.
 */
const P = '/api/v1/promo-codes';
let t: TestApp;
const owners = {} as Record<SeededTenant, BrowserSession>;

beforeAll(async () => {
  t = await createTestApp();
  await signInOwners(t.app, owners, ['lighting', 'garden']);
});
afterAll(() => t?.close());

const call = ownerCaller(() => t.app, owners);

const auditCount = () => auditEntries(t.database.db, 'lighting', 'promo_code');

async function read(code: string) {
  const res = await call('lighting', 'GET', `${P}/${code}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function lightingCodes(): Promise<string[]> {
  const rows = await t.database.db
    .select({ code: schema.promoCodes.code })
    .from(schema.promoCodes)
    .where(eq(schema.promoCodes.tenantId, 'lighting'));
  return rows.map((r) => r.code);
}

describe('a promo code: read, then write back', () => {
  it('the GET data, and the one code in it, written back change nothing', async () => {
    const codes = await lightingCodes();
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      const data = await read(code);
      const before = await auditCount();
      for (const body of [data, data.code]) {
        const res = await call('lighting', 'PUT', `${P}/${code}`, body);
        expect(res.statusCode, `${code}: ${res.body}`).toBe(200);
        expect(res.json().data, code).toEqual(data.code);
      }
      expect(await auditCount(), `${code} wrote an audit entry`).toBe(before);
      expect((await read(code)).code.updatedAt, code).toBe(data.code.updatedAt);
    }
  });

  it('a body naming one rule changes only that rule', async () => {
    const [code] = await lightingCodes();
    const data = await read(code as string);
    const res = await call('lighting', 'PUT', `${P}/${code}`, { description: 'Now with a new description' });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await read(code as string)).code;
    expect({ ...after, updatedAt: data.code.updatedAt }).toEqual({
      ...data.code,
      description: 'Now with a new description',
    });
  });

  it('a read-only field sent different is refused, naming it; an unknown field too', async () => {
    const [code] = await lightingCodes();
    const data = await read(code as string);
    for (const [field, value] of [
      ['timesUsed', data.code.timesUsed + 1],
      ['code', 'SOMETHING-ELSE'],
      ['updatedAt', '2020-01-01T00:00:00.000Z'],
      ['discountCap', 500],
    ] as const) {
      const res = await call('lighting', 'PUT', `${P}/${code}`, { ...data.code, [field]: value });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().message, field).toContain(field);
    }
    const wrongRedemptions = await call('lighting', 'PUT', `${P}/${code}`, { ...data, redemptions: [] });
    if (data.redemptions.length) {
      expect(wrongRedemptions.statusCode).toBe(400);
      expect(wrongRedemptions.json().message).toContain('redemptions');
    } else expect(wrongRedemptions.statusCode).toBe(200);
  });

  it("another store's owner gets 404 whatever the body", async () => {
    // A code only the lighting store has (stores may each have a WELCOME10 of their own).
    const created = await call('lighting', 'PUT', `${P}/LIGHTING-ONLY`, {});
    expect(created.statusCode).toBe(404);
    const made = await t.app.inject({
      method: 'POST',
      url: P,
      headers: { host: SEEDED_HOSTS.lighting.host, origin: `http://${SEEDED_HOSTS.lighting.host}`, ...owners.lighting },
      payload: { code: 'LIGHTING-ONLY', kind: 'percent', value: 5 },
    });
    expect(made.statusCode, made.body).toBe(201);
    const code = 'LIGHTING-ONLY';
    for (const body of [{ description: 'x' }, { value: 'lots' }, { unknown: true }]) {
      const res = await call('garden', 'PUT', `${P}/${code}`, body);
      expect(res.statusCode, res.body).toBe(404);
    }
  });
});
