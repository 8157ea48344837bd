import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { SEED_OPERATOR } from '@app/db/seed';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

// The operator console's and support access's pages as a browser without JavaScript uses them:
// form posts through the page server (React Router's actions), on the platform host and on a
// store's. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const PLATFORM = 'platform.localhost';
const LIGHTING = SEEDED_HOSTS.lighting.host;

let t: TestApp;
let owner: BrowserSession;
let staff: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  await createStaff(t.database, 'lighting', 'console-pages-staff@lighting.test', ['settings']);
  staff = await signIn(t.app, 'console-pages-staff@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(() => t?.close());

/** A browser on the platform host: its cookies (the pre-session CSRF one, then psid) and the form token. */
interface Browser {
  cookies: Map<string, string>;
  csrf: string;
}

const cookieHeader = (b: Browser) => [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

function keep(b: Browser, setCookie: string | string[] | undefined) {
  for (const c of [setCookie ?? []].flat()) {
    const [pair = ''] = c.split(';');
    const eq = pair.indexOf('=');
    const value = pair.slice(eq + 1);
    if (/max-age=0/i.test(c) || value === '') b.cookies.delete(pair.slice(0, eq));
    else b.cookies.set(pair.slice(0, eq), value);
  }
}

async function open(b: Browser, url: string, host = PLATFORM) {
  const res = await t.app.inject({ url, headers: { host, cookie: cookieHeader(b) } });
  keep(b, res.headers['set-cookie']);
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
  if (token) b.csrf = token;
  return res;
}

async function post(b: Browser, url: string, fields: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: {
      host: PLATFORM,
      origin: `http://${PLATFORM}`,
      cookie: cookieHeader(b),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ _csrf: b.csrf, ...fields }).toString(),
  });
  keep(b, res.headers['set-cookie']);
  return res;
}

async function signedInOperator(): Promise<Browser> {
  const b: Browser = { cookies: new Map(), csrf: '' };
  await open(b, '/operator/sign-in');
  const res = await post(b, '/operator/sign-in', {
    step: 'password',
    next: '/operator',
    email: SEED_OPERATOR.email,
    password: SEED_OPERATOR.password,
  });
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe('/operator');
  return b;
}

async function stateOf(tenantId: string) {
  const [row] = await t.database.db
    .select({ state: schema.storeLifecycle.state })
    .from(schema.storeLifecycle)
    .where(eq(schema.storeLifecycle.tenantId, tenantId));
  return row?.state;
}

const storePost = (session: BrowserSession, url: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: {
      host: LIGHTING,
      origin: `http://${LIGHTING}`,
      cookie: session.cookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ _csrf: session['x-csrf-token'], ...fields }).toString(),
  });

describe('operator sign-in', () => {
  it('sends a browser without an operator session to the sign-in page, a store session included', async () => {
    const anon: Browser = { cookies: new Map(), csrf: '' };
    const res = await open(anon, '/operator/stores/lighting');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/operator/sign-in?next=%2Foperator%2Fstores%2Flighting');
    const withStoreCookie = await t.app.inject({ url: '/operator', headers: { host: PLATFORM, cookie: owner.cookie } });
    expect(withStoreCookie.statusCode).toBe(302);
    expect(withStoreCookie.headers.location).toBe('/operator/sign-in');
  });

  it('refuses a wrong password on the page, and signs in with a host-only HttpOnly psid cookie', async () => {
    const b: Browser = { cookies: new Map(), csrf: '' };
    await open(b, '/operator/sign-in');
    const wrong = await post(b, '/operator/sign-in', {
      step: 'password',
      email: SEED_OPERATOR.email,
      password: 'nope',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('The email or password is not correct.');
    expect(b.cookies.has('psid')).toBe(false);

    const right = await post(b, '/operator/sign-in', {
      step: 'password',
      next: '/operator/figures',
      email: SEED_OPERATOR.email,
      password: SEED_OPERATOR.password,
    });
    expect(right.statusCode).toBe(302);
    expect(right.headers.location).toBe('/operator/figures');
    const psid = [right.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('psid='));
    expect(psid).toMatch(/HttpOnly/);
    expect(psid).not.toMatch(/Domain=/i);
    const page = await open(b, '/operator');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(SEED_OPERATOR.email);
  });

  it('refuses a sign-in without the form’s CSRF token (login CSRF)', async () => {
    const b: Browser = { cookies: new Map(), csrf: '' };
    await open(b, '/operator/sign-in');
    b.csrf = 'not-the-token';
    const res = await post(b, '/operator/sign-in', {
      step: 'password',
      email: SEED_OPERATOR.email,
      password: SEED_OPERATOR.password,
    });
    expect(res.statusCode).toBe(403);
    expect(b.cookies.has('psid')).toBe(false);
  });

  it('signs out: the cookie is cleared and the console asks to sign in again', async () => {
    const b = await signedInOperator();
    await open(b, '/operator');
    const out = await post(b, '/operator/sign-out', {});
    expect(out.statusCode).toBe(302);
    expect(b.cookies.has('psid')).toBe(false);
    expect((await open(b, '/operator')).headers.location).toBe('/operator/sign-in');
  });
});

describe('a store’s actions from its page', () => {
  it('needs a reason, then suspends and resumes the store with it in the history', async () => {
    const b = await signedInOperator();
    await open(b, '/operator/stores/lighting');
    const none = await post(b, '/operator/stores/lighting', { intent: 'suspend', reason: '  ' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Please give a reason.');
    expect(await stateOf('lighting')).toBe('active');

    const token = b.csrf;
    b.csrf = 'not-the-token';
    const forged = await post(b, '/operator/stores/lighting', { intent: 'suspend', reason: 'Spam wave.' });
    expect(forged.statusCode).toBe(403);
    expect(await stateOf('lighting')).toBe('active');
    b.csrf = token;

    const done = await post(b, '/operator/stores/lighting', { intent: 'suspend', reason: 'Spam wave (ticket 12).' });
    expect(done.statusCode).toBe(200);
    expect(await stateOf('lighting')).toBe('suspended');
    const page = await open(b, '/operator/stores/lighting');
    expect(page.body).toContain('Spam wave (ticket 12).');
    expect(page.body).toContain('Suspended');

    // Resume is offered now; suspend is not, and asking for it anyway is refused on the page.
    const again = await post(b, '/operator/stores/lighting', { intent: 'suspend', reason: 'Twice.' });
    expect(again.statusCode).toBe(409);
    await post(b, '/operator/stores/lighting', { intent: 'resume', reason: 'Cleaned up.' });
    expect(await stateOf('lighting')).toBe('active');
  });

  it('shows the one database the store lives on, and offers no move where there is nowhere to go', async () => {
    const b = await signedInOperator();
    const page = await open(b, '/operator/stores/lighting');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<dt[^>]*>Database<\/dt><dd[^>]*>main<\/dd>/);
    expect(page.body).not.toContain('Move store');
    // A move posted anyway is refused on the page, in words.
    const forced = await post(b, '/operator/stores/lighting', {
      intent: 'move',
      database: 'main',
      reason: 'Trying anyway.',
    });
    expect(forced.statusCode).toBe(409);
    expect(forced.body).toContain('The store is already on main.');
  });

  it('answers 404 for a store that does not exist', async () => {
    const b = await signedInOperator();
    expect((await open(b, '/operator/stores/no-such-store')).statusCode).toBe(404);
  });

  it('finds a store by its owner’s email, and says so when nothing matches', async () => {
    const b = await signedInOperator();
    const found = await open(b, '/operator?q=owner%40garden.test');
    expect(found.body).toContain('Fernwood Garden Supply');
    expect(found.body).not.toContain('Brightside Lighting');
    const none = await open(b, '/operator?q=nobody-at-all');
    expect(none.body).toContain('No store matches');
  });
});

describe('create a store for a merchant', () => {
  it('checks the form on the page, then opens the store, whose page says the owner was mailed', async () => {
    const b = await signedInOperator();
    await open(b, '/operator/stores/new');
    const fields = {
      storeName: 'Harbor Kites',
      subdomain: 'admin',
      ownerEmail: 'kites@example.test',
      ownerFirstName: 'Mira',
      template: 'DEFAULT',
      content: 'empty',
      reason: '',
    };
    const refused = await post(b, '/operator/stores/new', fields);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Please give a reason.');
    // What was typed stays in the form.
    expect(refused.body).toContain('value="kites@example.test"');

    const made = await post(b, '/operator/stores/new', {
      ...fields,
      subdomain: 'harbor-kites',
      reason: 'Merchant asked by phone (ticket 31).',
    });
    expect(made.statusCode).toBe(302);
    const tenantId = decodeURIComponent(
      /^\/operator\/stores\/([^?]+)\?created=1$/.exec(made.headers.location ?? '')?.[1] ?? '',
    );
    expect(await stateOf(tenantId)).toBe('active');
    const page = await open(b, made.headers.location as string);
    expect(page.body).toContain('Store created at harbor-kites.localhost.');
    expect(page.body).toContain('Harbor Kites');
    expect(page.body).toContain('harbor-kites.localhost');
    expect(page.body).toContain('kites@example.test');
  });
});

describe('support access', () => {
  const grants = () =>
    t.database.db
      .select()
      .from(schema.supportGrants)
      .where(and(eq(schema.supportGrants.tenantId, 'lighting'), isNull(schema.supportGrants.revokedAt)))
      .orderBy(desc(schema.supportGrants.grantedAt));

  it('is granted by the owner only, within 1 to 72 hours, and revoked at once', async () => {
    const url = '/manage-store/settings/access/support';
    const tooLong = await storePost(owner, url, { intent: 'grant', hours: '73' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('Choose between 1 and 72 hours.');
    const byStaff = await storePost(staff, url, { intent: 'grant', hours: '4' });
    expect(byStaff.statusCode).toBe(403);
    expect(await grants()).toHaveLength(0);

    const granted = await storePost(owner, url, { intent: 'grant', hours: '4' });
    expect(granted.statusCode).toBe(200);
    const [grant] = await grants();
    const hours = ((grant?.expiresAt.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(3.9);
    expect(hours).toBeLessThanOrEqual(4);

    // Staff see it, without the buttons.
    const seen = await t.app.inject({ url, headers: { host: LIGHTING, cookie: staff.cookie } });
    expect(seen.body).toContain('Only the store owner can grant or end support access.');

    await storePost(owner, url, { intent: 'revoke', hours: '' });
    expect(await grants()).toHaveLength(0);
  });

  it('lets the operator open the dashboard as support while granted: a banner on every page names them', async () => {
    await storePost(owner, '/manage-store/settings/access/support', { intent: 'grant', hours: '1' });
    const b = await signedInOperator();
    await open(b, '/operator/stores/lighting');
    const res = await post(b, '/operator/stores/lighting', { intent: 'support', reason: 'Owner asked (ticket 7).' });
    expect(res.statusCode).toBe(200);
    const enterUrl = /href="(http:\/\/lighting\.localhost[^"]*support-access\/enter\?ticket=[^"]+)"/.exec(
      res.body,
    )?.[1];
    expect(enterUrl).toBeDefined();
    const link = new URL((enterUrl as string).replace(/&amp;/g, '&'));
    const entered = await t.app.inject({ url: `${link.pathname}${link.search}`, headers: { host: LIGHTING } });
    expect(entered.statusCode).toBe(303);
    const sid = String(entered.headers['set-cookie']).split(';')[0] as string;
    for (const path of ['/manage-store', '/manage-store/products']) {
      const page = await t.app.inject({ url: path, headers: { host: LIGHTING, cookie: sid } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('You are viewing this store as platform support');
      expect(page.body).toContain(SEED_OPERATOR.email);
    }
    // The owner's own session shows no banner.
    const own = await t.app.inject({ url: '/manage-store', headers: { host: LIGHTING, cookie: owner.cookie } });
    expect(own.body).not.toContain('You are viewing this store as platform support');

    await storePost(owner, '/manage-store/settings/access/support', { intent: 'revoke', hours: '' });
    const after = await t.app.inject({ url: '/manage-store', headers: { host: LIGHTING, cookie: sid } });
    expect(after.statusCode).toBe(302);
  });

  it('offers no support session without a live grant', async () => {
    const b = await signedInOperator();
    await open(b, '/operator/stores/lighting');
    const res = await post(b, '/operator/stores/lighting', { intent: 'support', reason: 'Just looking.' });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('has not granted support access');
  });
});
