import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crc32, type PayPalStandIn, startPayPalStandIn } from './paypal-stand-in';

// Self-tests of the stand-in's partner side, by plain HTTP as PayPal's own documentation shows it:
// what other suites rely on (refusals, shapes, signatures) is pinned here.
const PLATFORM = { clientId: 'platform-app', clientSecret: 'platform-secret' };
const STORE = { clientId: 'store-own-app', clientSecret: 'store-secret' };
const RETURN_URL = 'https://platform.test/manage-store/paypal/return?store=t-1';

let paypal: PayPalStandIn;
let storeMerchantId: string;
let platformToken: string;
let storeToken: string;

/** What a webhook receiver got. */
interface Received {
  headers: Record<string, string | string[] | undefined>;
  raw: string;
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

async function tokenFor(app: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(`${paypal.url}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

// biome-ignore lint/suspicious/noExplicitAny: PayPal's JSON answers, read field by field in the assertions.
type Json = any;

async function call(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${paypal.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${opts.token ?? platformToken}`,
      ...(opts.body === undefined && method === 'GET' ? {} : { 'Content-Type': 'application/json' }),
      ...opts.headers,
    },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const assertion = (iss: string, payerId: string) =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss, payer_id: payerId })).toString('base64url')}.`;

const referralBody = (trackingId: string) => ({
  tracking_id: trackingId,
  operations: [
    {
      operation: 'API_INTEGRATION',
      api_integration_preference: {
        rest_api_integration: {
          integration_method: 'PAYPAL',
          integration_type: 'THIRD_PARTY',
          third_party_details: { features: ['PAYMENT', 'REFUND'] },
        },
      },
    },
  ],
  products: ['EXPRESS_CHECKOUT'],
  legal_consents: [{ type: 'SHARE_DATA_CONSENT', granted: true }],
  partner_config_override: { return_url: RETURN_URL },
});

async function referral(trackingId: string): Promise<string> {
  const { status, body } = await call('POST', '/v2/customer/partner-referrals', { body: referralBody(trackingId) });
  expect(status).toBe(201);
  return body.links.find((l: { rel: string }) => l.rel === 'action_url').href;
}

/** The seller agrees on the sign-up page; returns where PayPal sends them back. */
async function signUp(trackingId: string): Promise<URL> {
  const action = await referral(trackingId);
  const token = new URL(action).searchParams.get('referralToken')!;
  const res = await fetch(action, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ referralToken: token }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

const orderBody = (unit: Record<string, unknown> = {}) => ({
  intent: 'CAPTURE',
  purchase_units: [{ reference_id: 'o-1', amount: { currency_code: 'USD', value: '25.00' }, ...unit }],
  payment_source: {
    paypal: { experience_context: { return_url: 'https://shop.test/r', cancel_url: 'https://shop.test/c' } },
  },
});

/** Creates and approves an order; returns its id. */
async function approvedOrder(unit: Record<string, unknown>, token = platformToken): Promise<string> {
  const created = await call('POST', '/v2/checkout/orders', { token, body: orderBody(unit) });
  expect(created.status).toBe(201);
  const res = await fetch(`${paypal.url}/checkoutnow?token=${created.body.id}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return created.body.id;
}

async function capture(orderId: string, headers: Record<string, string> = {}) {
  return call('POST', `/v2/checkout/orders/${orderId}/capture`, { headers: { ...headers } });
}

beforeAll(async () => {
  paypal = await startPayPalStandIn({ ...PLATFORM, partnerId: 'PARTNERTEST01' });
  storeMerchantId = paypal.addApp(STORE).merchantId;
  platformToken = await tokenFor(PLATFORM);
  storeToken = await tokenFor(STORE);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/paypal`;
});
afterAll(async () => {
  await paypal.close();
  await new Promise<void>((r) => {
    receiver.close(() => r());
    receiver.closeAllConnections();
  });
});
beforeEach(() => {
  paypal.setWebhookUrl(undefined);
});

describe('PayPal stand-in: partner referrals and the sign-up page', () => {
  it('gives an action_url to a page that connects the seller and returns with the documented query', async () => {
    const created = await call('POST', '/v2/customer/partner-referrals', { body: referralBody('tenant-signup') });
    expect(created.status).toBe(201);
    const rels = created.body.links.map((l: { rel: string }) => l.rel);
    expect(rels).toEqual(['self', 'action_url']);
    const self = created.body.links[0].href as string;
    expect((await call('GET', new URL(self).pathname)).body.referral_data.tracking_id).toBe('tenant-signup');

    const action = created.body.links[1].href as string;
    const page = await fetch(action);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Connect your PayPal account</h1>');
    expect(html).toContain('tenant-signup');
    expect(html).toMatch(/<form method="post"[^>]*>/);
    expect(html).toContain('<button type="submit">Agree and connect</button>');
    expect(html).toContain(`<a href="${RETURN_URL.replace('&', '&amp;')}">Cancel</a>`);

    const token = new URL(action).searchParams.get('referralToken')!;
    const posted = await fetch(action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `referralToken=${encodeURIComponent(token)}`,
      redirect: 'manual',
    });
    expect(posted.status).toBe(302);
    const back = new URL(posted.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('https://platform.test/manage-store/paypal/return');
    const q = Object.fromEntries(back.searchParams);
    expect(q).toEqual({
      store: 't-1',
      merchantId: 'tenant-signup',
      merchantIdInPayPal: expect.stringMatching(/^[A-Z0-9]{13}$/),
      permissionsGranted: 'true',
      consentStatus: 'true',
      productIntentId: 'addipmt',
      isEmailConfirmed: 'true',
      accountStatus: 'BUSINESS_ACCOUNT',
    });
    const seller = paypal.sellers.get(q.merchantIdInPayPal!)!;
    expect(seller).toMatchObject({ trackingId: 'tenant-signup', consent: true, paymentsReceivable: true });

    // The same store signing up again gets the same PayPal account.
    const again = await signUp('tenant-signup');
    expect(again.searchParams.get('merchantIdInPayPal')).toBe(q.merchantIdInPayPal);
  });

  it('shows a not-found page for an unknown referral token', async () => {
    const res = await fetch(`${paypal.url}/bizsignup/partner/entry?referralToken=nope`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('no longer valid');
  });

  it('refuses a malformed referral naming the field, and a store app', async () => {
    const cases: [unknown, string][] = [
      [{ ...referralBody('x'), tracking_id: undefined }, '/tracking_id'],
      [{ ...referralBody('x'), tracking_id: 'x'.repeat(128) }, '/tracking_id'],
      [{ ...referralBody('x'), operations: [] }, '/operations'],
      [{ ...referralBody('x'), products: ['NOPE'] }, '/products/0'],
      [{ ...referralBody('x'), products: undefined }, '/products'],
      [{ ...referralBody('x'), legal_consents: undefined }, '/legal_consents'],
      [
        {
          ...referralBody('x'),
          operations: [
            {
              operation: 'API_INTEGRATION',
              api_integration_preference: {
                rest_api_integration: { integration_method: 'PAYPAL', integration_type: 'THIRD_PARTY' },
              },
            },
          ],
        },
        '/operations/0/api_integration_preference/rest_api_integration/third_party_details/features',
      ],
      [
        { ...referralBody('x'), partner_config_override: { return_url: 'javascript:alert(1)' } },
        '/partner_config_override/return_url',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/v2/customer/partner-referrals', { body });
      expect(res.status, field).toBe(400);
      expect(res.body.name).toBe('INVALID_REQUEST');
      expect(res.body.details[0].field).toBe(field);
    }
    const store = await call('POST', '/v2/customer/partner-referrals', { token: storeToken, body: referralBody('x') });
    expect(store.status).toBe(403);
    expect(store.body.name).toBe('PERMISSION_DENIED');
    expect(store.body.message).toBe('You do not have permission to access or perform operations on this resource.');
  });
});

describe('PayPal stand-in: merchant integrations', () => {
  const integration = (merchantId: string, partnerId = paypal.partnerId, token = platformToken) =>
    call('GET', `/v1/customer/partners/${partnerId}/merchant-integrations/${merchantId}`, { token });

  it('reports a connected seller as PayPal documents it', async () => {
    const back = await signUp('tenant-status');
    const merchantId = back.searchParams.get('merchantIdInPayPal')!;
    const { status, body } = await integration(merchantId);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      merchant_id: merchantId,
      tracking_id: 'tenant-status',
      payments_receivable: true,
      primary_email_confirmed: true,
      primary_email: expect.stringContaining('@'),
      legal_name: expect.any(String),
      products: [{ name: 'EXPRESS_CHECKOUT', vetting_status: 'SUBSCRIBED', capabilities: expect.any(Array) }],
      capabilities: expect.arrayContaining([{ name: 'PAYPAL_CHECKOUT', status: 'ACTIVE' }]),
      oauth_integrations: [
        {
          integration_type: 'OAUTH_THIRD_PARTY',
          integration_method: 'PAYPAL',
          oauth_third_party: [
            {
              partner_client_id: PLATFORM.clientId,
              merchant_client_id: expect.any(String),
              scopes: expect.arrayContaining(['https://uri.paypal.com/services/payments/refund']),
            },
          ],
        },
      ],
    });

    const found = await call(
      'GET',
      `/v1/customer/partners/${paypal.partnerId}/merchant-integrations?tracking_id=tenant-status`,
    );
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ merchant_id: merchantId, tracking_id: 'tenant-status' });
    expect(found.body.links[0].href).toContain(`/merchant-integrations/${merchantId}`);
  });

  it('applies nextSeller to the next sign-up only', async () => {
    paypal.nextSeller({ paymentsReceivable: false, emailConfirmed: false, consent: false });
    const limited = await signUp('tenant-limited');
    expect(limited.searchParams.get('isEmailConfirmed')).toBe('false');
    expect(limited.searchParams.get('permissionsGranted')).toBe('false');
    const { body } = await integration(limited.searchParams.get('merchantIdInPayPal')!);
    expect(body.payments_receivable).toBe(false);
    expect(body.primary_email_confirmed).toBe(false);
    expect(body.oauth_integrations).toEqual([]);
    expect(body.capabilities).toContainEqual({ name: 'PAYPAL_CHECKOUT', status: 'SUSPENDED' });

    const next = await signUp('tenant-after-limited');
    expect(next.searchParams.get('isEmailConfirmed')).toBe('true');
    expect((await integration(next.searchParams.get('merchantIdInPayPal')!)).body.payments_receivable).toBe(true);
  });

  it('follows addSeller, updateSeller and revokeConsent', async () => {
    const merchantId = paypal.addSeller({ trackingId: 'tenant-knobs', emailConfirmed: false });
    expect((await integration(merchantId)).body.primary_email_confirmed).toBe(false);
    paypal.updateSeller(merchantId, { emailConfirmed: true, paymentsReceivable: false });
    const updated = (await integration(merchantId)).body;
    expect(updated.primary_email_confirmed).toBe(true);
    expect(updated.payments_receivable).toBe(false);
    expect(updated.oauth_integrations).toHaveLength(1);
    paypal.revokeConsent(merchantId);
    expect((await integration(merchantId)).body.oauth_integrations).toEqual([]);
  });

  it('answers 404 for another partner id or an unknown seller, 403 for a store app', async () => {
    const merchantId = paypal.addSeller({ trackingId: 'tenant-404' });
    expect((await integration(merchantId, 'OTHERPARTNER1')).body.name).toBe('RESOURCE_NOT_FOUND');
    expect((await integration(merchantId, 'OTHERPARTNER1')).status).toBe(404);
    expect((await integration('UNKNOWNSELLER')).status).toBe(404);
    const missing = await call(
      'GET',
      `/v1/customer/partners/${paypal.partnerId}/merchant-integrations?tracking_id=nobody`,
    );
    expect(missing.status).toBe(404);
    expect((await integration(merchantId, paypal.partnerId, storeToken)).status).toBe(403);
  });
});

describe('PayPal stand-in: orders with a payee', () => {
  it('refuses a payee that is unknown, has not consented or cannot receive payments', async () => {
    const unconsented = paypal.addSeller({ trackingId: 'tenant-nc', consent: false });
    const restricted = paypal.addSeller({ trackingId: 'tenant-rs', paymentsReceivable: false });
    const consented = paypal.addSeller({ trackingId: 'tenant-ok' });
    const cases: [string, string, string?][] = [
      ['NOSUCHSELLER1', 'PAYEE_ACCOUNT_INVALID'],
      [unconsented, 'PAYEE_NOT_CONSENTED'],
      [restricted, 'PAYEE_ACCOUNT_RESTRICTED'],
      // A seller's consent is the platform's, not another app's.
      [consented, 'PAYEE_NOT_CONSENTED', storeToken],
    ];
    for (const [merchantId, issue, token] of cases) {
      const res = await call('POST', '/v2/checkout/orders', {
        token: token ?? platformToken,
        body: orderBody({ payee: { merchant_id: merchantId } }),
      });
      expect(res.status, issue).toBe(422);
      expect(res.body.name).toBe('UNPROCESSABLE_ENTITY');
      expect(res.body.details[0].issue).toBe(issue);
      expect(res.body.details[0].field).toContain('/payee/merchant_id');
    }
  });

  it('keeps the payee, custom_id and invoice_id and hands them back; orders belong to their app', async () => {
    const seller = paypal.addSeller({ trackingId: 'tenant-payee' });
    const created = await call('POST', '/v2/checkout/orders', {
      body: orderBody({ payee: { merchant_id: seller }, custom_id: 'tenant-payee', invoice_id: 'inv-1' }),
      headers: { 'PayPal-Partner-Attribution-Id': 'PLATFORM_BN' },
    });
    expect(created.status).toBe(201);
    const last = paypal.requests.at(-1)!;
    expect(last.headers['paypal-partner-attribution-id']).toBe('PLATFORM_BN');
    const got = await call('GET', `/v2/checkout/orders/${created.body.id}`);
    expect(got.body.purchase_units[0]).toMatchObject({
      payee: { merchant_id: seller },
      custom_id: 'tenant-payee',
      invoice_id: 'inv-1',
    });

    const own = await call('POST', '/v2/checkout/orders', { token: storeToken, body: orderBody() });
    const ownGot = await call('GET', `/v2/checkout/orders/${own.body.id}`, { token: storeToken });
    expect(ownGot.body.purchase_units[0].payee.merchant_id).toBe(storeMerchantId);
    const platformOwn = await call('POST', '/v2/checkout/orders', { body: orderBody() });
    expect(
      (await call('GET', `/v2/checkout/orders/${platformOwn.body.id}`)).body.purchase_units[0].payee.merchant_id,
    ).toBe('PARTNERTEST01');
    // Another app's order does not exist for this one.
    const foreign = await call('GET', `/v2/checkout/orders/${own.body.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.name).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('PayPal stand-in: PayPal-Auth-Assertion', () => {
  it('refuses a malformed assertion (400) and one for a seller that did not consent to the caller (403)', async () => {
    const seller = paypal.addSeller({ trackingId: 'tenant-assert' });
    const unconsented = paypal.addSeller({ trackingId: 'tenant-assert-nc', consent: false });
    const id = await approvedOrder({ payee: { merchant_id: seller } });
    const get = (value: string, token = platformToken) =>
      call('GET', `/v2/checkout/orders/${id}`, { token, headers: { 'PayPal-Auth-Assertion': value } });

    for (const bad of ['not-a-jwt', 'a.b.c', `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.e30.`]) {
      const res = await get(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.name).toBe('INVALID_REQUEST');
    }
    expect((await get(assertion('someone-else', seller))).status).toBe(403);
    expect((await get(assertion(PLATFORM.clientId, unconsented))).status).toBe(403);
    expect((await get(assertion(STORE.clientId, seller), storeToken)).status).toBe(403);
    const ok = await get(assertion(PLATFORM.clientId, seller));
    expect(ok.status).toBe(200);
    expect(ok.body.purchase_units[0].payee.merchant_id).toBe(seller);
    // An assertion for another (consented) seller reaches none of this seller's orders.
    const other = paypal.addSeller({ trackingId: 'tenant-assert-other' });
    const wrong = await get(assertion(PLATFORM.clientId, other));
    expect(wrong.status).toBe(403);
    expect(wrong.body.name).toBe('PERMISSION_DENIED');
  });

  it('captures a payee order without an assertion but refunds it only for that seller', async () => {
    const seller = paypal.addSeller({ trackingId: 'tenant-refund' });
    const other = paypal.addSeller({ trackingId: 'tenant-refund-other' });
    const id = await approvedOrder({ payee: { merchant_id: seller } });
    const captured = await capture(id);
    expect(captured.status).toBe(201);
    const captureId = captured.body.purchase_units[0].payments.captures[0].id;
    const refund = (headers: Record<string, string> = {}) =>
      call('POST', `/v2/payments/captures/${captureId}/refund`, {
        body: { amount: { currency_code: 'USD', value: '5.00' } },
        headers,
      });
    const without = await refund();
    expect(without.status).toBe(403);
    expect(without.body.name).toBe('PERMISSION_DENIED');
    expect((await refund({ 'PayPal-Auth-Assertion': assertion(PLATFORM.clientId, other) })).status).toBe(403);
    const ok = await refund({ 'PayPal-Auth-Assertion': assertion(PLATFORM.clientId, seller) });
    expect(ok.status).toBe(201);
    expect(ok.body.status).toBe('COMPLETED');

    // A capture with an assertion for another seller is refused too.
    const second = await approvedOrder({ payee: { merchant_id: seller } });
    expect((await capture(second, { 'PayPal-Auth-Assertion': assertion(PLATFORM.clientId, other) })).status).toBe(403);
    expect((await capture(second, { 'PayPal-Auth-Assertion': assertion(PLATFORM.clientId, seller) })).status).toBe(201);
  });
});

describe('PayPal stand-in: webhooks', () => {
  const verify = (d: { headers: Record<string, string>; event: unknown }, overrides: Record<string, unknown> = {}) =>
    call('POST', '/v1/notifications/verify-webhook-signature', {
      body: {
        auth_algo: d.headers['paypal-auth-algo'],
        cert_url: d.headers['paypal-cert-url'],
        transmission_id: d.headers['paypal-transmission-id'],
        transmission_sig: d.headers['paypal-transmission-sig'],
        transmission_time: d.headers['paypal-transmission-time'],
        webhook_id: paypal.webhookId,
        webhook_event: d.event,
        ...overrides,
      },
    });

  it('computes CRC-32 as zlib does', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('signs a delivered event so verify-webhook-signature says SUCCESS, and FAILURE for a forged or edited one', async () => {
    const seller = paypal.addSeller({ trackingId: 'tenant-hook' });
    const from = received.length;
    const delivery = await paypal.deliverWebhook(receiverUrl, paypal.onboardingCompletedEvent(seller));
    expect(delivery.status).toBe(200);
    expect(delivery.responseBody).toBe('ok');
    const got = received[from]!;
    expect(got.raw).toBe(delivery.rawBody);
    expect(got.headers['paypal-auth-algo']).toBe('SHA256withRSA');
    expect(got.headers['paypal-cert-url']).toMatch(new RegExp(`^${paypal.url}/v1/notifications/certs/CERT-`));
    expect(got.headers['paypal-transmission-id']).toBeTruthy();
    const event = JSON.parse(got.raw);
    expect(event).toMatchObject({
      id: expect.stringMatching(/^WH-/),
      event_version: '1.0',
      event_type: 'MERCHANT.ONBOARDING.COMPLETED',
      resource_type: 'merchant-onboarding',
      resource: { merchant_id: seller, tracking_id: 'tenant-hook', partner_client_id: PLATFORM.clientId },
    });

    // The receiver passes the parsed event back: the same bytes, so the same signature.
    const ok = await verify({ headers: delivery.headers, event });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ verification_status: 'SUCCESS' });

    const edited = { ...event, resource: { ...event.resource, merchant_id: 'SOMEONEELSE01' } };
    expect((await verify({ headers: delivery.headers, event: edited })).body.verification_status).toBe('FAILURE');
    expect(
      (await verify({ headers: delivery.headers, event }, { webhook_id: 'WH-OTHER' })).body.verification_status,
    ).toBe('FAILURE');
    // A certificate from anywhere but PayPal proves nothing.
    expect(
      (await verify({ headers: delivery.headers, event }, { cert_url: 'https://attacker.test/cert.pem' })).body
        .verification_status,
    ).toBe('FAILURE');
    const forged = await paypal.deliverWebhook(receiverUrl, paypal.onboardingCompletedEvent(seller), { forge: true });
    expect((await verify(forged)).body.verification_status).toBe('FAILURE');

    const missing = await verify(delivery, { transmission_sig: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toBe('/transmission_sig');

    // A replay is the exact same request.
    const before = received.length;
    const replay = await paypal.redeliver(delivery);
    expect(replay.status).toBe(200);
    expect(received[before]!.raw).toBe(delivery.rawBody);
    expect(received[before]!.headers['paypal-transmission-sig']).toBe(delivery.headers['paypal-transmission-sig']);
    expect(paypal.webhookDeliveries.slice(-1)[0]).toBe(replay);
  });

  it('sends its own webhooks for onboarding, captures (completed and denied), refunds and revoked consent', async () => {
    paypal.setWebhookUrl(receiverUrl);
    const from = paypal.webhookDeliveries.length;
    const back = await signUp('tenant-auto');
    const seller = back.searchParams.get('merchantIdInPayPal')!;
    const id = await approvedOrder({
      payee: { merchant_id: seller },
      custom_id: 'tenant-auto',
      invoice_id: 'inv-auto',
    });
    const captured = await capture(id);
    const captureId = captured.body.purchase_units[0].payments.captures[0].id;
    const refunded = await call('POST', `/v2/payments/captures/${captureId}/refund`, {
      body: {},
      headers: { 'PayPal-Auth-Assertion': assertion(PLATFORM.clientId, seller) },
    });
    expect(refunded.status).toBe(201);
    paypal.declineNextCapture('capture');
    const declined = await approvedOrder({ payee: { merchant_id: seller }, custom_id: 'tenant-auto' });
    expect((await capture(declined)).status).toBe(201);
    paypal.revokeConsent(seller);
    // A store's own app's payments are not the platform's to be told about.
    const ownOrder = await approvedOrder({}, storeToken);
    expect((await call('POST', `/v2/checkout/orders/${ownOrder}/capture`, { token: storeToken })).status).toBe(201);
    await paypal.settleWebhooks();

    const sent = paypal.webhookDeliveries.slice(from);
    expect(sent.map((d) => d.event.event_type)).toEqual([
      'MERCHANT.ONBOARDING.COMPLETED',
      'PAYMENT.CAPTURE.COMPLETED',
      'PAYMENT.CAPTURE.REFUNDED',
      'PAYMENT.CAPTURE.DENIED',
      'MERCHANT.PARTNER-CONSENT.REVOKED',
    ]);
    expect(sent.every((d) => d.status === 200)).toBe(true);
    expect(sent[1]!.event.resource).toMatchObject({
      id: captureId,
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '25.00' },
      final_capture: true,
      custom_id: 'tenant-auto',
      invoice_id: 'inv-auto',
      payee: { merchant_id: seller },
      supplementary_data: { related_ids: { order_id: id } },
    });
    expect(sent[2]!.event.resource).toMatchObject({
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '25.00' },
      custom_id: 'tenant-auto',
      invoice_id: 'inv-auto',
      links: expect.arrayContaining([
        { href: `${paypal.url}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ]),
    });
    expect(sent[3]!.event.resource).toMatchObject({ status: 'DECLINED', custom_id: 'tenant-auto' });
    expect(sent[4]!.event.resource).toMatchObject({ merchant_id: seller, tracking_id: 'tenant-auto' });
    for (const d of sent) {
      expect((await verify({ headers: d.headers, event: JSON.parse(d.rawBody) })).body.verification_status).toBe(
        'SUCCESS',
      );
    }
  });
});
