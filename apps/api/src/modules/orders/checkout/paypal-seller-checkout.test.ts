import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../../lib/context';
import type { PageRequest } from '../../../lib/page-request';
import { createTestApp, signIn, type TestApp } from '../../../test/harness';
import { connectStoreToPayPal, disconnectStoreFromPayPal, giveStoreOwnPayPalApp } from '../../../test/paypal-seller';
import { type PayPalStandIn, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { createAddressesService } from '../../addresses/index';
import { createCardsService, createTestPaymentProvider } from '../../payments/index';
import { checkoutPages } from './checkout.pages';
import { type HousekeepingResult, PAYPAL_HOUSEKEEPING } from './paypal-housekeeping';

// Stores take PayPal into their own account. Against the stand-in, over real HTTP.
let t: TestApp;
let paypal: PayPalStandIn;
let seller: string;
const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
const BN_CODE = 'STOREFRONT_SP_STANDIN';
const products: Record<string, string> = {};

const store = (tenantId: string) => ({
  tenantId,
  productStoreId: '9000',
  hostName: `${tenantId}.localhost`,
  viaDevAlias: false,
  origin: `http://${tenantId}.localhost`,
});

beforeAll(async () => {
  paypal = await startPayPalStandIn({ clientId: 'platform-client', clientSecret: 'platform-secret' });
  t = await createTestApp({
    config: {
      PAYPAL_BASE_URL: paypal.url,
      PAYPAL_CLIENT_ID: 'platform-client',
      PAYPAL_CLIENT_SECRET: 'platform-secret',
      PAYPAL_PARTNER_ID: paypal.partnerId,
      PAYPAL_BN_CODE: BN_CODE,
    },
  });
  seller = await connectStoreToPayPal(t, paypal, 'lighting');
  const p = schema.products;
  for (const tenantId of ['lighting', 'garden']) {
    const [row] = await t.database.db
      .select()
      .from(p)
      .where(and(eq(p.tenantId, tenantId), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
      .orderBy(asc(p.productId))
      .limit(1);
    if (!row) throw new Error(`no product in ${tenantId}`);
    products[tenantId] = row.productId;
  }
});
afterAll(async () => {
  await t?.close();
  await paypal?.close();
});
beforeEach(async () => {
  await disconnectStoreFromPayPal(t, 'garden');
  paypal.requests.length = 0;
});

const shipTo = {
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};
const checkoutBody = { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD' };

async function guestCart(host = LIGHTING, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host, ...headers },
    payload: { productId: products[host.split('.')[0] as string], quantity: 1 },
  });
  expect(res.statusCode).toBe(200);
  const set = [res.headers['set-cookie']].flat()[0];
  return (set ? String(set).split(';')[0] : headers.cookie) ?? '';
}
const create = (host: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/createPaypalOrder`,
    headers: { host, ...headers },
    payload: checkoutBody,
  });
const capture = (host: string, headers: Record<string, string>, paypalOrderId: string) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/capturePaypalOrder`,
    headers: { host, ...headers },
    payload: { paypalOrderId },
  });
async function approve(approveUrl: string) {
  const res = await fetch(approveUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
}
/** A guest pays a store with PayPal from cart to order; the order's row. */
async function guestPays(host: string) {
  const cookie = await guestCart(host);
  const created = await create(host, { cookie });
  expect(created.statusCode).toBe(200);
  const { paypalOrderId, approveUrl } = created.json().data;
  await approve(approveUrl);
  const res = await capture(host, { cookie }, paypalOrderId);
  expect(res.statusCode).toBe(200);
  const orderId = res.json().data.orderId as string;
  const [order] = await t.database.db
    .select()
    .from(schema.orders)
    .where(and(eq(schema.orders.tenantId, host.split('.')[0] as string), eq(schema.orders.orderId, orderId)));
  if (!order) throw new Error('no order');
  return { order, paypalOrderId };
}
/** The claims of a PayPal-Auth-Assertion (an unsigned JWT). */
const claims = (assertion: string | undefined) =>
  JSON.parse(Buffer.from(String(assertion).split('.')[1] ?? '', 'base64url').toString('utf8'));

/** The checkout page functions for a context, as the web app's loader and action call them. */
function pagesFor(ctx: RequestContext) {
  const page: PageRequest = { ctx, headers: {}, secure: false, assertFormFromStore() {}, cached: (_k, c) => c() };
  return checkoutPages({
    checkout: t.services.checkout,
    addresses: createAddressesService(t.database.db),
    cards: createCardsService(t.database.db, createTestPaymentProvider()),
  })(page);
}

describe('a connected store (orders on the seller’s behalf)', () => {
  it("a guest buys and PayPal's order names the seller as payee, the store as custom_id, our order as invoice_id", async () => {
    const { order, paypalOrderId } = await guestPays(LIGHTING);
    const atPayPal = paypal.orders.get(paypalOrderId);
    expect(atPayPal).toMatchObject({
      clientId: 'platform-client',
      payeeMerchantId: seller,
      customId: 'lighting',
      invoiceId: order.orderId,
      status: 'COMPLETED',
    });
    const createCall = paypal.requests.find((r) => r.method === 'POST' && r.path === '/v2/checkout/orders');
    expect(createCall?.headers['paypal-partner-attribution-id']).toBe(BN_CODE);
    expect(createCall?.headers['paypal-request-id']).toMatch(/^lighting:/);
    expect(createCall?.body).toMatchObject({
      purchase_units: [{ payee: { merchant_id: seller }, custom_id: 'lighting', invoice_id: order.orderId }],
    });
    // The capture names nobody else: the platform captures the order it created for the seller.
    const captureCall = paypal.requests.find((r) => r.path.endsWith('/capture'));
    expect(captureCall?.headers['paypal-partner-attribution-id']).toBe(BN_CODE);
    expect(order).toMatchObject({ status: 'paid', paymentProvider: 'paypal', paymentAccount: `merchant:${seller}` });
    const [checkout] = await t.database.db
      .select()
      .from(schema.paypalCheckouts)
      .where(eq(schema.paypalCheckouts.paypalOrderId, paypalOrderId));
    expect(checkout).toMatchObject({
      paymentAccount: `merchant:${seller}`,
      status: 'placed',
      orderId: order.orderId,
    });
    expect(checkout?.closedAt).toBeInstanceOf(Date);
  });

  it('a partial refund goes to PayPal acting for the seller (PayPal-Auth-Assertion), then the rest', async () => {
    const { order } = await guestPays(LIGHTING);
    const ctx = systemContext(store('lighting'), 'refund-test');
    const part = await t.services.refunds.refund(ctx, order.orderId, {
      amount: 300,
      lines: [],
      shipping: 0,
      reason: 'Dented',
    });
    expect(part).toMatchObject({ ok: true, fullyRefunded: false });
    const refundCall = paypal.requests.find((r) => r.path.endsWith('/refund'));
    expect(refundCall?.status).toBe(201);
    expect(claims(refundCall?.headers['paypal-auth-assertion'])).toEqual({ iss: 'platform-client', payer_id: seller });
    expect(refundCall?.headers['paypal-partner-attribution-id']).toBe(BN_CODE);
    expect(paypal.refunds.at(-1)).toMatchObject({
      captureId: order.paymentRef,
      amount: { currency_code: 'USD', value: '3.00' },
      invoiceId: order.orderId,
    });
    const rest = await t.services.refunds.refund(ctx, order.orderId, {
      amount: order.capturedAmount - 300,
      lines: [],
      shipping: 0,
      reason: '',
    });
    expect(rest).toMatchObject({ ok: true, fullyRefunded: true });
    expect(paypal.refunds.filter((r) => r.captureId === order.paymentRef)).toHaveLength(2);
  });
});

describe('a store that is not connected', () => {
  it('does not offer PayPal: the checkout page leaves it out and create is refused without calling PayPal', async () => {
    const cookie = await guestCart(GARDEN);
    const res = await create(GARDEN, { cookie });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('PayPal is not available in this store. Please pay by card.');
    expect(paypal.requests.filter((r) => r.path.startsWith('/v2/'))).toHaveLength(0);
    const garden = await pagesFor(systemContext(store('garden'), 'page')).checkout({});
    expect(garden.paypal).toBe(false);
    const lighting = await pagesFor(systemContext(store('lighting'), 'page')).checkout({});
    expect(lighting.paypal).toBe(true);
  });

  it('a store switched off in PP_CONFIG does not offer PayPal even when connected', async () => {
    await connectStoreToPayPal(t, paypal, 'garden');
    expect((await pagesFor(systemContext(store('garden'), 'page')).checkout({})).paypal).toBe(true);
    await t.database.db
      .insert(schema.paymentConfigs)
      .values({ tenantId: 'garden', configId: 'PP_CONFIG', enabled: false });
    t.services.events.emit('payments.changed', { tenantId: 'garden' });
    expect((await pagesFor(systemContext(store('garden'), 'page')).checkout({})).paypal).toBe(false);
    const cookie = await guestCart(GARDEN);
    expect((await create(GARDEN, { cookie })).statusCode).toBe(409);
  });
});

describe('a store with its own PayPal app', () => {
  it('pays into its own app; once the app is removed a refund is refused with the way to do it in PayPal', async () => {
    const own = await giveStoreOwnPayPalApp(t, paypal, 'garden', {
      clientId: 'garden-own-app',
      clientSecret: 'garden-own-secret',
    });
    const { order, paypalOrderId } = await guestPays(GARDEN);
    expect(paypal.orders.get(paypalOrderId)).toMatchObject({ clientId: 'garden-own-app', payeeMerchantId: own });
    expect(order.paymentAccount).toBe('app:garden-own-app');
    // Its own app, its own token: the platform's credentials are not used for it.
    const tokenCalls = paypal.requests.filter((r) => r.path === '/v1/oauth2/token');
    const basic = Buffer.from('garden-own-app:garden-own-secret').toString('base64');
    expect(tokenCalls.some((r) => r.headers.authorization === `Basic ${basic}`)).toBe(true);
    const createCall = paypal.requests.find((r) => r.method === 'POST' && r.path === '/v2/checkout/orders');
    expect(createCall?.body).not.toHaveProperty('purchase_units.0.payee');

    const ctx = systemContext(store('garden'), 'refund-test');
    const part = await t.services.refunds.refund(ctx, order.orderId, {
      amount: 100,
      lines: [],
      shipping: 0,
      reason: '',
    });
    expect(part).toMatchObject({ ok: true });
    const refundCall = paypal.requests.find((r) => r.path.endsWith('/refund'));
    expect(refundCall?.headers['paypal-auth-assertion']).toBeUndefined();

    await disconnectStoreFromPayPal(t, 'garden');
    const refused = await t.services.refunds.refund(ctx, order.orderId, {
      amount: 100,
      lines: [],
      shipping: 0,
      reason: '',
    });
    expect(refused).toMatchObject({ ok: false, code: 'REFUND_IN_PAYPAL' });
    if (refused.ok) return;
    expect(refused.message).toContain('refund it in that PayPal account');
    expect(paypal.refunds.filter((r) => r.captureId === order.paymentRef)).toHaveLength(1);
    // Nothing was written for the refused refund.
    const rows = await t.database.db
      .select()
      .from(schema.orderRefunds)
      .where(and(eq(schema.orderRefunds.tenantId, 'garden'), eq(schema.orderRefunds.orderId, order.orderId)));
    expect(rows).toHaveLength(1);
  });
});

describe('the checkout form with PayPal', () => {
  it('keeps the address a shopper asked to save, once the PayPal order is placed (and only then)', async () => {
    const session = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    const [user] = await t.database.db
      .select()
      .from(schema.users)
      .where(and(eq(schema.users.tenantId, 'lighting'), eq(schema.users.email, 'shopper@lighting.test')));
    if (!user) throw new Error('no shopper');
    await guestCart(LIGHTING, session);
    const ctx: RequestContext = {
      ...store('lighting'),
      actor: {
        kind: 'shopper',
        userId: user.userId,
        firstName: 'Shopper',
        userLoginId: 'shopper@lighting.test',
        session: { token: 'test', via: 'cookie' },
      },
      requestId: 'paypal-save-address',
      ip: null,
    };
    const pages = pagesFor(ctx);
    const street = `${Date.now() % 100000} PayPal Way`;
    const before = (await createAddressesService(t.database.db).list(ctx, user.userId)).length;
    const started = await pages.placeOrder({
      shipToContactMechId: 'new',
      saveAddress: 'on',
      ...shipTo,
      address1: street,
      shippingMethodId: 'STANDARD',
      paymentMethod: 'paypal',
      idempotencyKey: `save-address-${Date.now()}`,
    });
    expect(started).toMatchObject({ ok: true });
    if (!started.ok || !('approveUrl' in started) || !started.approveUrl) throw new Error('no approval URL');
    // Not saved while the shopper is at PayPal: they may never come back.
    expect(await createAddressesService(t.database.db).list(ctx, user.userId)).toHaveLength(before);
    await approve(started.approveUrl);
    const token = new URL(started.approveUrl).searchParams.get('token') as string;
    const placed = await pages.capturePayPal(token);
    expect(placed).toMatchObject({ ok: true });
    const after = await createAddressesService(t.database.db).list(ctx, user.userId);
    expect(after).toHaveLength(before + 1);
    expect(after.find((a) => a.address1 === street)).toMatchObject({ city: 'San Francisco', postalCode: '94105' });
    // Coming back twice (a reload) saves nothing more.
    expect(await pages.capturePayPal(token)).toMatchObject({ ok: true });
    expect(await createAddressesService(t.database.db).list(ctx, user.userId)).toHaveLength(before + 1);
  });
});

describe('housekeeping of abandoned PayPal checkouts', () => {
  async function housekeeping(tenantId = 'lighting') {
    const job = await t.services.jobs.enqueue(systemContext(store(tenantId), 'test'), {
      type: PAYPAL_HOUSEKEEPING,
      payload: {},
    });
    await t.services.jobs.drain();
    const done = await t.services.jobs.get(store(tenantId), job.id);
    expect(done?.status).toBe('succeeded');
    return done as NonNullable<typeof done> & { result: HousekeepingResult };
  }
  const aged = (paypalOrderId: string, hours: number) =>
    t.database.db
      .update(schema.paypalCheckouts)
      .set({ createdAt: new Date(Date.now() - hours * 3_600_000) })
      .where(eq(schema.paypalCheckouts.paypalOrderId, paypalOrderId));
  const row = async (paypalOrderId: string) =>
    (
      await t.database.db
        .select()
        .from(schema.paypalCheckouts)
        .where(eq(schema.paypalCheckouts.paypalOrderId, paypalOrderId))
    )[0];
  async function started(approved: boolean) {
    const cookie = await guestCart(LIGHTING);
    const created = (await create(LIGHTING, { cookie })).json().data as { paypalOrderId: string; approveUrl: string };
    if (approved) await approve(created.approveUrl);
    return created.paypalOrderId;
  }

  it('closes the never-paid ones, flags money PayPal took without an order, leaves the rest for the next run', async () => {
    await t.services.jobs.drain();
    await t.database.db.delete(schema.paypalCheckouts).where(eq(schema.paypalCheckouts.tenantId, 'lighting'));
    const notApproved = await started(false);
    const approvedOnly = await started(true);
    const capturedNoOrder = await started(true);
    const fresh = await started(false);
    // PayPal took the money (the shop's capture answer was lost and the shopper never came back).
    const platform = t.services.paymentAccounts.platform;
    if (!platform) throw new Error('no platform client');
    const captured = await platform.captureOrder(capturedNoOrder, 'test-capture-lost');
    if (!captured.ok) throw new Error('capture failed');
    for (const id of [notApproved, approvedOnly, capturedNoOrder]) await aged(id, 80);
    await aged(fresh, 2);

    // PayPal down: nothing is closed blind.
    paypal.failNextRequest(503);
    const outage = await housekeeping();
    expect(outage.progress?.errors).toHaveLength(1);
    const firstRun = [...outage.result.abandoned, ...outage.result.flagged];
    expect(firstRun).toHaveLength(2);

    const run = await housekeeping();
    const all = [...firstRun, ...run.result.abandoned, ...run.result.flagged].sort();
    expect(all).toEqual([notApproved, approvedOnly, capturedNoOrder].sort());
    expect([...outage.result.flagged, ...run.result.flagged]).toEqual([capturedNoOrder]);
    expect((await row(notApproved))?.status).toBe('abandoned');
    expect((await row(approvedOnly))?.status).toBe('abandoned');
    expect((await row(notApproved))?.closedAt).toBeInstanceOf(Date);
    expect((await row(capturedNoOrder))?.status).toBe('flagged');
    expect((await row(fresh))?.status).toBe('open');
    const issues = await t.database.db
      .select()
      .from(schema.paymentIssues)
      .where(
        and(eq(schema.paymentIssues.tenantId, 'lighting'), eq(schema.paymentIssues.paypalOrderId, capturedNoOrder)),
      );
    expect(issues).toEqual([
      expect.objectContaining({
        kind: 'capture_without_order',
        captureId: captured.captureId,
        amount: captured.amountMinor,
        currency: 'USD',
        status: 'open',
      }),
    ]);
    expect(issues[0]?.message).toMatch(/no order was placed here/);
    // A third run finds nothing left to do and writes no second issue.
    const again = await housekeeping();
    expect(again.result).toEqual({ abandoned: [], flagged: [], placed: [], left: [] });
  });
});
