import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestCardOrder, stockedProductId } from '../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

// The promo code pages' form posts (React Router's actions through the page server), as a browser
// without JavaScript sends them. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const host = 'lighting.localhost';
const origin = `http://${host}`;
const PAGE = '/manage-store/promo-codes';

let t: TestApp;
let owner: BrowserSession;
let catalogStaff: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
  await createStaff(t.database, 'lighting', 'promo-pages-catalog@lighting.test', ['catalog']);
  catalogStaff = await signIn(t.app, 'promo-pages-catalog@lighting.test', 'owner-demo-1', host);
  // The web build loads with the app: slow on a busy machine.
}, 180_000);
afterAll(() => t?.close());

function post(url: string, fields: Record<string, string>, session: BrowserSession | null = owner) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      host,
      origin,
      'content-type': 'application/x-www-form-urlencoded',
      ...(session ? { cookie: session.cookie } : {}),
    },
    payload: new URLSearchParams({ ...(session ? { _csrf: session['x-csrf-token'] } : {}), ...fields }).toString(),
  });
}

async function row(code: string) {
  const [r] = await t.database.db
    .select()
    .from(schema.promoCodes)
    .where(and(eq(schema.promoCodes.tenantId, 'lighting'), eq(schema.promoCodes.code, code)));
  return r;
}

const CODE = `FORM-${Date.now().toString(36).toUpperCase()}`;

describe('the promo code pages without JavaScript', () => {
  it('lists the codes, filters by status, and shows an empty filter plainly', async () => {
    const list = await t.app.inject({ url: PAGE, headers: { host, cookie: owner.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('WELCOME10');
    expect(list.body).toContain('10% off');
    const expired = await t.app.inject({ url: `${PAGE}?status=expired`, headers: { host, cookie: owner.cookie } });
    expect(expired.body).toContain('EXPIRED5');
    expect(expired.body).not.toContain('WELCOME10');
    const odd = await t.app.inject({ url: `${PAGE}?status=nonsense`, headers: { host, cookie: owner.cookie } });
    expect(odd.statusCode).toBe(200);
    expect(odd.body).toContain('WELCOME10');
  });

  it('creates a code from the form: errors next to the fields with values kept, then the code’s page', async () => {
    const bad = await post(`${PAGE}/new`, {
      code: 'x',
      kind: 'amount',
      value: '12.345',
      minSubtotal: 'fifty',
      description: 'Kept description',
      startsAt: '2026-06-10',
      endsAt: '2026-06-01',
      usageLimit: '0',
      active: 'on',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Use 3 to 32 letters, digits, dashes or underscores.');
    expect(bad.body).toContain('has more than 2 decimals');
    expect(bad.body).toContain('is not a price');
    expect(bad.body).toContain('The end date must be on or after the start date.');
    expect(bad.body).toContain('Enter a whole number from 1 to 1000000, or leave it empty for no limit.');
    expect(bad.body).toContain('value="Kept description"');

    const ok = await post(`${PAGE}/new`, {
      code: CODE.toLowerCase(),
      kind: 'amount',
      value: '10.00',
      minSubtotal: '50',
      description: 'Ten off',
      startsAt: '',
      endsAt: '2099-12-31',
      usageLimit: '',
      perCustomerLimit: '2',
      active: 'on',
    });
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toBe(`${PAGE}/${CODE}?done=created`);
    expect(await row(CODE)).toMatchObject({
      kind: 'amount',
      value: 1000,
      minSubtotal: 5000,
      perCustomerLimit: 2,
      usageLimit: null,
      active: true,
      // The last day is included: the code stops at the start of the next one.
      endsAt: new Date('2100-01-01T00:00:00.000Z'),
    });
    const page = await t.app.inject({ url: `${PAGE}/${CODE}`, headers: { host, cookie: owner.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('$10.00 off orders over $50.00');
    expect(page.body).toContain('value="2099-12-31"');
    expect(page.body).toContain('Not used yet');

    const again = await post(`${PAGE}/new`, { code: CODE, kind: 'percent', value: '5', active: 'on' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(`${CODE} already exists in this store.`);
  });

  it('saves the rules, deactivates and activates, and refuses to delete a used code', async () => {
    const saved = await post(`${PAGE}/${CODE}`, {
      intent: 'save',
      kind: 'percent',
      value: '15',
      minSubtotal: '',
      description: 'Fifteen',
      startsAt: '',
      endsAt: '',
      usageLimit: '5',
      perCustomerLimit: '',
      active: 'on',
    });
    expect(saved.statusCode).toBe(200);
    expect(await row(CODE)).toMatchObject({ kind: 'percent', value: 15, usageLimit: 5, endsAt: null });

    expect((await post(`${PAGE}/${CODE}`, { intent: 'deactivate' })).statusCode).toBe(200);
    expect((await row(CODE))?.active).toBe(false);
    expect((await post(`${PAGE}/${CODE}`, { intent: 'activate' })).statusCode).toBe(200);
    expect((await row(CODE))?.active).toBe(true);

    // An order uses it: the page lists that order, and delete is refused.
    const productId = await stockedProductId(t.database.db, 'lighting');
    const added = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/product/addToCart',
      headers: { host, origin },
      payload: { productId, quantity: 1 },
    });
    const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/cart/addpromocode',
      headers: { host, origin, cookie },
      payload: { promoCode: CODE },
    });
    const placed = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/ecommerce/checkout/processorder',
      headers: { host, origin, cookie, 'idempotency-key': crypto.randomUUID() },
      payload: guestCardOrder('form-buyer@example.com'),
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().data.orderId as string;
    expect(orderId).toMatch(/^LIG-/);
    const page = await t.app.inject({ url: `${PAGE}/${CODE}`, headers: { host, cookie: owner.cookie } });
    expect(page.body).toContain('form-buyer@example.com');
    expect(page.body).toContain(`href="/manage-store/orders/${orderId}"`);
    const refused = await post(`${PAGE}/${CODE}`, { intent: 'delete' });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('deactivate it instead');
    expect(await row(CODE)).toBeDefined();
  });

  it('deletes an unused code and goes back to the list', async () => {
    const code = `${CODE}-DEL`;
    await post(`${PAGE}/new`, { code, kind: 'percent', value: '5', active: 'on' });
    const deleted = await post(`${PAGE}/${code}`, { intent: 'delete' });
    expect(deleted.statusCode).toBe(302);
    expect(deleted.headers.location).toBe(`${PAGE}?done=deleted`);
    expect(await row(code)).toBeUndefined();
    const gone = await t.app.inject({ url: `${PAGE}/${code}`, headers: { host, cookie: owner.cookie } });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses staff without the orders permission and a post without the CSRF token; visitors log in', async () => {
    const staff = await post(`${PAGE}/new`, { code: `${CODE}-STAFF`, kind: 'percent', value: '5' }, catalogStaff);
    expect(staff.statusCode).toBe(403);
    const staffList = await t.app.inject({ url: PAGE, headers: { host, cookie: catalogStaff.cookie } });
    expect(staffList.statusCode).toBe(403);
    const forged = await t.app.inject({
      method: 'POST',
      url: `${PAGE}/${CODE}`,
      headers: { host, origin, cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ intent: 'deactivate' }).toString(),
    });
    expect(forged.statusCode).toBe(403);
    expect((await row(CODE))?.active).toBe(true);
    expect(await row(`${CODE}-STAFF`)).toBeUndefined();
    const visitor = await t.app.inject({ url: PAGE, headers: { host } });
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toMatch(/^\/auth\/login\?redirectUrl=/);
  });
});
