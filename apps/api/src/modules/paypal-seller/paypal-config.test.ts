import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { PAYPAL_CONFIG_ID } from '@app/contracts';
import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../lib/secret-box';
import { CALIFORNIA_SHIP_TO, stockedProductId } from '../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { type PayPalStandIn, startPayPalStandIn } from '../../test/paypal-stand-in';
import { createStaff } from '../../test/staff';
import { ownSecretContext } from './payment-accounts';
import { checkPayPalCredentials } from './paypal-config.service';

// PP_CONFIG (issue 18 point 2, decision 051) against the PayPal stand-in over real HTTP: the store's
// own PayPal app is checked by asking PayPal for a token; its secret is write-only.

const HOST = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const A = '/skulocity/api/v1/admin';
const GET = `${A}/getPaypalConfig?configId=${PAYPAL_CONFIG_ID}`;
const UPDATE = `${A}/updatePaypalConfig`;
// The platform's partner app, and the store's own PayPal app (which the stand-in knows too).
const PLATFORM_ID = 'platform-client';
const PLATFORM_SECRET = 'platform-secret';
const OWN_ID = 'lighting-own-app-0001';
const OWN_SECRET = 'own-secret-Zq81xVw4Lm';
const OTHER_SECRET = 'another-secret-Hh29kPd';

let t: TestApp;
let paypal: PayPalStandIn;
let ownMerchantId: string;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let paymentsStaff: BrowserSession;
const logLines: string[] = [];
const changed: string[] = [];

/**
 * Between the app and the stand-in: forwards, or plays PayPal down (sockets closed) or failing
 * (503), so "PayPal unreachable" is tested against the same app.
 */
let gateMode: 'forward' | 'down' | 'error' = 'forward';
let gate: Server;

beforeAll(async () => {
  paypal = await startPayPalStandIn({ clientId: PLATFORM_ID, clientSecret: PLATFORM_SECRET });
  ownMerchantId = paypal.addApp({ clientId: OWN_ID, clientSecret: OWN_SECRET }).merchantId;
  gate = createServer(async (req, res) => {
    if (gateMode === 'down') return req.socket.destroy();
    if (gateMode === 'error') {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"name":"INTERNAL_SERVER_ERROR"}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers.set(k, v);
    const answer = await fetch(`${paypal.url}${req.url}`, {
      method: req.method,
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => gate.listen(0, '127.0.0.1', r));
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({
    // Every line the app writes, at the most talkative level, is searched for the secret below.
    logger: { level: 'trace', stream },
    config: {
      PAYPAL_BASE_URL: `http://127.0.0.1:${(gate.address() as AddressInfo).port}`,
      PAYPAL_CLIENT_ID: PLATFORM_ID,
      PAYPAL_CLIENT_SECRET: PLATFORM_SECRET,
    },
    // A module that logs what it was given (as a careless one might): the log still holds no secret.
    extraRoutes: async (app) => {
      app.post('/skulocity/api/v1/test/log-body', async (req) => {
        req.log.info({ body: req.body }, 'a module logged its input');
        return { ok: true };
      });
    },
  });
  t.services.events.on('payments.changed', ({ tenantId }) => {
    changed.push(tenantId);
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'ppconfig-catalog@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'ppconfig-payments@lighting.test', ['payments']);
  catalogStaff = await signIn(t.app, 'ppconfig-catalog@lighting.test', 'owner-demo-1', HOST);
  paymentsStaff = await signIn(t.app, 'ppconfig-payments@lighting.test', 'owner-demo-1', HOST);
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => gate?.close(r));
  await paypal?.close();
});
beforeEach(async () => {
  gateMode = 'forward';
  await t.database.db.delete(schema.paymentConfigs);
  for (const tenantId of ['lighting', 'garden']) t.services.paymentAccounts.forget(tenantId);
  changed.length = 0;
  paypal.requests.length = 0;
});

function call(
  method: 'GET' | 'POST',
  url: string,
  opts: { body?: unknown; session?: BrowserSession | null; host?: string; headers?: Record<string, string> } = {},
) {
  const host = opts.host ?? HOST;
  return t.app.inject({
    method,
    url,
    headers: {
      host,
      origin: `http://${host}`,
      ...(opts.session === null ? {} : (opts.session ?? owner)),
      ...opts.headers,
    },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
}

const update = (body: Record<string, unknown>, session?: BrowserSession | null, host?: string) =>
  call('POST', UPDATE, { body: { configId: PAYPAL_CONFIG_ID, ...body }, session, host });

async function row(tenantId = 'lighting') {
  const [r] = await t.database.db
    .select()
    .from(schema.paymentConfigs)
    .where(and(eq(schema.paymentConfigs.tenantId, tenantId), eq(schema.paymentConfigs.configId, PAYPAL_CONFIG_ID)));
  return r;
}

async function auditEntries() {
  const al = schema.auditLog;
  return t.database.db
    .select()
    .from(al)
    .where(and(eq(al.tenantId, 'lighting'), eq(al.entity, 'payment_config')))
    .orderBy(desc(al.id));
}

const tokenCalls = () => paypal.requests.filter((r) => r.path === '/v1/oauth2/token');

async function setOwnApp() {
  const res = await update({ ownApp: { clientId: OWN_ID, clientSecret: OWN_SECRET } });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

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

describe('the store’s own PayPal app', () => {
  it('is checked with PayPal, sealed at rest, masked in every answer, audited, and announced', async () => {
    const res = await setOwnApp();
    expect(res.json().data).toMatchObject({
      enabled: true,
      environment: 'sandbox',
      mode: 'own_app',
      ownApp: { clientId: OWN_ID, clientSecretSet: true, clientSecret: SECRET_MASK },
    });
    expect(res.json().data.updatedAt).toEqual(expect.any(String));
    expect(res.body).not.toContain(OWN_SECRET);
    // PayPal was asked for a token with exactly this app.
    expect(tokenCalls()).toHaveLength(1);
    expect(tokenCalls()[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${OWN_ID}:${OWN_SECRET}`).toString('base64')}`,
    );
    // At rest: sealed for this store only, never the plain text.
    const stored = await row();
    expect(stored?.ownClientId).toBe(OWN_ID);
    expect(stored?.ownClientSecretSealed).toBeTruthy();
    expect(stored?.ownClientSecretSealed).not.toContain(OWN_SECRET);
    expect(stored?.updatedBy).toBeTruthy();
    expect(t.services.secrets.open(stored?.ownClientSecretSealed ?? '', ownSecretContext('lighting'))).toBe(OWN_SECRET);
    expect(t.services.secrets.open(stored?.ownClientSecretSealed ?? '', ownSecretContext('garden'))).toBeNull();
    const dump = JSON.stringify(await t.database.db.select().from(schema.paymentConfigs));
    expect(dump).not.toContain(OWN_SECRET);
    // The read answers the same mask.
    const got = await call('GET', GET);
    expect(got.json().data.ownApp).toEqual({ clientId: OWN_ID, clientSecretSet: true, clientSecret: SECRET_MASK });
    expect(got.body).not.toContain(OWN_SECRET);
    // The audit log says the secret changed and nothing of it.
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({ action: 'update', entityId: PAYPAL_CONFIG_ID, actorKind: 'staff' });
    expect(entry?.changes).toEqual({
      ownClientId: { before: null, after: OWN_ID },
      ownClientSecret: { before: null, after: '[redacted]' },
    });
    const entryText = JSON.stringify(entry);
    expect(entryText).not.toContain(OWN_SECRET);
    expect(entryText).not.toContain(stored?.ownClientSecretSealed);
    expect(changed).toEqual(['lighting']);
  });

  it('keeps the stored secret when an update leaves it out, without asking PayPal again', async () => {
    await setOwnApp();
    const sealed = (await row())?.ownClientSecretSealed;
    paypal.requests.length = 0;
    const kept = await update({ enabled: false, ownApp: { clientId: OWN_ID } });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data).toMatchObject({ enabled: false, ownApp: { clientSecretSet: true } });
    expect((await row())?.ownClientSecretSealed).toBe(sealed);
    expect(tokenCalls()).toHaveLength(0);
    const [entry] = await auditEntries();
    expect(entry?.changes).toEqual({ enabled: { before: true, after: false } });
    // The same settings again change nothing: no entry, no event.
    const entries = (await auditEntries()).length;
    changed.length = 0;
    expect((await update({ enabled: false, ownApp: { clientId: OWN_ID } })).statusCode).toBe(200);
    expect(await auditEntries()).toHaveLength(entries);
    expect(changed).toEqual([]);
  });

  it('checks the stored app again when it moves to the other environment', async () => {
    await setOwnApp();
    paypal.requests.length = 0;
    const res = await update({ environment: 'live' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.environment).toBe('live');
    // The stand-in answers for both environments (paypalBaseUrlFor keeps a non-PayPal base URL).
    expect(tokenCalls()).toHaveLength(1);
    expect((await auditEntries())[0]?.changes).toEqual({ environment: { before: 'sandbox', after: 'live' } });
  });

  it('replaces the secret: the audit entry says it changed, with neither value', async () => {
    await setOwnApp();
    const first = (await row())?.ownClientSecretSealed;
    // The same secret typed again is sealed afresh and counts as a change of the secret.
    const again = await update({ ownApp: { clientId: OWN_ID, clientSecret: OWN_SECRET } });
    expect(again.statusCode, again.body).toBe(200);
    const second = (await row())?.ownClientSecretSealed;
    expect(second).not.toBe(first);
    const [entry] = await auditEntries();
    expect(entry?.changes).toEqual({ ownClientSecret: { before: '[redacted]', after: '[redacted]' } });
    expect(JSON.stringify(entry)).not.toContain(OWN_SECRET);
  });

  it('refuses a new client id without a secret when none is stored (422 naming clientSecret)', async () => {
    const res = await update({ ownApp: { clientId: OWN_ID } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toContain('ownApp.clientSecret');
    expect(await row()).toBeUndefined();
    expect(tokenCalls()).toHaveLength(0);
  });

  it('refuses credentials PayPal refuses (422), saving nothing', async () => {
    await setOwnApp();
    const before = await row();
    const entries = (await auditEntries()).length;
    changed.length = 0;
    for (const ownApp of [
      { clientId: OWN_ID, clientSecret: OTHER_SECRET },
      { clientId: 'someone-elses-app-99', clientSecret: OTHER_SECRET },
      // A new client id with the stored secret: checked as a pair too.
      { clientId: 'someone-elses-app-99' },
    ]) {
      const res = await update({ enabled: false, ownApp });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe('ownApp.clientSecret: PayPal refused this client id and secret.');
      expect(res.body).not.toContain(OTHER_SECRET);
      expect(res.body).not.toContain(OWN_SECRET);
    }
    expect(await row()).toEqual(before);
    expect(await auditEntries()).toHaveLength(entries);
    expect(changed).toEqual([]);
  });

  it('answers 502 when PayPal cannot be reached or fails, saving nothing', async () => {
    for (const mode of ['down', 'error'] as const) {
      gateMode = mode;
      const res = await update({ ownApp: { clientId: OWN_ID, clientSecret: OWN_SECRET } });
      expect(res.statusCode, `${mode}: ${res.body}`).toBe(502);
      expect(res.json().code).toBe('UNAVAILABLE');
      expect(res.body).not.toContain(OWN_SECRET);
    }
    expect(await row()).toBeUndefined();
    expect(changed).toEqual([]);
  });

  it('is removed with ownApp null; the removal is audited', async () => {
    await setOwnApp();
    const res = await update({ ownApp: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ ownApp: null, mode: 'none' });
    expect(await row()).toMatchObject({ ownClientId: null, ownClientSecretSealed: null });
    expect((await auditEntries())[0]?.changes).toEqual({
      ownClientId: { before: OWN_ID, after: null },
      ownClientSecret: { before: '[redacted]', after: null },
    });
    expect(changed).toEqual(['lighting', 'lighting']);
  });

  it('validates the fields, naming each', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ownApp: { clientId: 'short', clientSecret: OWN_SECRET } }, 'ownApp.clientId'],
      [{ ownApp: { clientId: 'has spaces in it', clientSecret: OWN_SECRET } }, 'ownApp.clientId'],
      [{ ownApp: { clientId: OWN_ID, clientSecret: 'short' } }, 'ownApp.clientSecret'],
      [{ environment: 'production' }, 'environment'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ ownApp: { clientId: OWN_ID, clientSecret: OWN_SECRET, extra: 1 } }, 'ownApp'],
    ];
    for (const [body, field] of cases) {
      const res = await update(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(field);
      expect(res.body).not.toContain(OWN_SECRET);
    }
    expect(await row()).toBeUndefined();
  });
});

describe('checkout with the store’s own app', () => {
  it('pays into the own app: the store’s PayPal account is its app, and PayPal takes orders with it', async () => {
    expect(await t.services.paymentAccounts.forStore('lighting')).toBeNull();
    await setOwnApp();
    const account = await t.services.paymentAccounts.forStore('lighting');
    expect(account?.account).toBe(`app:${OWN_ID}`);
    paypal.requests.length = 0;
    const order = await account?.client.createOrder({
      amountMinor: 1234,
      currency: 'USD',
      referenceId: 'own-app-test',
      requestId: crypto.randomUUID(),
      returnUrl: `http://${HOST}/checkout/paypal-return`,
      cancelUrl: `http://${HOST}/checkout`,
    });
    expect(order?.id).toBeTruthy();
    const atPayPal = paypal.orders.get(order?.id ?? '');
    expect(atPayPal?.amount).toEqual({ currency_code: 'USD', value: '12.34' });
    // Made by the store's app, into that app's own PayPal account.
    expect(atPayPal?.clientId).toBe(OWN_ID);
    expect(atPayPal?.payeeMerchantId).toBe(ownMerchantId);
    // The token that made it was the own app's.
    expect(tokenCalls()[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${OWN_ID}:${OWN_SECRET}`).toString('base64')}`,
    );
    // Switched off, the store offers no PayPal: the event dropped the cached answer.
    expect((await update({ enabled: false })).statusCode).toBe(200);
    expect(await t.services.paymentAccounts.forStore('lighting')).toBeNull();
  });
});

describe('a guest pays a store that has its own app', () => {
  const B = '/skulocity/api/v1';
  const order = { email: 'own-app-buyer@example.com', shipTo: CALIFORNIA_SHIP_TO, shippingMethodId: 'STANDARD' };

  async function guestCart() {
    const added = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/product/addToCart`,
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { productId: await stockedProductId(t.database.db, 'lighting'), quantity: 1 },
    });
    expect(added.statusCode, added.body).toBe(200);
    const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    return { host: HOST, origin: `http://${HOST}`, cookie };
  }

  it('checkout takes PayPal through the own app: the PayPal order is the app’s, the order names it', async () => {
    await setOwnApp();
    const guest = await guestCart();
    paypal.requests.length = 0;
    const created = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/createPaypalOrder`,
      headers: guest,
      payload: order,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { paypalOrderId, approveUrl } = created.json().data;
    expect(paypal.orders.get(paypalOrderId)).toMatchObject({ clientId: OWN_ID, payeeMerchantId: ownMerchantId });
    expect(tokenCalls()[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${OWN_ID}:${OWN_SECRET}`).toString('base64')}`,
    );
    expect((await fetch(approveUrl, { redirect: 'manual' })).status).toBe(302);
    const captured = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: guest,
      payload: { paypalOrderId },
    });
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json().data.status).toBe('paid');
    expect(paypal.orders.get(paypalOrderId)?.status).toBe('COMPLETED');
    const [placed] = await t.database.db
      .select()
      .from(schema.orders)
      .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, captured.json().data.orderId)));
    expect(placed?.paymentAccount).toBe(`app:${OWN_ID}`);
    // Nothing of the secret in what the shopper got.
    expect(created.body + captured.body).not.toContain(OWN_SECRET);
  });

  it('switched off, the store takes no PayPal: a new PayPal checkout is refused', async () => {
    await setOwnApp();
    expect((await update({ enabled: false })).statusCode).toBe(200);
    const refused = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/createPaypalOrder`,
      headers: await guestCart(),
      payload: order,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('PayPal is not available in this store. Please pay by card.');
    expect(paypal.requests.filter((r) => r.path === '/v2/checkout/orders')).toHaveLength(0);
  });
});

describe('the secret in the logs', () => {
  it('appears in no log line, nor does its sealed form, after saves, refusals and reads', async () => {
    await setOwnApp();
    await update({ ownApp: { clientId: OWN_ID, clientSecret: OWN_SECRET } });
    await update({ ownApp: { clientId: 'someone-elses-app-99', clientSecret: OTHER_SECRET } });
    await update({ ownApp: { clientId: OWN_ID, clientSecret: 'short' } });
    gateMode = 'down';
    await update({ ownApp: { clientId: OWN_ID, clientSecret: OTHER_SECRET } });
    gateMode = 'forward';
    await call('GET', GET);
    const echoed = await call('POST', '/skulocity/api/v1/test/log-body', {
      body: { ownApp: { clientId: OWN_ID, clientSecret: OWN_SECRET }, client_secret: OTHER_SECRET },
    });
    expect(echoed.statusCode, echoed.body).toBe(200);
    const logged = logLines.find((l) => l.includes('a module logged its input'));
    expect(logged).toContain('"clientSecret":"[redacted]"');
    expect(logged).toContain('"client_secret":"[redacted]"');
    expect(logged).toContain(OWN_ID);
    const sealed = (await row())?.ownClientSecretSealed ?? '';
    expect(sealed).toBeTruthy();
    // The log was written (requests at trace), so an empty log does not pass for a clean one.
    expect(logLines.some((l) => l.includes('/admin/updatePaypalConfig'))).toBe(true);
    const basic = Buffer.from(`${OWN_ID}:${OWN_SECRET}`).toString('base64');
    for (const line of logLines) {
      for (const secret of [OWN_SECRET, OTHER_SECRET, sealed, basic]) expect(line).not.toContain(secret);
    }
  });
});

describe('checkPayPalCredentials', () => {
  it('tells a working pair, a refused pair and an unreachable PayPal apart', async () => {
    expect(await checkPayPalCredentials(paypal.url, OWN_ID, OWN_SECRET)).toBe('ok');
    expect(await checkPayPalCredentials(paypal.url, OWN_ID, OTHER_SECRET)).toBe('refused');
    expect(await checkPayPalCredentials('http://127.0.0.1:9', OWN_ID, OWN_SECRET)).toBe('unreachable');
  });
});

describe('PP_CONFIG: read, then write back (issue 30 point 6)', () => {
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
