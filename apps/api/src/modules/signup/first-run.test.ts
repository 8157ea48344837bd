import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type RequestContext } from '../../lib/context';
import { createTestApp, type TestApp } from '../../test/harness';

// The first-run checklist of a store sign-up opened (decision 103): every tick read from the
// store's state; none for the seeded stores, nor for staff.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ modules: ['signup', 'product-admin'] });
});
afterAll(() => t.close());

const role = (tenantId: string, productStoreId: string, host: string, r: 'admin' | 'staff'): RequestContext => ({
  tenantId,
  productStoreId,
  hostName: host,
  viaDevAlias: false,
  origin: `http://${host}`,
  actor: {
    kind: 'staff',
    role: r,
    permissions: new Set(PERMISSIONS),
    userId: `U-${r}`,
    firstName: 'Olivia',
    userLoginId: `${r}@example.com`,
    session: { token: 'x', via: 'cookie' },
  },
  requestId: 'first-run-test',
  ip: null,
});

async function newStore(subdomain: string, starter: 'empty' | 'demo' = 'empty') {
  const opened = await t.services.provisionStore({
    storeName: 'Checklist Shop',
    subdomain,
    owner: { email: `${subdomain}@example.com`, passwordHash: null },
    template: 'DEFAULT',
    starter,
    actor: { kind: 'system', name: 'test' },
    reason: 'test',
    idempotencyKey: `first-run:${subdomain}`,
  });
  if (!opened.ok) throw new Error(opened.message);
  return role(opened.value.tenantId, opened.value.productStoreId, opened.value.host, 'admin');
}

const ticks = async (ctx: RequestContext) =>
  Object.fromEntries((await t.services.firstRun.checklist(ctx))?.items.map((i) => [i.id, i.done]) ?? []);

describe('first-run checklist', () => {
  it('starts with nothing done, even with the demo catalog, and ticks from what the owner does', async () => {
    const owner = await newStore('checklist-demo', 'demo');
    expect(await ticks(owner)).toEqual({ product: false, look: false, payments: false, live: false });

    await t.database.db.insert(schema.products).values({
      tenantId: owner.tenantId,
      productId: 'P-OWN-1',
      sku: 'OWN-1',
      productName: 'My own candle',
      slug: 'my-own-candle',
      listPrice: 1200,
    });
    await t.database.db
      .update(schema.storeSettings)
      .set({ colorPrimary: '10, 20, 30', updatedAt: new Date(Date.now() + 5_000) })
      .where(eq(schema.storeSettings.tenantId, owner.tenantId));
    await t.services.firstRun.goLive(owner);
    expect(await ticks(owner)).toEqual({ product: true, look: true, payments: false, live: true });
    // The store's own Stripe keys are a way to be paid, with or without the platform's PayPal.
    await t.database.db
      .insert(schema.stripeAccounts)
      .values({ tenantId: owner.tenantId, secretKeySealed: 'sealed', keyHint: 'sk_test_…1234' });
    expect((await ticks(owner)).payments).toBe(true);
    const [tenant] = await t.database.db
      .select()
      .from(schema.tenants)
      .where(eq(schema.tenants.tenantId, owner.tenantId));
    expect(tenant?.accessMode).toBe('public');
  });

  it('is the owner’s only, and gone once put away', async () => {
    const owner = await newStore('checklist-away');
    const staff = { ...owner, actor: { ...owner.actor, role: 'staff' } } as RequestContext;
    expect(await t.services.firstRun.checklist(staff)).toBeNull();
    expect(await t.services.firstRun.checklist(owner)).not.toBeNull();
    await t.services.firstRun.dismiss(owner);
    expect(await t.services.firstRun.checklist(owner)).toBeNull();
  });

  it('is not shown on the seeded stores, which were never opened by sign-up', async () => {
    expect(await t.services.firstRun.checklist(role('lighting', '9000', 'lighting.localhost', 'admin'))).toBeNull();
  });
});
