import { fileURLToPath } from 'node:url';
import { canTransitionStore, STORE_STATES, STORE_TRANSITIONS, type StoreState } from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { CLOSE_STORE_JOB } from '../cancel-request/index';
import type { MailMessage } from '../mail/index';
import type { PlatformActor } from './index';

// Decision 099: a store's lifecycle state machine, its history, and what each state means for the
// storefront's API and pages, the owner's dashboard and the store's jobs.

const GARDEN = SEEDED_HOSTS.garden.host;
const LIGHTING = SEEDED_HOSTS.lighting.host;
const B = '/skulocity/api/v1';
const operator: PlatformActor = { kind: 'operator', operatorId: 'op-1', email: 'operator@platform.localhost' };
const sent: MailMessage[] = [];
let t: TestApp;
let owner: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({
    webBuildDir: fileURLToPath(new URL('../../../../web/build', import.meta.url)),
    mailer: {
      async send(m) {
        if (m.subject.includes('request to cancel') && !m.subject.includes('was'))
          await new Promise((r) => setTimeout(r, 80));
        sent.push(m);
      },
      close() {},
    },
  });
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
});
afterAll(() => t.close());

const life = () => t.services.storeLifecycle;
const db = () => t.database.db;

/** Puts garden in `state` behind the state machine's back (the table-driven test's starting point). */
async function force(state: StoreState, tenantId = 'garden') {
  await db()
    .update(schema.storeLifecycle)
    .set({
      state,
      closesAt: state === 'closing' ? new Date(Date.now() + 86_400_000) : null,
    })
    .where(eq(schema.storeLifecycle.tenantId, tenantId));
  life().invalidate(tenantId);
}

const historyRows = (tenantId = 'garden') =>
  db()
    .select()
    .from(schema.storeLifecycleHistory)
    .where(eq(schema.storeLifecycleHistory.tenantId, tenantId))
    .orderBy(asc(schema.storeLifecycleHistory.seq));

async function move(to: StoreState, reason = `to ${to}`, tenantId = 'garden') {
  const r = await life().transition(operator, tenantId, to, reason);
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

const api = (
  url: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'PATCH' | 'POST' = 'GET',
  body?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: { host: GARDEN, origin: `http://${GARDEN}`, ...headers },
    ...(body ? { payload: body } : {}),
  });
const categories = (headers: Record<string, string> = {}) => api(`${B}/public/ecommerce/categories`, headers);
const ownerRead = () => api('/api/tenant/cancel_request/garden', owner);
const ownerWrite = () =>
  api('/api/tenant/cancel_request/garden/initiate', owner, 'PATCH', { cancelRequestReason: 'Trying a write.' });
const login = () => api(`${B}/login`, {}, 'POST', { email: 'owner@garden.test', password: 'owner-demo-1' });
const page = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host: GARDEN, ...headers } });

describe('the state machine', () => {
  beforeEach(() => force('active'));

  it('every seeded store starts active, with the seed in its history', async () => {
    for (const tenantId of ['lighting', 'garden', 'power']) {
      life().invalidate(tenantId);
      expect(await life().stateOf(tenantId)).toBe('active');
      const [first] = await historyRows(tenantId);
      expect(first).toMatchObject({ seq: 1, fromState: null, toState: 'active', actorKind: 'system' });
    }
  });

  // Every (from, to) pair: allowed exactly when the table says so; a refusal changes nothing.
  const pairs = STORE_STATES.flatMap((from) => STORE_STATES.map((to) => [from, to] as const));
  it.each(pairs)('%s -> %s follows the transitions table', async (from, to) => {
    await force(from);
    const before = (await historyRows()).length;
    const r = await life().transition(operator, 'garden', to, `Table test ${from} -> ${to}.`);
    expect(r.ok).toBe(canTransitionStore(from, to));
    const after = await historyRows();
    if (r.ok) {
      expect(await life().stateOf('garden')).toBe(to);
      expect(after).toHaveLength(before + 1);
      expect(after.at(-1)).toMatchObject({
        fromState: from,
        toState: to,
        reason: `Table test ${from} -> ${to}.`,
        actorKind: 'operator',
        actorId: 'op-1',
        actorEmail: 'operator@platform.localhost',
      });
    } else {
      expect(r).toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
      expect(r.message).toContain(`is ${from}`);
      expect(await life().stateOf('garden')).toBe(from);
      expect(after).toHaveLength(before);
    }
  });

  it('has no way out of purged and only the documented ways into closing', () => {
    expect(STORE_TRANSITIONS.purged).toEqual([]);
    expect(STORE_STATES.filter((s) => canTransitionStore(s, 'closing'))).toEqual(['active', 'suspended']);
    expect(STORE_STATES.filter((s) => canTransitionStore(s, 'purged'))).toEqual(['closed']);
  });

  it('writes who, when and why, an audit entry in the store’s own log, and reads it back as history', async () => {
    const started = Date.now();
    await move('suspended', 'Chargebacks above the limit.');
    const owner2: PlatformActor = { kind: 'system', name: 'test-resume' };
    const back = await life().transition(owner2, 'garden', 'active', 'Chargebacks settled.');
    expect(back.ok).toBe(true);
    const history = await life().history('garden');
    expect(history.slice(-2)).toEqual([
      expect.objectContaining({
        from: 'active',
        to: 'suspended',
        reason: 'Chargebacks above the limit.',
        actor: operator,
      }),
      expect.objectContaining({ from: 'suspended', to: 'active', actor: owner2 }),
    ]);
    expect(new Date(history.at(-1)?.at ?? 0).getTime()).toBeGreaterThanOrEqual(started - 1000);
    const audits = await db()
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, 'garden'), eq(schema.auditLog.entity, 'store_lifecycle')))
      .orderBy(asc(schema.auditLog.id));
    expect(audits.slice(-2).map((a) => [a.action, a.actorId])).toEqual([
      ['suspended', 'platform operator operator@platform.localhost'],
      ['active', 'test-resume'],
    ]);
  });

  it('refuses an unknown store (404) and a state the caller did not expect (409), changing nothing', async () => {
    expect(await life().transition(operator, 'nobody', 'suspended', 'x')).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await life().transition(operator, 'garden', 'suspended', 'x', { expect: 'closing' })).toMatchObject({
      status: 409,
      code: 'INVALID_TRANSITION',
    });
    expect(await life().stateOf('garden')).toBe('active');
  });

  it('lets exactly one of two transitions at once win the row (row lock), with one history row', async () => {
    const before = (await historyRows()).length;
    const results = await Promise.all([
      life().transition(operator, 'garden', 'suspended', 'First.', { expect: 'active' }),
      life().transition(operator, 'garden', 'closing', 'Second.', { expect: 'active' }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([expect.objectContaining({ code: 'INVALID_TRANSITION' })]);
    expect(await historyRows()).toHaveLength(before + 1);
  });
});

describe('a suspended store', () => {
  beforeAll(() => force('active'));
  afterAll(() => force('active'));

  it('answers 503 on its storefront API and a temporarily unavailable page, while another store is untouched', async () => {
    expect((await categories()).statusCode).toBe(200);
    await move('suspended', 'Unpaid platform fees.');
    const res = await categories();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'STORE_SUSPENDED',
      message: expect.stringContaining('temporarily unavailable'),
    });
    expect(res.headers['cache-control']).toBe('no-store');

    const home = await page('/');
    expect(home.statusCode).toBe(503);
    expect(home.body).toContain('Fernwood Garden Supply is temporarily unavailable.');
    // Nothing of the catalog: no category, no product link.
    expect(home.body).not.toMatch(/\/products?\//);
    expect(home.body).toContain('Store owner? Sign in');
    expect((await page('/auth/login')).statusCode).toBe(200);

    expect(
      (await t.app.inject({ url: `${B}/public/ecommerce/categories`, headers: { host: LIGHTING } })).statusCode,
    ).toBe(200);
  });

  it('lets its owner sign in and read, refuses every change with 409 STORE_READ_ONLY, and shows the banner', async () => {
    await force('suspended');
    expect((await login()).statusCode).toBe(200);
    expect((await ownerRead()).statusCode).toBe(200);
    const write = await ownerWrite();
    expect(write.statusCode).toBe(409);
    expect(write.json()).toMatchObject({ code: 'STORE_READ_ONLY', message: expect.stringContaining('read-only') });
    const dash = await page('/manage-store', owner);
    expect(dash.statusCode).toBe(200);
    expect(dash.body).toContain('Your store is suspended by the platform');
    // Nothing was filed.
    const [request] = await db()
      .select()
      .from(schema.cancelRequests)
      .where(eq(schema.cancelRequests.tenantId, 'garden'));
    expect(request?.status ?? 'none').not.toBe('requested');
  });

  it('pauses its jobs (mail excepted) and runs them once it is resumed', async () => {
    await force('active');
    let ran = 0;
    t.services.jobs.register('test.lifecycle-pause', async () => {
      ran++;
    });
    const ctx = systemContext(
      { tenantId: 'garden', productStoreId: '9001', hostName: GARDEN, viaDevAlias: false, origin: `http://${GARDEN}` },
      'test',
    );
    await move('suspended', 'Pause the jobs.');
    sent.length = 0;
    const job = await t.services.jobs.enqueue(ctx, { type: 'test.lifecycle-pause', payload: {} });
    await t.services.mailer.send(ctx, { to: 'owner@garden.test', subject: 'While suspended', text: 'Still sent.' });
    await t.services.jobs.drain({ timeoutMs: 2000 });
    expect(ran).toBe(0);
    // Mail is the exception: it still goes out.
    expect(sent.map((m) => m.subject)).toContain('While suspended');
    expect((await t.services.jobs.get(ctx, job.id))?.status).toBe('pending');
    await move('active', 'Resume.');
    await t.services.jobs.drain({ timeoutMs: 5000 });
    expect(ran).toBe(1);
    expect((await t.services.jobs.get(ctx, job.id))?.status).toBe('succeeded');
  });
});

describe('a cancel request decided by the platform', () => {
  beforeEach(async () => {
    await force('active');
    await t.services.jobs.drain();
    sent.length = 0;
    await db().delete(schema.cancelRequestHistory).where(eq(schema.cancelRequestHistory.tenantId, 'garden'));
    await db().delete(schema.cancelRequests).where(eq(schema.cancelRequests.tenantId, 'garden'));
  });
  afterAll(() => force('active'));

  /**
   * The mail whose subject says `word`. Not the last one sent: the confirmation of the request, filed
   * just before, is delivered by the worker's own lane and may reach the transport after the decision's.
   */
  const mailAbout = (word: string) => sent.findLast((m) => m.subject.includes(word));

  const file = async () => {
    const res = await api('/api/tenant/cancel_request/garden/initiate', owner, 'PATCH', {
      cancelRequestReason: 'Retiring.',
    });
    expect(res.statusCode).toBe(200);
  };

  it('declined: the store stays open, the owner reads why and may file again', async () => {
    await file();
    const declined = await t.services.cancelRequests.declineCancelRequest(operator, 'garden', 'Orders still open.');
    expect(declined).toMatchObject({ ok: true, value: { status: 'declined', decisionReason: 'Orders still open.' } });
    expect(await life().stateOf('garden')).toBe('active');
    const seen = (await ownerRead()).json().data;
    expect(seen).toMatchObject({ status: 'declined', decisionReason: 'Orders still open.', canInitiate: true });
    await t.services.jobs.drain();
    const declinedMail = mailAbout('declined');
    expect(declinedMail).toMatchObject({ to: 'owner@garden.test' });
    expect(declinedMail?.text).toContain('Orders still open.');
    // Declining twice, or approving a declined request, is refused.
    expect(await t.services.cancelRequests.approveCancelRequest(operator, 'garden', 'x')).toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    await file();
    expect((await ownerRead()).json().data).toMatchObject({ status: 'requested', decisionReason: null });
  });

  it('approved: closing for 30 days (storefront closed, checkout off, owner exports), then the job closes it', async () => {
    expect(await t.services.cancelRequests.approveCancelRequest(operator, 'garden', 'x')).toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    await file();
    const approved = await t.services.cancelRequests.approveCancelRequest(operator, 'garden', 'As requested.');
    if (!approved.ok) throw new Error(approved.message);
    const closesAt = new Date(approved.value.closesAt).getTime();
    expect(closesAt - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect(closesAt - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    expect(await life().stateOf('garden')).toBe('closing');
    expect(approved.value.cancelRequest).toMatchObject({ status: 'approved', closesAt: approved.value.closesAt });

    // The storefront is closed, its checkout with it.
    const res = await categories();
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ code: 'STORE_CLOSED' });
    expect(
      (await api(`${B}/public/ecommerce/product/addToCart`, {}, 'POST', { productId: 'x', quantity: 1 })).statusCode,
    ).toBe(410);
    const home = await page('/');
    expect(home.statusCode).toBe(410);
    expect(home.body).toContain('Fernwood Garden Supply is closed.');
    // The owner signs in, reads and exports; changes are refused.
    expect((await login()).statusCode).toBe(200);
    const exported = await api('/api/v1/orders/export.csv', owner);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    expect((await ownerWrite()).json()).toMatchObject({ code: 'STORE_READ_ONLY' });
    // The whole-store export the closing banner offers starts, through the API and the dashboard's form.
    const archive = await api('/api/v1/store/archive/exports', owner, 'POST', {});
    expect(archive.statusCode, archive.body).toBe(200);
    expect(archive.json().data.jobId).toBeTruthy();
    const form = await t.app.inject({
      method: 'POST',
      url: '/manage-store/settings/export',
      headers: {
        host: GARDEN,
        origin: `http://${GARDEN}`,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: owner.cookie,
      },
      payload: new URLSearchParams({ _csrf: owner['x-csrf-token'] }).toString(),
    });
    // 202: the export under way answered; a read-only refusal would be a 409.
    expect(form.statusCode, form.body.slice(0, 300)).toBe(202);
    const dash = await page('/manage-store', owner);
    expect(dash.statusCode).toBe(200);
    expect(dash.body).toContain('Your store is closing');
    await t.services.jobs.drain({ dueWithinMs: 0 });
    expect(mailAbout('approved')).toMatchObject({ to: 'owner@garden.test' });

    // Before its date the close job leaves the store closing; after it, the store is closed.
    const ctx = systemContext(
      { tenantId: 'garden', productStoreId: '9001', hostName: GARDEN, viaDevAlias: false, origin: `http://${GARDEN}` },
      'test',
    );
    expect((await t.services.jobs.latest(ctx, CLOSE_STORE_JOB))?.status).toBe('pending');
    expect(await t.services.cancelRequests.closeIfDue('garden')).toBe(false);
    await db()
      .update(schema.storeLifecycle)
      .set({ closesAt: new Date(Date.now() - 1000) })
      .where(eq(schema.storeLifecycle.tenantId, 'garden'));
    await db()
      .update(schema.jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(and(eq(schema.jobs.tenantId, 'garden'), eq(schema.jobs.type, CLOSE_STORE_JOB)));
    life().invalidate('garden');
    await t.services.jobs.drain({ dueWithinMs: 0 });
    expect(await life().stateOf('garden')).toBe('closed');
    const [request] = await db()
      .select()
      .from(schema.cancelRequests)
      .where(eq(schema.cancelRequests.tenantId, 'garden'));
    expect(request?.status).toBe('closed');
    expect((await life().history('garden')).at(-1)).toMatchObject({
      from: 'closing',
      to: 'closed',
      actor: { kind: 'system', name: 'closing-sweep' },
    });
    // Run again (a retry): nothing more happens.
    expect(await t.services.cancelRequests.closeIfDue('garden')).toBe(false);

    // Closed: nothing but its closed page; signing in is refused with a clear message.
    const signIn = await login();
    expect(signIn.statusCode).toBe(410);
    expect(signIn.json().message).toContain('no longer be signed in');
    expect((await ownerRead()).statusCode).toBe(410);
    for (const url of ['/', '/auth/login', '/manage-store']) {
      const closed = await page(url, owner);
      expect(closed.statusCode).toBe(410);
      expect(closed.body).toContain('Fernwood Garden Supply is closed.');
      expect(closed.body).not.toContain('Store owner? Sign in');
    }
  });
});

describe('a purged store', () => {
  afterAll(() => force('active', 'power'));

  it('answers as an unknown store', async () => {
    await force('closed', 'power');
    await move('purged', 'Retention period over.', 'power');
    const res = await t.app.inject({ url: `${B}/public/ecommerce/categories`, headers: { host: 'power.localhost' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'TENANT_NOT_FOUND' });
    const home = await t.app.inject({ url: '/', headers: { host: 'power.localhost' } });
    expect(home.body).toContain('Tenant is not setup.');
  });
});

describe('a store being set up', () => {
  afterAll(() => force('active', 'lighting'));

  it('is not open to shoppers yet, while its owner works in the dashboard', async () => {
    await force('provisioning', 'lighting');
    const res = await t.app.inject({ url: `${B}/public/ecommerce/categories`, headers: { host: LIGHTING } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'STORE_NOT_OPEN' });
    const home = await t.app.inject({ url: '/', headers: { host: LIGHTING } });
    expect(home.statusCode).toBe(503);
    expect(home.body).toContain('has not opened yet');
    const lightingOwner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const dash = await t.app.inject({ url: '/manage-store', headers: { host: LIGHTING, ...lightingOwner } });
    expect(dash.statusCode).toBe(200);
  });
});
