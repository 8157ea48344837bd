import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../lib/errors';
import { createPayPalClient } from './paypal-client';
import {
  approve,
  CLIENT_ID,
  CLIENT_SECRET,
  order,
  paypal,
  rejection,
  sent,
  usePayPalStandIn,
} from './paypal-client-test-setup';

usePayPalStandIn();

describe('PayPal client: partner (platform) calls', () => {
  const BN_CODE = 'PLATFORM_SP_PPCP';
  const partner = () =>
    createPayPalClient({
      baseUrl: paypal.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      partnerAttributionId: BN_CODE,
    });
  const RETURN = 'https://platform.test/manage-store/settings/payments/paypal/return';

  /** The seller agrees on PayPal's sign-up page; returns the merchant id PayPal hands back. */
  async function signUp(actionUrl: string): Promise<string> {
    const page = await fetch(actionUrl);
    expect(page.status).toBe(200);
    const res = await fetch(actionUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `referralToken=${encodeURIComponent(new URL(actionUrl).searchParams.get('referralToken')!)}`,
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!).searchParams.get('merchantIdInPayPal')!;
  }

  /** Every error text an operator or a shopper could see. */
  const errorText = (err: AppError) => `${err.message} ${JSON.stringify(err.errors)} ${String(err.cause)}`;

  it('creates a partner referral as documented and sends the attribution id on every call', async () => {
    const from = paypal.requests.length;
    const pp = partner();
    const made = await pp.createPartnerReferral({
      trackingId: 'tenant-ref-1',
      returnUrl: RETURN,
      email: 'owner@lighting.test',
      requestId: randomUUID(),
    });
    expect(made.referralId).toBeTruthy();
    expect(made.actionUrl).toMatch(new RegExp(`^${paypal.url}/bizsignup/partner/entry\\?referralToken=`));
    const [call] = sent(from, '/v2/customer/partner-referrals', 'POST');
    expect(call!.body).toEqual({
      email: 'owner@lighting.test',
      tracking_id: 'tenant-ref-1',
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
      partner_config_override: { return_url: RETURN },
    });

    const merchantId = await signUp(made.actionUrl);
    expect(await pp.findMerchantByTrackingId(paypal.partnerId, 'tenant-ref-1')).toEqual({ merchantId });
    expect(await pp.getMerchantIntegration(paypal.partnerId, merchantId)).toEqual({
      merchantId,
      trackingId: 'tenant-ref-1',
      paymentsReceivable: true,
      primaryEmailConfirmed: true,
      primaryEmail: 'owner@lighting.test',
      legalName: expect.any(String),
      oauthIntegrations: [
        {
          integrationType: 'OAUTH_THIRD_PARTY',
          partnerClientId: CLIENT_ID,
          scopes: expect.arrayContaining(['https://uri.paypal.com/services/payments/refund']),
        },
      ],
      products: [{ name: 'EXPRESS_CHECKOUT', vettingStatus: 'SUBSCRIBED' }],
      capabilities: expect.arrayContaining([{ name: 'PAYPAL_CHECKOUT', status: 'ACTIVE' }]),
    });

    const calls = paypal.requests.slice(from).filter((r) => !r.path.startsWith('/bizsignup'));
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const r of calls) expect(r.headers['paypal-partner-attribution-id'], r.path).toBe(BN_CODE);
  });

  it('reads a limited seller, a revoked consent, and null for an unknown seller or tracking id', async () => {
    const pp = partner();
    const limited = paypal.addSeller({ trackingId: 'tenant-ref-2', paymentsReceivable: false, emailConfirmed: false });
    const got = await pp.getMerchantIntegration(paypal.partnerId, limited);
    expect(got).toMatchObject({ paymentsReceivable: false, primaryEmailConfirmed: false });
    paypal.revokeConsent(limited);
    expect((await pp.getMerchantIntegration(paypal.partnerId, limited))!.oauthIntegrations).toEqual([]);
    expect(await pp.getMerchantIntegration(paypal.partnerId, 'NOSUCHSELLER1')).toBeNull();
    expect(await pp.getMerchantIntegration('OTHERPARTNER1', limited)).toBeNull();
    expect(await pp.findMerchantByTrackingId(paypal.partnerId, 'nobody-signed-up')).toBeNull();
  });

  it('turns a refused referral into a 502 that names neither secret nor token', async () => {
    const pp = partner();
    const err = await rejection(pp.createPartnerReferral({ trackingId: 'x'.repeat(128), returnUrl: RETURN }));
    expect(err.statusCode).toBe(502);
    expect(String(err.cause)).toContain('INVALID_REQUEST');
    const text = errorText(err);
    expect(text).not.toContain(CLIENT_SECRET);
    for (const r of paypal.requests) {
      const auth = r.headers.authorization;
      if (auth?.startsWith('Bearer ')) expect(text).not.toContain(auth.slice(7));
    }

    // A store's own app is no partner.
    paypal.addApp({ clientId: 'store-app-ref', clientSecret: 'store-app-secret' });
    const store = createPayPalClient({
      baseUrl: paypal.url,
      clientId: 'store-app-ref',
      clientSecret: 'store-app-secret',
    });
    const denied = await rejection(store.getMerchantIntegration(paypal.partnerId, 'ANYSELLER0001'));
    expect(denied.statusCode).toBe(502);
    expect(String(denied.cause)).toContain('PERMISSION_DENIED');
    expect(errorText(denied)).not.toContain('store-app-secret');
  });

  it('takes a payment for a seller (payee, custom_id, invoice_id) and refunds it only on their behalf', async () => {
    const pp = partner();
    const seller = paypal.addSeller({ trackingId: 'tenant-pay' });
    const other = paypal.addSeller({ trackingId: 'tenant-pay-other' });
    const from = paypal.requests.length;
    const created = await pp.createOrder({
      ...order(4_200, 'USD'),
      payeeMerchantId: seller,
      customId: 'tenant-pay',
      invoiceId: 'order-77',
    });
    const [create] = sent(from, '/v2/checkout/orders', 'POST');
    expect((create!.body as { purchase_units: unknown[] }).purchase_units[0]).toMatchObject({
      payee: { merchant_id: seller },
      custom_id: 'tenant-pay',
      invoice_id: 'order-77',
    });
    await approve(created.approveUrl);

    const viewFrom = paypal.requests.length;
    const got = await pp.getOrder(created.id, { onBehalfOf: seller });
    expect(got).toMatchObject({ id: created.id, status: 'APPROVED', payeeMerchantId: seller, customId: 'tenant-pay' });
    const [view] = sent(viewFrom, `/v2/checkout/orders/${created.id}`, 'GET');
    const [head, claims, signature] = view!.headers['paypal-auth-assertion']!.split('.');
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toEqual({ alg: 'none' });
    expect(JSON.parse(Buffer.from(claims!, 'base64url').toString())).toEqual({ iss: CLIENT_ID, payer_id: seller });
    expect(signature).toBe('');
    expect(pp.clientId).toBe(CLIENT_ID);

    // The platform created the order naming the payee: it captures without acting for the seller.
    const captured = await pp.captureOrder(created.id, randomUUID());
    expect(captured.ok).toBe(true);
    const captureId = captured.ok ? captured.captureId : '';
    const capCall = sent(viewFrom, `/v2/checkout/orders/${created.id}/capture`, 'POST')[0]!;
    expect(capCall.headers['paypal-auth-assertion']).toBeUndefined();

    const refund = { amountMinor: 1_000, currency: 'USD' };
    const without = await pp.refundCapture(captureId, { ...refund, requestId: randomUUID() });
    expect(without).toMatchObject({ ok: false, reason: 'declined' });
    const wrong = await pp.refundCapture(captureId, { ...refund, requestId: randomUUID(), onBehalfOf: other });
    expect(wrong).toMatchObject({ ok: false, reason: 'declined' });
    const ok = await pp.refundCapture(captureId, { ...refund, requestId: randomUUID(), onBehalfOf: seller });
    expect(ok).toEqual({ ok: true, refundId: expect.any(String) });

    // Another seller's assertion reaches none of this seller's orders.
    const err = await rejection(pp.getOrder(created.id, { onBehalfOf: other }));
    expect(err.statusCode).toBe(502);
    expect(String(err.cause)).toContain('PERMISSION_DENIED');
  });

  it('refuses an order for a seller who has not consented, saying why in the cause only', async () => {
    const pp = partner();
    const seller = paypal.addSeller({ trackingId: 'tenant-nc', consent: false });
    const err = await rejection(pp.createOrder({ ...order(1_000, 'USD'), payeeMerchantId: seller }));
    expect(err.statusCode).toBe(502);
    expect(String(err.cause)).toContain('PAYEE_NOT_CONSENTED');
    expect(err.message).not.toContain('PAYEE');
    expect(errorText(err)).not.toContain(CLIENT_SECRET);
  });

  it('verifies a webhook PayPal sent, and not a forged or edited one', async () => {
    const got: string[] = [];
    const receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => {
        raw += c.toString('utf8');
      });
      req.on('end', () => {
        got.push(raw);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const seller = paypal.addSeller({ trackingId: 'tenant-hook' });
      const pp = partner();
      const input = (d: { headers: Record<string, string> }, event: unknown) => ({
        authAlgo: d.headers['paypal-auth-algo']!,
        certUrl: d.headers['paypal-cert-url']!,
        transmissionId: d.headers['paypal-transmission-id']!,
        transmissionSig: d.headers['paypal-transmission-sig']!,
        transmissionTime: d.headers['paypal-transmission-time']!,
        webhookId: paypal.webhookId,
        event,
      });
      const real = await paypal.deliverWebhook(target, paypal.onboardingCompletedEvent(seller));
      const event = JSON.parse(got.at(-1)!);
      expect(await pp.verifyWebhookSignature(input(real, event))).toBe(true);
      expect(await pp.verifyWebhookSignature(input(real, { ...event, event_type: 'PAYMENT.CAPTURE.COMPLETED' }))).toBe(
        false,
      );
      expect(await pp.verifyWebhookSignature({ ...input(real, event), webhookId: 'WH-SOMEONE-ELSE' })).toBe(false);
      expect(await pp.verifyWebhookSignature({ ...input(real, event), transmissionSig: '' })).toBe(false);
      const forged = await paypal.deliverWebhook(target, paypal.onboardingCompletedEvent(seller), { forge: true });
      expect(await pp.verifyWebhookSignature(input(forged, JSON.parse(got.at(-1)!)))).toBe(false);
    } finally {
      await new Promise<void>((r) => {
        receiver.close(() => r());
        receiver.closeAllConnections();
      });
    }
  });
});
