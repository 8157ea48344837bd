import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/client';
import { verifyPassword } from '../src/password';
import * as s from '../src/schema/index';
import { openTestDatabase } from '../src/testing';
import { SEED_STORES, SEED_USERS, seedDatabase } from './index';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  expect(await seedDatabase(database.db)).toMatchObject({ seeded: true });
});
afterAll(async () => {
  await database.close();
});

const tenants = SEED_STORES.map((x) => x.tenantId);

async function countOf(table: typeof s.products | typeof s.categories | typeof s.faqs | typeof s.banners, t: string) {
  const [row] = await database.db.select({ n: count() }).from(table).where(eq(table.tenantId, t));
  return row?.n ?? 0;
}

/** Everything a shopper can see of a store, in a stable order: equal dumps mean equal stores. */
async function dump(t: string) {
  const db = database.db;
  return {
    products: await db.select().from(s.products).where(eq(s.products.tenantId, t)).orderBy(asc(s.products.productId)),
    categories: await db
      .select()
      .from(s.categories)
      .where(eq(s.categories.tenantId, t))
      .orderBy(asc(s.categories.productCategoryId)),
    pages: (await db.select().from(s.cmsPages).where(eq(s.cmsPages.tenantId, t)).orderBy(asc(s.cmsPages.pageId))).map(
      ({ updatedAt: _, ...p }) => p,
    ),
    settings: (await db.select().from(s.storeSettings).where(eq(s.storeSettings.tenantId, t))).map(
      ({ updatedAt: _, ...p }) => p,
    ),

    orders: await db.select().from(s.orders).where(eq(s.orders.tenantId, t)).orderBy(asc(s.orders.orderId)),
    returns: await db
      .select()
      .from(s.returnRequests)
      .where(eq(s.returnRequests.tenantId, t))
      .orderBy(asc(s.returnRequests.returnId)),
  };
}

describe('seeded demo stores', () => {
  it.each(tenants)(
    '%s is a believable shop: catalogs, 12+ categories, 80+ products, pages, banners, FAQs',
    async (t) => {
      const catalogs = await database.db.select().from(s.catalogs).where(eq(s.catalogs.tenantId, t));
      expect(catalogs.length).toBeGreaterThanOrEqual(t === 'power' ? 6 : 2);
      expect(await countOf(s.categories, t)).toBeGreaterThanOrEqual(12);
      expect(await countOf(s.products, t)).toBeGreaterThanOrEqual(80);
      expect(await countOf(s.banners, t)).toBeGreaterThanOrEqual(2);
      expect(await countOf(s.faqs, t)).toBeGreaterThanOrEqual(6);

      const products = await database.db.select().from(s.products).where(eq(s.products.tenantId, t));
      expect(products.some((p) => p.stockQuantity === 0)).toBe(true);
      expect(products.some((p) => p.salePrice !== null && p.salePrice < p.listPrice)).toBe(true);
      expect(products.every((p) => p.listPrice > 0 && Number.isInteger(p.listPrice))).toBe(true);
      // Every product has a picture: a demo shop should not show the no-image placeholder.
      expect(products.filter((p) => !p.smallImageUrl && !p.mediumImageUrl && !p.detailImageUrl)).toEqual([]);
      // Pictures are made locally and served by our own media route: no external URLs.
      for (const p of products) {
        for (const u of [p.smallImageUrl, p.mediumImageUrl, p.detailImageUrl]) {
          if (u) expect(u.startsWith(`/media/seed/${t}/products/`)).toBe(true);
        }
      }
      expect(new Set(products.map((p) => p.slug)).size).toBe(products.length);

      const pages = await database.db.select().from(s.cmsPages).where(eq(s.cmsPages.tenantId, t));
      for (const flag of ['TOP', 'MENU', 'BOTTOM', 'FOOTER'])
        expect(pages.some((p) => p.pageLinks.includes(flag))).toBe(true);
      expect(pages.some((p) => p.pageLinks.includes('BOTTOM') && p.pageTitle === p.pageTitle.toLowerCase())).toBe(true);

      const categories = await database.db.select().from(s.categories).where(eq(s.categories.tenantId, t));
      expect(categories.some((c) => c.linkTwoImageUrl)).toBe(true);
      expect(categories.some((c) => !c.linkTwoImageUrl && c.linkTwoImageUrlS3)).toBe(true);
      expect(categories.filter((c) => !c.linkTwoImageUrl && !c.linkTwoImageUrlS3)).toEqual([]);
      const rollups = await database.db.select().from(s.categoryRollups).where(eq(s.categoryRollups.tenantId, t));
      expect(rollups.length).toBeGreaterThan(0);

      const [settings] = await database.db.select().from(s.storeSettings).where(eq(s.storeSettings.tenantId, t));
      expect(settings?.chatWidgetId).toBeNull();
    },
  );

  it('gives each store its own template, palette and footer data', async () => {
    const all = await database.db.select().from(s.storeSettings).orderBy(asc(s.storeSettings.productStoreId));
    const [lighting, garden, power] = all;
    expect([lighting?.template, garden?.template, power?.template]).toEqual(['DEFAULT', 'ONE', 'DEFAULT']);
    expect(garden?.newsletterEmbed).toContain('<form');
    expect(power?.colorPrimary).not.toBe(lighting?.colorPrimary);
    expect(power?.address1).toBeNull();
    expect(power?.contactNumber).toBeNull();
    expect(power?.promotionTitle).toBeNull();
    expect(lighting?.promotionTitle).toBeTruthy();
  });

  it('creates an owner (admin) and a shopper per store with the README passwords', async () => {
    for (const u of SEED_USERS) {
      const [row] = await database.db
        .select()
        .from(s.users)
        .where(and(eq(s.users.tenantId, u.tenantId), eq(s.users.email, u.email)));
      expect(row?.role).toBe(u.role);
      expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);
      expect(await verifyPassword(row?.passwordHash ?? '', u.password)).toBe(true);
    }
    expect(SEED_USERS.map((u) => u.email)).toContain('owner@lighting.test');
  });

  it('gives every demo account past orders: delivered, completed, paid and cancelled, with their history', async () => {
    for (const u of SEED_USERS) {
      const orders = await database.db
        .select()
        .from(s.orders)
        .where(and(eq(s.orders.tenantId, u.tenantId), eq(s.orders.userId, u.userId)))
        .orderBy(asc(s.orders.orderId));
      const prefix = `${u.tenantId.slice(0, 3).toUpperCase()}-DEMO-${u.role === 'admin' ? 'O' : 'S'}`;
      expect(orders.map((o) => [o.orderId, o.status])).toEqual([
        [`${prefix}1`, 'delivered'],
        [`${prefix}2`, 'completed'],
        [`${prefix}3`, 'paid'],
        [`${prefix}4`, 'cancelled'],
      ]);
      for (const o of orders) {
        expect(o.grandTotal).toBe(o.subtotal - o.discount + o.shippingTotal + o.taxTotal);
        const history = await database.db
          .select()
          .from(s.orderStatusHistory)
          .where(and(eq(s.orderStatusHistory.tenantId, u.tenantId), eq(s.orderStatusHistory.orderId, o.orderId)))
          .orderBy(asc(s.orderStatusHistory.seq));
        expect(history[0]?.status).toBe('placed');
        expect(history.at(-1)?.status).toBe(o.status);
      }
    }
  });

  it('makes each demo account before its first order ("Customer since" precedes the orders)', async () => {
    for (const u of SEED_USERS) {
      const [user] = await database.db
        .select({ createdAt: s.users.createdAt, emailConfirmedAt: s.users.emailConfirmedAt })
        .from(s.users)
        .where(and(eq(s.users.tenantId, u.tenantId), eq(s.users.userId, u.userId)));
      const [first] = await database.db
        .select({ placedAt: s.orders.placedAt })
        .from(s.orders)
        .where(and(eq(s.orders.tenantId, u.tenantId), eq(s.orders.userId, u.userId)))
        .orderBy(asc(s.orders.placedAt))
        .limit(1);
      expect(first).toBeDefined();
      expect(user?.createdAt.getTime()).toBeLessThan(first?.placedAt.getTime() ?? 0);
      expect(user?.emailConfirmedAt?.getTime()).toBeLessThan(first?.placedAt.getTime() ?? 0);
    }
  });

  it('does nothing on a database that already has stores, and reseeds identically when forced', async () => {
    const before = await Promise.all(tenants.map(dump));
    await database.db
      .update(s.products)
      .set({ productName: 'Changed by the owner' })
      .where(and(eq(s.products.tenantId, 'lighting'), eq(s.products.productId, 'LGT-1001')));
    expect(await seedDatabase(database.db)).toEqual({ seeded: false });
    const [kept] = await database.db
      .select({ name: s.products.productName })
      .from(s.products)
      .where(and(eq(s.products.tenantId, 'lighting'), eq(s.products.productId, 'LGT-1001')));
    expect(kept?.name).toBe('Changed by the owner');

    expect(await seedDatabase(database.db, { force: true })).toMatchObject({ seeded: true });
    expect(await Promise.all(tenants.map(dump))).toEqual(before);
  });
});
