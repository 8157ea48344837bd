import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';
import { parseAmount } from './return-admin.pages';

// The returns pages' form posts (React Router's actions through the page server), as a browser
// without JavaScript sends them. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../../web/build', import.meta.url));
const host = 'lighting.localhost';
const origin = `http://${host}`;
const ORDER = 'LIG-DEMO-S1';

let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', host);
  await createStaff(t.database, 'lighting', 'ret-pages-catalog@lighting.test', ['catalog']);
  catalogStaff = await signIn(t.app, 'ret-pages-catalog@lighting.test', 'owner-demo-1', host);
});
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
const get = (url: string, session: BrowserSession | null = owner) =>
  t.app.inject({ url, headers: { host, ...(session ? { cookie: session.cookie } : {}) } });
async function status(id: string) {
  const [row] = await t.database.db
    .select({ s: schema.returnRequests.status })
    .from(schema.returnRequests)
    .where(and(eq(schema.returnRequests.tenantId, 'lighting'), eq(schema.returnRequests.returnId, id)));
  return row?.s;
}

describe('amounts as typed', () => {
  it('reads dollars and cents into cents, and refuses anything else', () => {
    expect(parseAmount('12.50', 'USD')).toBe(1250);
    expect(parseAmount('$1,234.5', 'USD')).toBe(123450);
    expect(parseAmount('7', 'USD')).toBe(700);
    expect(parseAmount('500', 'JPY')).toBe(500);
    for (const bad of ['', '1.234', '-3', 'abc', '1e3']) expect(parseAmount(bad, 'USD')).toBeNaN();
  });
});

describe('the returns pages without JavaScript', () => {
  it('lists, opens, approves, receives and refunds a return with plain form posts', async () => {
    const asked = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/ecommerce/createreturns',
      headers: { host, ...shopper },
      payload: { orderId: ORDER, lines: [{ lineNo: 1, quantity: 1 }], reason: 'damaged' },
    });
    const id = asked.json().data.returnId as string;
    const page = `/manage-store/returns/${id}`;

    const list = await get('/manage-store/returns?status=requested');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(id);
    expect(list.body).toContain('Arrived damaged');
    expect((await get('/manage-store/returns?status=bogus&cursor=junk')).statusCode).toBe(200);
    expect((await get(page)).body).toContain('Instructions for the shopper');
    expect((await get('/manage-store/returns/NOPE-R1')).statusCode).toBe(404);

    const empty = await post(page, { intent: 'approve', instructions: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('data-testid="error-instructions"');
    expect(await status(id)).toBe('requested');
    const approved = await post(page, { intent: 'approve', instructions: 'Send it to 1 Dock Street.' });
    expect(approved.statusCode).toBe(200);
    expect(await status(id)).toBe('approved');
    // The same form again: the move is not in the table any more, said at the top of the page.
    const twice = await post(page, { intent: 'approve', instructions: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toContain('cannot become approved');

    const tooMany = await post(page, { intent: 'receive', 'restock-1': '5' });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.body).toContain('data-testid="error-lines"');
    expect(tooMany.body).toContain('value="5"');
    const received = await post(page, { intent: 'receive', 'restock-1': '1' });
    expect(received.statusCode).toBe(200);
    expect(await status(id)).toBe('received');

    const badAmount = await post(page, { intent: 'refund', amount: 'twelve', refundReason: 'Kept reason' });
    expect(badAmount.statusCode).toBe(400);
    expect(badAmount.body).toContain('Enter an amount more than zero, like 12.50.');
    expect(badAmount.body).toContain('value="Kept reason"');
    const tooMuch = await post(page, { intent: 'refund', amount: '999999.00' });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.body).toContain('data-testid="error-amount"');
    expect(await status(id)).toBe('received');
    const refunded = await post(page, { intent: 'refund', amount: '1.00' });
    expect(refunded.statusCode).toBe(200);
    expect(await status(id)).toBe('refunded');
    expect((await get(page)).body).toContain('Refunded · $1.00');
  });

  it('refuses staff without orders, a forged post, and sends visitors to log in', async () => {
    const staff = await get('/manage-store/returns', catalogStaff);
    expect(staff.statusCode).toBe(403);
    const visitor = await get('/manage-store/returns', null);
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toMatch(/^\/auth\/login\?redirectUrl=/);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/manage-store/returns/LIG-DEMO-S1-R1',
      headers: { host, origin, cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ intent: 'reject', reason: 'x' }).toString(),
    });
    expect(forged.statusCode).toBe(403);
  });
});
