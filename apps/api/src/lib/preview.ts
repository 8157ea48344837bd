import type { IncomingHttpHeaders } from 'node:http';

/**
 * The owner's storefront preview switch (decision 032): a cookie the dashboard sets and clears. It
 * only asks; the request context grants preview to an actor who may edit settings, so a shopper who
 * copies the cookie sees the live store like everyone else.
 */
export const PREVIEW_COOKIE = 'sf_preview';

export function previewRequested(headers: IncomingHttpHeaders): boolean {
  const header = headers.cookie;
  if (!header) return false;
  return header.split(';').some((part) => part.trim() === `${PREVIEW_COOKIE}=1`);
}

/** Set-Cookie for turning the preview on or off; a session cookie, like the login it rides on. */
export function previewCookie(on: boolean, secure: boolean): string {
  const value = on ? `${PREVIEW_COOKIE}=1` : `${PREVIEW_COOKIE}=; Max-Age=0`;
  return `${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
