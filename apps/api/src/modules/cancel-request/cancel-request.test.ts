import { schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import type { AppEvents } from '../../lib/events/index';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import type { MailMessage } from '../mail/index';
import { CANCEL_REQUEST_TRANSITIONS, transitionCancelRequest } from './index';

const GARDEN = SEEDED_HOSTS.garden.host;
const LIGHTING = SEEDED_HOSTS.lighting.host;
const sent: MailMessage[] = [];
const seen: AppEvents['cancel_request.transitioned'][] = [];
let t: TestApp;
let owner: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({
    mailer: {
      async send(m) {
        sent.push(m);
      },
      close() {},
    },
  });
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  t.services.events.on('cancel_request.transitioned', (p) => {
    seen.push(p);
  });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.services.jobs.drain();
  sent.length = 0;
  seen.length = 0;
  await t.database.db.delete(schema.cancelRequestHistory);
  await t.database.db.delete(schema.cancelRequests);
});

const patch = (path: string, body: unknown, headers: Record<string, string> = {}, host = GARDEN) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/tenant/cancel_request/${path}`,
    headers: { host, origin: `http://${host}`, ...headers },
    ...(body === undefined ? {} : { payload: body as object }),
  });
const initiate = (reason: unknown, headers: Record<string, string> = owner, id = 'garden') =>
  patch(`${id}/initiate`, reason === undefined ? {} : { cancelRequestReason: reason }, headers);
const withdraw = (headers: Record<string, string> = owner, id = 'garden') =>
  patch(`${id}/withdraw`, undefined, headers);
const fetchTenant = (host = GARDEN, tenantId = 'garden') =>
  t.app.inject({ method: 'GET', url: `/api/fetch/tenant?tenantId=${tenantId}`, headers: { host } });
const history = () =>
  t.database.db
    .select()
    .from(schema.cancelRequestHistory)
    .where(eq(schema.cancelRequestHistory.tenantId, 'garden'))
    .orderBy(asc(schema.cancelRequestHistory.seq));
const audits = () =>
  t.database.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, 'garden'), eq(schema.auditLog.entity, 'cancel_request')))
    .orderBy(asc(schema.auditLog.id));

describe('PATCH /api/tenant/cancel_request/{id}/initiate and /withdraw', () => {
  it('files a request, mails the owner, audits, emits, and GET /api/fetch/tenant reports the state; withdrawing moves it on', async () => {
    const before = (await fetchTenant()).json().data;
    expect(before.cancelRequest).toEqual({ status: 'none', requestedAt: null, updatedAt: null });

    const res = await initiate('  Moving to another platform.  ');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      tenantId: 'garden',
      status: 'requested',
      reason: 'Moving to another platform.',
      requestedAt: expect.any(String),
      canInitiate: false,
      canWithdraw: true,
    });
    const after = (await fetchTenant()).json().data;
    // Anyone may see the state; the reason stays with the owner.
    expect(after.cancelRequest).toMatchObject({ status: 'requested', requestedAt: expect.any(String) });
    expect(JSON.stringify(after)).not.toContain('Moving to another platform');

    await t.services.jobs.drain();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'owner@garden.test', subject: expect.stringContaining('request to cancel') });
    expect(sent[0]?.text).toContain('Moving to another platform.');
    expect(seen).toEqual([{ tenantId: 'garden', from: 'none', to: 'requested' }]);

    const w = await withdraw();
    expect(w.statusCode).toBe(200);
    expect(w.json().data).toMatchObject({ status: 'withdrawn', canInitiate: true, canWithdraw: false });
    expect((await fetchTenant()).json().data.cancelRequest.status).toBe('withdrawn');
    await t.services.jobs.drain();
    expect(sent[1]).toMatchObject({ to: 'owner@garden.test', subject: expect.stringContaining('withdrawn') });
    expect(seen[1]).toEqual({ tenantId: 'garden', from: 'requested', to: 'withdrawn' });

    // Filed again after a withdrawal: requested once more.
    expect((await initiate('Changed my mind again.')).json().data.status).toBe('requested');

    expect((await history()).map((h) => [h.fromStatus, h.status, h.actorKind])).toEqual([
      ['none', 'requested', 'staff'],
      ['requested', 'withdrawn', 'staff'],
      ['withdrawn', 'requested', 'staff'],
    ]);
    const entries = (await audits()).slice(-3);
    expect(entries.map((e) => e.action)).toEqual(['initiate', 'withdraw', 'initiate']);
    expect(entries[0]?.changes).toMatchObject({
      status: { before: 'none', after: 'requested' },
      reason: { after: 'Moving to another platform.' },
    });
  });

  it('refuses a transition the state machine does not allow with 409, changing nothing', async () => {
    // The audit log is append-only: count what this test adds.
    const audited = (await audits()).length;
    const w = await withdraw();
    expect(w.statusCode).toBe(409);
    expect(w.json()).toMatchObject({ code: 'INVALID_TRANSITION' });
    expect(await initiate('First.')).toHaveProperty('statusCode', 200);
    const again = await initiate('Second.');
    expect(again.statusCode).toBe(409);
    expect((await history()).length).toBe(1);
    expect((await audits()).length).toBe(audited + 1);
  });

  it('validates the reason: required, trimmed, at most 1000 characters, no other fields', async () => {
    for (const body of [undefined, '', '    ', 'x'.repeat(1001), 42]) {
      const res = await initiate(body);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('cancelRequestReason');
    }
    const extra = await patch('garden/initiate', { cancelRequestReason: 'Fine.', other: 1 }, owner);
    expect(extra.statusCode).toBe(400);
    expect((await initiate('x'.repeat(1000))).statusCode).toBe(200);
    expect(await history()).toHaveLength(1);
  });

  it('is the owner’s only: 401 visitor, 403 shopper and staff (even with settings), 404 for another tenant’s id', async () => {
    expect((await initiate('Why not.', {})).statusCode).toBe(401);
    expect((await withdraw({})).statusCode).toBe(401);
    const shopper = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN);
    expect((await initiate('Why not.', shopper)).statusCode).toBe(403);
    await createStaff(t.database, 'garden', 'settings.staff2@garden.test', ['settings']);
    const staff = await signIn(t.app, 'settings.staff2@garden.test', 'owner-demo-1', GARDEN);
    const refused = await initiate('Why not.', staff);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('store owner');
    expect((await initiate('Why not.', owner, 'lighting')).statusCode).toBe(404);
    expect((await withdraw(owner, 'lighting')).statusCode).toBe(404);
    const lightingOwner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    expect((await initiate('Why not.', lightingOwner)).statusCode).toBe(401);
    // Lighting's own request is untouched by all of this.
    const lighting = await t.database.db
      .select()
      .from(schema.cancelRequests)
      .where(eq(schema.cancelRequests.tenantId, 'lighting'));
    expect(lighting).toHaveLength(0);
    expect(await history()).toHaveLength(0);
    expect(sent).toHaveLength(0);
  });
});

describe('transitionCancelRequest', () => {
  it('follows the table, for the platform too (approved, closed), and refuses a stale `from`', async () => {
    const ctx = systemContext(
      { tenantId: 'garden', productStoreId: '9001', hostName: GARDEN, origin: `http://${GARDEN}`, viaDevAlias: false },
      'platform-test',
    );
    expect(CANCEL_REQUEST_TRANSITIONS.closed).toEqual([]);
    const step = (to: 'requested' | 'approved' | 'closed' | 'withdrawn', from?: 'requested') =>
      t.database.db.transaction((tx) => transitionCancelRequest(tx, ctx, to, from ? { from } : {}));
    expect(await step('approved')).toMatchObject({ ok: false, from: 'none', to: 'approved' });
    expect(await step('requested')).toMatchObject({ ok: true, from: 'none' });
    expect(await step('approved')).toMatchObject({ ok: true, from: 'requested' });
    expect(await step('closed', 'requested')).toMatchObject({ ok: false, from: 'approved' });
    expect(await step('closed')).toMatchObject({ ok: true, from: 'approved' });
    expect(await step('requested')).toMatchObject({ ok: false, from: 'closed' });
    expect((await history()).map((h) => [h.status, h.actorKind, h.actorId])).toEqual([
      ['requested', 'system', 'platform-test'],
      ['approved', 'system', 'platform-test'],
      ['closed', 'system', 'platform-test'],
    ]);
    // The owner cannot withdraw once the platform has approved.
    expect((await withdraw()).statusCode).toBe(409);
  });
});
