import { SELLER_STATUSES, type SellerStatus } from '@app/contracts';
import { type Database, schema } from '@app/db';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../../lib/context';
import { openTestDatabase } from '../../../test/harness';
import { lockSeller, SELLER_TRANSITIONS, trackingIdFor, transitionSeller } from './seller-state';

// The seller state machine (decision 049) on a real database: the one writer of paypal_sellers.status.
let database: Database;
const tenant = (tenantId: string) => ({
  tenantId,
  productStoreId: '1',
  hostName: `${tenantId}.localhost`,
  viaDevAlias: false,
  origin: `http://${tenantId}.localhost`,
});
const owner = (tenantId: string): RequestContext => ({
  ...tenant(tenantId),
  actor: {
    kind: 'staff',
    role: 'admin',
    permissions: new Set(),
    userId: `owner-${tenantId}`,
    firstName: 'Owner',
    userLoginId: `owner@${tenantId}.test`,
    session: { token: 't', via: 'cookie' },
  },
  requestId: 'r1',
  ip: null,
});

beforeAll(async () => {
  database = await openTestDatabase();
  for (const id of ['shop-a', 'shop-b']) {
    await database.db.execute(sql`INSERT INTO tenants (tenant_id, name) VALUES (${id}, ${id}) ON CONFLICT DO NOTHING`);
  }
});
afterAll(async () => database?.close());
beforeEach(async () => {
  await database.db.delete(schema.paypalSellerHistory);
  await database.db.delete(schema.paypalSellers);
});

const move = (ctx: RequestContext, to: SellerStatus, change = {}) =>
  database.db.transaction((tx) => transitionSeller(tx, ctx, to, change));
/** Puts shop-a's seller in `status` (through allowed moves) and returns nothing. */
async function reach(status: SellerStatus) {
  if (status === 'not_started') return;
  const path: Record<Exclude<SellerStatus, 'not_started'>, SellerStatus[]> = {
    pending: ['pending'],
    action_needed: ['action_needed'],
    connected: ['connected'],
    disconnected: ['connected', 'disconnected'],
  };
  for (const step of path[status]) {
    const r = await move(owner('shop-a'), step, step === 'connected' ? { merchantId: 'MERCHANTA0001' } : {});
    expect(r.ok).toBe(true);
  }
}

describe('transitionSeller', () => {
  it('creates the row as not_started with the store as tracking id', async () => {
    const row = await database.db.transaction((tx) => lockSeller(tx, 'shop-a'));
    expect(row).toMatchObject({ tenantId: 'shop-a', status: 'not_started', trackingId: trackingIdFor('shop-a') });
    expect(trackingIdFor('shop-a')).toBe('shop-a');
  });

  it('follows the transitions table exactly: every allowed move succeeds, every other is refused', async () => {
    for (const from of SELLER_STATUSES) {
      for (const to of SELLER_STATUSES) {
        await database.db.delete(schema.paypalSellerHistory);
        await database.db.delete(schema.paypalSellers);
        await reach(from);
        const r = await move(owner('shop-a'), to);
        const allowed = SELLER_TRANSITIONS[from].includes(to);
        expect(r.ok, `${from} -> ${to}`).toBe(allowed);
        const [row] = await database.db
          .select()
          .from(schema.paypalSellers)
          .where(eq(schema.paypalSellers.tenantId, 'shop-a'));
        expect(row?.status, `${from} -> ${to}`).toBe(allowed ? to : from);
        if (!r.ok) {
          expect(r).toMatchObject({ code: 'INVALID_TRANSITION', from, to });
          expect(r.message).toMatch(/cannot become/);
        }
      }
    }
  });

  it('writes history with who moved it; connected sets connectedAt and clears reasons; disconnected clears it', async () => {
    const a = owner('shop-a');
    await move(a, 'pending', { actionUrl: 'https://paypal.example/x', note: 'connect' });
    await move(a, 'action_needed', { reasons: ['EMAIL_NOT_CONFIRMED'], actor: { kind: 'paypal', id: 'WH-1' } });
    const connected = await move(a, 'connected', { merchantId: 'MERCHANTA0001' });
    expect(connected.ok && connected.seller.connectedAt).toBeTruthy();
    expect(connected.ok && connected.seller.reasons).toEqual([]);
    const off = await move(systemContext(tenant('shop-a'), 'sweep'), 'disconnected');
    expect(off.ok && off.seller.connectedAt).toBeNull();
    const history = await database.db
      .select()
      .from(schema.paypalSellerHistory)
      .where(eq(schema.paypalSellerHistory.tenantId, 'shop-a'))
      .orderBy(asc(schema.paypalSellerHistory.id));
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.actorKind, h.actorId])).toEqual([
      ['not_started', 'pending', 'owner', 'owner-shop-a'],
      ['pending', 'action_needed', 'paypal', 'WH-1'],
      ['action_needed', 'connected', 'owner', 'owner-shop-a'],
      ['connected', 'disconnected', 'system', 'sweep'],
    ]);
    expect(history[1]?.reasons).toEqual(['EMAIL_NOT_CONFIRMED']);
    expect(history[2]?.merchantId).toBe('MERCHANTA0001');
    expect(history[0]?.note).toBe('connect');
  });

  it("touches only the context's store", async () => {
    await move(owner('shop-a'), 'connected', { merchantId: 'MERCHANTA0001' });
    await move(owner('shop-b'), 'pending');
    const rows = await database.db.select().from(schema.paypalSellers).orderBy(asc(schema.paypalSellers.tenantId));
    expect(rows.map((r) => [r.tenantId, r.status])).toEqual([
      ['shop-a', 'connected'],
      ['shop-b', 'pending'],
    ]);
  });

  it('one PayPal seller belongs to one store at a time', async () => {
    await move(owner('shop-a'), 'connected', { merchantId: 'MERCHANTA0001' });
    await expect(move(owner('shop-b'), 'connected', { merchantId: 'MERCHANTA0001' })).rejects.toThrow();
    // Once shop-a disconnected, the seller may connect to shop-b.
    await move(owner('shop-a'), 'disconnected');
    expect((await move(owner('shop-b'), 'connected', { merchantId: 'MERCHANTA0001' })).ok).toBe(true);
  });

  it('concurrent moves of one store are serialised by the row lock', async () => {
    await move(owner('shop-a'), 'pending');
    const results = await Promise.all([
      move(owner('shop-a'), 'connected', { merchantId: 'MERCHANTA0001' }),
      move(owner('shop-a'), 'not_started'),
    ]);
    // Whichever ran second saw the first one's state: both cannot have moved from pending.
    const froms = results.filter((r) => r.ok).map((r) => (r.ok ? r.from : null));
    expect(froms.filter((f) => f === 'pending').length).toBe(1);
  });
});
