import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TenantContext } from '../../lib/context';
import { createTestApp } from '../../test/harness';
import { hashToken, LOGIN_LIMITS } from './auth-model';
import {
  api,
  cookieOf,
  GARDEN,
  LIGHTING,
  login,
  owner,
  profile,
  sessionOf,
  shopper,
  t,
  typedLogin,
  useAuthTestApp,
} from './auth-test-setup';

useAuthTestApp();

describe('POST /login', () => {
  it('opens a session: first name, user type and login id, an httpOnly SameSite cookie and a bearer token', async () => {
    const res = await typedLogin(shopper);
    expect(res.response.status).toBe(200);
    const body = res.data ?? { data: { token: '' } };
    expect(body.data).toMatchObject({ firstName: 'Sam', partyId: 'shopper', userLoginId: 'shopper@lighting.test' });
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String(res.response.headers.get('set-cookie'));
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
    expect(cookie).not.toContain('Secure'); // plain http in tests; https adds it
    // Only the token's hash is stored.
    const rows = await t.database.db.select().from(schema.sessions);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(hashToken(body.data.token));
    expect(JSON.stringify(rows)).not.toContain(body.data.token);
  });

  it('answers a wrong password and an unknown email alike (status and body but the request id)', async () => {
    const wrong = await typedLogin({ ...shopper, password: 'not-the-password' });
    const unknown = await typedLogin({ email: 'nobody@lighting.test', password: 'not-the-password' });
    expect(wrong.response.status).toBe(401);
    expect(unknown.response.status).toBe(401);
    const strip = (b: object | undefined) => ({ ...b, requestId: undefined });
    expect(strip(wrong.error)).toEqual(strip(unknown.error));
    expect(wrong.error).toMatchObject({ error: true, data: { message: 'The email or password is incorrect.' } });
    expect(wrong.response.headers.get('set-cookie')).toBeNull();
  });

  it('takes the email in any case and refuses unknown fields and bad emails with a message naming them', async () => {
    expect((await login({ email: 'Shopper@Lighting.TEST', password: shopper.password })).statusCode).toBe(200);
    const extra = await login({ ...shopper, role: 'admin' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toContain('role');
    const bad = await login({ email: 'not-an-email', password: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('email');
  });

  it("a store's accounts do not exist on another store's host", async () => {
    expect((await login(shopper, { host: GARDEN })).statusCode).toBe(401);
    expect(
      (await login({ email: 'shopper@garden.test', password: 'shopper-demo-1' }, { host: GARDEN })).statusCode,
    ).toBe(200);
  });

  it('gives a fresh token at every login and revokes the one the browser had (no fixation)', async () => {
    const first = cookieOf(await login(shopper));
    const second = await login(shopper, { headers: { cookie: first } });
    expect(cookieOf(second)).not.toBe(first);
    expect((await profile({ cookie: first })).statusCode).toBe(401);
    expect((await profile({ cookie: cookieOf(second) })).statusCode).toBe(200);
  });

  it('refuses a login posted from another site (login CSRF)', async () => {
    const res = await login(shopper, { headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(403);
    expect(await t.database.db.select().from(schema.sessions)).toHaveLength(0);
    expect((await login(shopper, { headers: { origin: 'http://lighting.localhost' } })).statusCode).toBe(200);
  });

  it('limits failures per account with 429 and Retry-After, even from many addresses', async () => {
    for (let i = 0; i < LOGIN_LIMITS.failuresPerAccount; i++) {
      expect((await login({ ...shopper, password: `wrong-${i}` }, { ip: `10.1.0.${i}` })).statusCode).toBe(401);
    }
    const blocked = await login(shopper, { ip: '10.2.0.1' });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    expect((await login(owner, { ip: '10.2.0.2' })).statusCode).toBe(200);
  });

  it('limits attempts per client address across accounts', async () => {
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++) {
      await login({ email: `guess${i}@lighting.test`, password: 'guess' }, { ip: '10.3.0.1' });
    }
    expect((await login(owner, { ip: '10.3.0.1' })).statusCode).toBe(429);
    expect((await login(owner, { ip: '10.3.0.2' })).statusCode).toBe(200);
  });

  it('counts only failures per address: a team behind one address signs in as often as it likes', async () => {
    const office = '10.3.5.1';
    for (let i = 0; i < 40; i++) {
      const who = i % 2 ? owner : shopper;
      expect((await login(who, { ip: office })).statusCode).toBe(200);
    }
    // Failures from that address still add up to the limit, whatever succeeded before; then even the
    // right password waits, as it would for whoever is guessing there.
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++) {
      await login({ email: `guess${i}@lighting.test`, password: 'guess' }, { ip: office });
    }
    expect((await login(owner, { ip: office })).statusCode).toBe(429);
  });

  it('takes the per-address limit from LOGIN_ATTEMPTS_PER_IP (many people behind one address)', async () => {
    const office = await createTestApp({ config: { LOGIN_ATTEMPTS_PER_IP: 3 } });
    try {
      const attempt = (payload: object = owner) =>
        office.app.inject({
          method: 'POST',
          url: '/skulocity/api/v1/login',
          headers: { host: LIGHTING },
          payload,
          remoteAddress: '10.3.9.1',
        });
      for (let i = 0; i < 5; i++) expect((await attempt()).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) expect((await attempt({ ...owner, password: `wrong-${i}` })).statusCode).toBe(401);
      expect((await attempt()).statusCode).toBe(429);
    } finally {
      await office.close();
    }
  });
});

describe('sessions', () => {
  it('the profile answers with the cookie or the bearer token, and 401 without', async () => {
    const res = await typedLogin(owner);
    const token = res.data?.data.token ?? '';
    const view = (headers: Record<string, string>) => api(headers).POST('/skulocity/api/v1/ecommerce/profile/view');
    const viaCookie = await view({ cookie: res.response.headers.get('set-cookie')?.split(';')[0] ?? '' });
    expect(viaCookie.response.status).toBe(200);
    expect(viaCookie.data?.data).toMatchObject({ email: 'owner@lighting.test', firstName: 'Olivia', partyId: 'admin' });
    expect(viaCookie.data?.data).not.toHaveProperty('passwordHash');
    expect((await view({ authorization: `Bearer ${token}` })).response.status).toBe(200);
    const none = await view({});
    expect(none.response.status).toBe(401);
    expect(none.error?.message).toBe('Please log in to continue.');
  });

  it("a token of one store is refused on another store's host", async () => {
    const token = (await login(shopper)).json().data.token as string;
    expect((await profile({ authorization: `Bearer ${token}` }, GARDEN)).statusCode).toBe(401);
    expect((await profile({ cookie: `sid=${token}` }, GARDEN)).statusCode).toBe(401);
  });

  it('a cookie-authenticated change needs this origin and the CSRF token of the session; a bearer token needs neither', async () => {
    const res = await login(shopper);
    const session = sessionOf(res);
    const rename = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: '/skulocity/api/v1/ecommerce/profile/update',
        headers: { host: LIGHTING, ...headers },
        payload: { firstName: 'Mallory', lastName: 'Shopper', email: shopper.email, phone: null },
      });
    expect((await rename({ ...session, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await rename({ ...session, 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    const noToken = await rename({ cookie: session.cookie, origin: 'http://lighting.localhost' });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().message).toContain('did not come from this store');
    expect((await rename({ cookie: session.cookie, 'x-csrf-token': 'x'.repeat(43) })).statusCode).toBe(403);
    expect((await profile({ cookie: session.cookie })).json().data.firstName).toBe('Sam');

    // The token a client fetches for its cookie is the one login gave; a new session has another.
    const fetched = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/csrftoken',
      headers: { host: LIGHTING, cookie: session.cookie },
    });
    expect(fetched.json().data.csrfToken).toBe(session['x-csrf-token']);
    expect(fetched.headers['cache-control']).toBe('private, no-store');
    expect(sessionOf(await login(shopper))['x-csrf-token']).not.toBe(session['x-csrf-token']);

    const token = res.json().data.token as string;
    const bearer = await rename({ authorization: `Bearer ${token}`, origin: 'https://evil.example' });
    expect(bearer.statusCode).toBe(200);
    const ok = await rename({ ...session, origin: 'http://lighting.localhost' });
    expect(ok.statusCode).toBe(200);
    await t.app.inject({
      method: 'PUT',
      url: '/skulocity/api/v1/ecommerce/profile/update',
      headers: { host: LIGHTING, ...session },
      payload: { firstName: 'Sam', lastName: 'Shopper', email: shopper.email, phone: null },
    });
  });

  it('before a login, the CSRF token is bound to a cookie of its own and to the store', async () => {
    const first = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/csrftoken',
      headers: { host: LIGHTING },
    });
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/^csrf=[\w-]{22}; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = setCookie.split(';')[0] ?? '';
    const again = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/csrftoken',
      headers: { host: LIGHTING, cookie },
    });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.json().data.csrfToken).toBe(first.json().data.csrfToken);
    const garden = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/csrftoken',
      headers: { host: GARDEN, cookie },
    });
    expect(garden.json().data.csrfToken).not.toBe(first.json().data.csrfToken);
  });

  it('logout revokes the session and clears the cookie; logging out twice is fine', async () => {
    const res = await login(shopper);
    const { cookie } = sessionOf(res);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/logout',
      headers: { host: LIGHTING, cookie },
    });
    expect(forged.statusCode).toBe(403);
    expect((await profile({ cookie })).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/logout',
      headers: { host: LIGHTING, ...sessionOf(res) },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe('You have been logged out successfully!');
    expect(String(out.headers['set-cookie'])).toMatch(/^sid=; .*Max-Age=0/);
    expect((await profile({ cookie })).statusCode).toBe(401);
    // The ended session cannot log out again, but a client without one always can.
    const again = await t.app.inject({ method: 'POST', url: '/skulocity/api/v1/logout', headers: { host: LIGHTING } });
    expect(again.statusCode).toBe(200);
  });

  it('an expired session is refused and removed', async () => {
    const token = (await login(shopper)).json().data.token as string;
    const s = schema.sessions;
    await t.database.db
      .update(s)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(s.tenantId, 'lighting'), eq(s.tokenHash, hashToken(token))));
    expect((await profile({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    expect(await t.database.db.select().from(s)).toHaveLength(0);
  });
});

describe('the login service', () => {
  // What the routes and the login page map: a refusal returned with its code and Retry-After, never thrown.
  const ctx: TenantContext = {
    tenantId: 'lighting',
    productStoreId: '9000',
    hostName: LIGHTING,
    viaDevAlias: false,
    origin: '',
  };

  it('returns a wrong password, an unconfirmed email and the limit as refusals', async () => {
    const auth = t.services.auth;
    const client = { ip: '10.9.0.1', userAgent: null };
    const wrong = await auth.login(ctx, { ...shopper, password: 'not-the-password' }, client);
    expect(wrong).toMatchObject({ ok: false, status: 401, code: 'UNAUTHENTICATED' });
    await t.database.db
      .update(schema.users)
      .set({ emailConfirmedAt: null })
      .where(and(eq(schema.users.tenantId, 'lighting'), eq(schema.users.email, shopper.email)));
    try {
      const unconfirmed = await auth.login(ctx, shopper, client);
      expect(unconfirmed).toMatchObject({ ok: false, status: 403, code: 'EMAIL_NOT_CONFIRMED' });
    } finally {
      await t.database.db
        .update(schema.users)
        .set({ emailConfirmedAt: new Date() })
        .where(and(eq(schema.users.tenantId, 'lighting'), eq(schema.users.email, shopper.email)));
    }
    for (let i = 1; i < LOGIN_LIMITS.failuresPerAccount; i++) {
      await auth.login(ctx, { ...shopper, password: `wrong-${i}` }, client);
    }
    const limited = await auth.login(ctx, shopper, client);
    expect(limited).toMatchObject({ ok: false, status: 429, code: 'RATE_LIMITED' });
    expect(Number(!limited.ok && limited.headers?.['Retry-After'])).toBe(LOGIN_LIMITS.windowMs / 1000);
  });
});
