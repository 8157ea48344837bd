import { schema } from '@app/db';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import type { MailMessage } from '../mail/index';
import { PROVISION_STEPS, type ProvisionStep, provisionIds } from './index';

// Self-serve sign-up on the platform host (decision 103): the API, the abuse limits, the answer that
// never tells whether an email owns a store, and provisioning in one transaction.

const PLATFORM = 'platform.localhost';
const sent: MailMessage[] = [];
let failAt: ProvisionStep | null = null;
let t: TestApp;
let ipSeq = 0;

beforeAll(async () => {
  t = await createTestApp({
    mailer: {
      async send(m) {
        sent.push(m);
      },
      close() {},
    },
    provisionFault(step) {
      if (step === failAt) throw new Error(`injected failure after ${step}`);
    },
  });
});
afterAll(() => t.close());
beforeEach(() => {
  sent.length = 0;
  failAt = null;
});

/** Each test signs up from an address of its own, so the per-address limit is its own business. */
const nextIp = () => `10.0.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;

const form = (over: Record<string, string> = {}) => ({
  storeName: 'Acme Lamps',
  subdomain: `acme-${Math.random().toString(36).slice(2, 8)}`,
  email: `merchant-${Math.random().toString(36).slice(2, 8)}@example.com`,
  password: 'bright-lamps-2026',
  template: 'DEFAULT',
  starter: 'empty',
  ...over,
});

const signup = (body: unknown, ip = nextIp(), host = PLATFORM) =>
  t.app.inject({
    method: 'POST',
    url: '/platform-api/signup',
    headers: { host },
    payload: body as object,
    remoteAddress: ip,
  });
const confirm = (token: string, host = PLATFORM) =>
  t.app.inject({ method: 'POST', url: '/platform-api/signup/confirm', headers: { host }, payload: { token } });
const availability = (subdomain: string, host = PLATFORM) =>
  t.app.inject({
    method: 'GET',
    url: `/platform-api/signup/subdomains/${encodeURIComponent(subdomain)}`,
    headers: { host },
  });

function tokenOf(mail: MailMessage | undefined): string {
  const m = mail?.text?.match(/\/signup\/confirm\?token=([A-Za-z0-9_-]+)/);
  if (!m?.[1]) throw new Error(`no confirmation link in ${mail?.text}`);
  return m[1];
}

async function signedUp(over: Record<string, string> = {}) {
  const body = form(over);
  const res = await signup(body);
  expect(res.statusCode).toBe(202);
  const mail = sent.find((m) => m.to === body.email);
  return { body, token: tokenOf(mail) };
}

describe('subdomain availability', () => {
  it('answers the rules, the reserved words and the taken hosts, on the platform host only', async () => {
    const free = await availability('Fresh-Shop');
    expect(free.statusCode).toBe(200);
    expect(free.json().data).toMatchObject({ subdomain: 'fresh-shop', host: 'fresh-shop.localhost', available: true });
    expect((await availability('www')).json().data).toMatchObject({ available: false, problem: 'reserved' });
    expect((await availability('operator')).json().data).toMatchObject({ available: false, problem: 'reserved' });
    expect((await availability('a_b')).json().data).toMatchObject({ available: false, problem: 'invalid' });
    expect((await availability('-ab')).json().data).toMatchObject({ available: false, problem: 'invalid' });
    expect((await availability('xn--abc')).json().data).toMatchObject({ available: false, problem: 'invalid' });
    expect((await availability('garden')).json().data).toMatchObject({ available: false, problem: 'taken' });
    // A store's host knows no such endpoint.
    expect((await availability('fresh-shop', SEEDED_HOSTS.garden.host)).statusCode).toBe(404);
  });
});

describe('sign-up', () => {
  it('refuses a malformed form field by field, and a taken subdomain with 409', async () => {
    const bad = await signup(form({ subdomain: 'ad', password: 'short' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    const taken = await signup(form({ subdomain: 'lighting' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('taken');
    expect(sent).toHaveLength(0);
  });

  it('answers the same whether the email owns a store or not; the mail tells its owner', async () => {
    const fresh = await signup(form());
    const owner = await signup(form({ email: 'owner@garden.test' }));
    expect(owner.statusCode).toBe(fresh.statusCode);
    expect(owner.json().data).toEqual(fresh.json().data);
    expect(sent).toHaveLength(2);
    const [toFresh, toOwner] = sent;
    expect(toFresh?.text).not.toContain('already owns');
    expect(toOwner?.text).toContain('already owns a store');
    expect(toOwner?.text).toContain('garden.localhost');
    // Both can open the store from their link.
    expect(tokenOf(toOwner)).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('lets the honeypot pass as a person would, and stores and mails nothing', async () => {
    const before = await t.database.db.select().from(schema.signupRequests);
    const res = await signup(form({ website: 'http://spam.example' }));
    expect(res.statusCode).toBe(202);
    expect(sent).toHaveLength(0);
    expect(await t.database.db.select().from(schema.signupRequests)).toHaveLength(before.length);
  });

  it('limits sign-ups per address (429) and mails per email (the same answer, no more mail)', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await signup(form(), ip)).statusCode).toBe(202);
    const sixth = await signup(form(), ip);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('RATE_LIMITED');
    sent.length = 0;
    const email = 'busy-merchant@example.com';
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await signup(form({ email })));
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202, 202]);
    expect(sent.filter((m) => m.to === email)).toHaveLength(3);
  });
});

describe('expired sign-ups', () => {
  it('are forgotten at the next sign-up: an unconfirmed one goes, an opened store keeps no password hash', async () => {
    const sr = schema.signupRequests;
    const stale = await signedUp();
    const opened = await signedUp();
    const store = (await confirm(opened.token)).json().data;
    // The stale link ended two days ago, the opened store's an hour ago.
    await t.database.db
      .update(sr)
      .set({ expiresAt: new Date(Date.now() - 48 * 3600_000) })
      .where(eq(sr.email, stale.body.email));
    await t.database.db
      .update(sr)
      .set({ expiresAt: new Date(Date.now() - 3600_000) })
      .where(eq(sr.email, opened.body.email));
    await signedUp();
    expect(await t.database.db.select().from(sr).where(eq(sr.email, stale.body.email))).toEqual([]);
    const [kept] = await t.database.db.select().from(sr).where(eq(sr.email, opened.body.email));
    expect(kept).toMatchObject({ tenantId: store.tenantId, passwordHash: '' });
    // The owner's account holds the password: signing in on the store still works.
    await signIn(t.app, opened.body.email, opened.body.password, store.host);
  });
});

describe('confirming opens the store', () => {
  it('creates the whole store, live on its subdomain, its owner signed in there by a one-time link', async () => {
    const { body, token } = await signedUp({ starter: 'demo', template: 'ONE' });
    const started = performance.now();
    const res = await confirm(token);
    expect(res.statusCode).toBe(200);
    const opened = res.json().data;
    const host = `${body.subdomain}.localhost`;
    expect(opened).toMatchObject({ host });
    // Live: the new host answers as its store.
    const tenant = await t.app.inject({
      method: 'GET',
      url: `/api/fetch/tenant?tenantId=${opened.tenantId}`,
      headers: { host },
    });
    expect(tenant.statusCode).toBe(200);
    const products = await t.database.db
      .select()
      .from(schema.products)
      .where(eq(schema.products.tenantId, opened.tenantId));
    expect(products.length).toBe(6);
    const [settings] = await t.database.db
      .select()
      .from(schema.storeSettings)
      .where(eq(schema.storeSettings.tenantId, opened.tenantId));
    expect(settings?.template).toBe('ONE');
    // Ready to sell in North America: the starting shipping zone, and the demo stores' tax rates.
    const zones = await t.database.db
      .select()
      .from(schema.shippingZones)
      .where(eq(schema.shippingZones.tenantId, opened.tenantId));
    expect(zones.map((z) => z.countries)).toEqual([['USA', 'CAN']]);
    const rates = await t.database.db
      .select()
      .from(schema.taxRates)
      .where(eq(schema.taxRates.tenantId, opened.tenantId));
    expect(rates.find((r) => r.regionGeoId === 'US_CA')).toMatchObject({ label: 'CA sales tax', rateBasisPoints: 725 });
    expect(rates).toHaveLength(7);
    const [tax] = await t.database.db
      .select()
      .from(schema.storeTaxSettings)
      .where(eq(schema.storeTaxSettings.tenantId, opened.tenantId));
    expect(tax).toMatchObject({ pricesIncludeTax: false });
    const history = await t.database.db
      .select()
      .from(schema.storeLifecycleHistory)
      .where(eq(schema.storeLifecycleHistory.tenantId, opened.tenantId))
      .orderBy(asc(schema.storeLifecycleHistory.seq));
    expect(history.map((h) => h.toState)).toEqual(['provisioning', 'active']);
    console.info(`sign-up: confirmation to a live store took ${Math.round(performance.now() - started)} ms`);

    // The sign-in link: once, on the new host only.
    const link = new URL(opened.signInUrl);
    expect(link.host.split(':')[0]).toBe(host);
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `${link.pathname}${link.search}`,
      headers: { host: SEEDED_HOSTS.garden.host },
    });
    expect(elsewhere.headers.location).toBe('/auth/login');
    const signedIn = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { host } });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/manage-store');
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    const again = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { host } });
    expect(again.headers.location).toBe('/auth/login');
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/tenant/cancel_request/${opened.tenantId}`,
      headers: { host, cookie },
    });
    expect(me.statusCode).toBe(200);
    // Once the owner has signed in through it, the mail's link leads to the store's login page only.
    const later = (await confirm(token)).json().data;
    expect(later).toMatchObject({
      tenantId: opened.tenantId,
      signInUrl: `${new URL(opened.storeUrl).origin}/auth/login`,
    });
    // The owner can also sign in with the password chosen at sign-up.
    await signIn(t.app, body.email, body.password, host);
  });

  it('is idempotent: the link again answers the same store, and nothing is made twice', async () => {
    const { token } = await signedUp();
    const first = (await confirm(token)).json().data;
    const second = await confirm(token);
    expect(second.statusCode).toBe(200);
    expect(second.json().data.tenantId).toBe(first.tenantId);
    expect(second.json().data.signInUrl).not.toBe(first.signInUrl);
    const tenants = await t.database.db
      .select()
      .from(schema.tenants)
      .where(eq(schema.tenants.tenantId, first.tenantId));
    expect(tenants).toHaveLength(1);
  });

  it('opens one store when the link is followed twice at once, and one of two sign-ups for a subdomain', async () => {
    const { token } = await signedUp();
    const both = await Promise.all([confirm(token), confirm(token)]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both[0]?.json().data.tenantId).toBe(both[1]?.json().data.tenantId);

    const subdomain = `race-${Math.random().toString(36).slice(2, 8)}`;
    const first = await signedUp({ subdomain });
    const second = await signedUp({ subdomain });
    const raced = await Promise.all([confirm(first.token), confirm(second.token)]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const hosts = await t.database.db
      .select()
      .from(schema.storeHosts)
      .where(eq(schema.storeHosts.hostName, `${subdomain}.localhost`));
    expect(hosts).toHaveLength(1);
  });

  it('leaves no half store when a step fails, and the same link opens it afterwards', async () => {
    for (const step of PROVISION_STEPS) {
      const { body, token } = await signedUp({ starter: 'demo' });
      failAt = step;
      const failed = await confirm(token);
      expect(failed.statusCode, step).toBe(500);
      const [request] = await t.database.db
        .select()
        .from(schema.signupRequests)
        .where(eq(schema.signupRequests.email, body.email));
      const { tenantId } = provisionIds(`signup:${request?.signupId}`);
      for (const table of [
        schema.tenants,
        schema.productStores,
        schema.storeSettings,
        schema.products,
        schema.users,
        schema.taxRates,
      ]) {
        expect(await t.database.db.select().from(table).where(eq(table.tenantId, tenantId)), step).toHaveLength(0);
      }
      expect(
        await t.database.db
          .select()
          .from(schema.storeHosts)
          .where(eq(schema.storeHosts.hostName, `${body.subdomain}.localhost`)),
      ).toHaveLength(0);
      expect(request?.tenantId ?? null).toBeNull();
      // Resumable: the failure gone, the same link opens the store.
      failAt = null;
      const retried = await confirm(token);
      expect(retried.statusCode, step).toBe(200);
      expect(retried.json().data.tenantId).toBe(tenantId);
    }
  });

  it('refuses an unknown token with 404, and on a store host the endpoint does not exist', async () => {
    expect((await confirm('not-a-token-at-all-xxxxxxxxxxxx')).statusCode).toBe(404);
    expect((await confirm('whatever', SEEDED_HOSTS.lighting.host)).statusCode).toBe(404);
  });
});
