import type { IncomingHttpHeaders } from 'node:http';
import { hasControlCharacter } from '../../lib/control-characters';
import { AppError } from '../../lib/errors';

/**
 * Where a request's session token comes from, and the cookie that carries it for the web app.
 * The cookie is httpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs) and
 * Secure on https; cookie-authenticated changes must also come from the store's own origin.
 */
export const SESSION_COOKIE = 'sid';

export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodedCookie(part.slice(i + 1).trim());
  }
  return null;
}

/** A value that does not decode to text is no cookie of ours: its owner gets no session, not a 500. */
function decodedCookie(raw: string): string | null {
  try {
    const value = decodeURIComponent(raw);
    return value && !hasControlCharacter(value, 'line') ? value : null;
  } catch {
    return null;
  }
}

export interface RequestToken {
  token: string;
  via: 'bearer' | 'cookie';
}

/** `Authorization: Bearer` first (API clients), else the session cookie (the web app). */
export function requestToken(headers: IncomingHttpHeaders): RequestToken | null {
  const auth = headers.authorization;
  if (auth?.startsWith('Bearer ')) {
    const token = auth.slice(7).trim();
    return token ? { token, via: 'bearer' } : null;
  }
  const token = cookieValue(headers.cookie, SESSION_COOKIE);
  return token ? { token, via: 'cookie' } : null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie-authenticated changes: the browser says where the request comes from
 * (Origin, or Sec-Fetch-Site on browsers that omit Origin), and it must be this very host. A
 * request with neither header is not a browser's cross-site request and passes (curl, server code).
 */
export function assertSameOrigin(method: string, headers: IncomingHttpHeaders, origin: string) {
  if (SAFE_METHODS.has(method.toUpperCase())) return;
  const from = headers.origin;
  if (from !== undefined) {
    if (from !== origin) throw new AppError(403, 'FORBIDDEN', 'This request came from another site and was refused.');
    return;
  }
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new AppError(403, 'FORBIDDEN', 'This request came from another site and was refused.');
  }
}
