import { createHash } from 'node:crypto';
import type { schema } from '@app/db';
import type { RateLimitedRefusal } from '../../lib/attempts';
import type { TenantContext } from '../../lib/context';
import type { Refusal } from '../../lib/result';

/**
 * What the account operations promise their callers: the limits and lifetimes they keep, the
 * session's account, and the refusals they return (decision 088). Kept apart from the service so
 * routes, pages and tests read them without the service's machinery.
 */

/** Thirty days, then the shopper logs in again. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

/**
 * Login limits, counted in the database so they hold across processes: per client address (many
 * accounts tried from one place) and per account (one account tried from many places).
 */
export const LOGIN_LIMITS = {
  windowMs: 15 * 60_000,
  /** Failures only, as per account: successful sign-ins never count toward a limit. */
  perIp: 30,
  failuresPerAccount: 10,
  /** From this many recent failures on, each answer waits longer (250 ms doubling, at most 2 s). */
  slowAfter: 3,
} as const;

/** Reset mails: per address (someone sweeping emails) and per account (someone flooding one inbox). */
export const FORGOT_LIMITS = { windowMs: 60 * 60_000, perIp: 10, perAccount: 3 } as const;
/** Reset links live an hour and work once. */
export const RESET_TTL_MS = 60 * 60_000;

/** Sign-ups per client address per hour: a family behind one router, not a bot farm. */
export const REGISTER_LIMITS = { windowMs: 60 * 60_000, perIp: 10 } as const;
/** Confirmation links live a day (a welcome mail is often read the next morning) and work once. */
export const CONFIRM_TTL_MS = 24 * 60 * 60_000;
/** "Send the link again": per address and per account, like reset mails. */
export const CONFIRM_RESEND_LIMITS = { windowMs: 60 * 60_000, perIp: 10, perAccount: 3 } as const;

export interface SessionUser {
  userId: string;
  firstName: string;
  /** The clients' user type: `admin` (the owner) and `staff` see Manage Store. */
  partyId: 'admin' | 'staff' | 'shopper';
  userLoginId: string;
}

/** A session's account with what the server needs to decide what it may do. */
export interface SessionAccount extends SessionUser {
  permissions: string[];
  /** The owner's answer to the account where the store admits approved accounts only (decision 105). */
  accessStatus: 'approved' | 'pending' | 'declined';
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The refusals of the account operations (decision 088), each with its limits' 429 (Retry-After).
 * Login: a wrong password or an unknown email (401, one answer for both), an email not confirmed yet
 * (403, said only to someone who knows the password).
 */
export type LoginRefusal = RateLimitedRefusal | Refusal<'UNAUTHENTICATED' | 'EMAIL_NOT_CONFIRMED'>;
/** Sign-up at a store that admits customers by invitation only (403, decision 105). */
export type RegisterRefusal = RateLimitedRefusal | Refusal<'REGISTRATION_CLOSED'>;

/**
 * What sign-up asks of the store's access mode (decision 105; the store-access module answers):
 * whether an account may be made and in which standing, and what follows once a waiting account
 * proves its email. Without it (a test booting few modules) registration is open.
 */
export interface RegistrationGate {
  admission(tenantId: string): Promise<'closed' | 'approved' | 'pending'>;
  confirmedPending(
    ctx: TenantContext,
    user: { userId: string; email: string; firstName: string; lastName: string },
  ): Promise<void>;
}

/** A confirmation or reset link that is used, expired, unknown or of another store (400). */
export type LinkRefusal = RateLimitedRefusal | Refusal<'BAD_REQUEST'>;
/** The current password is not correct (400 on its field), or too many wrong ones. */
export type PasswordCheckRefusal = RateLimitedRefusal | Refusal<'BAD_REQUEST'>;
/** Saving My Profile: a new email needs the current password and must be free in this store (409). */
export type UpdateProfileRefusal = PasswordCheckRefusal | Refusal<'CONFLICT'>;

export const toSessionUser = (row: typeof schema.users.$inferSelect): SessionUser => ({
  userId: row.userId,
  firstName: row.firstName,
  partyId: row.role,
  userLoginId: row.email,
});

export const toSessionAccount = (row: typeof schema.users.$inferSelect): SessionAccount => ({
  ...toSessionUser(row),
  permissions: row.permissions,
  accessStatus: row.accessStatus,
});
