import type { PlatformMemory } from '@app/contracts';
import { schema } from '@app/db';
import { SEED_OPERATOR } from '@app/db/seed';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { signInOperator } from './operator-session.fixture';

// The operator's API as the console uses it on stores: the list, a store's page and the actions on
// it, opening a store, the platform's figures and the process's memory. Who may call it at all (the
// walls, tokens, CSRF, support access, malformed input) is in operator-api-access.test.ts.

const LIGHTING = SEEDED_HOSTS.lighting.host;
const GARDEN = SEEDED_HOSTS.garden.host;

let t: TestApp;
let operator: Awaited<ReturnType<typeof signInOperator>>;
let owner: BrowserSession;

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
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(() => t?.close());

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
