import { fileURLToPath } from 'node:url';
import type { AccessMode } from '@app/contracts';
import { hashPassword } from '@app/db';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import { createMailer } from '../mail/index';

// Decision 105: the four access modes, each asked by a visitor, an account waiting for approval, an
// approved shopper and the owner, on the storefront API (catalog and search), the pages, the
// sitemap, robots.txt and the product feed; sign-up refused where it is closed; the approval flow
// and customer invitations with their mails (a real SMTP server receives them here).

const received: { to: string[]; subject: string; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    stream.on('end', () => {
      const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? '';
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), subject, raw });
      callback();
    });
  },
});

// The pages need the storefront's build; SWEEP_WEB_BUILD (a copy of it) serves while someone rebuilds.
const WEB_BUILD = process.env.SWEEP_WEB_BUILD ?? fileURLToPath(new URL('../../../../web/build', import.meta.url));
const HOST = 'lighting.localhost';
const ORIGIN = `http://${HOST}`;
let t: TestApp;
let owner: BrowserSession;
let approved: BrowserSession;
let waiting: BrowserSession;
let settingsStaff: BrowserSession;
let feedPath = '';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { host: HOST, origin: ORIGIN, ...headers }, ...(payload ? { payload } : {}) });
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;

/** A customer account of the lighting store in the given standing, signed in. */
async function account(email: string, status: 'pending' | 'declined'): Promise<BrowserSession> {
  const hash = await hashPassword('waiting-demo-1');
  await t.database.db.execute(sql`
    INSERT INTO users (tenant_id, user_id, email, password_hash, first_name, last_name, role, access_status)
    VALUES ('lighting', ${`U-${email}`}, ${email}, ${hash}, 'Wanda', 'Waiting', 'shopper', ${status})`);
  return signIn(t.app, email, 'waiting-demo-1', HOST);
}

const setMode = async (accessMode: AccessMode) => {
  const res = await call('PUT', '/api/v1/store-access/mode', owner, { accessMode });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

/** The newest mail to `to` whose subject matches, once the mail jobs ran. */
async function mailTo(to: string, subject: RegExp) {
  await t.services.jobs.drain();
  const mail = [...received].reverse().find((m) => m.to.includes(to) && subject.test(m.subject));
  expect(mail, `a mail to ${to} about ${subject}`).toBeDefined();
  return {
    ...(mail as (typeof received)[number]),
    body: (mail?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '='),
  };
}

beforeAll(async () => {
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  const { port } = smtp.server.address() as { port: number };
  t = await createTestApp({
    mailer: createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Shop <no-reply@shop.test>', outboxDir: '' }),
    webBuildDir: WEB_BUILD,
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  approved = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  waiting = await account('wanda.waiting@example.test', 'pending');
  await createStaff(t.database, 'lighting', 'settings.staff@lighting.test', ['settings']);
  settingsStaff = await signIn(t.app, 'settings.staff@lighting.test', 'owner-demo-1', HOST);
  // The product feed: a marketplace connection gives the store a feed URL.
  const connect = await call('POST', '/api/marketplace/bonanza/connect', owner, {
    tenantId: 'lighting',
    accountEmail: 'seller@lighting.test',
    boothName: 'Lumen',
    token: `bz_${'a1'.repeat(20)}`,
  });
  expect(connect.statusCode, connect.body).toBe(200);
  feedPath = new URL(connect.json().data.feed.url).pathname;
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const CATALOG = '/skulocity/api/v1/public/ecommerce/categories?productStoreId=9000&withMain=1';
const SEARCH = '/skulocity/api/v1/public/ecommerce/product/search?searchText=lamp';

describe('each mode, asked by each caller', () => {
  const callers = () =>
    ({ visitor: {}, waiting, approved, owner }) as Record<
      'visitor' | 'waiting' | 'approved' | 'owner',
      Record<string, string>
    >;

  /** What each caller is answered on the store's API, its home page and its feed, per mode. */
  const expected: Record<AccessMode, Record<'visitor' | 'waiting' | 'approved' | 'owner', number>> = {
    public: { visitor: 200, waiting: 200, approved: 200, owner: 200 },
    login_required: { visitor: 401, waiting: 200, approved: 200, owner: 200 },
    approved_only: { visitor: 401, waiting: 403, approved: 200, owner: 200 },
    invitation_only: { visitor: 401, waiting: 403, approved: 200, owner: 200 },
  };

  for (const mode of ['public', 'login_required', 'approved_only', 'invitation_only'] as const) {
    it(`${mode}: catalog, search, pages, sitemap, robots.txt and the feed answer each caller as the mode says`, async () => {
      await setMode(mode);
      for (const [who, headers] of Object.entries(callers())) {
        const status = expected[mode][who as keyof (typeof expected)[typeof mode]];
        for (const url of [CATALOG, SEARCH]) {
          const res = await call('GET', url, headers);
          expect(res.statusCode, `${mode} ${who} ${url}`).toBe(status);
          if (status === 401) expect(res.json().code).toBe('STORE_PRIVATE');
          if (status === 403) expect(res.json().code).toBe('ACCOUNT_PENDING_APPROVAL');
          // Nothing of a store that is not public may be kept by a shared cache, members' answers included.
          if (mode !== 'public') expect(res.headers['cache-control']).toBe('private, no-store');
        }
        const home = await call('GET', '/', headers);
        if (status === 200) expect(home.statusCode, `${mode} ${who} home`).toBe(200);
        else {
          expect(home.statusCode).toBe(302);
          expect(home.headers.location).toBe(status === 401 ? '/auth/login' : '/auth/awaiting-approval');
        }
        // Crawlers and marketplaces see only a public store, whoever asks.
        const robots = await call('GET', '/robots.txt', headers);
        expect(robots.statusCode).toBe(200);
        expect(robots.body.includes('Disallow: /\n'), `${mode} ${who} robots`).toBe(mode !== 'public');
        const feed = await call('GET', feedPath, headers);
        expect(feed.statusCode, `${mode} ${who} feed`).toBe(mode === 'public' ? 200 : 404);
        const sitemap = await call('GET', '/sitemap.xml', headers);
        if (mode === 'public') expect(sitemap.statusCode).not.toBe(401);
        else expect(sitemap.statusCode, `${mode} ${who} sitemap`).toBe(status === 200 ? 404 : status);
      }
      // The clients' lookup keeps answering isWs2Public: true only for a public store.
      const lookup = await t.app.inject({ url: `/api/fetch/tenantid/by/hostname?hostName=${HOST}` });
      expect(lookup.json()).toMatchObject({ isWs2Public: mode === 'public', accessMode: mode });
    });
  }

  it('a declined account sees nothing of an approved-only store, and is told so', async () => {
    await setMode('approved_only');
    const declined = await account('dan.declined@example.test', 'declined');
    const res = await call('GET', SEARCH, declined);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ACCOUNT_DECLINED');
    const standing = await call('GET', '/api/v1/store-access/standing', declined);
    expect(standing.json().data).toEqual({
      accessMode: 'approved_only',
      status: 'declined',
      email: 'dan.declined@example.test',
    });
    const page = await call('GET', '/auth/awaiting-approval', declined);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('did not approve this account');
  });

  it('a catalog read cached while public is not served once the store closes', async () => {
    await setMode('public');
    expect((await call('GET', CATALOG)).statusCode).toBe(200);
    expect((await call('GET', CATALOG)).statusCode).toBe(200);
    await setMode('approved_only');
    expect((await call('GET', CATALOG)).statusCode).toBe(401);
    expect((await call('GET', CATALOG, waiting)).statusCode).toBe(403);
  });
});

describe('the owner sets the mode', () => {
  it('only the owner: a visitor 401, a shopper 403, staff with settings 403 (they may look); a bad mode 400', async () => {
    await setMode('public');
    expect((await call('PUT', '/api/v1/store-access/mode', {}, { accessMode: 'login_required' })).statusCode).toBe(401);
    expect(
      (await call('PUT', '/api/v1/store-access/mode', approved, { accessMode: 'login_required' })).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', '/api/v1/store-access/mode', settingsStaff, { accessMode: 'login_required' })).statusCode,
    ).toBe(403);
    const looked = await call('GET', '/api/v1/store-access/settings', settingsStaff);
    expect(looked.statusCode).toBe(200);
    expect(looked.json().data).toMatchObject({ accessMode: 'public', canManage: false });
    const bad = await call('PUT', '/api/v1/store-access/mode', owner, { accessMode: 'secret' });
    expect(bad.statusCode).toBe(400);
  });

  it('audits each change with before and after; the same mode again records nothing', async () => {
    await setMode('public');
    const before = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE tenant_id = 'lighting' AND action = 'access-mode'`,
    );
    const res = await setMode('invitation_only');
    expect(res.json().data).toEqual({ tenantId: 'lighting', accessMode: 'invitation_only', isWs2Public: false });
    await setMode('invitation_only');
    const log = await rows<{ changes: Record<string, { before: unknown; after: unknown }>; actor_email: string }>(
      sql`SELECT changes, actor_email FROM audit_log WHERE tenant_id = 'lighting' AND action = 'access-mode' ORDER BY id`,
    );
    expect(log).toHaveLength((before[0]?.n ?? 0) + 1);
    expect(log.at(-1)?.changes.accessMode).toEqual({ before: 'public', after: 'invitation_only' });
    expect(log.at(-1)?.actor_email).toBe('owner@lighting.test');
  });
});

const REGISTER = '/skulocity/api/v1/public/ecommerce/profile/newUser';
const register = (email: string) =>
  call('POST', REGISTER, {}, { firstName: 'Ada', lastName: 'Asking', email, password: 'a-long-passphrase-42' });

describe('sign-up', () => {
  it('is refused at an invitation-only store (403 REGISTRATION_CLOSED), and no account is made', async () => {
    await setMode('invitation_only');
    const res = await register('closed.door@example.test');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'REGISTRATION_CLOSED' });
    expect(res.json().message).toContain('invitation only');
    expect(await rows(sql`SELECT 1 FROM users WHERE email = 'closed.door@example.test'`)).toHaveLength(0);
    // The page says so instead of offering the form.
    const page = await call('GET', '/auth/register');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('registration-closed');
  });

  it('at an approved-only store: the account waits; both get a mail once the email is confirmed; approved, it shops', async () => {
    await setMode('approved_only');
    const email = `ada.${Date.now()}@example.test`;
    expect((await register(email)).statusCode).toBe(200);
    const welcome = await mailTo(email, /confirm your email/i);
    const token = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec(welcome.body)?.[1];
    expect(token).toBeDefined();
    const confirmed = await call('POST', '/skulocity/api/v1/public/ecommerce/confirmemail', {}, { token });
    expect(confirmed.statusCode).toBe(200);
    const session = {
      cookie: String(confirmed.headers['set-cookie']).split(';')[0] ?? '',
      'x-csrf-token': confirmed.json().data.csrfToken as string,
    };
    await mailTo(email, /waiting for approval/);
    const toOwner = await mailTo('owner@lighting.test', /New account request/);
    expect(toOwner.body).toContain(email);
    expect(toOwner.body).toContain('/manage-store/settings/access#account-requests');

    // Signed in, but the store stays closed to it: API, search and pages.
    expect((await call('GET', SEARCH, session)).statusCode).toBe(403);
    const home = await call('GET', '/', session);
    expect(home.headers.location).toBe('/auth/awaiting-approval');

    const list = (await call('GET', '/api/v1/store-access/settings', owner)).json().data;
    const request = list.requests.find((r: { email: string }) => r.email === email);
    expect(request).toMatchObject({ status: 'pending', emailConfirmed: true });

    // Only the owner decides; another store's owner does not find the account.
    const decide = (who: Record<string, string>, decision: string, host = HOST) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/store-access/requests/${request.userId}/${decision}`,
        headers: { host, origin: `http://${host}`, ...who },
      });
    expect((await decide({}, 'approve')).statusCode).toBe(401);
    expect((await decide(approved, 'approve')).statusCode).toBe(403);
    expect((await decide(settingsStaff, 'approve')).statusCode).toBe(403);
    const garden = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', 'garden.localhost');
    expect((await decide(garden, 'approve', 'garden.localhost')).statusCode).toBe(404);

    const ok = await decide(owner, 'approve');
    expect(ok.statusCode, ok.body).toBe(200);
    await mailTo(email, /is approved/);
    expect((await call('GET', SEARCH, session)).statusCode).toBe(200);
    expect((await call('GET', '/', session)).statusCode).toBe(200);
    expect((await decide(owner, 'approve')).statusCode).toBe(409);
    const audit = await rows<{ action: string; changes: Record<string, { before: unknown; after: unknown }> }>(
      sql`SELECT action, changes FROM audit_log WHERE tenant_id = 'lighting' AND entity = 'customer.access' AND entity_id = ${request.userId}`,
    );
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'approve',
        changes: expect.objectContaining({ accessStatus: { before: 'pending', after: 'approved' } }),
      }),
    ]);
  });

  it('declining mails the person and keeps the store closed to them; the owner may still approve later', async () => {
    await setMode('approved_only');
    const email = `bo.${Date.now()}@example.test`;
    expect((await register(email)).statusCode).toBe(200);
    const [row] = await rows<{ user_id: string; access_status: string }>(
      sql`SELECT user_id, access_status FROM users WHERE tenant_id = 'lighting' AND email = ${email}`,
    );
    expect(row?.access_status).toBe('pending');
    const url = (d: string) => `/api/v1/store-access/requests/${row?.user_id}/${d}`;
    const declined = await call('POST', url('decline'), owner);
    expect(declined.statusCode).toBe(200);
    expect(declined.json().data).toMatchObject({ status: 'declined' });
    await mailTo(email, /account request/);
    expect((await call('POST', url('decline'), owner)).statusCode).toBe(409);
    expect((await call('POST', url('approve'), owner)).statusCode).toBe(200);
  });

  it('at a public or login-required store a new account is approved from the start', async () => {
    await setMode('login_required');
    const email = `cy.${Date.now()}@example.test`;
    expect((await register(email)).statusCode).toBe(200);
    const [row] = await rows<{ access_status: string }>(
      sql`SELECT access_status FROM users WHERE tenant_id = 'lighting' AND email = ${email}`,
    );
    expect(row?.access_status).toBe('approved');
  });
});

describe('customer invitations', () => {
  const invite = (payload: object, who: Record<string, string> = owner) =>
    call('POST', '/api/v1/store-access/invitations', who, payload);
  const accept = (token: string, password: string) =>
    call('POST', '/api/v1/store-access/invitation/accept', {}, { token, password });

  it('the owner invites by email; the link sets a password; the account is approved and shops', async () => {
    await setMode('invitation_only');
    const email = `ivy.${Date.now()}@example.test`;
    expect((await invite({ email, firstName: 'Ivy', lastName: 'Invited' }, approved)).statusCode).toBe(403);
    const sent = await invite({ email, firstName: 'Ivy', lastName: 'Invited' });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await mailTo(email, /invited to shop/);
    const token = /customer-invitation\?token=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1] as string;
    expect(token).toBeDefined();
    // The link's preview is open to the visitor the invited person still is.
    const preview = await call('GET', `/api/v1/store-access/invitation?token=${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({ email, firstName: 'Ivy' });
    expect((await accept(token, 'short')).statusCode).toBe(400);
    const ok = await accept(token, 'a-long-passphrase-42');
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await accept(token, 'a-long-passphrase-42')).statusCode).toBe(400);
    const session = await signIn(t.app, email, 'a-long-passphrase-42', HOST);
    expect((await call('GET', SEARCH, session)).statusCode).toBe(200);
    // Inviting them again is a conflict: they have an account.
    const again = await invite({ email, firstName: 'Ivy', lastName: 'Invited' });
    expect(again.statusCode).toBe(409);
    const audit = await rows<{ entity: string; action: string }>(
      sql`SELECT entity, action FROM audit_log WHERE tenant_id = 'lighting' AND entity IN ('customer.invitation', 'customer.access') ORDER BY id`,
    );
    expect(audit).toEqual(
      expect.arrayContaining([
        { entity: 'customer.invitation', action: 'create' },
        { entity: 'customer.access', action: 'accept-invitation' },
      ]),
    );
  });

  it('a revoked invitation no longer works, and a waiting account invited is approved by its link', async () => {
    await setMode('invitation_only');
    const sent = await invite({ email: 'wanda.waiting@example.test', firstName: 'Wanda', lastName: 'Waiting' });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await mailTo('wanda.waiting@example.test', /invited to shop/);
    const token = /customer-invitation\?token=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1] as string;
    const other = await invite({ email: 'rex.revoked@example.test', firstName: 'Rex', lastName: 'Revoked' });
    const revoked = await call('DELETE', `/api/v1/store-access/invitations/${other.json().data.invitationId}`, owner);
    expect(revoked.statusCode).toBe(200);
    const revokedMail = await mailTo('rex.revoked@example.test', /invited to shop/);
    const revokedToken = /customer-invitation\?token=([A-Za-z0-9_-]+)/.exec(revokedMail.body)?.[1] as string;
    expect((await accept(revokedToken, 'a-long-passphrase-42')).statusCode).toBe(400);

    expect((await accept(token, 'a-new-passphrase-42')).statusCode).toBe(200);
    // The waiting account's sessions ended; signed in again, it is approved.
    expect((await call('GET', SEARCH, waiting)).statusCode).toBe(401);
    const wanda = await signIn(t.app, 'wanda.waiting@example.test', 'a-new-passphrase-42', HOST);
    expect((await call('GET', SEARCH, wanda)).statusCode).toBe(200);
    waiting = await account('walt.waiting@example.test', 'pending');
  });
});
