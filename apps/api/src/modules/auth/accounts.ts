import { randomBytes, randomUUID } from 'node:crypto';
import { type Db, hashPassword, schema, type Tx } from '@app/db';
import { and, eq, ne } from 'drizzle-orm';
import { hashToken, SESSION_TTL_MS } from './auth-model';

/**
 * Writes to accounts and their sessions made on behalf of other domains: the staff screen (grants,
 * removal, invitations) and the customer access screen (approval, invitations). The auth domain owns
 * `users` and `sessions` (decision 110), so those screens call these functions instead of writing the
 * tables, and the rules every such write shares live here:
 * - a change of who an account is (role, grants, access, password) ends its sessions, so no cookie
 *   keeps powers the account no longer has (or was given before its password changed hands);
 * - the store owner's account is never changed through them.
 * Each runs in the caller's transaction, beside the caller's audit entry.
 */
type UserRow = typeof schema.users.$inferSelect;

/** What a screen may change on an account: who it is to the store, never its identity or owner role. */
export type AccountChange = Partial<
  Pick<UserRow, 'permissions' | 'accessStatus' | 'accessDecidedAt' | 'passwordHash' | 'emailConfirmedAt'>
> & { role?: 'staff' | 'shopper' };

const u = schema.users;

/**
 * Opens a session for the account: a random token for the cookie, only its hash stored. Answers the
 * token and when the session ends. Sign-in and a new store's first hand-off both open one.
 */
export async function openSession(
  db: Db | Tx,
  tenantId: string,
  userId: string,
  userAgent: string | null,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db.insert(schema.sessions).values({
    tenantId,
    tokenHash: hashToken(token),
    userId,
    expiresAt,
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

/** Ends every session of the account (its cookies stop working at the next request). */
export async function endSessionsOf(tx: Tx, tenantId: string, userId: string): Promise<void> {
  await tx
    .delete(schema.sessions)
    .where(and(eq(schema.sessions.tenantId, tenantId), eq(schema.sessions.userId, userId)));
}

/**
 * Changes an account other than the owner's. A change of role or password ends its sessions.
 * Answers the row after the change, or null when there is no such account or it is the owner's.
 */
export async function changeAccount(
  tx: Tx,
  tenantId: string,
  userId: string,
  change: AccountChange,
): Promise<UserRow | null> {
  const [after] = await tx
    .update(u)
    .set(change)
    .where(and(eq(u.tenantId, tenantId), eq(u.userId, userId), ne(u.role, 'admin')))
    .returning();
  if (!after) return null;
  if (change.role !== undefined || change.passwordHash !== undefined) await endSessionsOf(tx, tenantId, userId);
  return after;
}

/** The person an invitation was sent to, with the password they chose on its link. */
export interface InvitedPerson {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
}

/**
 * An invitation's link used: the account of that email gets the password and `grant` (the link proves
 * the inbox, so the email counts as confirmed and the account's old sessions end), or a new account
 * is made with them. `mayChange` says whether an existing account may be changed by this kind of
 * invitation; refused (or the owner's account), nothing is written and the answer is null.
 */
export async function acceptInvitedAccount(
  tx: Tx,
  tenantId: string,
  person: InvitedPerson,
  grant: AccountChange & { role: 'staff' | 'shopper' },
  mayChange: (existing: UserRow) => boolean,
): Promise<{ userId: string; before: UserRow | null } | null> {
  const [existing] = await tx
    .select()
    .from(u)
    .where(and(eq(u.tenantId, tenantId), eq(u.email, person.email)))
    .for('update');
  if (existing) {
    if (existing.role === 'admin' || !mayChange(existing)) return null;
    await changeAccount(tx, tenantId, existing.userId, {
      ...grant,
      passwordHash: person.passwordHash,
      emailConfirmedAt: existing.emailConfirmedAt ?? new Date(),
    });
    return { userId: existing.userId, before: existing };
  }
  const userId = `U-${randomUUID()}`;
  await tx.insert(u).values({
    tenantId,
    userId,
    email: person.email,
    passwordHash: person.passwordHash,
    firstName: person.firstName,
    lastName: person.lastName,
    ...grant,
  });
  return { userId, before: null };
}

/**
 * A new store's owner account, in the opening transaction: confirmed (sign-up proved the inbox
 * before the store opened). Without a password hash (a store the platform opens for a merchant) the
 * password is random and known to nobody; the owner sets theirs through a reset link.
 */
export async function openOwnerAccount(
  tx: Tx,
  owner: {
    tenantId: string;
    userId: string;
    email: string;
    passwordHash: string | null;
    firstName?: string;
    lastName?: string;
  },
  at: Date,
): Promise<void> {
  await tx.insert(u).values({
    tenantId: owner.tenantId,
    userId: owner.userId,
    email: owner.email,
    passwordHash: owner.passwordHash ?? (await hashPassword(randomUUID() + randomUUID())),
    firstName: owner.firstName ?? 'Store',
    lastName: owner.lastName ?? 'Owner',
    role: 'admin',
    emailConfirmedAt: at,
  });
}
