import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CONFIRM_INVALID_MESSAGE,
  EMAIL_NOT_CONFIRMED_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  type LoginRequest,
  type LoginResult,
  type PasswordChange,
  type Profile,
  type ProfileUpdate,
  REGISTRATION_CLOSED_MESSAGE,
  RESET_INVALID_MESSAGE,
  type RegisterRequest,
  type ResetPasswordRequest,
} from '@app/contracts';
import { type Db, hashPassword, schema, verifyPassword } from '@app/db';
import { and, eq, gt, isNull, lt, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { attemptsRefused, createAttempts, type RateLimitedRefusal } from '../../lib/attempts';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { ok, type Result, refuse, refuseField } from '../../lib/result';
import type { MailQueue } from '../mail/index';
import type { StoreService } from '../store/index';
import { openSession } from './accounts';
import {
  CONFIRM_RESEND_LIMITS,
  CONFIRM_TTL_MS,
  FORGOT_LIMITS,
  hashToken,
  type LinkRefusal,
  LOGIN_LIMITS,
  type LoginRefusal,
  type PasswordCheckRefusal,
  REGISTER_LIMITS,
  RESET_TTL_MS,
  type RegisterRefusal,
  type RegistrationGate,
  type SessionAccount,
  toSessionAccount,
  toSessionUser,
  type UpdateProfileRefusal,
} from './auth-model';
import { createCsrf } from './csrf';

const u = schema.users;
const s = schema.sessions;
const a = schema.authAttempts;
const r = schema.passwordResets;
const ec = schema.emailConfirmations;

/** Where a confirmation link may send the browser afterwards: a path of this site, nothing else. */
const localPath = (v: string | undefined) =>
  v && v.length <= 300 && v.startsWith('/') && !v.startsWith('//') && !v.includes('\\') ? v : undefined;

type Action = (typeof a.$inferInsert)['action'];

const rateLimited = attemptsRefused;

export interface AuthDeps {
  mailer: MailQueue;
  /** Signs CSRF tokens (SESSION_SECRET). */
  secret: string;
  store: StoreService;
  log: FastifyBaseLogger;
  /** Failed logins wait longer each time; tests turn it off rather than wait. */
  slowDown?: boolean;
  /** Failed sign-ins per client address and store in the window (LOGIN_ATTEMPTS_PER_IP); default LOGIN_LIMITS.perIp. */
  loginPerIp?: number;
  /** scheme://host[:port] for links in mail, from a store's canonical host (never the request's Host). */
  linkOrigin: (canonicalHost: string) => string;
  registration?: () => RegistrationGate | undefined; // the access mode's say on sign-up (decision 105)
}

export function createAuthService(db: Db, deps: AuthDeps) {
  // Unknown emails are checked against this hash too, so both answers take as long (no timing oracle).
  let dummyHash: Promise<string> | undefined;
  const slowDown = deps.slowDown ?? true;
  const loginPerIp = deps.loginPerIp ?? LOGIN_LIMITS.perIp;

  const counted = createAttempts(db);
  const attempts = (ctx: TenantContext, action: Action, subject: string, windowMs: number, onlyFailures = false) =>
    counted.count(ctx, action, subject, windowMs, onlyFailures);
  const record = (ctx: TenantContext, action: Action, subjects: string[], succeeded: boolean) =>
    counted.record(ctx, action, subjects, succeeded);

  /**
   * A mail asked for by address (reset link, confirmation again): counted per client address and per
   * account, so neither a bot nor a flood at one inbox gets more than the limits; 429 past them.
   */
  async function limitMails(
    ctx: TenantContext,
    action: Action,
    email: string,
    ip: string | null,
    limits: { windowMs: number; perIp: number; perAccount: number },
  ): Promise<Result<void, RateLimitedRefusal>> {
    const ipSubject = `ip:${ip ?? 'unknown'}`;
    const accountSubject = `account:${email}`;
    const [byIp, byAccount] = await Promise.all([
      attempts(ctx, action, ipSubject, limits.windowMs),
      attempts(ctx, action, accountSubject, limits.windowMs),
    ]);
    if (byIp >= limits.perIp || byAccount >= limits.perAccount) return rateLimited(limits.windowMs);
    await record(ctx, action, [ipSubject, accountSubject], true);
    return ok(undefined);
  }

  /** Mail about an account, signed with the store's name; a mail outage never fails the request. */
  async function mail(
    ctx: TenantContext,
    to: string,
    subject: (store: string) => string,
    text: (store: string) => string,
  ) {
    const store = await deps.store.details(ctx, ctx.productStoreId);
    await deps.mailer
      .send(ctx, { to, subject: subject(store.storeName), text: text(store.storeName) })
      .catch((err: unknown) => deps.log.error({ err }, 'account mail not sent'));
  }

  /** The current password of a signed-in user, under the login limits of the account. */
  async function checkPassword(
    ctx: TenantContext,
    userId: string,
    email: string,
    password: string | undefined,
    field: string,
  ): Promise<Result<void, PasswordCheckRefusal>> {
    const subject = `account:${email}`;
    if ((await attempts(ctx, 'login', subject, LOGIN_LIMITS.windowMs, true)) >= LOGIN_LIMITS.failuresPerAccount) {
      return rateLimited(LOGIN_LIMITS.windowMs);
    }
    const [row] = await db
      .select({ hash: u.passwordHash })
      .from(u)
      .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, userId)));
    const correct = Boolean(row && password && (await verifyPassword(row.hash, password)));
    if (!correct) {
      await record(ctx, 'login', [subject], false);
      return refuseField(400, 'BAD_REQUEST', field, 'the current password is not correct.');
    }
    return ok(undefined);
  }

  async function linkOrigin(ctx: TenantContext) {
    const [store] = await db
      .select({ host: schema.productStores.canonicalHost })
      .from(schema.productStores)
      .where(
        and(
          eq(schema.productStores.tenantId, ctx.tenantId),
          eq(schema.productStores.productStoreId, ctx.productStoreId),
        ),
      );
    return store ? deps.linkOrigin(store.host) : null;
  }

  /**
   * Issues a confirmation link (only its hash is kept) and mails it; earlier unused links of the
   * account stop working, so only the newest mail counts.
   */
  async function sendConfirmation(
    ctx: TenantContext,
    user: { userId: string; email: string; firstName: string },
    kind: 'welcome' | 'again',
    carry: { redirectUrl?: string; wishlist?: string },
  ) {
    const token = randomBytes(32).toString('base64url');
    const row = {
      tenantId: ctx.tenantId,
      tokenHash: hashToken(token),
      userId: user.userId,
      expiresAt: new Date(Date.now() + CONFIRM_TTL_MS),
    };
    if (kind === 'welcome') {
      // A brand-new account has no earlier link; one plain insert keeps this path as quick as the
      // "already have an account" one, so the time of the answer does not tell them apart.
      await db.insert(ec).values(row);
    } else {
      await db.transaction(async (tx) => {
        await tx
          .update(ec)
          .set({ usedAt: new Date() })
          .where(and(eq(ec.tenantId, ctx.tenantId), eq(ec.userId, user.userId), isNull(ec.usedAt)));
        await tx.insert(ec).values(row);
      });
    }
    const origin = await linkOrigin(ctx);
    if (!origin) return;
    const query = new URLSearchParams({ token });
    const next = localPath(carry.redirectUrl);
    if (next && next !== '/') query.set('redirectUrl', next);
    if (carry.wishlist && /^[A-Za-z0-9_.-]{1,64}$/.test(carry.wishlist)) query.set('wishlist', carry.wishlist);
    const link = `${origin}/auth/confirm-email?${query}`;
    await mail(
      ctx,
      user.email,
      (store) => (kind === 'welcome' ? `Welcome to ${store}: confirm your email` : `Confirm your ${store} account`),
      (store) =>
        `Hello ${user.firstName},\n\n` +
        (kind === 'welcome'
          ? `Your account at ${store} is almost ready. You will be able to follow your orders, keep your ` +
            `addresses and save a wishlist.\n\n`
          : '') +
        `Confirm your email address and log in here (the link works once, for 24 hours):\n\n${link}\n\n` +
        `If you did not create this account, ignore this message: without the confirmation it cannot be used.`,
    );
  }

  const csrf = createCsrf(deps.secret);

  return {
    csrf,

    /**
     * Checks the password and opens a new session. The answer to a wrong password and to an unknown
     * email is the same, in words, status and time. `previousToken` (the session the browser already
     * had, if any) is revoked: a login always gets a fresh token (no session fixation).
     */
    async login(
      ctx: TenantContext,
      input: LoginRequest,
      client: { ip: string | null; userAgent: string | null; previousToken?: string | null },
    ): Promise<Result<LoginResult, LoginRefusal>> {
      const ipSubject = `ip:${client.ip ?? 'unknown'}`;
      const accountSubject = `account:${input.email}`;
      // Only failures count, per address as per account: a team behind one address (or a test run)
      // signing in with the right password must never be refused for it.
      const [failuresByIp, failures] = await Promise.all([
        attempts(ctx, 'login', ipSubject, LOGIN_LIMITS.windowMs, true),
        attempts(ctx, 'login', accountSubject, LOGIN_LIMITS.windowMs, true),
      ]);
      if (failuresByIp >= loginPerIp || failures >= LOGIN_LIMITS.failuresPerAccount) {
        return rateLimited(LOGIN_LIMITS.windowMs);
      }
      if (slowDown && failures >= LOGIN_LIMITS.slowAfter) {
        await sleep(Math.min(2000, 250 * 2 ** (failures - LOGIN_LIMITS.slowAfter)));
      }

      const [user] = await db
        .select()
        .from(u)
        .where(and(eq(u.tenantId, ctx.tenantId), eq(u.email, input.email)));
      dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
      await record(ctx, 'login', [ipSubject, accountSubject], Boolean(user && passwordOk));
      if (!user || !passwordOk) return refuse(401, 'UNAUTHENTICATED', LOGIN_FAILED_MESSAGE);
      // Said only to someone who knows the password, so it tells a stranger nothing about the email.
      if (!user.emailConfirmedAt) return refuse(403, 'EMAIL_NOT_CONFIRMED', EMAIL_NOT_CONFIRMED_MESSAGE);

      if (client.previousToken) await this.logout(ctx, client.previousToken);
      const session = await openSession(db, ctx.tenantId, user.userId, client.userAgent);
      return ok({
        ...toSessionUser(user),
        token: session.token,
        expiresAt: session.expiresAt.toISOString(),
        csrfToken: csrf.tokenFor(ctx.tenantId, session.token),
      });
    },

    /**
     * Creates a shopper account of this store, unconfirmed: the welcome mail's link confirms it and logs
     * it in (decision 022); the access mode may close sign-up, or start the account waiting (decision 105).
     * An email that already has an account gets the same answer (same status, body and headers) and its
     * owner an email; both paths hash the password and send one mail, so they take about as long.
     * `carry`: where the link sends the browser afterwards, and a guest's wishlist heart.
     */
    async register(
      ctx: TenantContext,
      input: RegisterRequest,
      client: { ip: string | null; userAgent: string | null },
      carry: { redirectUrl?: string; wishlist?: string } = {},
    ): Promise<Result<void, RegisterRefusal>> {
      const admission = (await deps.registration?.()?.admission(ctx.tenantId)) ?? 'approved';
      if (admission === 'closed') return refuse(403, 'REGISTRATION_CLOSED', REGISTRATION_CLOSED_MESSAGE);
      const ipSubject = `ip:${client.ip ?? 'unknown'}`;
      if ((await attempts(ctx, 'register', ipSubject, REGISTER_LIMITS.windowMs)) >= REGISTER_LIMITS.perIp) {
        return rateLimited(REGISTER_LIMITS.windowMs);
      }
      await record(ctx, 'register', [ipSubject], true);
      const passwordHash = await hashPassword(input.password);
      const userId = `U-${randomUUID()}`;
      // ON CONFLICT: two sign-ups racing for one email make one account, and the loser is told like any other.
      const inserted = await db
        .insert(u)
        .values({
          tenantId: ctx.tenantId,
          userId,
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone ?? null,
          role: 'shopper',
          accessStatus: admission,
          emailConfirmedAt: null,
        })
        .onConflictDoNothing()
        .returning({ userId: u.userId });
      if (inserted.length === 0) {
        await mail(
          ctx,
          input.email,
          (store) => `Your ${store} account`,
          (store) =>
            `Someone, perhaps you, tried to create an account at ${store} with this email address.\n\n` +
            `You already have an account: log in with it, or use "Forgot your password?" on the login page.\n` +
            `If it was not you, you can ignore this message; nothing has changed.`,
        );
        return ok(undefined);
      }
      await sendConfirmation(ctx, { userId, email: input.email, firstName: input.firstName }, 'welcome', carry);
      return ok(undefined);
    },

    /**
     * Mails a fresh confirmation link when the email has an account here that still needs one; the
     * earlier links stop working. The caller answers the same either way; only the limits show (429).
     */
    async resendConfirmation(
      ctx: TenantContext,
      email: string,
      client: { ip: string | null },
    ): Promise<Result<void, RateLimitedRefusal>> {
      const limited = await limitMails(ctx, 'confirm-resend', email, client.ip, CONFIRM_RESEND_LIMITS);
      if (!limited.ok) return limited;
      const [user] = await db
        .select()
        .from(u)
        .where(and(eq(u.tenantId, ctx.tenantId), eq(u.email, email), isNull(u.emailConfirmedAt)));
      if (user) await sendConfirmation(ctx, user, 'again', {});
      return ok(undefined);
    },

    /**
     * Confirms the email of the link's account and opens a session, like a login (the person just
     * proved they read the account's mail). The link works once, on its own store, until it expires.
     */
    async confirmEmail(
      ctx: TenantContext,
      token: string,
      client: { ip: string | null; userAgent: string | null; previousToken?: string | null },
    ): Promise<Result<LoginResult, LinkRefusal>> {
      const ipSubject = `ip:${client.ip ?? 'unknown'}`;
      if ((await attempts(ctx, 'confirm', ipSubject, LOGIN_LIMITS.windowMs, true)) >= LOGIN_LIMITS.failuresPerAccount) {
        return rateLimited(LOGIN_LIMITS.windowMs);
      }
      const user = await db.transaction(async (tx) => {
        // Marked used in the statement that checks it: two clicks cannot both open a session.
        const [used] = await tx
          .update(ec)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(ec.tenantId, ctx.tenantId),
              eq(ec.tokenHash, hashToken(token)),
              isNull(ec.usedAt),
              gt(ec.expiresAt, new Date()),
            ),
          )
          .returning({ userId: ec.userId });
        if (!used) return null;
        const [row] = await tx
          .update(u)
          .set({ emailConfirmedAt: new Date() })
          .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, used.userId)))
          .returning();
        return row ?? null;
      });
      await record(ctx, 'confirm', [ipSubject], user !== null);
      if (!user) return refuse(400, 'BAD_REQUEST', CONFIRM_INVALID_MESSAGE);
      if (user.accessStatus === 'pending') await deps.registration?.()?.confirmedPending(ctx, user);
      if (client.previousToken) await this.logout(ctx, client.previousToken);
      const session = await openSession(db, ctx.tenantId, user.userId, client.userAgent);
      return ok({
        ...toSessionUser(user),
        token: session.token,
        expiresAt: session.expiresAt.toISOString(),
        csrfToken: csrf.tokenFor(ctx.tenantId, session.token),
      });
    },

    /**
     * Mails a single-use reset link, bound to the user and this store, if the email has an account
     * here. The caller answers the same either way; only the limits show through (429).
     */
    async forgotPassword(
      ctx: TenantContext,
      email: string,
      client: { ip: string | null },
    ): Promise<Result<void, RateLimitedRefusal>> {
      const limited = await limitMails(ctx, 'forgot', email, client.ip, FORGOT_LIMITS);
      if (!limited.ok) return limited;
      const [user] = await db
        .select()
        .from(u)
        .where(and(eq(u.tenantId, ctx.tenantId), eq(u.email, email)));
      if (!user) return ok(undefined);
      const token = randomBytes(32).toString('base64url');
      // Only the newest link works: an older mail lying in an inbox (or a forwarded one) opens nothing.
      // The user's row lock orders two requests racing, so exactly one link stays alive.
      await db.transaction(async (tx) => {
        await tx
          .select({ userId: u.userId })
          .from(u)
          .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, user.userId)))
          .for('update');
        await tx
          .update(r)
          .set({ usedAt: new Date() })
          .where(and(eq(r.tenantId, ctx.tenantId), eq(r.userId, user.userId), isNull(r.usedAt)));
        await tx.insert(r).values({
          tenantId: ctx.tenantId,
          tokenHash: hashToken(token),
          userId: user.userId,
          expiresAt: new Date(Date.now() + RESET_TTL_MS),
        });
      });
      const origin = await linkOrigin(ctx);
      if (!origin) return ok(undefined);
      const link = `${origin}/auth/reset-password?token=${token}`;
      await mail(
        ctx,
        user.email,
        (name) => `Reset your ${name} password`,
        (name) =>
          `Hello ${user.firstName},\n\nSomeone, hopefully you, asked to reset the password of your ${name} account.\n` +
          `Choose a new password here (the link works once, for one hour):\n\n${link}\n\n` +
          `If you did not ask, ignore this message: your password stays as it is.`,
      );
      return ok(undefined);
    },

    /**
     * Sets a new password from a reset link of this store. The link works once; every session of the
     * user ends (whoever had the old password is logged out).
     */
    async resetPassword(
      ctx: TenantContext,
      input: ResetPasswordRequest,
      client: { ip: string | null },
    ): Promise<Result<void, LinkRefusal>> {
      const ipSubject = `ip:${client.ip ?? 'unknown'}`;
      if ((await attempts(ctx, 'reset', ipSubject, FORGOT_LIMITS.windowMs, true)) >= LOGIN_LIMITS.failuresPerAccount) {
        return rateLimited(FORGOT_LIMITS.windowMs);
      }
      const passwordHash = await hashPassword(input.password);
      const userId = await db.transaction(async (tx) => {
        // Marking it used in the same statement that checks it: two clicks cannot both succeed.
        const [used] = await tx
          .update(r)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(r.tenantId, ctx.tenantId),
              eq(r.tokenHash, hashToken(input.token)),
              isNull(r.usedAt),
              gt(r.expiresAt, new Date()),
            ),
          )
          .returning({ userId: r.userId });
        if (!used) return null;
        await tx
          .update(u)
          .set({ passwordHash })
          .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, used.userId)));
        // The reset link reached the account's inbox: that confirms the email as well as its own link would.
        await tx
          .update(u)
          .set({ emailConfirmedAt: new Date() })
          .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, used.userId), isNull(u.emailConfirmedAt)));
        await tx.delete(s).where(and(eq(s.tenantId, ctx.tenantId), eq(s.userId, used.userId)));
        return used.userId;
      });
      await record(ctx, 'reset', [ipSubject], userId !== null);
      if (!userId) return refuse(400, 'BAD_REQUEST', RESET_INVALID_MESSAGE);
      return ok(undefined);
    },

    /** Revokes one session. Unknown or foreign tokens are ignored: logging out always succeeds. */
    async logout(ctx: TenantContext, token: string) {
      await db.delete(s).where(and(eq(s.tenantId, ctx.tenantId), eq(s.tokenHash, hashToken(token))));
    },

    /** Ends every session of a user (password change or reset), except `keepToken` if given. */
    async revokeAll(ctx: TenantContext, userId: string) {
      await db.delete(s).where(and(eq(s.tenantId, ctx.tenantId), eq(s.userId, userId)));
    },

    /**
     * The user a token belongs to, on this store only: the lookup is by tenant and token hash, so a
     * token from another store finds nothing. Expired sessions are deleted when met.
     */
    async resolve(ctx: TenantContext, token: string | null | undefined): Promise<SessionAccount | null> {
      if (!token || token.length > 100) return null;
      const tokenHash = hashToken(token);
      const [row] = await db
        .select({ user: u, expiresAt: s.expiresAt })
        .from(s)
        .innerJoin(u, and(eq(u.tenantId, s.tenantId), eq(u.userId, s.userId)))
        .where(and(eq(s.tenantId, ctx.tenantId), eq(s.tokenHash, tokenHash)));
      if (!row) return null;
      if (row.expiresAt.getTime() <= Date.now()) {
        await db.delete(s).where(and(eq(s.tenantId, ctx.tenantId), lt(s.expiresAt, new Date())));
        return null;
      }
      return toSessionAccount(row.user);
    },

    /**
     * Saves My Profile. A new email needs the current password and must be free in this store; a
     * wrong password counts as a failed login of the account.
     */
    async updateProfile(
      ctx: TenantContext,
      userId: string,
      input: ProfileUpdate,
    ): Promise<Result<Profile, UpdateProfileRefusal>> {
      const current = await this.profile(ctx, userId);
      if (input.email !== current.email) {
        const checked = await checkPassword(ctx, userId, current.email, input.currentPassword, 'currentPassword');
        if (!checked.ok) return checked;
        const [taken] = await db
          .select({ userId: u.userId })
          .from(u)
          .where(and(eq(u.tenantId, ctx.tenantId), eq(u.email, input.email), ne(u.userId, userId)));
        if (taken) {
          return refuseField(
            409,
            'CONFLICT',
            'email',
            'another account of this store already uses this email address.',
          );
        }
      }
      await db
        .update(u)
        .set({ firstName: input.firstName, lastName: input.lastName, email: input.email, phone: input.phone })
        .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, userId)));
      return ok(await this.profile(ctx, userId));
    },

    /** Changes the password (the current one is required) and ends every other session of the user. */
    async changePassword(
      ctx: TenantContext,
      userId: string,
      currentToken: string | null,
      input: PasswordChange,
    ): Promise<Result<void, PasswordCheckRefusal>> {
      const me = await this.profile(ctx, userId);
      const checked = await checkPassword(ctx, userId, me.email, input.currentPassword, 'currentPassword');
      if (!checked.ok) return checked;
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction(async (tx) => {
        await tx
          .update(u)
          .set({ passwordHash })
          .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, userId)));
        const others = [eq(s.tenantId, ctx.tenantId), eq(s.userId, userId)];
        if (currentToken) others.push(ne(s.tokenHash, hashToken(currentToken)));
        await tx.delete(s).where(and(...others));
      });
      return ok(undefined);
    },

    async profile(ctx: TenantContext, userId: string): Promise<Profile> {
      const [row] = await db
        .select()
        .from(u)
        .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, userId)));
      if (!row) throw new AppError(401, 'UNAUTHENTICATED', 'Please log in again.');
      return {
        userId: row.userId,
        email: row.email,
        firstName: row.firstName,
        lastName: row.lastName,
        phone: row.phone,
        partyId: row.role,
        createdAt: row.createdAt.toISOString(),
      };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
