import { PAYPAL_CONFIG_ID } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../../lib/secret-box';
import { CALIFORNIA_SHIP_TO, stockedProductId } from '../../../test/guest-order';
import { ownSecretContext } from './payment-accounts';
import { checkPayPalCredentials } from './paypal-config.service';
import {
  auditEntries,
  call,
  changed,
  GET,
  HOST,
  logLines,
  OTHER_SECRET,
  OWN_ID,
  OWN_SECRET,
  ownMerchantId,
  paypal,
  row,
  setGateMode,
  setOwnApp,
  t,
  tokenCalls,
  update,
  usePayPalConfigApp,
} from './paypal-config-test-setup';

usePayPalConfigApp();

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
      setGateMode(mode);
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
    setGateMode('down');
    await update({ ownApp: { clientId: OWN_ID, clientSecret: OTHER_SECRET } });
    setGateMode('forward');
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
