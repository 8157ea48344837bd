import { OPERATOR_SESSION_COOKIE } from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import type { BuildOptions } from '../../lib/module';
import { requirePlatformHost } from '../../lib/platform-host';
import { assertSameOrigin, CSRF_HEADER, cookieValue } from '../auth/index';
import type { OperatorAuth } from './operator-auth.service';
import type { OperatorPrincipal, OperatorRequest } from './operator-principal';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator of a platform-API request (set by the operator guard). */
    operator: OperatorRequest | null;
  }
  interface FastifyContextConfig {
    /**
     * A platform-API route (decision 101): `signed-in` needs an operator's session or token, checked
     * before the body is read; `public` is the sign-in itself. Either exists on the platform host only.
     */
    operator?: 'signed-in' | 'public';
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The psid cookie: host-only (no Domain), so no store's host ever receives it. */
export function operatorSessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${OPERATOR_SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

export function clearedOperatorSessionCookie(secure: boolean): string {
  return `${OPERATOR_SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

const unauthenticated = () =>
  new AppError(401, 'UNAUTHENTICATED', 'Please sign in as a platform operator (or send an operator token).');

/**
 * Who calls a platform-API route: `Authorization: Bearer opt_...` (an operator token) or the `psid`
 * cookie of a console session. Anything else (a store's session token or cookie, no credentials)
 * is a visitor here: 401.
 */
export async function authenticateOperator(req: FastifyRequest, auth: OperatorAuth): Promise<OperatorPrincipal> {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const principal = await auth.resolveToken(token);
    if (!principal) throw unauthenticated();
    return principal;
  }
  const principal = await auth.resolveSession(cookieValue(req.headers.cookie, OPERATOR_SESSION_COOKIE));
  if (!principal) throw unauthenticated();
  return principal;
}

/**
 * The guard of every platform-API route, run on request (before the body is parsed): the platform
 * host only (404 elsewhere), then the operator (401), then for a change riding on the cookie the
 * platform's own origin and the session's CSRF token (403).
 */
export function operatorGuard(auth: OperatorAuth, config: BuildOptions['config']) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    req.operator = null;
    requirePlatformHost(req, config);
    if (req.routeOptions.config?.operator !== 'signed-in') {
      // The sign-in steps: a browser's cross-site POST is refused even there (login CSRF).
      assertSameOrigin(req.method, req.headers, `${req.protocol}://${req.host}`);
      return;
    }
    const principal = await authenticateOperator(req, auth);
    req.operator = { principal, requestId: req.id, ip: req.ip };
    if (principal.via === 'token' || SAFE_METHODS.has(req.method)) return;
    assertSameOrigin(req.method, req.headers, `${req.protocol}://${req.host}`);
    const submitted = req.headers[CSRF_HEADER];
    if (!principal.sessionHash || !auth.csrfValid(principal.sessionHash, submitted)) {
      throw AppError.forbidden('This console page has expired or did not come from the console. Please reload it.');
    }
  };
}

/** The operator of a guarded route's request (the guard has set it). */
export function operatorOf(req: FastifyRequest): OperatorRequest {
  if (!req.operator) throw new AppError(401, 'UNAUTHENTICATED', 'Please sign in as a platform operator.');
  return req.operator;
}
