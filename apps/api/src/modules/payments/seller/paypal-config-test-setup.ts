import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { PAYPAL_CONFIG_ID } from '@app/contracts';
import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { type PayPalStandIn, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { createStaff } from '../../../test/staff';

// PP_CONFIG (decision 051) against the PayPal stand-in over real HTTP: the store's
// own PayPal app is checked by asking PayPal for a token; its secret is write-only.

export const HOST = 'lighting.localhost';
export const GARDEN = 'garden.localhost';
export const A = '/skulocity/api/v1/admin';
export const GET = `${A}/getPaypalConfig?configId=${PAYPAL_CONFIG_ID}`;
export const UPDATE = `${A}/updatePaypalConfig`;
// The platform's partner app, and the store's own PayPal app (which the stand-in knows too).
export const PLATFORM_ID = 'platform-client';
export const PLATFORM_SECRET = 'platform-secret';
export const OWN_ID = 'lighting-own-app-0001';
export const OWN_SECRET = 'own-secret-Zq81xVw4Lm';
export const OTHER_SECRET = 'another-secret-Hh29kPd';

export let t: TestApp;
export let paypal: PayPalStandIn;
export let ownMerchantId: string;
export let owner: BrowserSession;
export let gardenOwner: BrowserSession;
export let shopper: BrowserSession;
export let catalogStaff: BrowserSession;
export let paymentsStaff: BrowserSession;
export const logLines: string[] = [];
export const changed: string[] = [];

/**
 * Between the app and the stand-in: forwards, or plays PayPal down (sockets closed) or failing
 * (503), so "PayPal unreachable" is tested against the same app.
 */
export let gateMode: 'forward' | 'down' | 'error' = 'forward';
export let gate: Server;
/** The tests switch the gate; an imported binding cannot be assigned from another file. */
export function setGateMode(mode: typeof gateMode) {
  gateMode = mode;
}

export function call(
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

export const update = (body: Record<string, unknown>, session?: BrowserSession | null, host?: string) =>
  call('POST', UPDATE, { body: { configId: PAYPAL_CONFIG_ID, ...body }, session, host });

export async function row(tenantId = 'lighting') {
  const [r] = await t.database.db
    .select()
    .from(schema.paymentConfigs)
    .where(and(eq(schema.paymentConfigs.tenantId, tenantId), eq(schema.paymentConfigs.configId, PAYPAL_CONFIG_ID)));
  return r;
}

export async function auditEntries() {
  const al = schema.auditLog;
  return t.database.db
    .select()
    .from(al)
    .where(and(eq(al.tenantId, 'lighting'), eq(al.entity, 'payment_config')))
    .orderBy(desc(al.id));
}

export const tokenCalls = () => paypal.requests.filter((r) => r.path === '/v1/oauth2/token');

export async function setOwnApp() {
  const res = await update({ ownApp: { clientId: OWN_ID, clientSecret: OWN_SECRET } });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

/** Registers the hooks every part of this suite shares: call once at the top of each test file. */
export function usePayPalConfigApp(): void {
  beforeAll(async () => {
    // One module instance may serve several test files in a worker (isolate: false): start each file afresh.
    logLines.length = 0;
    changed.length = 0;
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
}
