import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashToken, REGISTER_LIMITS } from './auth-model';
import { cookieOf, GARDEN, LIGHTING, login, profile, shopper, t, useAuthTestApp } from './auth-test-setup';

useAuthTestApp();

describe('POST /public/ecommerce/profile/newUser', () => {
  const register = (payload: object, opts: { host?: string; ip?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/profile/newUser',
      headers: { host: opts.host ?? LIGHTING },
      payload,
      remoteAddress: opts.ip ?? '10.9.0.1',
    });
  /** The mail delivered so far, oldest first, once the mail queue has run. */
  const outbox = async () => {
    await t.services.jobs.drain();
    const dir = join(t.dataDir, 'outbox');
    return existsSync(dir)
      ? readdirSync(dir)
          .sort()
          .map((f) => readFileSync(join(dir, f), 'utf8'))
      : [];
  };
  const newUser = (email: string) => ({
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    password: 'compilers-1952',
  });

  /** The newest confirmation link mailed to `to` (quoted-printable soft breaks undone). */
  const confirmLinkFor = async (to: string) => {
    const mails = (await outbox()).map((m) => m.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
    const mine = mails.filter((m) => m.includes(`To: ${to}`));
    return mine.at(-1)?.match(/(https?:\/\/\S+\/auth\/confirm-email\?\S+)/)?.[1] ?? '';
  };
  const confirm = (token: string, opts: { host?: string; ip?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/confirmemail',
      headers: { host: opts.host ?? LIGHTING },
      payload: { token },
      remoteAddress: opts.ip ?? '10.9.0.2',
    });
  const resend = (email: string, ip = '10.9.0.3') =>
    t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/confirmemail/resend',
      headers: { host: LIGHTING },
      payload: { email },
      remoteAddress: ip,
    });
  const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';

  it('creates an unconfirmed shopper of this store only: no session until the link of the welcome mail', async () => {
    const res = await register({ ...newUser('Grace@Example.com'), phone: '+1 415 555 0100' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toBe(
      'Thanks for signing up! We have sent you an email about your account: follow its link to confirm your address.',
    );
    expect(res.headers['set-cookie']).toBeUndefined();
    // The right password is not enough yet, and says so (only to someone who knows the password).
    const early = await login({ email: 'grace@example.com', password: 'compilers-1952' });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({
      code: 'EMAIL_NOT_CONFIRMED',
      data: { message: 'Confirm your email first: we sent you a link.' },
    });
    expect(early.headers['set-cookie']).toBeUndefined();
    const wrong = await login({ email: 'grace@example.com', password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);

    const link = await confirmLinkFor('grace@example.com');
    expect(link).toMatch(/^http:\/\/lighting\.localhost\/auth\/confirm-email\?token=[A-Za-z0-9_-]{43}$/);
    const mail = (await outbox()).find((m) => m.includes('To: grace@example.com')) ?? '';
    expect(mail).toContain('Subject: Welcome to Brightside Lighting');
    // Only the link's hash is stored, like reset links.
    expect(JSON.stringify(await t.database.db.select().from(schema.emailConfirmations))).not.toContain(tokenOf(link));
    // Another store's host does not know the link.
    expect((await confirm(tokenOf(link), { host: GARDEN })).statusCode).toBe(400);

    const confirmed = await confirm(tokenOf(link));
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data).toMatchObject({
      firstName: 'Grace',
      partyId: 'shopper',
      userLoginId: 'grace@example.com',
    });
    const cookie = cookieOf(confirmed);
    expect(cookie).toMatch(/^sid=/);
    const me = await profile({ cookie });
    expect(me.json().data).toMatchObject({ email: 'grace@example.com', firstName: 'Grace', phone: '+1 415 555 0100' });
    // Single use; and from now on the password logs in.
    const again = await confirm(tokenOf(link));
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(
      'This confirmation link is invalid, used or expired. Log in to have a new one sent to you.',
    );
    expect((await login({ email: 'grace@example.com', password: 'compilers-1952' })).statusCode).toBe(200);
    // The account exists on this store, not on another.
    expect((await login({ email: 'grace@example.com', password: 'compilers-1952' }, { host: GARDEN })).statusCode).toBe(
      401,
    );
  });

  it('answers an email that has an account exactly like a new one, headers included, and tells its owner', async () => {
    const fresh = await register(newUser('fresh-one@example.com'));
    const before = (await outbox()).length;
    const taken = await register({ ...newUser('shopper@lighting.test'), password: 'another-pass-77' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    const strip = (b: Record<string, unknown>) => ({ ...b, requestId: undefined });
    expect(strip(taken.json())).toEqual(strip(fresh.json()));
    // Every header alike but the ones that differ on any two requests (request id, date).
    const headers = (h: Record<string, unknown>) => ({ ...h, 'x-request-id': undefined, date: undefined });
    expect(headers(taken.headers)).toEqual(headers(fresh.headers));
    expect(fresh.headers['set-cookie']).toBeUndefined();
    // The existing account is untouched: its old password still works, the new one does not.
    expect((await login(shopper)).statusCode).toBe(200);
    expect((await login({ email: shopper.email, password: 'another-pass-77' })).statusCode).toBe(401);
    expect((await outbox()).slice(before).some((m) => m.includes('You already have an account'))).toBe(true);
  });

  it('both answers take about as long: the password is hashed on both paths', async () => {
    // CPU time of this process (the app answers in it, the hash runs on its thread pool), not the
    // clock: what the hash costs, whatever else the machine is doing. A skipped hash shows either way.
    const time = async (email: string) => {
      const started = process.cpuUsage();
      await register({ ...newUser(email), password: 'timing-pass-77' }, { ip: '10.4.0.1' });
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 1000;
    };
    const fresh: number[] = [];
    const taken: number[] = [];
    for (let i = 0; i < 3; i++) {
      fresh.push(await time(`timing-${i}-${Date.now()}@example.com`));
      taken.push(await time('shopper@lighting.test'));
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1] as number;
    console.log(
      `sign-up answer's CPU, median of 3: new email ${median(fresh).toFixed(0)} ms, taken ${median(taken).toFixed(0)} ms`,
    );
    // Loose on a shared machine, tight enough to catch a path that skips the hash (about 10x faster).
    expect(median(taken)).toBeGreaterThan(median(fresh) / 3);
    expect(median(fresh)).toBeGreaterThan(median(taken) / 3);
  });

  it('"send the link again": the same answer for anyone, a new link that supersedes the old, rate-limited', async () => {
    await register(newUser('late-reader@example.com'));
    const first = tokenOf(await confirmLinkFor('late-reader@example.com'));
    const before = (await outbox()).length;
    const stranger = await resend('nobody-here@example.com');
    const pending = await resend('late-reader@example.com');
    const confirmedAlready = await resend('shopper@lighting.test');
    for (const r of [stranger, pending, confirmedAlready]) {
      expect(r.statusCode).toBe(200);
      expect(r.json().data.message).toBe(
        'If this account still needs confirming, we have sent a new link to its email. It works for 24 hours.',
      );
    }
    expect((await outbox()).length).toBe(before + 1); // only the unconfirmed account gets mail
    const second = tokenOf(await confirmLinkFor('late-reader@example.com'));
    expect(second).not.toBe(first);
    expect((await confirm(first)).statusCode).toBe(400);
    expect((await confirm(second)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await resend('late-reader@example.com', `10.3.0.${i}`)).statusCode).toBe(200);
    const blocked = await resend('late-reader@example.com', '10.3.0.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('an expired link is refused and the account stays unconfirmed', async () => {
    await register(newUser('slow-reader@example.com'));
    const token = tokenOf(await confirmLinkFor('slow-reader@example.com'));
    await t.database.db
      .update(schema.emailConfirmations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.emailConfirmations.tokenHash, hashToken(token)));
    expect((await confirm(token)).statusCode).toBe(400);
    expect((await login({ email: 'slow-reader@example.com', password: 'compilers-1952' })).statusCode).toBe(403);
  });

  it('refuses a role or any unknown field (mass assignment), and weak passwords, naming the problem', async () => {
    const admin = await register({ ...newUser('mallory@example.com'), role: 'admin' });
    expect(admin.statusCode).toBe(400);
    expect(admin.json().message).toContain('role');
    const party = await register({ ...newUser('mallory@example.com'), partyId: 'admin' });
    expect(party.statusCode).toBe(400);
    const users = await t.database.db.select().from(schema.users).where(eq(schema.users.email, 'mallory@example.com'));
    expect(users).toHaveLength(0);
    const short = await register({ ...newUser('mallory@example.com'), password: 'short' });
    expect(short.json().message).toContain('at least 10 characters');
    const common = await register({ ...newUser('mallory@example.com'), password: 'password123' });
    expect(common.json().message).toContain('too common');
    const own = await register({ ...newUser('mallory@example.com'), password: 'mallory-secret' });
    expect(own.json().message).toContain('must not contain your email');
  });

  it('limits sign-ups per client address', async () => {
    for (let i = 0; i < REGISTER_LIMITS.perIp; i++) {
      expect((await register(newUser(`bulk${i}@example.com`), { ip: '10.8.0.1' })).statusCode).toBe(200);
    }
    const blocked = await register(newUser('bulk-last@example.com'), { ip: '10.8.0.1' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});
