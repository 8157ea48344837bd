import { fileURLToPath } from 'node:url';
import { PAYPAL_CONFIG_ID } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { type PayPalStandIn, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { createStaff } from '../../../test/staff';

// The PayPal settings page's form posts (React Router's action through the page server), as a
// browser without JavaScript sends them. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../../web/build', import.meta.url));
const host = 'lighting.localhost';
const origin = `http://${host}`;
const PAGE = '/manage-store/payments/settings';
const OWN_ID = 'lighting-page-app-0001';
const OWN_SECRET = 'page-secret-Kd83nQ0pWz';
const WRONG_SECRET = 'wrong-secret-Pq02mZx';

let t: TestApp;
let paypal: PayPalStandIn;
let owner: BrowserSession;
let catalogStaff: BrowserSession;

beforeAll(async () => {
  paypal = await startPayPalStandIn({ clientId: 'platform-client', clientSecret: 'platform-secret' });
  paypal.addApp({ clientId: OWN_ID, clientSecret: OWN_SECRET });
  t = await createTestApp({ webBuildDir, config: { PAYPAL_BASE_URL: paypal.url } });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
  await createStaff(t.database, 'lighting', 'ppconfig-pages-catalog@lighting.test', ['catalog']);
  catalogStaff = await signIn(t.app, 'ppconfig-pages-catalog@lighting.test', 'owner-demo-1', host);
  // The web build loads with the app: slow on a busy machine.
}, 180_000);
afterAll(async () => {
  await t?.close();
  await paypal?.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.paymentConfigs);
});

function post(fields: Record<string, string>, session: BrowserSession = owner) {
  return t.app.inject({
    method: 'POST',
    url: PAGE,
    headers: { host, origin, 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
    payload: new URLSearchParams({ _csrf: session['x-csrf-token'], ...fields }).toString(),
  });
}
const open = (session: BrowserSession | null = owner) =>
  t.app.inject({ url: PAGE, headers: { host, ...(session ? { cookie: session.cookie } : {}) } });

async function row() {
  const [r] = await t.database.db
    .select()
    .from(schema.paymentConfigs)
    .where(and(eq(schema.paymentConfigs.tenantId, 'lighting'), eq(schema.paymentConfigs.configId, PAYPAL_CONFIG_ID)));
  return r;
}

describe('the PayPal settings page without JavaScript', () => {
  it('shows the settings to the owner; staff without payments get 403, a visitor the login', async () => {
    const page = await open();
    expect(page.statusCode).toBe(200);
    for (const text of ['PayPal settings', 'Offer PayPal at checkout', 'Use your own PayPal app', 'Payments']) {
      expect(page.body).toContain(text);
    }
    expect(page.body).toContain('No PayPal seller account is connected.');
    expect((await open(catalogStaff)).statusCode).toBe(403);
    const visitor = await open(null);
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toContain('/auth/login');
  });

  it('saves an own app: the secret is sealed and never written into a page, the field stays empty', async () => {
    const saved = await post({
      intent: 'save',
      enabled: 'on',
      environment: 'sandbox',
      clientId: OWN_ID,
      clientSecret: OWN_SECRET,
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(200);
    expect(saved.body).toContain('PayPal settings saved.');
    expect(saved.body).not.toContain(OWN_SECRET);
    expect(await row()).toMatchObject({ ownClientId: OWN_ID, enabled: true, environment: 'sandbox' });
    const page = await open();
    expect(page.body).toContain(OWN_ID);
    expect(page.body).toContain('Stored. Leave empty to keep it.');
    expect(page.body).toContain('Remove own app');
    expect(page.body).not.toContain(OWN_SECRET);
    expect(page.body).not.toContain((await row())?.ownClientSecretSealed);
    // The secret input carries no value.
    expect(page.body).toMatch(/<input[^>]*name="clientSecret"[^>]*value=""/);
  });

  it('keeps the stored secret when the field is left empty, and switches PayPal off', async () => {
    await post({ intent: 'save', enabled: 'on', environment: 'sandbox', clientId: OWN_ID, clientSecret: OWN_SECRET });
    const sealed = (await row())?.ownClientSecretSealed;
    // The unticked switch is not posted at all.
    const off = await post({ intent: 'save', environment: 'sandbox', clientId: OWN_ID, clientSecret: '' });
    expect(off.statusCode).toBe(200);
    expect(await row()).toMatchObject({ enabled: false, ownClientId: OWN_ID, ownClientSecretSealed: sealed });
  });

  it('shows PayPal’s refusal next to the secret, keeps the client id typed, and never echoes the secret', async () => {
    const refused = await post({
      intent: 'save',
      enabled: 'on',
      environment: 'sandbox',
      clientId: 'someone-elses-app-77',
      clientSecret: WRONG_SECRET,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('PayPal refused this client id and secret.');
    expect(refused.body).toContain('someone-elses-app-77');
    expect(refused.body).not.toContain(WRONG_SECRET);
    expect(await row()).toBeUndefined();
    const noSecret = await post({ intent: 'save', enabled: 'on', environment: 'sandbox', clientId: OWN_ID });
    expect(noSecret.statusCode).toBe(422);
    expect(noSecret.body).toContain('Enter the secret that goes with this client id.');
    const short = await post({
      intent: 'save',
      enabled: 'on',
      environment: 'sandbox',
      clientId: 'x',
      clientSecret: 'y',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('The client id is at least 10 characters.');
    expect(await row()).toBeUndefined();
  });

  it('removes the own app', async () => {
    await post({ intent: 'save', enabled: 'on', environment: 'sandbox', clientId: OWN_ID, clientSecret: OWN_SECRET });
    const removed = await post({ intent: 'remove-app' });
    expect(removed.statusCode).toBe(200);
    expect(removed.body).toContain('Your own PayPal app was removed.');
    expect(await row()).toMatchObject({ ownClientId: null, ownClientSecretSealed: null });
  });

  it('refuses a form post from staff without the payments permission', async () => {
    const res = await post(
      { intent: 'save', environment: 'sandbox', clientId: OWN_ID, clientSecret: OWN_SECRET },
      catalogStaff,
    );
    expect(res.statusCode).toBe(403);
    expect(await row()).toBeUndefined();
  });
});
