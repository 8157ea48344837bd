import { PAYPAL_CONFIG_ID } from '@app/contracts';
import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  A,
  auditEntries,
  call,
  catalogStaff,
  changed,
  GARDEN,
  GET,
  gardenOwner,
  OWN_ID,
  paymentsStaff,
  paypal,
  row,
  setOwnApp,
  shopper,
  t,
  tokenCalls,
  UPDATE,
  update,
  usePayPalConfigApp,
} from './paypal-config-test-setup';

usePayPalConfigApp();

describe('reading PP_CONFIG', () => {
  it('answers the defaults for a store without settings, by GET and by POST', async () => {
    const got = await call('GET', GET);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.headers['cache-control']).toBe('private, no-store');
    expect(got.json().data).toEqual({
      configId: 'PP_CONFIG',
      enabled: true,
      // The platform speaks to a stand-in, not to PayPal's live host: sandbox.
      environment: 'sandbox',
      mode: 'none',
      merchantId: null,
      ownApp: null,
      updatedAt: null,
    });
    const posted = await call('POST', `${A}/getPaypalConfig`, { body: { configId: PAYPAL_CONFIG_ID } });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json().data).toEqual(got.json().data);
  });

  it('shows the merchant id of a connected seller account, read-only, and mode partner', async () => {
    await t.database.db
      .insert(schema.paypalSellers)
      .values({ tenantId: 'garden', trackingId: 'garden', status: 'connected', merchantId: 'GARDENMERCHANT1' })
      .onConflictDoUpdate({
        target: schema.paypalSellers.tenantId,
        set: { status: 'connected', merchantId: 'GARDENMERCHANT1' },
      });
    try {
      const res = await call('GET', GET, { session: gardenOwner, host: GARDEN });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ mode: 'partner', merchantId: 'GARDENMERCHANT1', ownApp: null });
      // The merchant id is not something the update takes.
      const refused = await update({ merchantId: 'SOMEONEELSE' }, gardenOwner, GARDEN);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain('merchantId');
    } finally {
      await t.database.db.delete(schema.paypalSellers).where(eq(schema.paypalSellers.tenantId, 'garden'));
    }
  });

  it('refuses a configId other than PP_CONFIG with a 400 naming configId', async () => {
    for (const res of [
      await call('GET', `${A}/getPaypalConfig?configId=STRIPE_CONFIG`),
      await call('GET', `${A}/getPaypalConfig`),
      await call('POST', `${A}/getPaypalConfig`, { body: { configId: 'pp_config' } }),
      await call('POST', UPDATE, { body: { configId: 'OTHER', enabled: false } }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain('configId');
    }
    expect(await row()).toBeUndefined();
  });
});

describe('who may use PP_CONFIG', () => {
  it('a visitor gets 401, a shopper 403, staff without payments 403; staff with payments may', async () => {
    const routes: ['GET' | 'POST', string, object?][] = [
      ['GET', GET],
      ['POST', `${A}/getPaypalConfig`, { configId: PAYPAL_CONFIG_ID }],
      ['POST', UPDATE, { configId: PAYPAL_CONFIG_ID, enabled: false }],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(method, url, { body, session: null })).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, { body, session: shopper })).statusCode, `${method} ${url}`).toBe(403);
      const staff = await call(method, url, { body, session: catalogStaff });
      expect(staff.statusCode, `${method} ${url}`).toBe(403);
      expect(staff.json().message).toContain('payments');
    }
    expect(await row()).toBeUndefined();
    for (const [method, url, body] of routes) {
      const res = await call(method, url, { body, session: paymentsStaff });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    }
    expect((await row())?.enabled).toBe(false);
  });

  it("a request that claims another store is refused, and a store never sees another's settings", async () => {
    await setOwnApp();
    const claimed = await call('GET', GET, { headers: { tenantid: 'garden' } });
    expect(claimed.statusCode).toBe(403);
    expect(claimed.json().code).toBe('TENANT_MISMATCH');
    const claimedUpdate = await call('POST', UPDATE, {
      body: { configId: PAYPAL_CONFIG_ID, enabled: false },
      headers: { tenantid: 'garden' },
    });
    expect(claimedUpdate.statusCode).toBe(403);
    // Lighting's owner on garden's host is not garden's staff.
    expect((await call('GET', GET, { host: GARDEN })).statusCode).toBe(401);
    const garden = await call('GET', GET, { session: gardenOwner, host: GARDEN });
    expect(garden.statusCode).toBe(200);
    expect(garden.json().data).toMatchObject({ ownApp: null, mode: 'none', enabled: true });
    expect(garden.body).not.toContain(OWN_ID);
    // Garden switching PayPal off leaves lighting's settings as they were.
    expect((await update({ enabled: false }, gardenOwner, GARDEN)).statusCode).toBe(200);
    expect(await row()).toMatchObject({ enabled: true, ownClientId: OWN_ID });
    expect((await row('garden'))?.ownClientId).toBeNull();
  });
});

describe('PP_CONFIG: read, then write back', () => {
  const readConfig = async () => (await call('GET', GET)).json().data;

  it('the read written back unchanged is taken and changes nothing, with or without an own app', async () => {
    for (const withApp of [false, true]) {
      if (withApp) await setOwnApp();
      const read = await readConfig();
      const stored = await row();
      const entries = (await auditEntries()).length;
      paypal.requests.length = 0;
      changed.length = 0;
      const res = await call('POST', UPDATE, { body: read });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual(read);
      expect(await auditEntries()).toHaveLength(entries);
      expect(changed).toEqual([]);
      // The mask is not a secret: the stored one is kept, and PayPal is not asked again.
      expect((await row())?.ownClientSecretSealed).toBe(stored?.ownClientSecretSealed ?? undefined);
      expect(tokenCalls()).toHaveLength(0);
    }
  });

  it('the read with one field changed changes only that field', async () => {
    await setOwnApp();
    const read = await readConfig();
    const res = await call('POST', UPDATE, { body: { ...read, enabled: false } });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = await auditEntries();
    expect(entry?.changes).toEqual({ enabled: { before: true, after: false } });
    expect({ ...(await readConfig()), updatedAt: read.updatedAt }).toEqual({ ...read, enabled: false });
  });

  it('a read-only field sent different is refused, naming it; an unknown field too', async () => {
    const read = await readConfig();
    for (const [field, value] of [
      ['mode', 'own_app'],
      ['merchantId', 'SOMEONE-ELSE'],
      ['updatedAt', '2020-01-01T00:00:00.000Z'],
      ['colour', 'blue'],
    ] as const) {
      const res = await call('POST', UPDATE, { body: { ...read, [field]: value } });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().message, field).toContain(field);
    }
  });
});
