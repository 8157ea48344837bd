import { schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { systemContext } from '../../../lib/context';
import { transitionSeller } from '../seller/index';
import {
  captureResource,
  GARDEN,
  gardenOwner,
  issuesOf,
  LIGHTING,
  listIssues,
  ordersStaff,
  owner,
  paymentsStaff,
  paypal,
  resolveIssue,
  send,
  shopper,
  t,
  usePayPalWebhooksApp,
} from './paypal-webhooks-test-setup';

usePayPalWebhooksApp();

describe('seller events', () => {
  async function connect(tenantId: string, hostName: string) {
    const merchantId = paypal.addSeller({ trackingId: tenantId });
    const ctx = systemContext(
      { tenantId, productStoreId: '9001', hostName, viaDevAlias: false, origin: `http://${hostName}` },
      'test',
    );
    await t.database.db.transaction(async (tx) => {
      const moved = await transitionSeller(tx, ctx, 'connected', { merchantId });
      expect(moved.ok).toBe(true);
    });
    t.services.paymentAccounts.forget(tenantId);
    return merchantId;
  }

  it('consent revoked: the store no longer offers PayPal, at once', async () => {
    const merchantId = await connect('garden', GARDEN);
    expect((await t.services.paymentAccounts.forStore('garden'))?.merchantId).toBe(merchantId);
    const d = await send(paypal.consentRevokedEvent(merchantId));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('applied');
    expect(await t.services.paymentAccounts.forStore('garden')).toBeNull();
    const [seller] = await t.database.db
      .select()
      .from(schema.paypalSellers)
      .where(eq(schema.paypalSellers.tenantId, 'garden'));
    expect(seller).toMatchObject({ status: 'action_needed', reasons: ['CONSENT_REVOKED'] });
    const history = await t.database.db
      .select()
      .from(schema.paypalSellerHistory)
      .where(eq(schema.paypalSellerHistory.tenantId, 'garden'))
      .orderBy(asc(schema.paypalSellerHistory.id));
    expect(history.at(-1)).toMatchObject({ fromStatus: 'connected', toStatus: 'action_needed', actorKind: 'paypal' });
    // Replayed: nothing more.
    const again = await paypal.redeliver(d);
    expect(JSON.parse(again.responseBody).outcome).toBe('duplicate');
    expect(
      await t.database.db
        .select()
        .from(schema.paypalSellerHistory)
        .where(eq(schema.paypalSellerHistory.tenantId, 'garden')),
    ).toHaveLength(history.length);
  });

  it('onboarding completed confirms the seller with PayPal and connects the store, once', async () => {
    const merchantId = paypal.addSeller({ trackingId: 'power' });
    // The store started a sign-up: its seller row exists (pending).
    const ctx = systemContext(
      { tenantId: 'power', productStoreId: '9002', hostName: 'power.localhost', viaDevAlias: false, origin: '' },
      'test',
    );
    await t.database.db.transaction((tx) => transitionSeller(tx, ctx, 'pending'));
    const history = () =>
      t.database.db
        .select()
        .from(schema.paypalSellerHistory)
        .where(
          and(eq(schema.paypalSellerHistory.tenantId, 'power'), eq(schema.paypalSellerHistory.actorKind, 'paypal')),
        );
    const d = await send(paypal.onboardingCompletedEvent(merchantId));
    expect(d.status).toBe(200);
    const [seller] = await t.database.db
      .select()
      .from(schema.paypalSellers)
      .where(eq(schema.paypalSellers.tenantId, 'power'));
    expect(seller).toMatchObject({ status: 'connected', merchantId });
    expect(await history()).toEqual([
      expect.objectContaining({ fromStatus: 'pending', toStatus: 'connected', actorId: d.event.id }),
    ]);
    expect((await t.services.paymentAccounts.forStore('power'))?.merchantId).toBe(merchantId);
    // Redelivered: a duplicate, and PayPal is not asked again.
    const asked = paypal.requests.filter((r) => r.path.includes('/merchant-integrations/')).length;
    const again = await paypal.redeliver(d);
    expect(JSON.parse(again.responseBody).outcome).toBe('duplicate');
    expect(await history()).toHaveLength(1);
    expect(paypal.requests.filter((r) => r.path.includes('/merchant-integrations/')).length).toBe(asked);
  });
});

describe('payment issues API', () => {
  async function oneIssue() {
    await send(captureResource({ id: `CAPAPI${Date.now()}`, value: '3.00' }));
    const [issue] = await issuesOf('lighting');
    if (!issue) throw new Error('no issue');
    return issue;
  }

  it('the owner and staff with the payments permission list and resolve; others are refused', async () => {
    const issue = await oneIssue();
    expect((await listIssues(owner)).statusCode).toBe(200);
    expect((await listIssues(paymentsStaff)).json().data.items).toHaveLength(1);
    expect((await listIssues(ordersStaff)).statusCode).toBe(403);
    expect((await listIssues(shopper)).statusCode).toBe(403);
    const visitor = await listIssues({});
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ error: true, code: 'UNAUTHENTICATED' });
    expect((await resolveIssue(ordersStaff, issue.issueId, { note: 'x' })).statusCode).toBe(403);
    expect((await resolveIssue(shopper, issue.issueId, { note: 'x' })).statusCode).toBe(403);

    const empty = await resolveIssue(owner, issue.issueId, { note: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.join(' ')).toContain('note');
    // Another store's owner: as if it did not exist.
    const other = await resolveIssue(gardenOwner, issue.issueId, { note: 'not mine' }, GARDEN);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toMatch(/\.ts:\d+/);

    const done = await resolveIssue(paymentsStaff, issue.issueId, { note: 'Refunded in PayPal' });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'resolved', resolution: 'Refunded in PayPal' });
    expect((await listIssues(owner)).json().data).toMatchObject({ items: [], openCount: 0 });
    const resolved = await listIssues(owner, LIGHTING, '?status=resolved');
    expect(resolved.json().data.items).toEqual([expect.objectContaining({ issueId: issue.issueId })]);
    const audit = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.entity, 'payment_issue'), eq(schema.auditLog.entityId, issue.issueId)));
    expect(audit).toEqual([expect.objectContaining({ tenantId: 'lighting', action: 'resolve' })]);
    // Resolving again changes nothing and writes no second entry.
    expect((await resolveIssue(owner, issue.issueId, { note: 'again' })).json().data.resolution).toBe(
      'Refunded in PayPal',
    );
    expect(
      await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.entityId, issue.issueId)),
    ).toHaveLength(1);
  });

  it('refuses a bad status filter and a foreign cursor by naming the field', async () => {
    const bad = await listIssues(owner, LIGHTING, '?status=all');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.join(' ')).toContain('status');
    const cursor = await listIssues(owner, LIGHTING, '?cursor=nonsense');
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().errors.join(' ')).toContain('cursor');
  });
});
