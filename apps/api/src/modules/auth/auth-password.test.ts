import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cookieOf, GARDEN, LIGHTING, login, profile, sessionOf, shopper, t, useAuthTestApp } from './auth-test-setup';

useAuthTestApp();

describe('forgot and reset password', () => {
  const forgot = (email: string, host = LIGHTING, ip = '10.7.0.1') =>
    t.app.inject({
      method: 'GET',
      url: `/skulocity/api/v1/public/ecommerce/forgotpassword?email=${encodeURIComponent(email)}`,
      headers: { host },
      remoteAddress: ip,
    });
  const reset = (payload: object, host = LIGHTING) =>
    t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/resetpassword',
      headers: { host },
      payload,
      remoteAddress: '10.7.0.2',
    });
  /** The mail delivered so far, oldest first, once the mail queue has run. */
  const mails = async () => {
    await t.services.jobs.drain();
    const dir = join(t.dataDir, 'outbox');
    return existsSync(dir)
      ? readdirSync(dir)
          .sort()
          .map((f) => readFileSync(join(dir, f), 'utf8'))
      : [];
  };
  /** The reset link of the newest mail (quoted-printable soft breaks undone). */
  const lastLink = async () => {
    const text = ((await mails()).at(-1) ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    return text.match(/(https?:\/\/\S+\/auth\/reset-password\?token=[A-Za-z0-9_-]+)/)?.[1] ?? '';
  };
  const owner2 = { email: 'owner@lighting.test', password: 'owner-demo-1' };

  beforeEach(async () => {
    await t.database.db.delete(schema.passwordResets);
  });

  it("answers alike for an account and a stranger, and mails the account a link on the store's canonical host", async () => {
    const before = (await mails()).length;
    const none = await forgot('nobody@lighting.test');
    // Asked through another of the store's host names: the link still names the canonical host.
    const some = await forgot('owner@lighting.test', 'lighting.shop.test');
    expect(none.statusCode).toBe(200);
    expect(some.statusCode).toBe(200);
    const strip = (b: Record<string, unknown>) => ({ ...b, requestId: undefined });
    expect(strip(none.json())).toEqual(strip(some.json()));
    expect((await mails()).length).toBe(before + 1);
    expect(await lastLink()).toMatch(/^http:\/\/lighting\.localhost\/auth\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
  });

  it('a link sets the password once, ends every session, and is refused the second time', async () => {
    const session = cookieOf(await login(owner2));
    await forgot(owner2.email);
    const token = new URL(await lastLink()).searchParams.get('token') ?? '';
    const res = await reset({ token, password: 'brand-new-pass-9' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toBe('Your password has been changed. Please log in with your new password.');
    expect((await profile({ cookie: session })).statusCode).toBe(401);
    expect((await login(owner2)).statusCode).toBe(401);
    expect((await login({ ...owner2, password: 'brand-new-pass-9' })).statusCode).toBe(200);
    const again = await reset({ token, password: 'another-pass-10' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This reset link is invalid, used or expired. Please ask for a new one.');
    // Put the demo password back for the other tests.
    await forgot(owner2.email);
    const back = new URL(await lastLink()).searchParams.get('token') ?? '';
    await t.database.db.delete(schema.authAttempts);
    expect((await reset({ token: back, password: 'owner-demo-1' })).statusCode).toBe(200);
  });

  it('an expired link, or a link of another store, is refused; weak passwords are refused by name', async () => {
    await forgot('shopper@lighting.test');
    const token = new URL(await lastLink()).searchParams.get('token') ?? '';
    expect((await reset({ token, password: 'brand-new-pass-9' }, GARDEN)).statusCode).toBe(400);
    const weak = await reset({ token, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toContain('at least 10 characters');
    await t.database.db.update(schema.passwordResets).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await reset({ token, password: 'brand-new-pass-9' })).statusCode).toBe(400);
    expect((await login(shopper)).statusCode).toBe(200);
  });

  it('a second link supersedes the first: the earlier unused one no longer works, the newer one does', async () => {
    await forgot('shopper@lighting.test', LIGHTING, '10.5.0.1');
    const first = new URL(await lastLink()).searchParams.get('token') ?? '';
    await forgot('shopper@lighting.test', LIGHTING, '10.5.0.2');
    const second = new URL(await lastLink()).searchParams.get('token') ?? '';
    expect(second).not.toBe(first);
    const old = await reset({ token: first, password: 'brand-new-pass-9' });
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toBe('This reset link is invalid, used or expired. Please ask for a new one.');
    expect((await login({ ...shopper, password: 'brand-new-pass-9' })).statusCode).toBe(401);
    expect((await reset({ token: second, password: 'shopper-demo-1' })).statusCode).toBe(200);
    expect((await login(shopper)).statusCode).toBe(200);
  });

  it('limits reset mails per account with 429', async () => {
    for (let i = 0; i < 3; i++)
      expect((await forgot('shopper@lighting.test', LIGHTING, `10.6.0.${i}`)).statusCode).toBe(200);
    const blocked = await forgot('shopper@lighting.test', LIGHTING, '10.6.0.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});

describe('profile update and password change', () => {
  type Session = ReturnType<typeof sessionOf>;
  const put = (session: Session | Record<string, never>, payload: object) =>
    t.app.inject({
      method: 'PUT',
      url: '/skulocity/api/v1/ecommerce/profile/update',
      headers: { host: LIGHTING, ...session },
      payload,
    });
  const change = (session: Session, payload: object, origin?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/ecommerce/profile/changepassword',
      headers: { host: LIGHTING, ...session, ...(origin ? { origin } : {}) },
      payload,
    });
  const grace = { email: 'grace.p@example.com', password: 'compilers-1952' };

  beforeAll(async () => {
    await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/profile/newUser',
      headers: { host: LIGHTING },
      payload: { firstName: 'Grace', lastName: 'Hopper', ...grace },
      remoteAddress: '10.5.0.1',
    });
    // As if she had followed the link of her welcome mail (tested above).
    await t.database.db
      .update(schema.users)
      .set({ emailConfirmedAt: new Date() })
      .where(eq(schema.users.email, grace.email));
  });

  it('saves names and phone; an email change needs the current password and a free address', async () => {
    const cookie = sessionOf(await login(grace));
    const same = { firstName: 'Amazing', lastName: 'Grace', email: grace.email, phone: '+1 212 555 0199' };
    const saved = await put(cookie, same);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ firstName: 'Amazing', lastName: 'Grace', phone: '+1 212 555 0199' });
    const noPassword = await put(cookie, { ...same, email: 'grace.new@example.com' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().message).toContain('currentPassword');
    const taken = await put(cookie, { ...same, email: 'shopper@lighting.test', currentPassword: grace.password });
    expect(taken.statusCode).toBe(409);
    const role = await put(cookie, { ...same, role: 'admin' });
    expect(role.statusCode).toBe(400);
    const moved = await put(cookie, { ...same, email: 'grace.new@example.com', currentPassword: grace.password });
    expect(moved.statusCode).toBe(200);
    expect((await login({ ...grace, email: 'grace.new@example.com' })).statusCode).toBe(200);
    await put(cookie, { ...same, email: grace.email, currentPassword: grace.password });
    expect((await put({}, same)).statusCode).toBe(401);
  });

  it('a password change needs the current one, keeps this session and ends the others', async () => {
    const here = sessionOf(await login(grace));
    const elsewhere = sessionOf(await login(grace));
    const wrong = await change(here, { currentPassword: 'not-it', newPassword: 'a-whole-new-pass' });
    expect(wrong.statusCode).toBe(400);
    expect(
      (await change(here, { currentPassword: grace.password, newPassword: 'a-whole-new-pass' }, 'https://evil.example'))
        .statusCode,
    ).toBe(403);
    const ok = await change(here, { currentPassword: grace.password, newPassword: 'a-whole-new-pass' });
    expect(ok.statusCode).toBe(200);
    expect((await profile({ cookie: here.cookie })).statusCode).toBe(200);
    expect((await profile({ cookie: elsewhere.cookie })).statusCode).toBe(401);
    expect((await login(grace)).statusCode).toBe(401);
    await change(here, { currentPassword: 'a-whole-new-pass', newPassword: grace.password });
  });
});
