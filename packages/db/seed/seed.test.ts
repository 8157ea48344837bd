import { and, asc, count, eq, sql } from 'drizzle-orm';
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

  it('sells a few products of each store in variants, each with its own stock on the books', async () => {
    const db = database.db;
    // PGlite and node-postgres both answer { rows }; the client's type does not say so.
    const rows = async <T>(q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;
    const variants = await rows<{
      tenant_id: string;
      product_id: string;
      variant_id: string;
      title: string;
      sku: string;
      stock_quantity: number;
      enabled: boolean;
      images: number;
    }>(sql`
      SELECT v.tenant_id, v.product_id, v.variant_id, v.title, v.sku, v.stock_quantity, v.enabled,
        (SELECT count(*)::int FROM product_variant_images i WHERE i.tenant_id = v.tenant_id AND i.variant_id = v.variant_id) AS images
      FROM product_variants v
      WHERE v.title <> '' ORDER BY v.tenant_id, v.product_id, v.position`);
    const titles = (t: string, productId: string) =>
      variants.filter((v) => v.tenant_id === t && v.product_id === productId).map((v) => v.title);
    expect(titles('lighting', 'LGT-1005')).toEqual([
      'Brass / 2700 K',
      'Brass / 3000 K',
      'Black / 2700 K',
      'Black / 3000 K',
      'Opal / 2700 K',
    ]);
    expect(titles('garden', 'GRD-1057')).toEqual(['S', 'M', 'L']);
    expect(titles('power', 'PWR-1001')).toEqual(['2 Ah', '5 Ah']);
    for (const t of tenants) {
      const mine = variants.filter((v) => v.tenant_id === t);
      expect(new Set(mine.map((v) => v.product_id)).size, t).toBeGreaterThanOrEqual(2);
      expect(
        mine.some((v) => v.stock_quantity === 0 && v.enabled),
        `${t}: a sold-out variant`,
      ).toBe(true);
    }
    // Disabled: the macramé planter in L. Pictures: the pendant's finishes, one each.
    expect(variants.filter((v) => !v.enabled).map((v) => `${v.product_id} ${v.title}`)).toEqual(['GRD-1058 L']);
    expect(variants.filter((v) => v.images > 0).map((v) => v.images)).toEqual([1, 1, 1, 1, 1]);
    const swatches = await rows<{ label: string; swatch_color: string }>(sql`
      SELECT label, swatch_color FROM product_option_values WHERE swatch_color IS NOT NULL ORDER BY position`);
    expect(swatches.map((x) => x.label)).toEqual(['Brass', 'Black', 'Opal']);

    // The products' copy of their variants is what refreshProductRollup computes.
    const drift = await rows(sql`
      SELECT p.tenant_id, p.product_id FROM products p
      JOIN LATERAL (
        SELECT count(*)::int AS n, sum(v.stock_quantity)::int AS stock,
          coalesce(sum(v.stock_quantity) FILTER (WHERE v.enabled), 0)::int AS sellable,
          max(v.effective_price) FILTER (WHERE v.enabled) AS price_max,
          (array_agg(v.effective_price ORDER BY v.effective_price, v.position, v.variant_id) FILTER (WHERE v.enabled))[1] AS price,
          (array_agg(v.sku ORDER BY v.position, v.variant_id))[1] AS sku
        FROM product_variants v WHERE v.tenant_id = p.tenant_id AND v.product_id = p.product_id AND v.removed_at IS NULL
      ) g ON true
      WHERE (p.variant_count, p.stock_quantity, p.sellable_stock, p.price_max, p.effective_price, p.sku)
        IS DISTINCT FROM (g.n, g.stock, g.sellable, g.price_max, g.price, g.sku)`);
    expect(drift).toEqual([]);
    const [words] = await rows<{ variant_words: string }>(sql`
      SELECT variant_words FROM products WHERE tenant_id = 'lighting' AND product_id = 'LGT-1005'`);
    expect(words?.variant_words).toBe('Finish Brass Black Opal Colour temperature 2700 K 3000 K');

    // Every variant's stock is the sum of its movements; SKUs are the store's own.
    const books = await rows(sql`
      SELECT v.tenant_id, v.variant_id FROM product_variants v
      WHERE v.stock_quantity <> coalesce((SELECT sum(m.delta) FROM stock_movements m
        WHERE m.tenant_id = v.tenant_id AND m.variant_id = v.variant_id), 0)`);
    expect(books).toEqual([]);
    const [skus] = await rows<{ n: number; d: number }>(sql`
      SELECT count(*)::int AS n, count(DISTINCT (tenant_id, sku))::int AS d FROM product_variants`);
    expect(skus?.d).toBe(skus?.n);

    // Past orders of a product now sold in variants name the variant they bought, which exists.
    const lines = await rows<{ variant_title: string; sku: string; title: string | null }>(sql`
      SELECT l.variant_title, l.sku, v.title FROM order_lines l
      LEFT JOIN product_variants v ON v.tenant_id = l.tenant_id AND v.variant_id = l.variant_id
      WHERE l.tenant_id IN ('lighting', 'garden', 'power')`);
    expect(lines.filter((l) => l.title === null || l.title !== l.variant_title)).toEqual([]);
    expect(lines.some((l) => l.variant_title === '2 Ah')).toBe(true);
  });

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
