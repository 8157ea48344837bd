import { schema } from '@app/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { luhn, TEST_CARDS } from './test-provider';

let t: TestApp;
let sam: BrowserSession;
let olivia: BrowserSession;
const LIGHTING = 'lighting.localhost';
const P = '/skulocity/api/v1/ecommerce/profile';
const logs: string[] = [];

const cookieFor = (email: string, password: string, host = LIGHTING) => signIn(t.app, email, password, host);

beforeAll(async () => {
  // Keep every log line the server writes, to prove the card number never reaches the logs.
  t = await createTestApp({
    logger: { level: 'trace', stream: { write: (line: string) => logs.push(line) } } as never,
  });
  sam = await cookieFor('shopper@lighting.test', 'shopper-demo-1');
  olivia = await cookieFor('owner@lighting.test', 'owner-demo-1');
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.savedCards);
});

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  session: Partial<BrowserSession>,
  payload?: object,
  host = LIGHTING,
) => t.app.inject({ method, url, headers: { host, ...session }, ...(payload ? { payload } : {}) });
const nextYear = new Date().getUTCFullYear() + 1;
const card = {
  cardNumber: '4242 4242 4242 4242',
  cvc: '123',
  expMonth: 12,
  expYear: nextYear,
  nameOnCard: 'Sam Shopper',
};

describe('saved cards', () => {
  it('saves a card as a provider token: brand, last four and expiry come back, never the number or CVC', async () => {
    const res = await call('POST', `${P}/createCreditCard`, sam, card);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      brand: 'Visa',
      last4: '4242',
      expMonth: 12,
      expYear: nextYear,
      expired: false,
    });
    expect(res.body).not.toContain(TEST_CARDS.success);
    const list = await call('GET', `${P}/creditCards`, sam);
    expect(list.json().data).toHaveLength(1);
    // Nowhere in the database, nowhere in the logs.
    const dump = await t.database.db.execute(sql`SELECT * FROM saved_cards`);
    const stored = JSON.stringify(dump);
    expect(stored).not.toContain(TEST_CARDS.success);
    expect(stored).toMatch(/tok_test_/);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(TEST_CARDS.success);
    expect(logs.join('\n')).not.toContain('4242 4242 4242 4242');
  });

  it('a declined card is refused with 422 and nothing is saved; a mistyped number is a 400 naming the field', async () => {
    const declined = await call('POST', `${P}/createCreditCard`, sam, { ...card, cardNumber: TEST_CARDS.declined });
    expect(declined.statusCode).toBe(422);
    expect(declined.json().message).toBe('The card was declined. Please use another card.');
    const typo = await call('POST', `${P}/createCreditCard`, sam, { ...card, cardNumber: '4242424242424241' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().message).toContain('cardNumber');
    const old = await call('POST', `${P}/createCreditCard`, sam, { ...card, expYear: 2001 });
    expect(old.statusCode).toBe(400);
    expect((await call('GET', `${P}/creditCards`, sam)).json().data).toEqual([]);
    expect(luhn(TEST_CARDS.success)).toBe(true);
  });

  it('edits expiry and name, removes; another shopper or store cannot see or touch it', async () => {
    const id = (await call('POST', `${P}/createCreditCard`, sam, card)).json().data.paymentMethodId as string;
    const edit = await call('PUT', `${P}/editCreditCard`, sam, {
      paymentMethodId: id,
      expMonth: 6,
      expYear: nextYear + 2,
      nameOnCard: 'S Shopper',
    });
    expect(edit.json().data).toMatchObject({
      expMonth: 6,
      expYear: nextYear + 2,
      nameOnCard: 'S Shopper',
      last4: '4242',
    });
    expect((await call('GET', `${P}/creditCards`, olivia)).json().data).toEqual([]);
    expect(
      (
        await call('PUT', `${P}/editCreditCard`, olivia, {
          paymentMethodId: id,
          expMonth: 1,
          expYear: nextYear,
          nameOnCard: 'x',
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `${P}/deleteCreditCard?paymentMethodId=${id}`, olivia)).statusCode).toBe(404);
    expect((await call('GET', `${P}/creditCards`, sam, undefined, 'garden.localhost')).statusCode).toBe(401);
    expect((await call('GET', `${P}/creditCards`, {})).statusCode).toBe(401);
    expect((await call('DELETE', `${P}/deleteCreditCard?paymentMethodId=${id}`, sam)).statusCode).toBe(200);
    expect((await call('GET', `${P}/creditCards`, sam)).json().data).toEqual([]);
  });

  it('a card past its expiry is refused: as an edit (on expYear) and when checkout charges it (on paymentMethodId)', async () => {
    const id = (await call('POST', `${P}/createCreditCard`, sam, card)).json().data.paymentMethodId as string;
    const now = new Date();
    const lastMonth =
      now.getUTCMonth() === 0
        ? { m: 12, y: now.getUTCFullYear() - 1 }
        : { m: now.getUTCMonth(), y: now.getUTCFullYear() };
    const edit = await call('PUT', `${P}/editCreditCard`, sam, {
      paymentMethodId: id,
      expMonth: lastMonth.m,
      expYear: lastMonth.y,
      nameOnCard: 'Sam Shopper',
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'expYear: this expiry date has passed.' });
    // A card that expired while saved: checkout is handed the refusal, never the token.
    const [row] = await t.database.db.select().from(schema.savedCards);
    await t.database.db.update(schema.savedCards).set({ expMonth: lastMonth.m, expYear: lastMonth.y });
    const ctx = { tenantId: row?.tenantId } as Parameters<typeof t.services.cards.forCharge>[0];
    expect(await t.services.cards.forCharge(ctx, row?.userId ?? '', id)).toMatchObject({
      ok: false,
      status: 400,
      code: 'BAD_REQUEST',
      field: 'paymentMethodId',
      message: 'paymentMethodId: this card has expired.',
    });
    expect(await t.services.cards.forCharge(ctx, 'someone-else', id)).toMatchObject({
      ok: false,
      message: 'paymentMethodId: choose one of your saved cards.',
    });
  });

  it('a billing address must be one of the shopper’s own', async () => {
    const res = await call('POST', `${P}/createCreditCard`, sam, { ...card, billingContactMechId: 'CM-not-mine' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('billingContactMechId');
  });
});
