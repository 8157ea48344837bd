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

type Handle = Pick<Database['db'], 'insert'>;

async function addGuestOrder(email: string, amount: number, userId: string | null = null) {
  return addGuestOrderIn(database.db, email, amount, userId);
}

async function addGuestOrderIn(handle: Handle, email: string, amount: number, userId: string | null = null) {
  const orderId = `SUM-${run}-${++seq}`;
  await handle.insert(schema.orders).values({
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

  it("an erased account leaves the list; the email's guest orders come back as a guest", async () => {
    const email = `gone-${run}@sum.test`;
    const userId = await addShopper(email, 'Gone', 'Soon');
    await addGuestOrder(email, 900, userId);
    await addGuestOrder(email, 250);
    expect(await summary(`u:${userId}`)).toMatchObject({ orderCount: 2, amountSpent: 1150 });
    expect(await summary(`g:${email}`)).toBeUndefined();
    await database.db.delete(schema.users).where(and(eq(schema.users.tenantId, T), eq(schema.users.userId, userId)));
    expect(await summary(`u:${userId}`)).toBeUndefined();
    // The account's own order (it named the account) belongs to no customer; the guest's is a guest again.
    expect(await summary(`g:${email}`)).toMatchObject({ orderCount: 1, amountSpent: 250, userId: null });
  });

  it('an order written while another of the same customer is uncommitted is counted (the per-customer lock)', async () => {
    // On PostgreSQL the second insert is another connection: it must wait for the first
    // transaction's lock and count after it commits. Without the advisory lock, its trigger would
    // count only its own order and its upsert, applied after the first commits, would leave one.
    const guest = `race-${run}@sum.test`;
    let second: Promise<string> | undefined;
    await database.db.transaction(async (tx) => {
      await addGuestOrderIn(tx, guest, 300);
      second = addGuestOrder(guest, 500);
      // Until the second insert is seen waiting. PGlite has one connection: there the second simply
      // runs after this transaction.
      for (let i = 0; process.env.TEST_DB === 'postgres' && i < 250; i++) {
        // The activity view is read once per transaction unless its snapshot is cleared.
        await tx.execute(sql`SELECT pg_stat_clear_snapshot()`);
        const waiting = await tx.execute(sql`SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`);
        if ((waiting as unknown as { rows: unknown[] }).rows.length > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    await second;
    expect(await summary(`g:${guest}`)).toMatchObject({ orderCount: 2, amountSpent: 800 });
  });
});
