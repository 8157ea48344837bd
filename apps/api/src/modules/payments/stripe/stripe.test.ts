import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';
import { type StripeStandIn, startStripeStandIn } from '../../../test/stripe-stand-in';

// Connecting a store's own Stripe account through the API, against the stand-in.
const KEY = 'sk_test_lightingstore9876abcd';
const LIVE_KEY = 'sk_live_lightingstore1234wxyz';
const WHSEC = 'whsec_lightingendpoint';
const host = 'lighting.localhost';
const PATH = '/skulocity/api/v1/admin/stripe';
let t: TestApp;
let stripe: StripeStandIn;
let owner: BrowserSession;
let paymentsStaff: BrowserSession;
let catalogStaff: BrowserSession;
let gardenOwner: BrowserSession;

beforeAll(async () => {
  stripe = await startStripeStandIn({
    accounts: [
      { secretKey: KEY, webhookSecret: WHSEC },
      { secretKey: LIVE_KEY, webhookSecret: WHSEC },
    ],
    webhooks: false,
  });
  t = await createTestApp({ config: { STRIPE_BASE_URL: stripe.url } });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
  await createStaff(t.database, 'lighting', 'stripe-payments@lighting.test', ['payments']);
  await createStaff(t.database, 'lighting', 'stripe-catalog@lighting.test', ['catalog']);
  paymentsStaff = await signIn(t.app, 'stripe-payments@lighting.test', 'owner-demo-1', host);
  catalogStaff = await signIn(t.app, 'stripe-catalog@lighting.test', 'owner-demo-1', host);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', 'garden.localhost');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.stripeAccounts);
});

const call = (method: 'GET' | 'PUT' | 'DELETE', session: BrowserSession | null, payload?: object, h = host) =>
  t.app.inject({
    method,
    url: PATH,
    headers: { host: h, origin: `http://${h}`, ...(session ?? {}) },
    ...(payload ? { payload } : {}),
  });
const audits = () =>
  t.database.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entity, 'stripe_account')));

describe('who may see and change the Stripe account', () => {
  it('a visitor 401, a staff member without payments 403, the owner and payments staff 200', async () => {
    expect((await call('GET', null)).statusCode).toBe(401);
    expect((await call('PUT', null, { secretKey: KEY, webhookSecret: WHSEC })).statusCode).toBe(401);
    expect((await call('GET', catalogStaff)).statusCode).toBe(403);
    expect((await call('PUT', catalogStaff, { secretKey: KEY, webhookSecret: WHSEC })).statusCode).toBe(403);
    expect((await call('DELETE', catalogStaff)).statusCode).toBe(403);
    expect((await call('GET', owner)).statusCode).toBe(200);
    expect((await call('GET', paymentsStaff)).statusCode).toBe(200);
    // Another store's owner is a stranger here, and sees only their own store's account on theirs.
    expect((await call('GET', gardenOwner)).statusCode).toBe(401);
    expect((await call('PUT', paymentsStaff, { secretKey: KEY, webhookSecret: WHSEC })).statusCode).toBe(200);
    const garden = await call('GET', gardenOwner, undefined, 'garden.localhost');
    expect(garden.json().data.connected).toBe(false);
  });
});

describe('connecting', () => {
  it('a key Stripe accepts is stored sealed and shown only as its hint; the change is audited without secrets', async () => {
    const before = (await audits()).length;
    const res = await call('PUT', owner, { secretKey: KEY, webhookSecret: WHSEC });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      connected: true,
      keyHint: 'sk_test_…abcd',
      mode: 'test',
      webhookSecretSet: true,
      testCardsOffered: true,
    });
    expect(res.body).not.toContain(KEY);
    expect(res.body).not.toContain(WHSEC);
    expect((await call('GET', owner)).body).not.toContain(KEY);
    const [row] = await t.database.db.select().from(schema.stripeAccounts);
    expect(row?.secretKeySealed).not.toContain(KEY);
    expect(row?.webhookSecretSealed).not.toContain(WHSEC);
    const log = (await audits()).slice(before);
    expect(log.map((a) => a.action)).toEqual(['connect']);
    expect(JSON.stringify(log)).not.toContain(KEY.slice(8));
    expect(JSON.stringify(log)).not.toContain(WHSEC);
  });

  it('a key Stripe refuses is a 422 naming secretKey, and nothing is saved', async () => {
    const res = await call('PUT', owner, { secretKey: 'sk_test_wrongkey0000', webhookSecret: WHSEC });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^secretKey: /);
    expect(await t.database.db.select().from(schema.stripeAccounts)).toEqual([]);
  });

  it('malformed input is a 400 before Stripe is asked; Stripe down is a 502 and nothing is saved', async () => {
    stripe.requests.length = 0;
    expect((await call('PUT', owner, { secretKey: 'pk_test_publishable', webhookSecret: WHSEC })).statusCode).toBe(400);
    expect((await call('PUT', owner, { secretKey: KEY })).statusCode).toBe(400);
    expect((await call('PUT', owner, { secretKey: 42, webhookSecret: WHSEC })).statusCode).toBe(400);
    expect(stripe.requests).toEqual([]);
    stripe.fault({ path: /^\/v1\/account$/, times: 2, status: 500 });
    expect((await call('PUT', owner, { secretKey: KEY, webhookSecret: WHSEC })).statusCode).toBe(502);
    expect(await t.database.db.select().from(schema.stripeAccounts)).toEqual([]);
  });

  it('a live key turns the built-in test provider off; disconnecting turns it back on, audited', async () => {
    const live = await call('PUT', owner, { secretKey: LIVE_KEY, webhookSecret: WHSEC });
    expect(live.json().data).toMatchObject({ mode: 'live', keyHint: 'sk_live_…wxyz', testCardsOffered: false });
    const off = await call('DELETE', owner);
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ connected: false, testCardsOffered: true });
    expect((await audits()).map((a) => a.action).slice(-2)).toEqual(['connect', 'disconnect']);
  });
});
