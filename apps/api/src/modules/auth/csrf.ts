import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { CSRF_FIELD, CSRF_HEADER } from '@app/contracts/client';
import { AppError } from '../../lib/errors';
import { cookieValue, SESSION_COOKIE } from './session-token';

/**
 * CSRF tokens: the second half of "Origin check plus token" (the first is assertSameOrigin).
 *
 * A token is an HMAC of the store and of the cookie that identifies the browser: the session
 * cookie when there is one, else a random pre-session cookie (`csrf`) that the pages hand out, so
 * that login and sign-up forms are covered too. This is OWASP's "signed double-submit cookie": a
 * page of another site can neither read the token nor forge one, and because the token is bound to
 * the session, a cookie planted by a sibling host cannot be paired with a token of the attacker's.
 * It needs no table: the server recomputes it from the cookie it receives.
 */
export { CSRF_FIELD, CSRF_HEADER };
export const CSRF_COOKIE = 'csrf';

/** The cookie a token is bound to: the session if there is one, else the pre-session cookie. */
export function csrfBinding(headers: IncomingHttpHeaders): string | null {
  return cookieValue(headers.cookie, SESSION_COOKIE) ?? cookieValue(headers.cookie, CSRF_COOKIE);
}

/** A fresh pre-session cookie for a browser that has neither cookie yet. */
export function newCsrfCookie(secure: boolean): { value: string; header: string } {
  const value = randomBytes(16).toString('base64url');
  return { value, header: `${CSRF_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}` };
}

export interface Csrf {
  /** The token forms and API clients send back for this store and binding. */
  tokenFor(tenantId: string, binding: string): string;
  /** Whether a submitted token belongs to this store and binding (constant time). */
  valid(tenantId: string, binding: string | null, submitted: unknown): boolean;
}

export function createCsrf(secret: string): Csrf {
  const tokenFor = (tenantId: string, binding: string) =>
    createHmac('sha256', secret).update(`csrf\0${tenantId}\0${binding}`).digest('base64url');
  return {
    tokenFor,
    valid(tenantId, binding, submitted) {
      if (!binding || typeof submitted !== 'string' || submitted.length === 0) return false;
      const expected = Buffer.from(tokenFor(tenantId, binding));
      const given = Buffer.from(submitted);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export const csrfRefused = () =>
  new AppError(403, 'FORBIDDEN', 'This form has expired or did not come from this store. Please try again.');
