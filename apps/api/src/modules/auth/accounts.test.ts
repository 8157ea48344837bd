import { randomUUID } from 'node:crypto';
import { type Database, schema } from '@app/db';
import { openTestDatabase } from '@app/db/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitedAccount, changeAccount } from './accounts';

/**
 * The account writes other domains make through auth (accounts.ts): the owner's account is out of
 * their reach, a change of role or password ends the account's sessions, and a refused invitation
 * writes nothing.
 */
const T = 'lighting';
const run = randomUUID().slice(0, 8);
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase({ seeded: true });
});
afterAll(async () => {
  await database.close();
});

const u = schema.users;
const account = async (email: string) =>
  (
    await database.db
      .select()
      .from(u)
      .where(and(eq(u.tenantId, T), eq(u.email, email)))
  )[0];
const sessionCount = async (userId: string) =>
  (
    await database.db
      .select()
      .from(schema.sessions)
      .where(and(eq(schema.sessions.tenantId, T), eq(schema.sessions.userId, userId)))
  ).length;

async function addSession(userId: string) {
  await database.db.insert(schema.sessions).values({
    tenantId: T,
    tokenHash: randomUUID(),
    userId,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
}

describe('account writes made for other domains', () => {
  it("never changes the owner's account", async () => {
    const owner = await account('owner@lighting.test');
    if (!owner) throw new Error('the seeded owner is missing');
    await addSession(owner.userId);
    const changed = await database.db.transaction((tx) =>
      changeAccount(tx, T, owner.userId, { role: 'shopper', permissions: [] }),
    );
    expect(changed).toBeNull();
    expect((await account('owner@lighting.test'))?.role).toBe('admin');
    expect(await sessionCount(owner.userId)).toBe(1);
  });

  it('a change of role ends the sessions; a change of grants alone keeps them', async () => {
    const email = `staff-${run}@lighting.test`;
    const made = await database.db.transaction((tx) =>
      acceptInvitedAccount(
        tx,
        T,
        { email, firstName: 'Sam', lastName: 'Staff', passwordHash: 'hash-1' },
        { role: 'staff', permissions: ['catalog'] },
        () => true,
      ),
    );
    if (!made) throw new Error('the invitation was refused');
    expect(made.before).toBeNull();
    await addSession(made.userId);
    await database.db.transaction((tx) => changeAccount(tx, T, made.userId, { permissions: ['catalog', 'orders'] }));
    expect(await sessionCount(made.userId)).toBe(1);
    await database.db.transaction((tx) => changeAccount(tx, T, made.userId, { role: 'shopper', permissions: [] }));
    expect(await sessionCount(made.userId)).toBe(0);
    expect(await account(email)).toMatchObject({ role: 'shopper', permissions: [] });
  });

  it('an invitation used by an existing account sets its password, confirms it and ends its sessions; refused, it writes nothing', async () => {
    const email = `shopper-${run}@lighting.test`;
    await database.db.insert(u).values({
      tenantId: T,
      userId: `U-${run}`,
      email,
      passwordHash: 'old',
      firstName: 'Pat',
      lastName: 'Waiting',
      role: 'shopper',
      accessStatus: 'pending',
      emailConfirmedAt: null,
    });
    await addSession(`U-${run}`);
    const person = { email, firstName: 'Pat', lastName: 'Waiting', passwordHash: 'new' };
    const grant = { role: 'shopper' as const, accessStatus: 'approved' as const, accessDecidedAt: new Date() };

    const refused = await database.db.transaction((tx) => acceptInvitedAccount(tx, T, person, grant, () => false));
    expect(refused).toBeNull();
    expect(await account(email)).toMatchObject({
      passwordHash: 'old',
      accessStatus: 'pending',
      emailConfirmedAt: null,
    });
    expect(await sessionCount(`U-${run}`)).toBe(1);

    const used = await database.db.transaction((tx) => acceptInvitedAccount(tx, T, person, grant, () => true));
    expect(used).toMatchObject({ userId: `U-${run}`, before: { accessStatus: 'pending' } });
    const after = await account(email);
    expect(after).toMatchObject({ passwordHash: 'new', accessStatus: 'approved' });
    expect(after?.emailConfirmedAt).toBeInstanceOf(Date);
    expect(await sessionCount(`U-${run}`)).toBe(0);
  });
});
