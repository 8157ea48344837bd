import { randomUUID } from 'node:crypto';
import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../lib/context';
import type { PageRequest } from '../../../lib/page-request';
import { stockedProduct } from '../../../test/guest-order';
import { createTestApp, type TestApp } from '../../../test/harness';
import { connectStoreToPayPal } from '../../../test/paypal-seller';
import { type PayPalStandIn, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { setTestStock } from '../../../test/stock';
import { createAddressesService } from '../../addresses/index';
import { createCardsService, createTestPaymentProvider, TEST_CARDS } from '../../payments/index';
import { checkoutPages } from './checkout.pages';

/**
 * A refusal at Place order as the checkout page gets it: each says which part of
 * the page it belongs to, so the page can put it there and focus it, and the summary the page shows
 * afterwards has no discount a code can no longer give.
 */

let t: TestApp;
let paypal: PayPalStandIn;
const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
let product: { productId: string; price: number };

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
  await connectStoreToPayPal(t, paypal, 'lighting');
  product = await stockedProduct(t.database.db, 'lighting');
});
afterAll(async () => {
  await t?.close();
  await paypal?.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.carts);
  await t.database.db.delete(schema.orders);
  await t.database.db.delete(schema.promoRedemptions);
  await setTestStock(t.database.db, 20, { productId: product.productId });
});

/** A guest's cart holding the product (and a code): the checkout pages as that guest's requests get them. */
async function guestWith(code?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING },
    payload: { productId: product.productId, quantity: 1 },
  });
  const cookie = String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
  if (code) {
    const applied = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/cart/addpromocode`,
      headers: { host: LIGHTING, cookie },
      payload: { promoCode: code },
    });
    expect(applied.statusCode, applied.body).toBe(200);
  }
  const ctx: RequestContext = {
    tenantId: 'lighting',
    productStoreId: '9000',
    hostName: LIGHTING,
    viaDevAlias: false,
    origin: `http://${LIGHTING}`,
    actor: { kind: 'guest', cartToken: cookie.slice('cart='.length) },
    requestId: 'checkout-refusals',
    ip: null,
  };
  const page: PageRequest = { ctx, headers: {}, secure: false, assertFormFromStore() {}, cached: (_k, c) => c() };
  return checkoutPages({
    checkout: t.services.checkout,
    addresses: createAddressesService(t.database.db),
    cards: createCardsService(t.database.db, createTestPaymentProvider()),
  })(page);
}

/** The checkout form as the page posts it: text fields only. */
const form = (email: string, cardNumber: string = TEST_CARDS.success) => ({
  email,
  shipToContactMechId: '',
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
  shippingMethodId: 'STANDARD',
  paymentMethod: 'card',
  cardNumber,
  cvc: '123',
  expMonth: '12',
  expYear: '2099',
  nameOnCard: 'G Hopper',
  idempotencyKey: randomUUID(),
});

async function makeCode(code: string, fields: Partial<typeof schema.promoCodes.$inferInsert> = {}) {
  await t.database.db
    .insert(schema.promoCodes)
    .values({ tenantId: 'lighting', code, kind: 'percent', value: 20, description: 'test', ...fields })
    .onConflictDoNothing();
}

describe('a refusal at Place order names where it belongs', () => {
  it('a code the owner switched off since it was applied: by the code, naming it, and the summary drops it', async () => {
    const code = `OFF-${Date.now()}`;
    await makeCode(code);
    const pages = await guestWith(code);
    const before = await pages.checkout({ countryGeoId: 'USA', stateProvinceGeoId: 'US_CA' });
    expect(before.quote.discount).toBe(Math.round((product.price * 20) / 100));
    await t.database.db.update(schema.promoCodes).set({ active: false }).where(eq(schema.promoCodes.code, code));

    const refused = await pages.placeOrder(form('late@example.com'));
    expect(refused).toMatchObject({
      ok: false,
      status: 422,
      fieldErrors: { promoCode: `${code} is no longer valid. Remove it to place your order.` },
    });
    const after = await pages.checkout({ countryGeoId: 'USA', stateProvinceGeoId: 'US_CA', email: 'late@example.com' });
    expect(after.cart.promo?.code).toBe(code);
    expect(after.quote.discount).toBe(0);
    expect(after.quote.total).toBe(after.quote.subtotal + after.quote.shipping + after.quote.tax);
  });

  it('a once-per-customer code this guest has used: the summary for their email is without it, before and after the refusal', async () => {
    const code = `ONCE-${Date.now()}`;
    await makeCode(code, { perCustomerLimit: 1 });
    const first = await guestWith(code);
    expect(await first.placeOrder(form('twice@example.com'))).toMatchObject({ ok: true });

    const again = await guestWith(code);
    const where = { countryGeoId: 'USA', stateProvinceGeoId: 'US_CA' };
    // Anyone else (or an email not typed yet) still sees the discount: the code applies to them.
    expect((await again.checkout(where)).quote.discount).toBeGreaterThan(0);
    expect((await again.checkout({ ...where, email: 'someone-else@example.com' })).quote.discount).toBeGreaterThan(0);
    const forThem = await again.checkout({ ...where, email: 'Twice@Example.com' });
    expect(forThem.quote.discount).toBe(0);
    expect(forThem.cart.promoProblem).toBe(`${code} can be used only once per customer.`);

    const refused = await again.placeOrder(form('twice@example.com'));
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { promoCode: `${code} can be used only once per customer. Remove it to place your order.` },
    });
  });

  it('a code switched off, with PayPal chosen: refused by the code before the shopper is sent to PayPal', async () => {
    const code = `OFF-PP-${Date.now()}`;
    await makeCode(code);
    const pages = await guestWith(code);
    await t.database.db.update(schema.promoCodes).set({ active: false }).where(eq(schema.promoCodes.code, code));
    paypal.requests.length = 0;
    const refused = await pages.placeOrder({ ...form('paypal-late@example.com'), paymentMethod: 'paypal' });
    expect(refused).toMatchObject({
      ok: false,
      status: 422,
      fieldErrors: { promoCode: `${code} is no longer valid. Remove it to place your order.` },
    });
    expect(paypal.requests.filter((r) => r.method === 'POST' && r.path === '/v2/checkout/orders')).toEqual([]);
  });

  it('a declined card: by the card number', async () => {
    const pages = await guestWith();
    expect(await pages.placeOrder(form('declined@example.com', TEST_CARDS.declined))).toMatchObject({
      ok: false,
      status: 422,
      fieldErrors: { cardNumber: 'The card was declined. Please use another card.' },
    });
  });

  it('an expiry typed wrong: by the month and the year, in words a shopper reads', async () => {
    const pages = await guestWith();
    const refused = await pages.placeOrder({ ...form('expiry@example.com'), expMonth: '13', expYear: '29' });
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: {
        expMonth: 'Please enter an expiry month from 1 to 12.',
        expYear: 'Please enter the expiry year with four digits, like 2030.',
      },
    });
  });

  it('stock gone since the cart was filled: by the lines of the summary', async () => {
    const pages = await guestWith();
    await setTestStock(t.database.db, 0, { productId: product.productId });
    const refused = await pages.placeOrder(form('too-late@example.com'));
    expect(refused).toMatchObject({ ok: false, status: 409 });
    expect(refused.ok === false && refused.fieldErrors.lines).toMatch(/Out of stock/);
  });
});
