import { sellerStateSchema } from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { type PayPalStandIn, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { createStaff } from '../../../test/staff';

// Seller onboarding against the PayPal stand-in: real HTTP, PayPal's documented partner flow.
let t: TestApp;
let paypal: PayPalStandIn;
const GARDEN = 'garden.localhost';
const LIGHTING = 'lighting.localhost';
const P = '/api/paypal/seller';
let owner: BrowserSession;
let lightingOwner: BrowserSession;
let shopper: BrowserSession;
let staffNoPayments: BrowserSession;
let staffPayments: BrowserSession;
let since = new Date();

beforeAll(async () => {
  paypal = await startPayPalStandIn({ clientId: 'platform-client', clientSecret: 'platform-secret' });
  t = await createTestApp({
    config: {
      PAYPAL_BASE_URL: paypal.url,
      PAYPAL_CLIENT_ID: 'platform-client',
      PAYPAL_CLIENT_SECRET: 'platform-secret',
      PAYPAL_PARTNER_ID: paypal.partnerId,
    },
  });
  await createStaff(t.database, 'garden', 'clerk@garden.test', ['orders']);
  await createStaff(t.database, 'garden', 'cashier@garden.test', ['payments']);
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  lightingOwner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  shopper = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN);
  staffNoPayments = await signIn(t.app, 'clerk@garden.test', 'owner-demo-1', GARDEN);
  staffPayments = await signIn(t.app, 'cashier@garden.test', 'owner-demo-1', GARDEN);
});
afterAll(async () => {
  await t?.close();
  await paypal?.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.paypalSellerHistory);
  await t.database.db.delete(schema.paypalSellers);
  for (const id of ['garden', 'lighting']) t.services.paymentAccounts.forget(id);
  paypal.requests.length = 0;
  // Each test signs up afresh at PayPal (the stand-in keeps a store's seller across sign-ups).
  paypal.sellers.clear();
  // The audit log cannot be emptied: each test reads its own entries.
  since = new Date();
});

const post = (path: string, session: Partial<BrowserSession> = owner, host = GARDEN) =>
  t.app.inject({ method: 'POST', url: `${P}/${path}`, headers: { host, origin: `http://${host}`, ...session } });
const fetchState = (session: Partial<BrowserSession> = owner, tenantId = 'garden', host = GARDEN) =>
  t.app.inject({ method: 'GET', url: `${P}/fetch?tenantId=${tenantId}`, headers: { host, ...session } });
const state = async () => {
  const res = await fetchState();
  expect(res.statusCode).toBe(200);
  return sellerStateSchema.parse(res.json().data);
};
const sellerRow = async (tenantId = 'garden') =>
  (await t.database.db.select().from(schema.paypalSellers).where(eq(schema.paypalSellers.tenantId, tenantId)))[0];
const auditOf = async (action: string, tenantId = 'garden') =>
  t.database.db
    .select()
    .from(schema.auditLog)
    .where(
      and(
        eq(schema.auditLog.tenantId, tenantId),
        eq(schema.auditLog.entity, 'paypal_seller'),
        eq(schema.auditLog.action, action),
        gte(schema.auditLog.createdAt, since),
      ),
    )
    .orderBy(asc(schema.auditLog.id));

/** The context PayPal's webhook confirms in: the store, acted by the system. */
const paypalCtx = () => ({
  tenantId: 'garden',
  productStoreId: '9001',
  hostName: GARDEN,
  viaDevAlias: false,
  origin: '',
  actor: { kind: 'system' as const, name: 'paypal-webhook' },
  requestId: 'wh-1',
  ip: null,
});

/** The owner presses "Connect PayPal": PayPal's sign-up link. */
async function connect(session: Partial<BrowserSession> = owner, host = GARDEN) {
  const res = await post('connect', session, host);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.actionUrl as string;
}
/** The seller agrees at PayPal's sign-up page, which sends the browser back to the store. */
async function agree(actionUrl: string) {
  const page = await fetch(actionUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Agree and connect');
  const token = new URL(actionUrl).searchParams.get('referralToken') ?? '';
  const res = await fetch(actionUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ referralToken: token }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') ?? '');
}
/** The owner's browser arrives at the return URL with their session cookie. */
const comeBack = (back: URL, session: Partial<BrowserSession> = owner, host = GARDEN) =>
  t.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { host, cookie: session.cookie ?? '' },
  });

/** The onboarding webhook's confirmation, as a test expects it to succeed: its state. */
async function confirmed(...args: Parameters<typeof t.services.sellerOnboarding.confirm>) {
  const r = await t.services.sellerOnboarding.confirm(...args);
  if (!r.ok) throw new Error(`confirm refused: ${r.code} ${r.message}`);
  return r.value;
}

describe('connecting PayPal', () => {
  it('happy path: referral, sign-up, return confirmed by merchant-integrations, checkout offers PayPal', async () => {
    expect(await state()).toMatchObject({
      tenantId: 'garden',
      status: 'not_started',
      merchantId: null,
      reasons: [],
      checkoutEnabled: false,
      onboardingAvailable: true,
      environment: 'sandbox',
    });
    const actionUrl = await connect();
    expect(actionUrl.startsWith(`${paypal.url}/bizsignup/partner/entry?referralToken=`)).toBe(true);
    const referral = paypal.requests.find((r) => r.path === '/v2/customer/partner-referrals');
    const body = referral?.body as {
      tracking_id: string;
      operations: { operation: string }[];
      partner_config_override?: { return_url: string };
    };
    expect(body.tracking_id).toBe('garden');
    expect(body.operations[0]?.operation).toBe('API_INTEGRATION');
    expect(body.partner_config_override?.return_url).toBe(`http://${GARDEN}${P}/return`);
    expect((await state()).status).toBe('pending');
    expect((await sellerRow())?.actionUrl).toBe(actionUrl);

    // Pressing again while the link is fresh: the same link, no second referral.
    expect(await connect()).toBe(actionUrl);
    expect(paypal.requests.filter((r) => r.path === '/v2/customer/partner-referrals')).toHaveLength(1);

    const back = await agree(actionUrl);
    expect(`${back.origin}${back.pathname}`).toBe(`http://${GARDEN}${P}/return`);
    const merchantId = back.searchParams.get('merchantIdInPayPal') ?? '';
    expect(merchantId).toMatch(/^[A-Z0-9]{13}$/);
    const res = await comeBack(back);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/manage-store/payments?paypal=connected');
    expect(
      paypal.requests.some(
        (r) => r.path === `/v1/customer/partners/${paypal.partnerId}/merchant-integrations/${merchantId}`,
      ),
    ).toBe(true);

    const s = await state();
    expect(s).toMatchObject({ status: 'connected', merchantId, reasons: [], checkoutEnabled: true });
    expect(s.paymentsReceivable).toBe(true);
    expect(s.primaryEmailConfirmed).toBe(true);
    expect(s.connectedAt).toBeTruthy();
    const account = await t.services.paymentAccounts.forStore('garden');
    expect(account?.account).toBe(`merchant:${merchantId}`);
    // Another store is untouched.
    expect(await t.services.paymentAccounts.forStore('lighting')).toBeNull();
    expect(await sellerRow('lighting')).toBeUndefined();

    // Every move went through the state machine's history; the owner's actions are audited.
    const history = await t.database.db
      .select()
      .from(schema.paypalSellerHistory)
      .where(eq(schema.paypalSellerHistory.tenantId, 'garden'))
      .orderBy(asc(schema.paypalSellerHistory.id));
    expect(history.map((h) => `${h.fromStatus}>${h.toStatus}`)).toEqual(['not_started>pending', 'pending>connected']);
    expect(history.every((h) => h.actorKind === 'owner')).toBe(true);
    const [connected] = await auditOf('connect');
    expect(connected).toMatchObject({ actorKind: 'staff', actorEmail: 'owner@garden.test' });
    expect(connected?.changes).toMatchObject({ status: { before: 'not_started', after: 'pending' } });
    const [returned] = await auditOf('return');
    expect(returned?.changes).toMatchObject({ status: { before: 'pending', after: 'connected' } });

    // Connected: connecting again is refused until disconnected.
    const again = await post('connect');
    expect(again.statusCode).toBe(409);
  });

  it('returned with payments not receivable: action needed, checkout stays off, the page names the step', async () => {
    await connect();
    paypal.nextSeller({ paymentsReceivable: false });
    const res = await comeBack(await agree((await sellerRow())?.actionUrl ?? ''));
    expect(res.headers.location).toBe('/manage-store/payments?paypal=action_needed');
    const s = await state();
    expect(s.status).toBe('action_needed');
    expect(s.checkoutEnabled).toBe(false);
    expect(s.paymentsReceivable).toBe(false);
    expect(s.reasons.map((r) => r.code)).toEqual(['PAYMENTS_NOT_RECEIVABLE']);
    expect(s.reasons[0]?.message).toMatch(/Log in to PayPal/);
    expect(await t.services.paymentAccounts.forStore('garden')).toBeNull();

    // The owner clears it at PayPal and checks again: connected.
    paypal.updateSeller(s.merchantId ?? '', { paymentsReceivable: true });
    const check = await post('check');
    expect(check.statusCode).toBe(200);
    expect(check.json().data).toMatchObject({ status: 'connected', checkoutEnabled: true, reasons: [] });
    expect(await auditOf('check')).toHaveLength(1);
  });

  it('returned with an unconfirmed email: action needed naming the email step', async () => {
    await connect();
    paypal.nextSeller({ emailConfirmed: false });
    await comeBack(await agree((await sellerRow())?.actionUrl ?? ''));
    const s = await state();
    expect(s).toMatchObject({ status: 'action_needed', checkoutEnabled: false, primaryEmailConfirmed: false });
    expect(s.reasons.map((r) => r.code)).toEqual(['EMAIL_NOT_CONFIRMED']);
    expect(s.reasons[0]?.message).toMatch(/Confirm your email/);
  });

  it("without the seller's consent to the platform's app: action needed, not connected", async () => {
    await connect();
    paypal.nextSeller({ consent: false });
    const back = await agree((await sellerRow())?.actionUrl ?? '');
    expect(back.searchParams.get('permissionsGranted')).toBe('false');
    await comeBack(back);
    const s = await state();
    expect(s.status).toBe('action_needed');
    expect(s.reasons.map((r) => r.code)).toEqual(['CONSENT_NOT_GRANTED']);
    expect(s.checkoutEnabled).toBe(false);
  });

  it("a forged merchantIdInPayPal of another store's seller is refused and connects nothing", async () => {
    // Lighting's real seller.
    const lightingBack = await agree(await connect(lightingOwner, LIGHTING));
    await comeBack(lightingBack, lightingOwner, LIGHTING);
    const lightingMerchant = lightingBack.searchParams.get('merchantIdInPayPal') ?? '';
    expect((await sellerRow('lighting'))?.status).toBe('connected');

    // Garden's owner starts, then comes back with lighting's merchant id in the query.
    await connect();
    const forged = `${P}/return?merchantId=garden&merchantIdInPayPal=${lightingMerchant}&permissionsGranted=true`;
    const res = await t.app.inject({ method: 'GET', url: forged, headers: { host: GARDEN, cookie: owner.cookie } });
    expect(res.headers.location).toBe('/manage-store/payments?paypal=refused');
    const s = await state();
    expect(s.status).toBe('action_needed');
    expect(s.merchantId).toBeNull();
    expect(s.checkoutEnabled).toBe(false);
    expect(s.reasons.map((r) => r.code)).toEqual(['OTHER_STORE']);
    expect(await t.services.paymentAccounts.forStore('garden')).toBeNull();
    // Lighting keeps its seller.
    expect((await sellerRow('lighting'))?.merchantId).toBe(lightingMerchant);
    expect(await auditOf('return')).toHaveLength(1);

    // A connected store is not switched off by a forged link either.
    const gardenBack = await agree(await connect());
    await comeBack(gardenBack);
    expect((await state()).status).toBe('connected');
    await t.app.inject({ method: 'GET', url: forged, headers: { host: GARDEN, cookie: owner.cookie } });
    expect(await state()).toMatchObject({
      status: 'connected',
      merchantId: gardenBack.searchParams.get('merchantIdInPayPal'),
    });
  });

  it("a return without the hint finds the seller by the store's tracking id", async () => {
    await agree(await connect());
    const res = await comeBack(new URL(`http://${GARDEN}${P}/return`));
    expect(res.headers.location).toBe('/manage-store/payments?paypal=connected');
    expect((await state()).status).toBe('connected');
  });

  it('a return PayPal knows nothing of: action needed, not found at PayPal', async () => {
    await connect();
    const res = await comeBack(new URL(`http://${GARDEN}${P}/return`));
    expect(res.headers.location).toBe('/manage-store/payments?paypal=not_found');
    expect((await state()).reasons.map((r) => r.code)).toEqual(['NOT_FOUND_AT_PAYPAL']);
  });

  it('disconnect: checkout stops offering PayPal, audited; connecting again works', async () => {
    const back = await agree(await connect());
    await comeBack(back);
    expect(await t.services.paymentAccounts.forStore('garden')).not.toBeNull();
    const res = await post('disconnect');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'disconnected', checkoutEnabled: false });
    expect(await t.services.paymentAccounts.forStore('garden')).toBeNull();
    const [entry] = await auditOf('disconnect');
    expect(entry?.changes).toMatchObject({ status: { before: 'connected', after: 'disconnected' } });
    // A late or redelivered onboarding webhook does not connect it again behind the owner's back.
    const merchantId = back.searchParams.get('merchantIdInPayPal') ?? '';
    const hook = await confirmed(paypalCtx(), { merchantId, actor: { kind: 'paypal' } });
    expect(hook.status).toBe('disconnected');
    expect(await t.services.paymentAccounts.forStore('garden')).toBeNull();
    expect((await post('disconnect')).statusCode).toBe(409);
    await comeBack(await agree(await connect()));
    expect((await state()).status).toBe('connected');
  });

  it('PayPal onboarding webhook confirms through app.sellerOnboarding.confirm, acted by PayPal', async () => {
    // Before the owner started connecting, PayPal's word alone connects nothing.
    const early = paypal.addSeller({ trackingId: 'garden' });
    const untouched = await confirmed(paypalCtx(), {
      merchantId: early,
      actor: { kind: 'paypal' },
    });
    expect(untouched.status).toBe('not_started');
    paypal.sellers.clear();
    const back = await agree(await connect());
    const merchantId = back.searchParams.get('merchantIdInPayPal') ?? '';
    const ctx = paypalCtx();
    const s = await confirmed(ctx, { merchantId, actor: { kind: 'paypal', id: 'WH-1' } });
    expect(s).toMatchObject({ status: 'connected', merchantId, checkoutEnabled: true });
    const [last] = await t.database.db
      .select()
      .from(schema.paypalSellerHistory)
      .where(eq(schema.paypalSellerHistory.toStatus, 'connected'));
    expect(last).toMatchObject({ actorKind: 'paypal', actorId: 'WH-1' });
    // No owner acted: nothing in the audit log for it.
    expect(await auditOf('check')).toHaveLength(0);
    expect(await auditOf('return')).toHaveLength(0);

    // Consent withdrawn at PayPal: a confirm finds it revoked.
    paypal.revokeConsent(merchantId);
    const revoked = await confirmed(ctx, { merchantId, actor: { kind: 'paypal' } });
    expect(revoked.status).toBe('action_needed');
    expect(revoked.reasons.map((r) => r.code)).toEqual(['CONSENT_REVOKED']);
    expect(revoked.checkoutEnabled).toBe(false);
  });
});

describe('plain form posts (no JavaScript)', () => {
  const form = (path: string, fields: Record<string, string>, session: Partial<BrowserSession> = owner) =>
    t.app.inject({
      method: 'POST',
      url: `${P}/${path}`,
      headers: {
        host: GARDEN,
        origin: `http://${GARDEN}`,
        cookie: session.cookie ?? '',
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
      },
      payload: new URLSearchParams(fields).toString(),
    });

  it("connect 303s to PayPal's sign-up with the form's CSRF token; without it 403", async () => {
    const res = await form('connect', { _csrf: owner['x-csrf-token'] });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^${paypal.url}/bizsignup/partner/entry\\?referralToken=`));
    expect((await form('connect', {})).statusCode).toBe(403);
    expect((await form('connect', { _csrf: 'forged' })).statusCode).toBe(403);
  });

  it('check and disconnect go back to the payments page with the outcome', async () => {
    await agree(await connect());
    const check = await form('check', { _csrf: owner['x-csrf-token'] });
    expect(check.statusCode).toBe(303);
    expect(check.headers.location).toBe('/manage-store/payments?paypal=connected');
    const off = await form('disconnect', { _csrf: owner['x-csrf-token'] });
    expect(off.headers.location).toBe('/manage-store/payments?paypal=disconnected');
    expect((await state()).status).toBe('disconnected');
  });
});

describe('who may', () => {
  const routes = [
    ['POST', 'connect'],
    ['POST', 'check'],
    ['POST', 'disconnect'],
    ['GET', 'fetch?tenantId=garden'],
  ] as const;
  const call = (method: string, path: string, session: Partial<BrowserSession>, host = GARDEN) =>
    t.app.inject({
      method: method as 'GET',
      url: `${P}/${path}`,
      headers: { host, origin: `http://${host}`, ...session },
    });

  it('a visitor gets 401, a shopper 403, staff without payments 403, on every route; nothing is written', async () => {
    for (const [method, path] of routes) {
      expect((await call(method, path, {})).statusCode, `${method} ${path}`).toBe(401);
      expect((await call(method, path, shopper)).statusCode, `${method} ${path}`).toBe(403);
      expect((await call(method, path, staffNoPayments)).statusCode, `${method} ${path}`).toBe(403);
    }
    // The return: a visitor logs in first and comes back to the payments page; others are refused.
    const visitor = await t.app.inject({
      method: 'GET',
      url: `${P}/return?merchantIdInPayPal=X`,
      headers: { host: GARDEN },
    });
    expect(visitor.statusCode).toBe(303);
    expect(visitor.headers.location).toBe(
      `/auth/login?redirectUrl=${encodeURIComponent('/manage-store/payments?paypal=return')}`,
    );
    for (const session of [shopper, staffNoPayments]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${P}/return`,
        headers: { host: GARDEN, cookie: session.cookie },
      });
      expect(res.statusCode).toBe(403);
    }
    expect(await sellerRow()).toBeUndefined();
    expect(paypal.requests).toHaveLength(0);
  });

  it('staff with the payments permission may connect and read', async () => {
    expect((await post('connect', staffPayments)).statusCode).toBe(200);
    expect((await fetchState(staffPayments)).json().data.status).toBe('pending');
  });

  it("another tenant's id is 404; another store's owner is not staff here", async () => {
    expect((await fetchState(owner, 'lighting')).statusCode).toBe(404);
    expect((await fetchState(lightingOwner, 'lighting', GARDEN)).statusCode).toBe(401);
    expect((await post('connect', lightingOwner, GARDEN)).statusCode).toBe(401);
    expect(await sellerRow()).toBeUndefined();
  });

  it('seller/fetch validates its query', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${P}/fetch`, headers: { host: GARDEN, ...owner } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.join(' ')).toMatch(/tenantId/);
  });
});

describe('without the platform partner set-up', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({
      database: undefined,
      config: {
        PAYPAL_BASE_URL: paypal.url,
        PAYPAL_CLIENT_ID: 'platform-client',
        PAYPAL_CLIENT_SECRET: 'platform-secret',
      },
    });
  });
  afterAll(async () => bare?.close());

  it('the state says onboarding is not available and connect is 409 naming it', async () => {
    const session = await signIn(bare.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
    const res = await bare.app.inject({
      method: 'GET',
      url: `${P}/fetch?tenantId=garden`,
      headers: { host: GARDEN, ...session },
    });
    expect(res.json().data).toMatchObject({
      onboardingAvailable: false,
      status: 'not_started',
      checkoutEnabled: false,
    });
    const connectRes = await bare.app.inject({
      method: 'POST',
      url: `${P}/connect`,
      headers: { host: GARDEN, origin: `http://${GARDEN}`, ...session },
    });
    expect(connectRes.statusCode).toBe(409);
    expect(connectRes.json().message).toMatch(/platform operator has not set up PayPal/);
  });
});
