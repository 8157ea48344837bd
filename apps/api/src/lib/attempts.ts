import { type Db, schema } from '@app/db';
import { and, count, eq, gt } from 'drizzle-orm';
import type { TenantContext } from './context';
import { AppError } from './errors';
import { type Refusal, refuse } from './result';

const a = schema.authAttempts;
export type AttemptAction = (typeof a.$inferInsert)['action'];

/**
 * Counted attempts at abuse-prone actions (logins, sign-ups, reset and confirmation links, guest
 * order keys), by client address, account or order. They live in the database so a limit holds
 * across app processes sharing it.
 */
export function createAttempts(db: Db) {
  return {
    async count(ctx: TenantContext, action: AttemptAction, subject: string, windowMs: number, onlyFailures = false) {
      const since = new Date(Date.now() - windowMs);
      const [row] = await db
        .select({ n: count() })
        .from(a)
        .where(
          and(
            eq(a.tenantId, ctx.tenantId),
            eq(a.action, action),
            eq(a.subject, subject),
            gt(a.createdAt, since),
            ...(onlyFailures ? [eq(a.succeeded, false)] : []),
          ),
        );
      return row?.n ?? 0;
    },
    async record(ctx: TenantContext, action: AttemptAction, subjects: string[], succeeded: boolean) {
      await db.insert(a).values(subjects.map((subject) => ({ tenantId: ctx.tenantId, action, subject, succeeded })));
    },
  };
}

export type Attempts = ReturnType<typeof createAttempts>;

/** Past a limit, as a refusal (decision 088): 429 with the seconds to wait in Retry-After. */
export type RateLimitedRefusal = Refusal<'RATE_LIMITED'>;

export const attemptsRefused = (retryAfterMs: number): RateLimitedRefusal =>
  refuse(429, 'RATE_LIMITED', 'Too many attempts. Please wait a few minutes and try again.', {
    headers: { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
  });

/** The same answer thrown, for the operations not converted to refusals yet (guest order keys). */
export const tooManyAttempts = (retryAfterMs: number) => {
  const r = attemptsRefused(retryAfterMs);
  return new AppError(r.status, r.code, r.message, undefined, { ...r.headers });
};
