import type { PlatformMemory } from '@app/contracts';
import { schema } from '@app/db';
import { SEED_OPERATOR } from '@app/db/seed';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { PLATFORM, signInOperator } from './operator-session.fixture';

// The operator's API as a console and a script use it, and the walls around it: an operator's
// session or token opens nothing of a store's, and a store's session opens nothing of the platform's.

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
const act = (tenantId: string, action: string, reason?: string) => operator.act(tenantId, action, reason);

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

describe("the process's memory kept per store", () => {
  it("shows the budget and each cache's share once stores have been visited (decision 124)", async () => {
    for (const host of [LIGHTING, GARDEN]) {
      const main = await t.app.inject({
        method: 'POST',
        url: '/skulocity/api/v1/public/ecommerce/main',
        headers: { host },
      });
      expect(main.statusCode).toBe(200);
      const search = '/skulocity/api/v1/public/ecommerce/product/search?searchText=lamp';
      expect((await t.app.inject({ url: search, headers: { host } })).statusCode).toBe(200);
    }
    const res = await asOperator('GET', '/platform-api/memory');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const m = res.json().data as PlatformMemory;
    expect(m.limitBytes).toBeGreaterThan(0);
    expect(m.usedBytes).toBeGreaterThan(0);
    expect(m.usedBytes).toBeLessThanOrEqual(m.limitBytes);
    const cache = (name: string) => m.caches.find((c) => c.name === name) ?? { entries: 0 };
    // One entry per store visited, at least: the two stores' indexes, answers and host bindings.
    expect(cache('search indexes').entries).toBeGreaterThanOrEqual(2);
    expect(cache('public answers').entries).toBeGreaterThanOrEqual(2);
    expect(cache('host bindings').entries).toBeGreaterThanOrEqual(2);
    expect(m.process.rssBytes).toBeGreaterThan(m.process.heapUsedBytes);
    expect(m.process.heapTotalBytes).toBeGreaterThanOrEqual(m.process.heapUsedBytes);
    // V8's spaces, committed against live: where a gap between RSS and the live heap shows.
    const old = m.process.heapSpaces.find((h) => h.name === 'old_space');
    expect(old?.usedBytes).toBeGreaterThan(0);
    expect(old?.sizeBytes).toBeGreaterThanOrEqual(old?.usedBytes ?? 0);
  });
});

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

describe('the stores list', () => {
  it('finds a store by part of its name, one of its hosts, or its owner email; filters by state', async () => {
    const find = async (q: string) =>
      (await asOperator('GET', `/platform-api/stores?q=${encodeURIComponent(q)}`))
        .json()
        .data.stores.map((s: { tenantId: string }) => s.tenantId);
    expect(await find('GARDEN')).toEqual(['garden']);
    expect(await find('power.localhost')).toEqual(['power']);
    expect(await find('owner@lighting.test')).toEqual(['lighting']);
    expect(await find('%')).toEqual([]);
    const all = (await asOperator('GET', '/platform-api/stores')).json().data;
    expect(all.stores.map((s: { tenantId: string }) => s.tenantId).sort()).toEqual(['garden', 'lighting', 'power']);
    expect(all.stores.find((s: { tenantId: string }) => s.tenantId === 'lighting')).toMatchObject({
      host: 'lighting.localhost',
      ownerEmail: 'owner@lighting.test',
      state: 'active',
      sales30d: { currency: 'USD' },
    });
    const suspended = await asOperator('GET', '/platform-api/stores?state=suspended');
    expect(suspended.json().data.stores).toEqual([]);
    expect((await asOperator('GET', '/platform-api/stores?state=paused')).statusCode).toBe(400);
    expect((await asOperator('GET', '/platform-api/stores?cursor=garbage')).statusCode).toBe(400);
  });

  it('pages with keyset cursors, every store once, in order, across ties of the sort key', async () => {
    // Twelve stores created at the same instant: only the tenant id tells them apart.
    const at = new Date('2026-01-01T00:00:00Z');
    const ids = Array.from({ length: 12 }, (_, i) => `tie-${String(i).padStart(2, '0')}`);
    await t.database.db
      .insert(schema.tenants)
      .values(ids.map((tenantId) => ({ tenantId, name: `Tie ${tenantId}`, createdAt: at })));
    for (const sort of ['created', 'orders30d', 'sales30d']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await asOperator(
          'GET',
          `/platform-api/stores?sort=${sort}&limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json().data;
        seen.push(...page.stores.map((s: { tenantId: string }) => s.tenantId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(new Set(seen).size, sort).toBe(seen.length);
      expect(seen.length, sort).toBe(15);
      const full = (await asOperator('GET', `/platform-api/stores?sort=${sort}&limit=100`)).json().data.stores;
      expect(seen, sort).toEqual(full.map((s: { tenantId: string }) => s.tenantId));
    }
    const created = (await asOperator('GET', '/platform-api/stores?limit=100')).json().data.stores;
    const ties = created.map((s: { tenantId: string }) => s.tenantId).filter((id: string) => id.startsWith('tie-'));
    expect(ties).toEqual([...ids].reverse());
    // A cursor of one sort is not one of another.
    const first = (await asOperator('GET', '/platform-api/stores?sort=created&limit=2')).json().data.nextCursor;
    expect((await asOperator('GET', `/platform-api/stores?sort=orders30d&cursor=${first}`)).statusCode).toBe(400);
    await t.database.db.execute(sql`DELETE FROM operator_store_figures WHERE tenant_id LIKE 'tie-%'`);
    await t.database.db.execute(sql`DELETE FROM tenants WHERE tenant_id LIKE 'tie-%'`);
  });

  it('sorts by orders in the last 30 days', async () => {
    await t.services.operatorStores.refreshFigures();
    const stores = (await asOperator('GET', '/platform-api/stores?sort=orders30d')).json().data.stores as {
      orders30d: number;
    }[];
    const counts = stores.map((s) => s.orders30d);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});

describe("a store's page and the actions on it", () => {
  it('shows hosts, owner, state and history, counts and the allowed actions', async () => {
    const res = await asOperator('GET', '/platform-api/stores/lighting');
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.hosts.map((h: { hostName: string }) => h.hostName)).toContain('lighting.localhost');
    expect(d.owner).toMatchObject({ email: 'owner@lighting.test', emailConfirmed: true });
    expect(d.lifecycle.state).toBe('active');
    expect(d.history.length).toBeGreaterThanOrEqual(1);
    expect(d.counts.products).toBeGreaterThan(0);
    expect(d.actions).toEqual(expect.arrayContaining(['suspend', 'close', 'resend-invitation']));
    expect(d.actions).not.toContain('resume');
    expect((await asOperator('GET', '/platform-api/stores/nope')).statusCode).toBe(404);
    const audit = await asOperator('GET', '/platform-api/stores/lighting/audit?limit=5');
    expect(audit.statusCode).toBe(200);
  });

  it('suspends and resumes with a reason, in the store history and the platform audit log; refuses what the state does not allow', async () => {
    const suspended = await act('power', 'suspend', 'Chargebacks under review.');
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().data.lifecycle.state).toBe('suspended');
    expect((await act('power', 'suspend')).statusCode).toBe(409);
    expect((await asOperator('POST', '/platform-api/stores/power/actions/suspend', { reason: ' ' })).statusCode).toBe(
      400,
    );
    expect((await asOperator('POST', '/platform-api/stores/power/actions/explode', { reason: 'x' })).statusCode).toBe(
      400,
    );
    const resumed = await act('power', 'resume', 'Cleared.');
    expect(resumed.json().data.lifecycle.state).toBe('active');
    expect((await act('power', 'resume')).statusCode).toBe(409);

    const history = await t.services.storeLifecycle.history('power');
    expect(history.slice(-2).map((h) => [h.to, h.reason, h.actor])).toEqual([
      [
        'suspended',
        'Chargebacks under review.',
        { kind: 'operator', operatorId: 'OP-DEMO', email: SEED_OPERATOR.email },
      ],
      ['active', 'Cleared.', { kind: 'operator', operatorId: 'OP-DEMO', email: SEED_OPERATOR.email }],
    ]);
    const log = (await asOperator('GET', '/platform-api/audit?tenantId=power')).json().data.entries;
    expect(log.map((e: { action: string; reason: string }) => [e.action, e.reason]).slice(0, 2)).toEqual([
      ['store.resume', 'Cleared.'],
      ['store.suspend', 'Chargebacks under review.'],
    ]);
    expect(log[0].actor).toMatchObject({ kind: 'operator', operatorId: 'OP-DEMO', email: SEED_OPERATOR.email });
    // The platform's log cannot be rewritten.
    const err = await t.database.db.execute(sql`DELETE FROM platform_audit_log`).then(
      () => null,
      (e: unknown) => e as { message?: string; cause?: { message?: string } },
    );
    expect(String(err?.cause?.message ?? err?.message)).toMatch(/append-only: DELETE refused/);
  });

  it('approves a cancel request the owner filed: the store is closing, and purge waits for the retention', async () => {
    const garden = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
    const filed = await asOwner(
      'PATCH',
      '/api/tenant/cancel_request/garden/initiate',
      { cancelRequestReason: 'Moving on.' },
      garden,
      GARDEN,
    );
    expect(filed.statusCode, filed.body).toBe(200);
    expect((await asOperator('GET', '/platform-api/stores/garden')).json().data).toMatchObject({
      cancelRequest: { status: 'requested', reason: 'Moving on.' },
      actions: expect.arrayContaining(['approve-cancel', 'decline-cancel']),
    });
    const approved = await act('garden', 'approve-cancel', 'Owner confirmed by phone.');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.lifecycle.state).toBe('closing');
    const closed = await act('garden', 'close', 'Export done early.');
    expect(closed.json().data.lifecycle.state).toBe('closed');
    // The request closes with the store, as on its date: not left approved on a closed store.
    expect((await asOperator('GET', '/platform-api/stores/garden')).json().data.cancelRequest).toMatchObject({
      status: 'closed',
    });
    const purge = await act('garden', 'purge', 'Retention over?');
    expect(purge.statusCode).toBe(409);
    expect(purge.json().message).toContain('30 days');
    const page = (await asOperator('GET', '/platform-api/stores/garden')).json().data;
    expect(page.actions).not.toContain('purge');
    expect(page.purgeAllowedFrom).not.toBeNull();
  });

  it('resends the owner invitation (a mail), audited', async () => {
    const res = await act('lighting', 'resend-invitation', 'Owner lost the mail.');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.message).toContain('owner@lighting.test');
    const log = (await asOperator('GET', '/platform-api/audit?action=store.resend-invitation')).json().data.entries;
    expect(log[0]).toMatchObject({ tenantId: 'lighting', reason: 'Owner lost the mail.' });
  });
});

describe('opening a store for a merchant', () => {
  it("provisions it on its subdomain, active, with its owner invited; sign-up's subdomain rules hold", async () => {
    const body = {
      storeName: 'Acme Lamps',
      subdomain: 'Acme-Lamps',
      ownerEmail: 'merchant@acme.example',
      reason: 'Signed the enterprise contract.',
    };
    const res = await asOperator('POST', '/platform-api/stores', body);
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data;
    expect(made).toMatchObject({ host: 'acme-lamps.localhost', invitationSent: true });
    const page = (await asOperator('GET', `/platform-api/stores/${made.tenantId}`)).json().data;
    expect(page).toMatchObject({
      name: 'Acme Lamps',
      lifecycle: { state: 'active' },
      owner: { email: 'merchant@acme.example' },
    });
    expect(page.history.at(-1).actor).toMatchObject({ kind: 'operator', email: SEED_OPERATOR.email });
    const storefront = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/main',
      headers: { host: 'acme-lamps.localhost' },
    });
    // The host answers as the new store (private until its owner goes live), not as an unknown host.
    expect(storefront.json().code).not.toBe('TENANT_NOT_FOUND');
    expect([200, 401]).toContain(storefront.statusCode);
    // The same request again answers the same store; a reserved word is refused before anything is made.
    const again = await asOperator('POST', '/platform-api/stores', body);
    expect(again.json().data.tenantId).toBe(made.tenantId);
    expect((await asOperator('POST', '/platform-api/stores', { ...body, subdomain: 'admin' })).statusCode).toBe(400);
    const log = (await asOperator('GET', '/platform-api/audit?action=store.create')).json().data.entries;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ tenantId: made.tenantId, reason: 'Signed the enterprise contract.' });
  });
});

describe('platform figures', () => {
  it('counts stores by state and gives one row per day', async () => {
    const res = await asOperator('GET', '/platform-api/figures?days=7');
    expect(res.statusCode).toBe(200);
    const f = res.json().data;
    expect(f.perDay).toHaveLength(7);
    expect(f.totalStores).toBe(Object.values(f.storesByState as Record<string, number>).reduce((a, b) => a + b, 0));
    expect(Object.keys(f.storesByState).sort()).toEqual(
      ['active', 'closed', 'closing', 'provisioning', 'purged', 'suspended'].sort(),
    );
    expect((await asOperator('GET', '/platform-api/figures?days=0')).statusCode).toBe(400);
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
