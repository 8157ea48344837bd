import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import { placeGuestOrder, stockedProduct } from '../../test/guest-order';
import type { BrowserSession, TestApp } from '../../test/harness';
import { auditEntries } from '../../test/owners';
import { HOST, taxTestApp } from './tax-test-setup';

// Decision 116: the owner's tax settings and rates over the API (who may, what is refused, what is
// audited, GET answers PUT back), and what a shopper then pays: prices with tax inside them, a tax
// class, and refunds that give the tax back.

const ORIGIN = `http://${HOST}`;
let t: TestApp;
let db: Db;
let owner: BrowserSession;
let settingsStaff: BrowserSession;
let ordersStaff: BrowserSession;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, who: BrowserSession | Record<string, string>, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { host: HOST, origin: ORIGIN, ...who },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const orderRow = async (orderId: string) => {
  const [row] = await db
    .select()
    .from(schema.orders)
    .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, orderId)));
  if (!row) throw new Error(`no order ${orderId}`);
  return row;
};

beforeAll(async () => {
  ({ t, db, owner, settingsStaff, ordersStaff } = await taxTestApp());
});
afterAll(async () => t?.close());

describe('the owner API', () => {
  it('answers the seeded rates as editable defaults, prices without tax; 401 for a visitor, 403 without the permission', async () => {
    const res = await call('GET', '/api/v1/tax', owner);
    expect(res.statusCode, res.body).toBe(200);
    const { settings, rates } = res.json().data;
    expect(settings).toEqual({ pricesIncludeTax: false, taxNumber: '' });
    expect(rates.find((r: { rateId: string }) => r.rateId === 'USA.US_CA')).toMatchObject({
      placeName: 'United States, California',
      label: 'CA sales tax',
      rateBasisPoints: 725,
      reducedBasisPoints: null,
      taxShipping: false,
    });
    expect(rates.map((r: { rateId: string }) => r.rateId)).toEqual(
      expect.arrayContaining(['USA.US_NY', 'USA.US_TX', 'USA.US_WA', 'CAN', 'CAN.CA_ON']),
    );
    expect((await call('GET', '/api/v1/tax', {})).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/tax', ordersStaff)).statusCode).toBe(403);
    expect((await call('PUT', '/api/v1/tax/settings', ordersStaff, settings)).statusCode).toBe(403);
    expect((await call('DELETE', '/api/v1/tax/rates/USA.US_CA', ordersStaff)).statusCode).toBe(403);
    expect((await call('GET', '/api/v1/tax/settings', settingsStaff)).statusCode).toBe(200);
  });

  it('what GET answers can be PUT back; a change is audited, the same again is not', async () => {
    const settings = (await call('GET', '/api/v1/tax/settings', owner)).json().data;
    const before = await auditEntries(db, 'lighting', 'tax.settings');
    const same = await call('PUT', '/api/v1/tax/settings', owner, settings);
    expect(same.statusCode, same.body).toBe(200);
    expect(await auditEntries(db, 'lighting', 'tax.settings')).toBe(before);
    const changed = await call('PUT', '/api/v1/tax/settings', owner, { ...settings, taxNumber: 'EIN 12-3456789' });
    expect(changed.json().data.taxNumber).toBe('EIN 12-3456789');
    expect(await auditEntries(db, 'lighting', 'tax.settings')).toBe(before + 1);

    const rate = (await call('GET', '/api/v1/tax/rates', owner))
      .json()
      .data.find((r: { rateId: string }) => r.rateId === 'USA.US_NY');
    const back = await call('PUT', '/api/v1/tax/rates/USA.US_NY', settingsStaff, rate);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).toEqual(rate);
  });

  it.each([
    ['a rate above 100 %', { rateBasisPoints: 10001 }, 'rateBasisPoints'],
    ['a rate as text', { rateBasisPoints: '725' }, 'rateBasisPoints'],
    ['a fraction of a basis point', { rateBasisPoints: 72.5 }, 'rateBasisPoints'],
    ['a negative reduced rate', { reducedBasisPoints: -1 }, 'reducedBasisPoints'],
    ['a country we do not know', { countryGeoId: 'XYZ' }, 'countryGeoId'],
    ['a region of another country', { regionGeoId: 'CA_ON' }, 'regionGeoId'],
    ['no name', { label: '' }, 'label'],
  ])('refuses %s on its field, and writes nothing', async (_what, change, field) => {
    const before = await auditEntries(db, 'lighting', 'tax.rate');
    const res = await call('POST', '/api/v1/tax/rates', owner, {
      countryGeoId: 'USA',
      regionGeoId: 'US_FL',
      label: 'FL sales tax',
      rateBasisPoints: 600,
      ...change,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0]).toContain(field);
    expect(await auditEntries(db, 'lighting', 'tax.rate')).toBe(before);
  });

  it('names the field once in a refusal: the answer path names it, the message does not again', async () => {
    const body = { countryGeoId: 'USA', regionGeoId: 'US_FL', label: 'FL sales tax', rateBasisPoints: 600 };
    for (const [change, error] of [
      [{ label: '' }, 'body.label: name the tax'],
      [{ countryGeoId: 'us' }, 'body.countryGeoId: choose a country'],
      [{ regionGeoId: 'Florida' }, 'body.regionGeoId: choose a state or region'],
    ] as const) {
      const res = await call('POST', '/api/v1/tax/rates', owner, { ...body, ...change });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual([error]);
    }
  });

  it('adds, refuses a second rate for the same place, changes and removes a rate; 404 for one it does not have', async () => {
    const body = { countryGeoId: 'USA', regionGeoId: 'US_FL', label: 'FL sales tax', rateBasisPoints: 600 };
    const added = await call('POST', '/api/v1/tax/rates', owner, body);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data).toMatchObject({
      rateId: 'USA.US_FL',
      placeName: 'United States, Florida',
      taxShipping: false,
    });
    expect((await call('POST', '/api/v1/tax/rates', owner, body)).statusCode).toBe(409);
    const changed = await call('PUT', '/api/v1/tax/rates/USA.US_FL', owner, {
      ...body,
      rateBasisPoints: 650,
      reducedBasisPoints: 0,
    });
    expect(changed.json().data).toMatchObject({ rateBasisPoints: 650, reducedBasisPoints: 0 });
    const moved = await call('PUT', '/api/v1/tax/rates/USA.US_FL', owner, { ...body, regionGeoId: 'US_GA' });
    expect(moved.statusCode).toBe(400);
    expect((await call('DELETE', '/api/v1/tax/rates/USA.US_FL', owner)).statusCode).toBe(200);
    expect((await call('DELETE', '/api/v1/tax/rates/USA.US_FL', owner)).statusCode).toBe(404);
    const { countryGeoId: _c, regionGeoId: _r, ...noPlace } = body;
    expect((await call('PUT', '/api/v1/tax/rates/USA.US_GA', owner, noPlace)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/v1/tax/rates/not-an-id', owner)).statusCode).toBe(400);
    // Another store's rates are its own: the garden store still has California's.
    const [garden] = await db
      .select()
      .from(schema.taxRates)
      .where(and(eq(schema.taxRates.tenantId, 'garden'), eq(schema.taxRates.regionGeoId, 'US_CA')));
    expect(garden?.rateBasisPoints).toBe(725);
  });
});

describe('what a shopper pays', () => {
  it('prices without tax add it (California, 7.25 %): the order as before', async () => {
    const product = await stockedProduct(db, 'lighting');
    const res = await placeGuestOrder(t.app, { host: HOST, productId: product.productId, quantity: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json().data;
    expect(order.taxIncluded).toBe(false);
    expect(order.tax).toBe(Math.round((order.subtotal * 725) / 10000));
    expect(order.total).toBe(order.subtotal - order.discount + order.shipping + order.tax);
  });

  it('after switching to prices with tax, the next order costs the shelf price with the tax inside it; a full refund gives that tax back', async () => {
    const settings = (await call('GET', '/api/v1/tax/settings', owner)).json().data;
    expect((await call('PUT', '/api/v1/tax/settings', owner, { ...settings, pricesIncludeTax: true })).statusCode).toBe(
      200,
    );
    const product = await stockedProduct(db, 'lighting');
    const res = await placeGuestOrder(t.app, { host: HOST, productId: product.productId, quantity: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json().data;
    expect(order.subtotal).toBe(product.price * 2);
    expect(order.taxIncluded).toBe(true);
    expect(order.total).toBe(order.subtotal - order.discount + order.shipping);
    expect(order.tax).toBe(Math.round((order.subtotal * 725) / 10725));
    const row = await orderRow(order.orderId);
    expect([row.taxIncluded, row.taxTotal, row.grandTotal]).toEqual([true, order.tax, order.total]);

    // A unit refunded: its shelf price less its discount share (no tax on top); its tax share inside.
    const ctx = systemContext(
      { tenantId: 'lighting', productStoreId: '9000', hostName: HOST, viaDevAlias: false, origin: ORIGIN },
      'tax-refund',
    );
    const first = await t.services.refunds.refund(ctx, order.orderId, {
      amount: product.price,
      lines: [{ lineNo: 1, quantity: 1 }],
      shipping: 0,
      reason: '',
    });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.refund.taxAmount).toBe(Math.round((order.tax * product.price) / order.total));
    const rest = await t.services.refunds.refund(ctx, order.orderId, {
      amount: order.total - product.price,
      lines: [{ lineNo: 1, quantity: 1 }],
      shipping: 0,
      reason: '',
    });
    expect(rest.ok && rest.fullyRefunded).toBe(true);
    if (!rest.ok) return;
    expect(first.refund.taxAmount + rest.refund.taxAmount).toBe(order.tax);
    expect((await orderRow(order.orderId)).refundedAmount).toBe(order.total);
    await call('PUT', '/api/v1/tax/settings', owner, { ...settings, pricesIncludeTax: false });
  });

  it('an exempt product pays no tax; a reduced one pays the reduced rate', async () => {
    const product = await stockedProduct(db, 'lighting');
    const url = `/api/v1/tax/products/${product.productId}`;
    const setClass = async (taxClass: 'standard' | 'reduced' | 'exempt') => {
      const res = await call('PUT', url, owner, { taxClass });
      expect(res.statusCode, res.body).toBe(200);
    };
    expect((await call('PUT', url, settingsStaff, { taxClass: 'exempt' })).statusCode).toBe(403);
    expect((await call('PUT', url, owner, { taxClass: 'zero' })).statusCode).toBe(400);
    expect((await call('PUT', '/api/v1/tax/products/NO-SUCH', owner, { taxClass: 'exempt' })).statusCode).toBe(404);
    const audited = await auditEntries(db, 'lighting', 'product');
    await setClass('exempt');
    const exempt = (await placeGuestOrder(t.app, { host: HOST, productId: product.productId })).json().data;
    expect(exempt.tax).toBe(0);
    const ca = (await call('GET', '/api/v1/tax/rates', owner))
      .json()
      .data.find((r: { rateId: string }) => r.rateId === 'USA.US_CA');
    await call('PUT', '/api/v1/tax/rates/USA.US_CA', owner, { ...ca, reducedBasisPoints: 100 });
    await setClass('reduced');
    const reduced = (await placeGuestOrder(t.app, { host: HOST, productId: product.productId })).json().data;
    expect(reduced.tax).toBe(Math.round(((reduced.subtotal - reduced.discount) * 100) / 10000));
    await setClass('standard');
    // Each change of class is on the product's audit trail.
    expect(await auditEntries(db, 'lighting', 'product')).toBe(audited + 3);
    await call('PUT', '/api/v1/tax/rates/USA.US_CA', owner, ca);
  });
});
