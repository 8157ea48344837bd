import { schema } from '@app/db';
import { describe, expect, it } from 'vitest';
import { createAuditService } from '../../audit/index';
import { createPaymentIssuesService } from '../issues/index';
import { createPayPalWebhookService } from './paypal-webhooks.service';
import {
  approvedPayPalOrder,
  captureResource,
  paypal,
  send,
  t,
  tampered,
  url,
  usePayPalWebhooksApp,
  verifyCalls,
  WEBHOOK_ID,
} from './paypal-webhooks-test-setup';

usePayPalWebhooksApp();

describe('what is not PayPal changes nothing', () => {
  it('a forged signature: 401, PayPal was asked and said no, nothing recorded', async () => {
    const { paypalOrderId } = await approvedPayPalOrder();
    const d = await send(captureResource({ id: 'CAPFORGED000001', value: '54.13', paypalOrderId }), { forge: true });
    expect(d.status).toBe(401);
    const body = JSON.parse(d.responseBody);
    expect(body).toMatchObject({
      error: true,
      code: 'UNAUTHENTICATED',
      message: 'PayPal did not confirm this webhook.',
    });
    expect(d.responseBody).not.toMatch(/at .*\.ts|stack/i);
    expect(verifyCalls()).toHaveLength(1);
    expect(await t.database.db.select().from(schema.paypalWebhookEvents)).toEqual([]);
    expect(await t.database.db.select().from(schema.paymentIssues)).toEqual([]);
    const [checkout] = await t.database.db.select().from(schema.paypalCheckouts);
    expect(checkout?.status).toBe('open');
  });

  it('a refusal is logged as a warning with the reason, never the body', async () => {
    const lines: unknown[] = [];
    const log = { ...t.app.log, warn: (...a: unknown[]) => lines.push(a), info: () => {} } as typeof t.app.log;
    const service = createPayPalWebhookService(t.database.db, {
      paymentAccounts: t.services.paymentAccounts,
      webhookId: WEBHOOK_ID,
      platformBaseUrl: paypal.url,
      events: t.services.events,
      issues: createPaymentIssuesService(t.database.db, { audit: createAuditService(t.database.db) }),
      orders: undefined as never,
      checkout: undefined as never,
      log,
      linkOrigin: (host) => `http://${host}`,
      onboarding: () => undefined,
    });
    const d = await send(captureResource({ id: 'CAPSECRETBODY01', value: '77.77' }), { forge: true });
    await expect(service.receive(d.headers, d.rawBody, 'req-log')).rejects.toMatchObject({ statusCode: 401 });
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).toContain('signature not verified');
    expect(JSON.stringify(lines)).not.toMatch(/CAPSECRETBODY01|77\.77|lighting/);
  });

  it('a genuine event with its body edited is not verified', async () => {
    const d = await send(captureResource({ id: 'CAPEDITED000001', value: '1.00' }));
    expect(d.status).toBe(200);
    await t.database.db.delete(schema.paymentIssues);
    await t.database.db.delete(schema.paypalWebhookEvents);
    const edited = d.rawBody.replace('"1.00"', '"999.00"');
    const res = await fetch(url, { method: 'POST', headers: d.headers, body: edited });
    expect(res.status).toBe(401);
    expect(await t.database.db.select().from(schema.paymentIssues)).toEqual([]);
  });

  it("a certificate URL off PayPal's hosts is refused before PayPal is asked", async () => {
    const d = await send(captureResource({ id: 'CAPCERT00000001', value: '2.00', tenantId: 'no-such-store' }));
    await t.database.db.delete(schema.paypalWebhookEvents);
    paypal.requests.length = 0;
    for (const certUrl of [
      'https://evil.example/v1/notifications/certs/CERT-1',
      'https://api.paypal.com.evil.example/certs/CERT-1',
      'http://api.paypal.com/v1/notifications/certs/CERT-1',
      'https://user:pw@api.paypal.com/certs/CERT-1',
      'not a url',
    ]) {
      const res = await tampered(d, { 'paypal-cert-url': certUrl });
      expect(res.status, certUrl).toBe(401);
      expect((await res.json()).message).toBe("The certificate URL is not on PayPal's hosts.");
    }
    expect(verifyCalls()).toEqual([]);
    expect(await t.database.db.select().from(schema.paypalWebhookEvents)).toEqual([]);
  });

  it('a charset in the content type is PayPal still; another media type is 415', async () => {
    const d = await send(captureResource({ id: 'CAPCHARSET00001', value: '2.00', tenantId: 'no-such-store' }));
    await t.database.db.delete(schema.paypalWebhookEvents);
    const charset = await tampered(d, { 'content-type': 'application/json; charset=utf-8' });
    expect(charset.status).toBe(200);
    const form = await tampered(d, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
  });

  it('without PAYPAL_WEBHOOK_ID nothing can be verified: 401 and PayPal is not asked', async () => {
    const d = await send(captureResource({ id: 'CAPNOWEBHOOK001', value: '2.00' }));
    await t.database.db.delete(schema.paymentIssues);
    await t.database.db.delete(schema.paypalWebhookEvents);
    paypal.requests.length = 0;
    // The service as app.ts builds it, but for a platform without PAYPAL_WEBHOOK_ID.
    const bare = createPayPalWebhookService(t.database.db, {
      paymentAccounts: t.services.paymentAccounts,
      webhookId: undefined,
      platformBaseUrl: paypal.url,
      events: t.services.events,
      issues: createPaymentIssuesService(t.database.db, { audit: createAuditService(t.database.db) }),
      orders: undefined as never,
      checkout: undefined as never,
      log: t.app.log,
      linkOrigin: (host) => `http://${host}`,
      onboarding: () => undefined,
    });
    await expect(bare.receive(d.headers, d.rawBody, 'test')).rejects.toMatchObject({
      statusCode: 401,
      code: 'UNAUTHENTICATED',
    });
    expect(verifyCalls()).toEqual([]);
    expect(await t.database.db.select().from(schema.paymentIssues)).toEqual([]);
  });

  it('missing headers, a stale transmission and a body that is not JSON are 400 with the envelope', async () => {
    const d = await send(captureResource({ id: 'CAPHEADERS00001', value: '2.00', tenantId: 'no-such-store' }));
    await t.database.db.delete(schema.paypalWebhookEvents);
    paypal.requests.length = 0;
    const noSig = await tampered(d, { 'paypal-transmission-sig': undefined });
    expect(noSig.status).toBe(400);
    expect(await noSig.json()).toMatchObject({ error: true, code: 'BAD_REQUEST' });
    const stale = await tampered(d, {
      'paypal-transmission-time': new Date(Date.now() - 5 * 86_400_000).toISOString(),
    });
    expect(stale.status).toBe(400);
    const notJson = await fetch(url, { method: 'POST', headers: d.headers, body: '{"id":' });
    expect(notJson.status).toBe(400);
    const huge = await fetch(url, { method: 'POST', headers: d.headers, body: `{"pad":"${'x'.repeat(70_000)}"}` });
    expect(huge.status).toBe(413);
    expect(verifyCalls()).toEqual([]);
    expect(await t.database.db.select().from(schema.paypalWebhookEvents)).toEqual([]);
  });
});
