import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '@app/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsStandIn } from '../../test/dns-stand-in';
import { placeGuestOrder, stockedProduct } from '../../test/guest-order';
import { SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { type StripeStandIn, startStripeStandIn } from '../../test/stripe-stand-in';
import { signStripePayload } from '../payments/index';
import { platformContext } from '../store-archive/index';
import { type MoveWorld, moveStore, openMoveWorld, PLATFORM, rowsOf, storeRows } from './store-move.fixture';

// What a store moved to another database does there (decision 123). Every route outside the request's
// store context, and every module that writes on the home database, must find the store where it
// lives: Stripe's webhook, its own domain, support access, the cancel request, archive import and purge.
// The set-up moves "lighting" after one order; the tests then run in order on the moved store.

const EMAIL = 'moved-store@example.com';
const STRIPE_KEY = 'sk_test_movedstore000000001';
const STRIPE_WHSEC = 'whsec_movedstoreendpoint';
const CNAME_TARGET = 'shops.localhost';
let world: MoveWorld;
let t: TestApp;
let shard: Database;
let operator: MoveWorld['operator'];
let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let stripe: StripeStandIn;
const asOperator: MoveWorld['asOperator'] = (...args) => world.asOperator(...args);

beforeAll(async () => {
  dns = await startDnsStandIn();
  stripe = await startStripeStandIn({
    accounts: [{ secretKey: STRIPE_KEY, webhookSecret: STRIPE_WHSEC }],
    webhooks: false,
  });
  world = await openMoveWorld({
    DNS_RESOLVER: dns.address,
    DOMAIN_CNAME_TARGET: CNAME_TARGET,
    STRIPE_BASE_URL: stripe.url,
  });
  ({ t, shard, operator } = world);
  // An order before the move, so the console has the moved store's figures to sum where it lives.
  const { productId } = await stockedProduct(t.database.db, 'lighting');
  const order = await placeGuestOrder(t.app, { host: SEEDED_HOSTS.lighting.host, productId, email: EMAIL });
  expect(order.statusCode, order.body).toBe(200);
  await moveStore(world, 'lighting');
}, 180_000);
afterAll(async () => {
  await world?.close();
  await dns?.close();
  await stripe?.close();
});

describe('a store moved to another database', () => {
  it("confirms a moved store's Stripe order by Stripe's webhook, and keeps its access mode's entry in its own feed", async () => {
    const host = SEEDED_HOSTS.lighting.host;
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
    const as = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: object = owner) =>
      t.app.inject({
        method,
        url,
        headers: { host, origin: `http://${host}`, ...headers },
        ...(payload ? { payload } : {}),
      });
    const B = '/skulocity/api/v1';
    expect(
      (await as('PUT', `${B}/admin/stripe`, { secretKey: STRIPE_KEY, webhookSecret: STRIPE_WHSEC })).statusCode,
    ).toBe(200);
    const { productId } = await stockedProduct(shard.db, 'lighting');
    const added = await as('POST', `${B}/public/ecommerce/product/addToCart`, { productId, quantity: 1 }, {});
    const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    const started = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/createStripeSession`,
      headers: { host, cookie, 'idempotency-key': 'moved-stripe-order-1' },
      payload: {
        email: EMAIL,
        shippingMethodId: 'STANDARD',
        shipTo: {
          toName: 'Mo Ved',
          address1: '1 Market Street',
          city: 'San Francisco',
          postalCode: '94105',
          countryGeoId: 'USA',
          stateProvinceGeoId: 'US_CA',
        },
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { url, orderId } = started.json().data;
    const sessionId = String(url).split('/').at(-1) as string;
    // The shopper pays and never comes back: Stripe's webhook is the store's only news of it.
    stripe.pay(sessionId);
    const body = JSON.stringify({
      id: 'evt_moved_store_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: sessionId, object: 'checkout.session' } },
    });
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { host, 'content-type': 'application/json', 'stripe-signature': signStripePayload(body, STRIPE_WHSEC) },
      payload: body,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    expect(hook.json()).toEqual({ eventId: 'evt_moved_store_1', outcome: 'paid' });
    expect(await rowsOf(shard, sql`SELECT status FROM orders WHERE order_id = ${orderId}`)).toEqual([
      { status: 'paid' },
    ]);

    // The owner makes the store private and public again: both in the store's feed, none at home.
    for (const path of ['/api/tenant/add/constraints', '/api/tenant/remove/constraints']) {
      expect((await as('POST', path, { tenantId: 'lighting' })).statusCode).toBe(200);
    }
    const feed = (await as('GET', '/api/v1/audit/fetch?entity=tenant')).json().data.entries;
    expect(feed.length).toBeGreaterThanOrEqual(2);
    expect(await storeRows(t.database, 'lighting')).not.toHaveProperty('audit_log');
  }, 60_000);

  it("binds a moved store's own domain where tenancy reads hosts: the domain serves the store", async () => {
    const host = SEEDED_HOSTS.lighting.host;
    const domain = 'shop.moved-lamps.com';
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
    const asOwner = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { host, origin: `http://${host}`, ...owner },
        ...(payload ? { payload } : {}),
      });
    const added = await asOwner('POST', '/api/v1/domains', { domain });
    expect(added.statusCode, added.body).toBe(201);
    dns.zone.txt.set(`_storefront-verify.${domain}`, [added.json().data.records[0].value]);
    dns.zone.cname.set(domain, `${CNAME_TARGET}.`);
    expect((await asOwner('POST', `/api/v1/domains/${domain}/check`)).statusCode).toBe(202);
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    const listed = (await asOwner('GET', '/api/v1/domains')).json().data.domains;
    expect(listed).toEqual([expect.objectContaining({ domain, state: 'active' })]);
    // The owner is told, though their account is on the store's database and not at home.
    const outbox = join(t.dataDir, 'outbox');
    const told = readdirSync(outbox)
      .map((f) => readFileSync(join(outbox, f), 'utf8'))
      .filter((m) => m.includes('owner@lighting.test') && m.includes(domain));
    expect(told.length).toBeGreaterThan(0);
    // The domain answers as the store, and the proxy may get it a certificate.
    const tenant = await t.app.inject({
      method: 'GET',
      url: '/api/fetch/tenant?tenantId=lighting',
      headers: { host: domain },
    });
    expect(tenant.statusCode, tenant.body).toBe(200);
    expect(tenant.json().data.productStores[0].hostNames).toContain(domain);
    const ask = await t.app.inject({
      method: 'GET',
      url: `/internal/tls/ask?domain=${domain}`,
      headers: { host: '127.0.0.1' },
    });
    expect(ask.statusCode).toBe(200);
    // No other store can claim it.
    const gardenHost = SEEDED_HOSTS.garden.host;
    const gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', gardenHost);
    const claimed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: { host: gardenHost, origin: `http://${gardenHost}`, ...gardenOwner },
      payload: { domain },
    });
    expect(claimed.statusCode, claimed.body).toBe(409);
    // Made primary: the choice is written at home, with the hosts, and into the store's own row where
    // it lives, which its pages, mail and feeds read.
    const primary = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/domains/primary',
      headers: { host, origin: `http://${host}`, ...owner },
      payload: { host: domain },
    });
    expect(primary.statusCode, primary.body).toBe(200);
    const canonical = sql`SELECT canonical_host AS h FROM product_stores WHERE tenant_id = 'lighting'`;
    expect(await rowsOf(t.database, canonical)).toEqual([{ h: domain }]);
    expect(await rowsOf(shard, canonical)).toEqual([{ h: domain }]);
    // A stale copy (as when a disconnect's copy failed after its commit, and its job's retry found the
    // domain already disconnected) is written again from the home row by the daily re-check.
    await shard.db.execute(sql`UPDATE product_stores SET canonical_host = ${host} WHERE tenant_id = 'lighting'`);
    await t.services.jobs.enqueue(platformContext('lighting'), { type: 'domains.recheck', payload: {} });
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    expect(await rowsOf(shard, canonical)).toEqual([{ h: domain }]);
    expect(await rowsOf(t.database, canonical)).toEqual([{ h: domain }]);
    // The owner's activity feed, read where the store lives, tells of every step; the home database,
    // which the store left, holds none of its audit entries (a move back home finds it empty).
    const feed = (await asOwner('GET', '/api/v1/audit/fetch?entity=domain')).json().data.entries;
    expect(feed.map((e: { action: string; entityId: string }) => `${e.action} ${e.entityId}`)).toEqual([
      `create ${domain}`,
    ]);
    const hostEntries = (await asOwner('GET', '/api/v1/audit/fetch?entity=store.host')).json().data.entries;
    expect(hostEntries).toHaveLength(1);
    expect(await storeRows(t.database, 'lighting')).not.toHaveProperty('audit_log');
  }, 60_000);

  it("opens a moved store's dashboard to support under its owner's grant: grant, session and account agree", async () => {
    const host = SEEDED_HOSTS.lighting.host;
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
    const granted = await t.app.inject({
      method: 'POST',
      url: '/api/tenant/support-access',
      headers: { host, origin: `http://${host}`, ...owner },
      payload: { hours: 2 },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    // The operator sees the grant and opens a session; the link signs them in on the store's host.
    const ticket = await asOperator('POST', '/platform-api/stores/lighting/support-session', { reason: 'Ticket 7' });
    expect(ticket.statusCode, ticket.body).toBe(200);
    const enter = new URL(ticket.json().data.enterUrl);
    const entered = await t.app.inject({ url: `${enter.pathname}${enter.search}`, headers: { host } });
    expect(entered.statusCode, entered.body).toBe(303);
    const support = String(entered.headers['set-cookie']).split(';')[0] as string;
    const feed = await t.app.inject({ url: '/api/v1/audit/fetch', headers: { host, cookie: support } });
    expect(feed.statusCode, feed.body).toBe(200);
    // Revoked by the owner, the session stops at its next request.
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: '/api/tenant/support-access',
      headers: { host, origin: `http://${host}`, ...owner },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/audit/fetch', headers: { host, cookie: support } })).statusCode).toBe(
      401,
    );
    // The console's page of the store reads its own rows where it lives: its owner, its counts, the
    // live grant (revoked now) and its audit log.
    const detail = (await asOperator('GET', '/platform-api/stores/lighting')).json().data;
    expect(detail.owner).toMatchObject({ email: 'owner@lighting.test' });
    expect(detail.counts.orders).toBeGreaterThan(0);
    // So does the stores list: the owner's email and the 30-day figures, summed where the store lives.
    await t.services.operatorStores.refreshFigures();
    const listed = (await asOperator('GET', '/platform-api/stores?q=lighting')).json().data.stores;
    expect(listed).toEqual([
      expect.objectContaining({
        tenantId: 'lighting',
        ownerEmail: 'owner@lighting.test',
        orders30d: detail.counts.orders30d,
        sales30d: expect.objectContaining({ amount: detail.counts.sales30d[0]?.amount ?? 0 }),
      }),
    ]);
    expect(detail.counts.orders30d).toBeGreaterThan(0);
    // A search by the owner's email finds it too.
    const byOwner = (await asOperator('GET', '/platform-api/stores?q=owner%40lighting')).json().data.stores;
    expect(byOwner.map((s: { tenantId: string }) => s.tenantId)).toEqual(['lighting']);
    const storeLog = (await asOperator('GET', '/platform-api/stores/lighting/audit?limit=50')).json().data.entries;
    expect(storeLog.map((e: { entity: string; action: string }) => `${e.entity} ${e.action}`)).toEqual(
      expect.arrayContaining(['support_access grant', 'support_access revoke']),
    );
    // The grant and the session are the store's rows, where it lives; the home database has none.
    const home = await storeRows(t.database, 'lighting');
    expect(home).not.toHaveProperty('support_grants');
    expect(home).not.toHaveProperty('support_sessions');
  }, 60_000);

  it("closes a moved store its owner asked to cancel: the request, the approval and the store's state agree", async () => {
    const host = SEEDED_HOSTS.lighting.host;
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
    const asked = await t.app.inject({
      method: 'PATCH',
      url: '/api/tenant/cancel_request/lighting/initiate',
      headers: { host, origin: `http://${host}`, ...owner },
      payload: { cancelRequestReason: 'Moving on.' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // The operator sees the request and approves it.
    const approved = await asOperator('POST', '/platform-api/stores/lighting/actions/approve-cancel', {
      reason: 'As the owner asked.',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    // Tenancy reads the store's new state: the shop is closing, and so says every process's read.
    expect((await t.services.storeLifecycle.lifecycle('lighting')).state).toBe('closing');
    const shop = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/getproductdetails?productId=x',
      headers: { host },
    });
    expect(shop.statusCode, shop.body).toBe(410);
    // The owner reads the approved request on the dashboard.
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/tenant/cancel_request/lighting',
      headers: { host, ...owner },
    });
    expect(mine.json().data, mine.body).toMatchObject({ status: 'approved' });
    // The owner's activity feed tells of the request and the store's new state; the home database
    // holds none of the store's audit entries.
    const feed = await t.app.inject({ method: 'GET', url: '/api/v1/audit/fetch', headers: { host, ...owner } });
    const seen = feed.json().data.entries.map((e: { entity: string; action: string }) => `${e.entity} ${e.action}`);
    expect(seen).toEqual(expect.arrayContaining(['cancel_request initiate', 'store_lifecycle closing']));
    expect(await storeRows(t.database, 'lighting')).not.toHaveProperty('audit_log');
    // The approval's mail reached the owner.
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    const outbox = join(t.dataDir, 'outbox');
    const mails = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8'));
    expect(mails.filter((m) => m.includes('owner@lighting.test') && /was approved/.test(m))).toHaveLength(1);
  }, 60_000);

  it('refuses an archive import into a moved store, and purges a moved store on both databases', async () => {
    // An import would write the store's rows at home, where it does not read them: refused, with the way round.
    const imported = await t.app.inject({
      method: 'POST',
      url: '/platform-api/stores/lighting/archive/import',
      headers: { host: PLATFORM, ...operator, 'content-type': 'application/gzip' },
      payload: Buffer.from('never read'),
    });
    expect(imported.statusCode, imported.body).toBe(409);
    expect(imported.json().message).toContain('Move it back home');
    // Closed (the test above left it closing), past the retention, then purged: nothing of it is left
    // on the database it lives on, nor at home, but the platform's record of what operators did.
    expect(
      (await asOperator('POST', '/platform-api/stores/lighting/actions/close', { reason: 'Closing now.' })).statusCode,
    ).toBe(200);
    await t.database.db.execute(
      sql`UPDATE store_lifecycle SET updated_at = now() - interval '31 days' WHERE tenant_id = 'lighting'`,
    );
    t.services.storeLifecycle.invalidate('lighting');
    const purged = await asOperator('POST', '/platform-api/stores/lighting/actions/purge', {
      reason: 'Retention over.',
    });
    expect(purged.statusCode, purged.body).toBe(200);
    expect(await storeRows(shard, 'lighting', ['platform_audit_log', 'jobs'])).toEqual({});
    expect(await storeRows(t.database, 'lighting', ['platform_audit_log', 'jobs'])).toEqual({});
  }, 60_000);
});
