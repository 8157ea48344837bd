import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { type PayPalStandIn, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { createStaff } from '../../../test/staff';

// The payments page (React Router's loader and action through the page server) as a browser without
// JavaScript sees it. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../../web/build', import.meta.url));
const host = 'garden.localhost';
const origin = `http://${host}`;
const PAGE = '/manage-store/payments';

let t: TestApp;
let paypal: PayPalStandIn;
let owner: BrowserSession;
let clerk: BrowserSession;
let shopper: BrowserSession;

beforeAll(async () => {
  paypal = await startPayPalStandIn({ clientId: 'platform-client', clientSecret: 'platform-secret' });
  t = await createTestApp({
    webBuildDir,
    config: {
      PAYPAL_BASE_URL: paypal.url,
      PAYPAL_CLIENT_ID: 'platform-client',
      PAYPAL_CLIENT_SECRET: 'platform-secret',
      PAYPAL_PARTNER_ID: paypal.partnerId,
    },
  });
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', host);
  await createStaff(t.database, 'garden', 'payments-pages-clerk@garden.test', ['orders']);
  clerk = await signIn(t.app, 'payments-pages-clerk@garden.test', 'owner-demo-1', host);
  shopper = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', host);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await paypal?.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.paypalSellerHistory);
  await t.database.db.delete(schema.paypalSellers);
  await t.database.db.delete(schema.paymentIssues);
  t.services.paymentAccounts.forget('garden');
  paypal.sellers.clear();
  paypal.requests.length = 0;
});

const get = (url: string, session: BrowserSession | null = owner) =>
  t.app.inject({ url, headers: { host, ...(session ? { cookie: session.cookie } : {}) } });
function post(fields: Record<string, string>, session: BrowserSession = owner, url = PAGE) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { host, origin, 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
    payload: new URLSearchParams({ _csrf: session['x-csrf-token'], ...fields }).toString(),
  });
}
/** The seller agrees on PayPal's page; the browser follows PayPal back to the store. */
async function agreeAndReturn(actionUrl: string) {
  const token = new URL(actionUrl).searchParams.get('referralToken') ?? '';
  const res = await fetch(actionUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ referralToken: token }).toString(),
    redirect: 'manual',
  });
  const back = new URL(res.headers.get('location') ?? '');
  return get(`${back.pathname}${back.search}`);
}

describe('the payments page without JavaScript', () => {
  it('shows the PayPal card with one action: Connect PayPal, what it does, and the settings link', async () => {
    const res = await get(PAGE);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Not connected');
    expect(res.body).toContain('Connect PayPal');
    expect(res.body).toContain('straight into your own PayPal business account');
    expect(res.body).toContain(`href="${PAGE}/settings"`);
    expect(res.body).not.toContain('need attention');
  });

  it('connect sends the browser to PayPal; the return lands on the page connected; disconnect behind a confirmation', async () => {
    const connect = await post({ intent: 'connect' });
    expect([302, 303]).toContain(connect.statusCode);
    const actionUrl = String(connect.headers.location);
    expect(actionUrl.startsWith(`${paypal.url}/bizsignup/partner/entry`)).toBe(true);
    const pending = await get(PAGE);
    expect(pending.body).toContain('Waiting for PayPal');
    expect(pending.body).toContain('Continue at PayPal');
    expect(pending.body).toContain('Check again');

    const back = await agreeAndReturn(actionUrl);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`${PAGE}?paypal=connected`);
    const connected = await get(`${PAGE}?paypal=connected`);
    expect(connected.body).toContain('PayPal is connected.');
    expect(connected.body).toContain('>Connected<');
    const merchantId = (
      await t.database.db.select().from(schema.paypalSellers).where(eq(schema.paypalSellers.tenantId, 'garden'))
    )[0]?.merchantId;
    expect(connected.body).toContain(merchantId);
    expect(connected.body).not.toContain('Disconnect PayPal?');

    const confirm = await get(`${PAGE}?confirm=disconnect`);
    expect(confirm.body).toContain('Disconnect PayPal?');
    expect(confirm.body).toContain('Keep connected');
    const off = await post({ intent: 'disconnect' });
    expect([302, 303]).toContain(off.statusCode);
    expect(off.headers.location).toBe(`${PAGE}?paypal=disconnected`);
    const after = await get(`${PAGE}?paypal=disconnected`);
    expect(after.body).toContain('>Disconnected<');
    expect(after.body).toContain('Checkout no longer offers PayPal');
  });

  it("action needed lists the steps PayPal still wants, in the owner's words", async () => {
    const connect = await post({ intent: 'connect' });
    paypal.nextSeller({ paymentsReceivable: false, emailConfirmed: false });
    await agreeAndReturn(String(connect.headers.location));
    const res = await get(`${PAGE}?paypal=action_needed`);
    expect(res.body).toContain('Action needed');
    expect(res.body).toContain('Your PayPal account cannot receive payments yet.');
    expect(res.body).toContain('Confirm your email address with PayPal');
    expect(res.body).toContain('Does not offer PayPal');
    const check = await post({ intent: 'check' });
    expect(check.statusCode).toBe(200);
    expect(check.body).toContain('PayPal needs a few more steps from you');
  });

  it('warns of open payment issues with their count and a link', async () => {
    for (const [issueId, status] of [
      ['i1', 'open'],
      ['i2', 'open'],
      ['i3', 'resolved'],
    ] as const) {
      await t.database.db.insert(schema.paymentIssues).values({
        tenantId: 'garden',
        issueId,
        kind: 'capture_without_order',
        message: 'A payment without an order',
        status,
      });
    }
    await t.database.db.insert(schema.paymentIssues).values({
      tenantId: 'lighting',
      issueId: 'other',
      kind: 'capture_without_order',
      message: 'Another store',
    });
    const res = await get(PAGE);
    expect(res.body).toContain('2 payments need attention');
    expect(res.body).toContain(`href="${PAGE}/issues"`);
  });

  it('a visitor goes to login and back; a shopper and staff without payments are refused', async () => {
    const visitor = await get(PAGE, null);
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toContain('/auth/login?redirectUrl=');
    expect((await get(PAGE, shopper)).statusCode).toBe(403);
    expect((await get(PAGE, clerk)).statusCode).toBe(403);
    const refused = await post({ intent: 'connect' }, clerk);
    expect(refused.statusCode).toBe(403);
    expect(paypal.requests.filter((r) => r.path === '/v2/customer/partner-referrals')).toHaveLength(0);
  });
});
