import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { expect } from '@playwright/test';
import { mailedLinks } from './helpers';
import { PORT } from './playwright.config';

/**
 * What the browser tests of the platform's side share: its host, the demo operator, plain requests
 * from the test process, an authenticator's code, and a store signed up for a spec of its own.
 */

export const PLATFORM = `http://platform.localhost:${PORT}`;
export const DEMO_OPERATOR = { email: 'operator@platform.localhost', password: 'operator-demo-1' };
/** The demo operator's TOTP secret (README), for the code step when the server asks for it. */
export const DEMO_OPERATOR_TOTP_SECRET = process.env.E2E_OPERATOR_TOTP_SECRET ?? 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export interface Answer {
  status: number;
  body: string;
  cookies: string[];
  location: string | undefined;
}

/** A request from the test process to 127.0.0.1 with a host's name (Node does not resolve *.localhost here). */
export function call(
  base: string,
  method: string,
  path: string,
  opts: { json?: unknown; cookie?: string; csrf?: string; bearer?: string } = {},
): Promise<Answer> {
  const url = new URL(base);
  const body = opts.json === undefined ? '' : JSON.stringify(opts.json);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path,
        method,
        headers: {
          host: url.host,
          origin: url.origin,
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
          ...(opts.csrf ? { 'x-csrf-token': opts.csrf } : {}),
          ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            cookies: res.headers['set-cookie'] ?? [],
            location: res.headers.location,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** RFC 6238 with SHA-1, 30 s, 6 digits: the code an authenticator app shows at `now`. */
export function totp(secretBase32: string, now = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secretBase32.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 1000 / 30)));
  const h = createHmac('sha1', key).update(counter).digest();
  const o = (h[h.length - 1] ?? 0) & 0xf;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * A store of the spec's own, opened as a merchant would: the sign-up API, then the mailed link's
 * confirmation. Resolves once the store is live.
 */
export async function signUpStore(store: {
  storeName: string;
  subdomain: string;
  owner: { email: string; password: string };
}) {
  const signup = await call(PLATFORM, 'POST', '/platform-api/signup', {
    json: {
      storeName: store.storeName,
      subdomain: store.subdomain,
      email: store.owner.email,
      password: store.owner.password,
      template: 'DEFAULT',
      starter: 'empty',
    },
  });
  expect(signup.status, signup.body).toBeLessThan(300);
  await expect.poll(() => mailedLinks(store.owner.email, '/signup/confirm').length).toBeGreaterThan(0);
  const token = new URL(mailedLinks(store.owner.email, '/signup/confirm')[0] as string).searchParams.get('token');
  const confirmed = await call(PLATFORM, 'POST', '/platform-api/signup/confirm', { json: { token } });
  expect(confirmed.status, confirmed.body).toBe(200);
}
