import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeGuestOrder, stockedProductId } from '../../test/guest-order';
import { createTestApp, type TestApp } from '../../test/harness';
import { ORDER_KEY_LIMITS } from './orders.service';

const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
let t: TestApp;
let orderId: string;
let accessKey: string;

beforeAll(async () => {
  // The storefront's build too: the guest order page is behind the same limit.
  t = await createTestApp({ webBuildDir: fileURLToPath(new URL('../../../../web/build', import.meta.url)) });
  const productId = await stockedProductId(t.database.db, 'lighting');
  const res = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'ada@example.com' });
  expect(res.statusCode).toBe(200);
  ({ orderId, accessKey } = res.json().data);
});
afterAll(() => t.close());

const status = (key: string, remoteAddress: string) =>
  t.app.inject({
    method: 'GET',
    url: `${B}/ecommerce/order/status?orderId=${encodeURIComponent(orderId)}&key=${encodeURIComponent(key)}`,
    headers: { host: LIGHTING },
    remoteAddress,
  });

describe("a guest order's signed link", () => {
  it('cannot be guessed: past the limit of wrong keys a client waits, even with the right key; another client gets in', async () => {
    const wrong = `${accessKey.split('.')[0]}.${'A'.repeat(43)}`;
    expect((await status(accessKey, '203.0.113.7')).statusCode).toBe(200);
    for (let i = 0; i < ORDER_KEY_LIMITS.failuresPerClient; i++) {
      expect((await status(wrong, '203.0.113.7')).statusCode).toBe(404);
    }
    const refused = await status(accessKey, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ error: true, code: 'RATE_LIMITED' });
    expect(refused.body).not.toContain('Grace');
    // The PDF is behind the same key and the same count.
    const pdf = await t.app.inject({
      method: 'GET',
      url: `${B}/ecommerce/order/order/pdf?orderId=${encodeURIComponent(orderId)}&key=${encodeURIComponent(accessKey)}`,
      headers: { host: LIGHTING },
      remoteAddress: '203.0.113.7',
    });
    expect(pdf.statusCode).toBe(429);
    // So is the order page: a page that says to wait, with Retry-After.
    const page = await t.app.inject({
      method: 'GET',
      url: `/order?orderId=${encodeURIComponent(orderId)}&key=${encodeURIComponent(accessKey)}`,
      headers: { host: LIGHTING, accept: 'text/html' },
      remoteAddress: '203.0.113.7',
    });
    expect(page.statusCode).toBe(429);
    expect(Number(page.headers['retry-after'])).toBeGreaterThan(0);
    expect(page.body).toContain('Too many attempts');
    expect(page.body).not.toContain('Grace Hopper');
    // The customer, from another address, still opens their order.
    const customer = await status(accessKey, '198.51.100.20');
    expect(customer.statusCode).toBe(200);
    expect(customer.json().data.orderId).toBe(orderId);
  });

  it('is locked for everyone once the order itself has had too many wrong keys from many addresses', async () => {
    const wrong = `${accessKey.split('.')[0]}.${'B'.repeat(43)}`;
    for (let i = 0; i < ORDER_KEY_LIMITS.failuresPerOrder; i++) {
      await status(wrong, `192.0.2.${i + 1}`);
    }
    const res = await status(accessKey, '198.51.100.99');
    expect(res.statusCode).toBe(429);
  });
});
