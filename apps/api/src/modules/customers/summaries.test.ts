import { randomUUID } from 'node:crypto';
import { type Database, schema } from '@app/db';
import { openTestDatabase } from '@app/db/testing';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_SUMMARY_TRIGGERS } from './summaries';

/**
 * The triggers that keep `customer_summaries` (summaries.ts), checked on the database itself: the
 * database has exactly the named ones, and the changes no checkout path makes (a rename, a new email,
 * a staff promotion, an erased order) still leave each customer's row right.
 */
const T = 'power';
const run = randomUUID().slice(0, 8);
let database: Database;
let seq = 0;

async function addShopper(email: string, first = 'Summary', last = 'Person') {
  const userId = `SUM-${run}-${++seq}`;
  await database.db
    .insert(schema.users)
    .values({ tenantId: T, userId, email, passwordHash: 'x', firstName: first, lastName: last, role: 'shopper' });
  return userId;
}

async function addGuestOrder(email: string, amount: number, userId: string | null = null) {
  const orderId = `SUM-${run}-${++seq}`;
  await database.db.insert(schema.orders).values({
    tenantId: T,
    orderId,
    userId,
    email,
    status: 'paid',
    currency: 'USD',
    subtotal: amount,
    discount: 0,
    shippingTotal: 0,
    taxTotal: 0,
    grandTotal: amount,
    shippingMethodId: 'STANDARD',
    shippingMethodName: 'Standard',
    shipTo: {
      toName: 'Guest Buyer',
      address1: '1 Market Street',
      address2: null,
      city: 'San Francisco',
      postalCode: '94105',
      countryGeoId: 'USA',
      stateProvinceGeoId: 'US_CA',
      phone: null,
    },
    paymentProvider: 'test',
    paymentRef: null,
    paymentLabel: 'Visa •••• 4242',
    idempotencyKey: orderId,
    requestHash: 'test',
    capturedAmount: amount,
    refundedAmount: 0,
    placedAt: new Date(),
    updatedAt: new Date(),
  });
  return orderId;
}

const summary = async (key: string) =>
  (
    await database.db
      .select()
      .from(schema.customerSummaries)
      .where(and(eq(schema.customerSummaries.tenantId, T), eq(schema.customerSummaries.customerKey, key)))
  )[0];

beforeAll(async () => {
  database = await openTestDatabase({ seeded: true });
});
afterAll(async () => {
  await database?.close();
});

describe('customer summaries', () => {
  it('the database keeps them with exactly the triggers summaries.ts names', async () => {
    const rows = await database.db.execute<{ table: string; name: string }>(sql`
      SELECT c.relname AS "table", t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND t.tgname LIKE 'customer_summar%' ORDER BY 2`);
    const found = (rows as unknown as { rows: { table: string; name: string }[] }).rows;
    expect(found.map((r) => `${r.table}.${r.name}`)).toEqual(
      CUSTOMER_SUMMARY_TRIGGERS.map((t) => `${t.table}.${t.name}`).sort((a, b) =>
        a.split('.')[1]!.localeCompare(b.split('.')[1]!),
      ),
    );
  });

  it("an account's rename shows in its summary; a promotion to staff takes it off the list", async () => {
    const userId = await addShopper(`rename-${run}@sum.test`, 'Old', 'Name');
    await addGuestOrder(`rename-${run}@sum.test`, 1200, userId);
    expect((await summary(`u:${userId}`))?.name).toBe('Old Name');
    await database.db
      .update(schema.users)
      .set({ firstName: 'New' })
      .where(and(eq(schema.users.tenantId, T), eq(schema.users.userId, userId)));
    expect(await summary(`u:${userId}`)).toMatchObject({ name: 'New Name', orderCount: 1, amountSpent: 1200 });
    await database.db
      .update(schema.users)
      .set({ role: 'staff' })
      .where(and(eq(schema.users.tenantId, T), eq(schema.users.userId, userId)));
    expect(await summary(`u:${userId}`)).toBeUndefined();
  });

  it("an account that takes a guest's email takes that guest's orders; the guest row goes", async () => {
    const guest = `guest-${run}@sum.test`;
    await addGuestOrder(guest, 700);
    await addGuestOrder(guest.toUpperCase(), 300);
    expect(await summary(`g:${guest}`)).toMatchObject({ orderCount: 2, amountSpent: 1000 });
    const userId = await addShopper(`other-${run}@sum.test`);
    expect(await summary(`u:${userId}`)).toMatchObject({ orderCount: 0, amountSpent: 0 });
    await database.db
      .update(schema.users)
      .set({ email: guest })
      .where(and(eq(schema.users.tenantId, T), eq(schema.users.userId, userId)));
    expect(await summary(`g:${guest}`)).toBeUndefined();
    expect(await summary(`u:${userId}`)).toMatchObject({ orderCount: 2, amountSpent: 1000, email: guest });
  });

  it("an erased order leaves its customer's figures; the last one erases a guest", async () => {
    const guest = `erase-${run}@sum.test`;
    const first = await addGuestOrder(guest, 400);
    const second = await addGuestOrder(guest, 600);
    expect(await summary(`g:${guest}`)).toMatchObject({ orderCount: 2, amountSpent: 1000 });
    await database.db.delete(schema.orders).where(and(eq(schema.orders.tenantId, T), eq(schema.orders.orderId, first)));
    expect(await summary(`g:${guest}`)).toMatchObject({ orderCount: 1, amountSpent: 600 });
    await database.db
      .delete(schema.orders)
      .where(and(eq(schema.orders.tenantId, T), eq(schema.orders.orderId, second)));
    expect(await summary(`g:${guest}`)).toBeUndefined();
  });
});
