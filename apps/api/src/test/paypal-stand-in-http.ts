import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  debugId,
  denied,
  escapeHtml,
  isObject,
  MESSAGES,
  PayPalError,
  type StandInApp,
} from './paypal-stand-in-shared';
import type { StandInState } from './paypal-stand-in-state';
import type { StandInSeller } from './paypal-stand-in-types';

// How the PayPal stand-in (paypal-stand-in.ts) answers (JSON, PayPal's error bodies, its HTML pages) and
// who is calling (the bearer token's app, the seller a PayPal-Auth-Assertion names).

const infoLink = (issue: string) => ({
  href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`,
  rel: 'information_link',
  method: 'GET',
});

/** Every answer goes out here, so the request log has its status before the client can read it. */
export function respond(
  s: StandInState,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body = '',
) {
  const entry = s.entries.get(res);
  if (entry) entry.status = status;
  res.writeHead(status, headers);
  res.end(body);
}

export function sendJson(
  s: StandInState,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  respond(s, res, status, { 'Content-Type': 'application/json', ...headers }, JSON.stringify(body));
}

export function sendError(s: StandInState, res: ServerResponse, err: PayPalError) {
  const id = debugId();
  const body: Record<string, unknown> = { name: err.errorName, message: MESSAGES[err.errorName] };
  if (err.details.length) body.details = err.details;
  if (err.errorName !== 'AUTHENTICATION_FAILURE') body.debug_id = id;
  body.links = err.details.length
    ? [infoLink(err.details[0]!.issue)]
    : [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link' }];
  sendJson(s, res, err.status, body, { 'PayPal-Debug-Id': id });
}

/** One of PayPal's pages (the seller's sign-up), plain HTML without JavaScript. */
export const html = (s: StandInState, res: ServerResponse, status: number, title: string, main: string) =>
  respond(
    s,
    res,
    status,
    { 'Content-Type': 'text/html; charset=utf-8' },
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
      '<style>body{font-family:system-ui,sans-serif;margin:0;background:#f5f7fa;color:#1a1a1a}main{max-width:28rem;margin:3rem auto;padding:1.5rem;background:#fff;border-radius:8px}' +
      'button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:20px;background:#0070ba;color:#fff;cursor:pointer}a{color:#0a58a5}.actions{display:flex;gap:1rem;align-items:center}</style>' +
      `</head><body><main>${main}</main></body></html>`,
  );

/** The app the bearer token belongs to. */
export function checkBearer(s: StandInState, req: IncomingMessage): StandInApp {
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  const known = m ? s.tokens.get(m[1]!) : undefined;
  if (known === undefined || known.expiry <= Date.now()) throw new PayPalError(401, 'AUTHENTICATION_FAILURE');
  return known.app;
}

/**
 * The seller a PayPal-Auth-Assertion names, checked as PayPal does: an unsigned JWT (alg none)
 * whose iss is the calling app and whose payer_id is a seller that consented to that app.
 */
export function assertedSeller(s: StandInState, req: IncomingMessage, app: StandInApp): StandInSeller | undefined {
  const header = req.headers['paypal-auth-assertion'];
  if (header === undefined) return undefined;
  const malformed = () =>
    new PayPalError(400, 'INVALID_REQUEST', [
      {
        field: 'PayPal-Auth-Assertion',
        location: 'header',
        issue: 'INVALID_PAYPAL_AUTH_ASSERTION',
        description: 'PayPal-Auth-Assertion header is malformed.',
      },
    ]);
  const parts = String(header).split('.');
  if (parts.length !== 3 || parts[2] !== '') throw malformed();
  let head: unknown;
  let claims: unknown;
  try {
    head = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (!isObject(head) || head.alg !== 'none' || !isObject(claims) || typeof claims.iss !== 'string') {
    throw malformed();
  }
  if (typeof claims.payer_id !== 'string' || !claims.payer_id) throw malformed();
  if (claims.iss !== app.clientId) throw denied();
  const seller = s.sellers.get(claims.payer_id);
  // Consent is given to the platform's app; no other app may act for the seller.
  if (!seller?.consent || !app.platform) throw denied();
  return seller;
}
