import { schema } from '@app/db';
import { SEED_OPERATOR } from '@app/db/seed';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { PLATFORM, signInOperator } from './operator-session.fixture';

// Who may call the operator's API, as a console and a script use it: the walls around it (an
// operator's session or token opens nothing of a store's, and a store's session opens nothing of the
// platform's), operator tokens and CSRF, the owner's support-access grant, and malformed input.
// What the console does with stores is in operator-api.test.ts.

const LIGHTING = SEEDED_HOSTS.lighting.host;
const GARDEN = SEEDED_HOSTS.garden.host;

let t: TestApp;
let operator: Awaited<ReturnType<typeof signInOperator>>;
let operatorToken: string;
let owner: BrowserSession;
let ownerBearer: string;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const asOperator = (method: Method, url: string, payload?: object) => operator.request(method, url, payload);
const asOwner = (method: Method, url: string, payload?: object, session = owner, host: string = LIGHTING) =>
  t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...session },
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  t = await createTestApp();
  operator = await signInOperator(t);
  const created = await asOperator('POST', '/platform-api/tokens', { name: 'test script' });
  operatorToken = created.json().data.secret;
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  const login = await t.app.inject({
    method: 'POST',
    url: '/skulocity/api/v1/login',
    headers: { host: LIGHTING },
    payload: { email: 'owner@lighting.test', password: 'owner-demo-1' },
  });
  ownerBearer = login.json().data.token;
});
afterAll(() => t?.close());

/** Every platform-API operation of the document, but the two sign-in steps, with its path filled in. */
async function operatorOperations(): Promise<{ method: Method; url: string }[]> {
  const doc = (await t.app.inject({ url: '/api/openapi.json', headers: { host: PLATFORM } })).json();
  const paths = doc.paths as Record<string, Record<string, { tags?: string[] }>>;
  // The operator's operations (sign-up, also on the platform host, is open to visitors).
  return Object.entries(paths)
    .flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.tags?.includes('platform operator'))
        .map(([m]) => ({ method: m.toUpperCase() as Method, path })),
    )
    .filter(({ method, path }) => !(method === 'POST' && /^\/platform-api\/session(\/totp)?$/.test(path)))
    .map(({ method, path }) => ({
      method,
      url: path.replace('{tenantId}', 'lighting').replace('{action}', 'suspend').replace('{tokenId}', 'OPT-x'),
    }));
}

describe('the walls between the platform and the stores', () => {
  it("refuses a store owner's session and token, and nobody, at every operator operation (401); nothing changes", async () => {
    const ops = await operatorOperations();
    expect(ops.length).toBeGreaterThanOrEqual(12);
    const wrong: string[] = [];
    const body = { reason: 'owner trying', name: 'x', hours: 2 };
    for (const { method, url } of ops) {
      const send = async (headers: Record<string, string>, host = PLATFORM) =>
        (
          await t.app.inject({
            method,
            url,
            headers: { host, origin: `http://${host}`, ...headers },
            ...(method === 'GET' ? {} : { payload: body }),
          })
        ).statusCode;
      const checks: [string, number, number][] = [
        ['nobody', await send({}), 401],
        ["the owner's bearer token", await send({ authorization: `Bearer ${ownerBearer}` }), 401],
        ["the owner's session cookie", await send({ ...owner }), 401],
        ["the owner's session on the store's host", await send({ ...owner }, LIGHTING), 404],
        ["the operator's cookie on a store's host", await send({ cookie: operator.cookie }, LIGHTING), 404],
        [
          "the operator's token on a store's host",
          await send({ authorization: `Bearer ${operatorToken}` }, GARDEN),
          404,
        ],
      ];
      for (const [who, got, expected] of checks) if (got !== expected) wrong.push(`${method} ${url} as ${who}: ${got}`);
    }
    expect(wrong).toEqual([]);
    expect(await t.services.storeLifecycle.stateOf('lighting')).toBe('active');
    const tokens = await t.services.operatorAuth.listTokens();
    expect(tokens.map((tk) => tk.name)).toEqual(['test script']);
  });

  it("refuses an operator's console session and token at every store owner route (401)", async () => {
    const routes = t.app.ownerRoutes;
    expect(routes.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const r of routes) {
      const url = r.url.replace(/:(\w+)/g, 'x');
      const send = async (headers: Record<string, string>) =>
        (
          await t.app.inject({
            method: r.method as Method,
            url,
            headers: { host: LIGHTING, origin: `http://${LIGHTING}`, ...headers },
          })
        ).statusCode;
      const cookie = await send({ cookie: operator.cookie, 'x-csrf-token': operator.csrf });
      const bearer = await send({ authorization: `Bearer ${operatorToken}` });
      if (cookie !== 401) wrong.push(`${r.method} ${r.url} with the operator's cookie: ${cookie}`);
      if (bearer !== 401) wrong.push(`${r.method} ${r.url} with the operator's token: ${bearer}`);
    }
    expect(wrong).toEqual([]);
  });

  it("shows a store's owner only their own store's support access; another store's link or session opens nothing", async () => {
    const garden = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
    const granted = await asOwner('POST', '/api/tenant/support-access', { hours: 2 }, garden, GARDEN);
    expect(granted.statusCode).toBe(200);
    expect((await asOwner('GET', '/api/tenant/support-access')).json().data.grant).toBeNull();
    const ticket = await asOperator('POST', '/platform-api/stores/garden/support-session', { reason: 'Ticket 42' });
    const enter = new URL(ticket.json().data.enterUrl);
    expect(enter.hostname).toBe(GARDEN);
    // The garden link on lighting's host: refused, and it stays unused for garden.
    const elsewhere = await t.app.inject({ url: `${enter.pathname}${enter.search}`, headers: { host: LIGHTING } });
    expect(elsewhere.statusCode).toBe(400);
    const entered = await t.app.inject({ url: `${enter.pathname}${enter.search}`, headers: { host: GARDEN } });
    expect(entered.statusCode).toBe(303);
    const supportCookie = String(entered.headers['set-cookie']).split(';')[0] as string;
    const onLighting = await t.app.inject({
      url: '/api/v1/audit/fetch',
      headers: { host: LIGHTING, cookie: supportCookie },
    });
    expect(onLighting.statusCode).toBe(401);
    await asOwner('DELETE', '/api/tenant/support-access', {}, garden, GARDEN);
  });
});

describe('operator tokens', () => {
  it('are shown once, work as Bearer without CSRF, are audited, and stop at once when revoked', async () => {
    const created = await asOperator('POST', '/platform-api/tokens', { name: 'nightly report' });
    expect(created.statusCode).toBe(201);
    const { secret, token } = created.json().data;
    expect(secret).toMatch(/^opt_/);
    const list = (await asOperator('GET', '/platform-api/tokens')).json().data.tokens;
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(list.find((tk: { tokenId: string }) => tk.tokenId === token.tokenId).prefix).toBe(secret.slice(0, 10));
    const [row] = await t.database.db
      .select()
      .from(schema.operatorTokens)
      .where(eq(schema.operatorTokens.tokenId, token.tokenId));
    expect(row?.tokenHash).not.toContain(secret.slice(4));

    const script = (method: Method, url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { host: PLATFORM, authorization: `Bearer ${secret}` },
        ...(payload ? { payload } : {}),
      });
    expect((await script('GET', '/platform-api/stores?limit=1')).statusCode).toBe(200);
    const acted = await script('POST', '/platform-api/stores/power/actions/suspend', { reason: 'Scripted.' });
    expect(acted.statusCode).toBe(200);
    await script('POST', '/platform-api/stores/power/actions/resume', { reason: 'Scripted back.' });
    const log = (await asOperator('GET', '/platform-api/audit?tenantId=power&limit=1')).json().data.entries;
    expect(log[0].actor).toMatchObject({ kind: 'token', tokenName: 'nightly report', operatorId: 'OP-DEMO' });

    const revoked = await asOperator('POST', `/platform-api/tokens/${token.tokenId}/revoke`, {});
    expect(revoked.json().data.revokedAt).not.toBeNull();
    expect((await script('GET', '/platform-api/stores')).statusCode).toBe(401);
    const actions = (await asOperator('GET', '/platform-api/audit?limit=50'))
      .json()
      .data.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['token.create', 'token.revoke']));
    expect((await asOperator('POST', '/platform-api/tokens/OPT-none/revoke', {})).statusCode).toBe(404);
  });

  it('refuses a cookie change without the CSRF token, or from another origin (403)', async () => {
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/platform-api/tokens',
      headers: { host: PLATFORM, cookie: operator.cookie },
      payload: { name: 'csrf' },
    });
    expect(noToken.statusCode).toBe(403);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/platform-api/tokens',
      headers: {
        host: PLATFORM,
        cookie: operator.cookie,
        'x-csrf-token': operator.csrf,
        origin: 'http://evil.example',
      },
      payload: { name: 'csrf' },
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('support access', () => {
  const enterWith = async (enterUrl: string, host = LIGHTING) => {
    const u = new URL(enterUrl);
    return t.app.inject({ url: `${u.pathname}${u.search}`, headers: { host } });
  };

  it('only the owner grants (1 to 72 hours); without a grant the operator cannot open the dashboard', async () => {
    const staffLess = await t.app.inject({ url: '/api/tenant/support-access', headers: { host: LIGHTING } });
    expect(staffLess.statusCode).toBe(401);
    for (const hours of [0, 73, 1.5]) {
      expect((await asOwner('POST', '/api/tenant/support-access', { hours })).statusCode, String(hours)).toBe(400);
    }
    const refused = await asOperator('POST', '/platform-api/stores/lighting/support-session', { reason: 'Help' });
    expect(refused.statusCode).toBe(403);
  });

  it('lets the operator in as support while the grant lasts; the audit log names the operator; revoking ends it at once', async () => {
    const granted = await asOwner('POST', '/api/tenant/support-access', { hours: 4 });
    expect(granted.statusCode).toBe(200);
    const grant = granted.json().data.grant;
    expect(grant).toMatchObject({ active: true, grantedBy: 'owner@lighting.test' });
    expect(new Date(grant.expiresAt).getTime() - new Date(grant.grantedAt).getTime()).toBe(4 * 3_600_000);
    expect((await asOperator('GET', '/platform-api/stores/lighting')).json().data.supportAccess.grantId).toBe(
      grant.grantId,
    );

    const ticket = await asOperator('POST', '/platform-api/stores/lighting/support-session', {
      reason: 'Ticket 7: checkout settings',
    });
    expect(ticket.statusCode, ticket.body).toBe(200);
    const entered = await enterWith(ticket.json().data.enterUrl);
    expect(entered.statusCode).toBe(303);
    expect(entered.headers.location).toBe('/manage-store');
    const cookie = String(entered.headers['set-cookie']).split(';')[0] as string;
    expect(cookie).toMatch(/^sid=sup_/);
    // The link works once.
    expect((await enterWith(ticket.json().data.enterUrl)).statusCode).toBe(400);

    // The support session: the CSRF token of its cookie, as the dashboard's pages hand it out.
    const csrf = (
      await t.app.inject({ url: '/skulocity/api/v1/public/ecommerce/csrftoken', headers: { host: LIGHTING, cookie } })
    ).json().data.csrfToken as string;
    const support = { cookie, 'x-csrf-token': csrf };
    const info = await asOwner('GET', '/api/tenant/support-access/session', undefined, support);
    expect(info.json().data).toMatchObject({ operatorEmail: SEED_OPERATOR.email, expiresAt: grant.expiresAt });
    // Support cannot extend its own access.
    expect((await asOwner('POST', '/api/tenant/support-access', { hours: 72 }, support)).statusCode).toBe(403);

    // Support may not add staff: an account it invited would outlast the owner's grant.
    const invite = await asOwner(
      'POST',
      '/api/v1/staff/invite',
      { email: 'helper@lighting.test', firstName: 'Hel', lastName: 'Per', permissions: ['catalog'] },
      support,
    );
    expect(invite.statusCode, invite.body).toBe(403);
    // Nor take the store from its owner: ask to close it, or change where its payments are paid out.
    const ownerOnly: [Method, string, object | undefined][] = [
      ['PATCH', '/api/tenant/cancel_request/lighting/initiate', { cancelRequestReason: 'Closing it for the owner.' }],
      [
        'PUT',
        '/skulocity/api/v1/admin/stripe',
        { secretKey: 'sk_test_support000000001', webhookSecret: 'whsec_supportendpoint0001' },
      ],
      ['DELETE', '/skulocity/api/v1/admin/stripe', undefined],
      ['POST', '/api/paypal/seller/connect', {}],
      ['POST', '/api/paypal/seller/disconnect', {}],
      ['POST', '/skulocity/api/v1/admin/updatePaypalConfig', { configId: 'PP_CONFIG' }],
    ];
    for (const [method, url, body] of ownerOnly) {
      const res = await asOwner(method, url, body, support);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().message, url).toMatch(/^Platform support cannot /);
    }
    expect((await asOwner('GET', '/api/tenant/cancel_request/lighting')).json().data.status).not.toBe('requested');
    const saved = await asOwner(
      'PUT',
      '/api/v1/store/detail/update/9000',
      { companyName: 'Fixed By Support' },
      support,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const audit = (await asOwner('GET', '/api/v1/audit/fetch?limit=5')).json().data.entries as {
      action: string;
      actor: { support?: { email: string } };
    }[];
    const stamped = audit.find((e) => e.actor.support);
    expect(stamped?.actor.support?.email).toBe(SEED_OPERATOR.email);
    const platformLog = (await asOperator('GET', '/platform-api/audit?action=support.open')).json().data.entries;
    expect(platformLog[0]).toMatchObject({ tenantId: 'lighting', reason: 'Ticket 7: checkout settings' });

    const revoked = await asOwner('DELETE', '/api/tenant/support-access', {});
    expect(revoked.statusCode).toBe(200);
    expect((await asOwner('GET', '/api/tenant/support-access/session', undefined, support)).statusCode).toBe(401);
    expect((await asOwner('GET', '/api/tenant/support-access')).json().data.grant).toBeNull();
  });

  it('ends the support session when the grant expires', async () => {
    await asOwner('POST', '/api/tenant/support-access', { hours: 1 });
    const ticket = await asOperator('POST', '/platform-api/stores/lighting/support-session', { reason: 'Quick look' });
    const cookie = String((await enterWith(ticket.json().data.enterUrl)).headers['set-cookie']).split(';')[0] as string;
    const look = () => t.app.inject({ url: '/api/v1/audit/fetch?limit=1', headers: { host: LIGHTING, cookie } });
    expect((await look()).statusCode).toBe(200);
    await t.database.db
      .update(schema.supportGrants)
      .set({ grantedAt: new Date(Date.now() - 2 * 3_600_000), expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.supportGrants.tenantId, 'lighting'));
    expect((await look()).statusCode).toBe(401);
  });
});

describe('malformed input from a signed-in operator', () => {
  it('answers every operator operation with a 4xx that names the problem, never a 5xx, and changes nothing', async () => {
    // Signing out is no input to get wrong, and would end the session the rest is sent with.
    const ops = (await operatorOperations()).filter((o) => !o.url.startsWith('/platform-api/session'));
    const before = await t.services.storeLifecycle.stateOf('lighting');
    const badQuery = `limit=abc&cursor=%E0%A4%A&sort=nope&state=nope&q=${'a'.repeat(600)}`;
    const bodies: unknown[] = [{}, { reason: 123, name: [], hours: '2' }, { reason: 'x'.repeat(5000) }, [1, 2]];
    const wrong: string[] = [];
    for (const { method, url } of ops) {
      const urls = [
        `${url}${url.includes('?') ? '&' : '?'}${badQuery}`,
        url.replace('/lighting', '/no-such-store').replace('/suspend', '/explode'),
      ];
      for (const target of urls) {
        for (const payload of method === 'GET' || method === 'DELETE' ? [undefined] : bodies) {
          const res = await t.app.inject({
            method,
            url: target,
            headers: { host: PLATFORM, cookie: operator.cookie, 'x-csrf-token': operator.csrf },
            ...(payload === undefined ? {} : { payload: payload as object }),
          });
          const named =
            res.statusCode < 400 || (typeof res.json().message === 'string' && res.json().message.length > 0);
          // Refused for what was sent (400, 404, 409, 413, 415, 422), not for who sent it.
          if (res.statusCode >= 500 || res.statusCode === 401 || res.statusCode === 403 || !named)
            wrong.push(`${method} ${target.slice(0, 80)} → ${res.statusCode}`);
        }
      }
      // A body that is not JSON at all.
      if (method !== 'GET' && method !== 'DELETE') {
        const res = await t.app.inject({
          method,
          url,
          headers: {
            host: PLATFORM,
            cookie: operator.cookie,
            'x-csrf-token': operator.csrf,
            'content-type': 'application/json',
          },
          payload: '{"reason": ',
        });
        if (res.statusCode !== 400) wrong.push(`${method} ${url} with broken JSON → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await t.services.storeLifecycle.stateOf('lighting')).toBe(before);
    expect((await t.app.inject({ url: '/healthz', headers: { host: PLATFORM } })).statusCode).toBe(200);
  });
});
