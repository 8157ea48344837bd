import { randomBytes } from 'node:crypto';
import { schema } from '@app/db';
import { SEED_OPERATOR } from '@app/db/seed';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, secretsKeyOf } from '../../lib/secret-box';
import { createTestApp, type TestApp } from '../../test/harness';
import { addOperator, resetOperatorTotp, setOperatorDisabled } from './add-operator';
import { base32Decode, totp } from './totp';

// Operator accounts belong to no store: they sign in on the platform's own host only, with a second
// factor in production, and their sessions and tokens open nothing of a store's.

const PLATFORM = 'platform.localhost';
const demo = { email: SEED_OPERATOR.email, password: SEED_OPERATOR.password };

const signIn = (t: TestApp, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/platform-api/session', headers: { host: PLATFORM, ...headers }, payload });
const totpStep = (t: TestApp, payload: object) =>
  t.app.inject({ method: 'POST', url: '/platform-api/session/totp', headers: { host: PLATFORM }, payload });
const me = (t: TestApp, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/platform-api/session', headers: { host: PLATFORM, ...headers } });
const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0] ?? '';
const codeAt = (ms: number) => totp(base32Decode(SEED_OPERATOR.totpSecret) as Buffer, ms);

describe('outside production (the demo works without an authenticator)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ modules: ['operator'] });
  });
  afterAll(() => t.close());

  it('signs in with the password alone, sets a host-only psid cookie, and /session names the operator', async () => {
    const res = await signIn(t, demo);
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(body.step).toBe('signed-in');
    expect(body.session.operator).toMatchObject({ email: SEED_OPERATOR.email, totpEnabled: true });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^psid=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=(43199|43200)$/);
    expect(setCookie).not.toMatch(/Domain=/i);
    const session = await me(t, { cookie: cookieOf(res) });
    expect(session.statusCode).toBe(200);
    expect(session.json().data).toMatchObject({ via: 'cookie', operator: { operatorId: 'OP-DEMO' } });
    expect(session.json().data.csrfToken).toBe(body.session.csrfToken);
  });

  it('answers a wrong password and an unknown email alike, and records both in the platform audit log', async () => {
    const wrong = await signIn(t, { ...demo, password: 'not-it' }, { 'x-forwarded-for': '10.0.0.1' });
    const unknown = await signIn(t, { email: 'nobody@platform.localhost', password: 'x' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(unknown.json().message);
    const log = await t.services.platformAudit.list({ action: 'operator.sign-in-failed' });
    expect(log.entries.map((e) => e.actor.email)).toEqual(
      expect.arrayContaining(['nobody@platform.localhost', SEED_OPERATOR.email]),
    );
  });

  it('refuses the sign-in on any host but the platform host (404), and cross-site posts (403)', async () => {
    for (const host of ['lighting.localhost', 'localhost', 'evil.example']) {
      const res = await signIn(t, demo, { host });
      expect(res.statusCode, host).toBe(404);
    }
    const crossSite = await signIn(t, demo, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
  });

  it('limits failed sign-ins per account: the sixth try in 15 minutes is 429 even with the right password', async () => {
    const account = { email: 'limited@platform.localhost', password: 'right-password-1' };
    await t.services.operatorAuth.createOperator({ ...account, name: 'Limited' });
    for (let i = 0; i < 5; i++) expect((await signIn(t, { ...account, password: `wrong-${i}` })).statusCode).toBe(401);
    const limited = await signIn(t, account);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('ends the session at sign-out: the cookie is cleared and no longer opens the API', async () => {
    const res = await signIn(t, demo);
    const cookie = cookieOf(res);
    const csrf = res.json().data.session.csrfToken as string;
    const noCsrf = await t.app.inject({
      method: 'DELETE',
      url: '/platform-api/session',
      headers: { host: PLATFORM, cookie },
    });
    expect(noCsrf.statusCode).toBe(403);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/platform-api/session',
      headers: { host: PLATFORM, cookie, 'x-csrf-token': csrf },
    });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('psid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
    expect((await me(t, { cookie })).statusCode).toBe(401);
  });

  it('ends a session idle for an hour, and one past its 12 hours', async () => {
    const res = await signIn(t, demo);
    const token = cookieOf(res).slice('psid='.length);
    const auth = t.services.operatorAuth;
    expect(await auth.resolveSession(token, Date.now() + 30 * 60_000)).not.toBeNull();
    // The request above counted as activity; an hour after it, nothing.
    expect(await auth.resolveSession(token, Date.now() + 30 * 60_000 + 61 * 60_000)).toBeNull();
    const again = cookieOf(await signIn(t, demo)).slice('psid='.length);
    expect(await auth.resolveSession(again, Date.now() + 12 * 60 * 60_000 + 1)).toBeNull();
  });
});

describe('in production (TOTP required)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ modules: ['operator'], config: { NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  it('asks for the code after the password, and signs in only with a current one, once', async () => {
    const first = await signIn(t, demo);
    expect(first.statusCode).toBe(200);
    expect(first.headers['set-cookie']).toBeUndefined();
    const { step, challenge } = first.json().data;
    expect(step).toBe('totp');
    expect((await me(t, {})).statusCode).toBe(401);

    const stale = await totpStep(t, { challenge, code: codeAt(Date.now() - 5 * 60_000) });
    expect(stale.statusCode).toBe(401);
    const code = codeAt(Date.now());
    const done = await totpStep(t, { challenge, code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.step).toBe('signed-in');
    expect((await me(t, { cookie: cookieOf(done) })).statusCode).toBe(200);

    // The challenge worked once, and the same code does not open a second sign-in.
    expect((await totpStep(t, { challenge, code })).statusCode).toBe(401);
    const second = (await signIn(t, demo)).json().data.challenge as string;
    expect((await totpStep(t, { challenge: second, code })).statusCode).toBe(401);

    // The seed wrote the demo's secret before any key existed; its first use sealed it, and it still opens.
    const [row] = await t.database.db
      .select({ stored: schema.operators.totpSecret })
      .from(schema.operators)
      .where(eq(schema.operators.email, demo.email));
    expect(row?.stored).not.toContain(SEED_OPERATOR.totpSecret);
    const later = (await signIn(t, demo)).json().data.challenge as string;
    expect((await totpStep(t, { challenge: later, code: codeAt(Date.now() + 30_000) })).json().data?.step).toBe(
      'signed-in',
    );
  });

  it('drops the challenge after 5 wrong codes', async () => {
    const { challenge } = (await signIn(t, demo)).json().data;
    for (let i = 0; i < 5; i++) expect((await totpStep(t, { challenge, code: '000000' })).statusCode).toBe(401);
    // Even the right code now: sign in again.
    const res = await totpStep(t, { challenge, code: codeAt(Date.now() + 30_000) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toContain('expired');
  });

  it('refuses an operator without a second factor (403): production has no password-only operators', async () => {
    await t.services.operatorAuth.createOperator({
      email: 'no-totp@platform.localhost',
      name: 'No TOTP',
      password: 'password-123',
    });
    const res = await signIn(t, { email: 'no-totp@platform.localhost', password: 'password-123' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('rejects malformed codes with 400 before looking anything up', async () => {
    const res = await totpStep(t, { challenge: 'x', code: '12ab56' });
    expect(res.statusCode).toBe(400);
  });
});

describe('adding an operator on the server (production has no seeded one)', () => {
  let t: TestApp;
  const SECRETS_KEY = randomBytes(32).toString('hex');
  // What the command line seals with: the server's key, read from the same settings.
  const secrets = createSecretBox(secretsKeyOf(SECRETS_KEY, 'unused'));
  beforeAll(async () => {
    t = await createTestApp({ modules: ['operator'], config: { NODE_ENV: 'production', SECRETS_KEY } });
  });
  afterAll(() => t.close());

  it('makes an operator with a password and a TOTP secret that sign in together, and records it', async () => {
    const added = await addOperator(t.database.db, secrets, { email: 'Ops@Example.com', name: 'Ops' });
    expect(added.operator).toMatchObject({ email: 'ops@example.com', totpEnabled: true });
    expect(added.uri).toMatch(/^otpauth:\/\/totp\/Storefront%20Platform%3Aops%40example\.com\?secret=[A-Z2-7]{32}&/);
    const first = await signIn(t, { email: 'ops@example.com', password: added.password });
    const code = totp(base32Decode(added.totpSecret) as Buffer, Date.now());
    const done = await totpStep(t, { challenge: first.json().data.challenge, code });
    expect(done.json().data.step).toBe('signed-in');
    const log = await t.services.platformAudit.list({ action: 'operator.create' });
    expect(log.entries[0]).toMatchObject({ targetId: added.operator.operatorId, actor: { kind: 'system' } });
    await expect(addOperator(t.database.db, secrets, { email: 'ops@example.com', name: 'Again' })).rejects.toThrow();
  });

  it('keeps the TOTP secret sealed in the database, bound to its operator', async () => {
    const added = await addOperator(t.database.db, secrets, { email: 'sealed@example.com', name: 'Sealed' });
    const [row] = await t.database.db
      .select({ stored: schema.operators.totpSecret })
      .from(schema.operators)
      .where(eq(schema.operators.operatorId, added.operator.operatorId));
    expect(row?.stored).toBeTruthy();
    expect(row?.stored).not.toContain(added.totpSecret);
    // Copied onto another operator's row, it opens to nothing there: that operator's code step fails.
    const other = await addOperator(t.database.db, secrets, { email: 'other@example.com', name: 'Other' });
    await t.database.db
      .update(schema.operators)
      .set({ totpSecret: row?.stored ?? null })
      .where(eq(schema.operators.operatorId, other.operator.operatorId));
    const first = await signIn(t, { email: 'other@example.com', password: other.password });
    const code = totp(base32Decode(added.totpSecret) as Buffer, Date.now());
    expect((await totpStep(t, { challenge: first.json().data.challenge, code })).statusCode).toBe(401);
  });

  /** `at`: the code's moment; a code is accepted once, so a second sign-in uses the next step's. */
  const signedIn = async (email: string, password: string, secret: string, at = Date.now()) => {
    const first = await signIn(t, { email, password });
    const code = totp(base32Decode(secret) as Buffer, at);
    return totpStep(t, { challenge: first.json().data.challenge, code });
  };

  it('disables an operator on the command line: signed out everywhere, no sign-in, then enabled again', async () => {
    const added = await addOperator(t.database.db, secrets, { email: 'leaving@example.com', name: 'Leaving' });
    const session = await signedIn('leaving@example.com', added.password, added.totpSecret);
    const cookie = cookieOf(session);
    expect((await me(t, { cookie })).statusCode).toBe(200);

    await setOperatorDisabled(t.database.db, 'Leaving@Example.com', true);
    expect((await me(t, { cookie })).statusCode).toBe(401);
    expect((await signIn(t, { email: 'leaving@example.com', password: added.password })).statusCode).toBe(401);

    await setOperatorDisabled(t.database.db, 'leaving@example.com', false);
    // The old session stays ended; a new sign-in works.
    expect((await me(t, { cookie })).statusCode).toBe(401);
    const again = await signedIn('leaving@example.com', added.password, added.totpSecret, Date.now() + 30_000);
    expect(again.json().data.step).toBe('signed-in');
    for (const action of ['operator.disable', 'operator.enable']) {
      const log = await t.services.platformAudit.list({ action });
      expect(log.entries[0]).toMatchObject({ targetId: added.operator.operatorId });
    }
    await expect(setOperatorDisabled(t.database.db, 'nobody@example.com', true)).rejects.toThrow(/no operator/);
  });

  it('resets a lost authenticator: the old codes stop working, the new secret signs in, sessions end', async () => {
    const added = await addOperator(t.database.db, secrets, { email: 'lost-phone@example.com', name: 'Lost' });
    const cookie = cookieOf(await signedIn('lost-phone@example.com', added.password, added.totpSecret));
    expect((await me(t, { cookie })).statusCode).toBe(200);

    const reset = await resetOperatorTotp(t.database.db, secrets, 'lost-phone@example.com');
    expect(reset.totpSecret).not.toBe(added.totpSecret);
    expect(reset.uri).toContain(`secret=${reset.totpSecret}`);
    expect((await me(t, { cookie })).statusCode).toBe(401);
    expect((await signedIn('lost-phone@example.com', added.password, added.totpSecret)).statusCode).toBe(401);
    expect((await signedIn('lost-phone@example.com', added.password, reset.totpSecret)).json().data.step).toBe(
      'signed-in',
    );
    const log = await t.services.platformAudit.list({ action: 'operator.totp-reset' });
    expect(log.entries[0]).toMatchObject({ targetId: added.operator.operatorId });
  });
});
