import { fileURLToPath } from 'node:url';
import { type ProductFields, productFieldsSchema } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../lib/context';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import { setTestStock } from '../../test/stock';
import { createAuditService } from '../audit/index';
import { writeProduct } from './admin/index';

// Only ACTIVE products reach shoppers, on every read path; the owner previews a draft.
// The product pages need the web build (npm run build -w @app/web), as the other page tests.

const HOST = SEEDED_HOSTS.power.host;
const B = '/skulocity/api/v1/public/ecommerce';
let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let ordersStaff: BrowserSession;
let categoryId = '';
/** The products this file makes, by role. */
const id = { active: '', draft: '', archived: '', later: '' };

const ownerCtx: RequestContext = {
  tenantId: 'power',
  productStoreId: SEEDED_HOSTS.power.storeId,
  hostName: HOST,
  viaDevAlias: false,
  origin: `http://${HOST}`,
  requestId: 'status-test',
  ip: null,
  actor: {
    kind: 'staff',
    role: 'admin',
    permissions: new Set(),
    userId: 'owner-power',
    firstName: 'Owner',
    userLoginId: 'owner@power.test',
    session: { token: 'x', via: 'cookie' },
  },
};

async function write(fields: Partial<ProductFields>, productId?: string): Promise<string> {
  const parsed = productFieldsSchema.parse({
    productName: 'x',
    sku: 'x',
    listPrice: 1000,
    status: 'ACTIVE',
    ...fields,
  });
  const result = await t.database.db.transaction((tx) =>
    writeProduct(tx, ownerCtx, { audit: createAuditService(t.database.db) }, { productId, fields: parsed }),
  );
  if (!result.ok) throw new Error(result.message);
  // As the editor does: the storefront follows after the commit.
  t.services.events.emit('catalog.changed', { tenantId: 'power', productIds: [result.productId] });
  return result.productId;
}

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { host: HOST, origin: `http://${HOST}`, ...headers }, payload });
const dataOf = async (url: string, headers: Record<string, string> = {}) => {
  const res = await get(url, headers);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.json().data;
};
const ids = (list: { productId: string }[]) => list.map((p) => p.productId);

beforeAll(async () => {
  t = await createTestApp({ webBuildDir: fileURLToPath(new URL('../../../../web/build', import.meta.url)) });
  await createStaff(t.database, 'power', 'cat-staff@power.test', ['catalog']);
  await createStaff(t.database, 'power', 'ord-staff@power.test', ['orders']);
  owner = await signIn(t.app, 'owner@power.test', 'owner-demo-1', HOST);
  shopper = await signIn(t.app, 'shopper@power.test', 'shopper-demo-1', HOST);
  catalogStaff = await signIn(t.app, 'cat-staff@power.test', 'owner-demo-1', HOST);
  ordersStaff = await signIn(t.app, 'ord-staff@power.test', 'owner-demo-1', HOST);
  const [cat] = await t.database.db
    .select()
    .from(schema.categories)
    .where(eq(schema.categories.tenantId, 'power'))
    .limit(1);
  categoryId = cat?.productCategoryId as string;
  const common = { categoryIds: [categoryId], isFeatured: true, listPrice: 1999 };
  id.active = await write({ ...common, productName: 'Velvetine Status Drill', sku: 'ST-ACTIVE' });
  id.draft = await write({ ...common, productName: 'Velvetine Status Saw', sku: 'ST-DRAFT', status: 'DRAFT' });
  id.archived = await write({ ...common, productName: 'Velvetine Status Sander', sku: 'ST-ARCH', status: 'ARCHIVED' });
  id.later = await write({ ...common, productName: 'Velvetine Status Router', sku: 'ST-LATER' });
  await setTestStock(t.database.db, 20, { tenantId: 'power' });
  t.services.events.emit('catalog.changed', { tenantId: 'power' });
  // Related products: the active one lists all three others.
  await t.database.db.insert(schema.productAssociations).values(
    [id.draft, id.archived, id.later].map((related, i) => ({
      tenantId: 'power',
      productId: id.active,
      relatedProductId: related,
      assocType: 'RELATED' as const,
      sequenceNum: i,
    })),
  );
});
afterAll(() => t?.close());

describe('shoppers see ACTIVE products only', () => {
  it('in search, autocomplete, category lists, featured and new lists, brands and category counts', async () => {
    const found = await dataOf(`${B}/product/search?searchText=velvetine&pageSize=48`);
    expect(ids(found.products).sort()).toEqual([id.active, id.later].sort());
    const ac = await dataOf(`${B}/product/autocomplete?q=velvetine`);
    expect(ids(ac.products).sort()).toEqual([id.active, id.later].sort());
    const cat = await dataOf(`${B}/product?productCategoryId=${categoryId}&pageSize=48`);
    expect(ids(cat.products)).not.toContain(id.draft);
    expect(ids(cat.products)).not.toContain(id.archived);
    expect(cat.facets.categories.find((c: { value: string }) => c.value === categoryId).count).toBe(cat.total);
    const featured = await dataOf(`${B}/product?featured=true&pageSize=48`);
    expect(ids(featured.products)).toContain(id.active);
    expect(ids(featured.products)).not.toContain(id.draft);
    const newest = await dataOf(`${B}/product?sort=newest&pageSize=48`);
    expect(ids(newest.products)).not.toContain(id.archived);
    // The category's product count (category tiles) counts ACTIVE products only.
    const rows = await t.database.db
      .select({ productId: schema.productCategories.productId, status: schema.products.status })
      .from(schema.productCategories)
      .innerJoin(
        schema.products,
        and(
          eq(schema.products.tenantId, schema.productCategories.tenantId),
          eq(schema.products.productId, schema.productCategories.productId),
        ),
      )
      .where(
        and(eq(schema.productCategories.tenantId, 'power'), eq(schema.productCategories.productCategoryId, categoryId)),
      );
    const activeCount = rows.filter((r) => r.status === 'ACTIVE').length;
    expect(activeCount).toBe(rows.length - 2);
    const counts = new Map<string, number>();
    const parents = await t.database.db
      .select()
      .from(schema.categoryRollups)
      .where(
        and(eq(schema.categoryRollups.tenantId, 'power'), eq(schema.categoryRollups.productCategoryId, categoryId)),
      );
    for (const parent of parents) {
      const sub = await dataOf(`${B}/product/subcategory?productCategoryId=${parent.parentProductCategoryId}`);
      for (const c of sub.subcategories) counts.set(c.productCategoryId, c.productCount);
    }
    if (parents.length) expect(counts.get(categoryId)).toBe(activeCount);
  });

  it('a draft or archived product is not found for a visitor, a shopper or staff without catalog; the owner and catalog staff preview it', async () => {
    for (const pid of [id.draft, id.archived]) {
      for (const who of [{}, shopper, ordersStaff]) {
        const res = await get(`${B}/getproductdetails?productId=${pid}`, who);
        expect(res.statusCode, pid).toBe(404);
      }
    }
    for (const who of [owner, catalogStaff]) {
      const res = await get(`${B}/getproductdetails?productId=${id.draft}`, who);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ productId: id.draft, status: 'DRAFT' });
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    // The owner's preview did not leak into the shared answer.
    expect((await get(`${B}/getproductdetails?productId=${id.draft}`)).statusCode).toBe(404);
    const details = await dataOf(`${B}/getproductdetails?productId=${id.active}`);
    expect(details.status).toBe('ACTIVE');
    expect(ids(details.related)).toEqual([id.later]);
  });

  it('pages: a draft 404s for shoppers and shows the owner a "Draft" bar; an old slug redirects (301)', async () => {
    const visitor = await get(`/velvetine-status-saw/${id.draft}`);
    expect(visitor.statusCode).toBe(404);
    const mine = await get(`/velvetine-status-saw/${id.draft}`, { cookie: owner.cookie });
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain('Draft: not visible to shoppers');
    expect(mine.body).toContain('noindex');
    const live = await get(`/velvetine-status-drill/${id.active}`);
    expect(live.statusCode).toBe(200);
    expect(live.body).not.toContain('not visible to shoppers');
    // Renamed with a new slug: the old address and any wrong slug go to the current one.
    await write(
      {
        productName: 'Velvetine Status Drill Pro',
        slug: 'velvetine-status-drill-pro',
        sku: 'ST-ACTIVE',
        categoryIds: [categoryId],
        listPrice: 1999,
        isFeatured: true,
      },
      id.active,
    );
    const history = await t.database.db
      .select()
      .from(schema.productSlugHistory)
      .where(and(eq(schema.productSlugHistory.tenantId, 'power'), eq(schema.productSlugHistory.productId, id.active)));
    expect(history.map((h) => h.slug)).toContain('velvetine-status-drill');
    for (const slug of ['velvetine-status-drill', 'anything-else']) {
      const res = await get(`/${slug}/${id.active}?utm_source=x`);
      expect(res.statusCode, slug).toBe(301);
      expect(res.headers.location).toBe(`/velvetine-status-drill-pro/${id.active}?utm_source=x`);
    }
    expect((await get(`/velvetine-status-drill-pro/${id.active}`)).statusCode).toBe(200);
  });

  it('the gallery shows every picture of the product with its alt text, in order', async () => {
    const db = t.database.db;
    await db.insert(schema.media).values(
      ['a', 'b'].map((k) => ({
        tenantId: 'power',
        mediaId: `m-status-${k}`,
        storageKey: `t/power/m/status-${k}.webp`,
        contentType: 'image/webp',
        width: 800,
        height: 800,
        bytes: 1000,
        sourceFormat: 'png',
        altText: `library alt ${k}`,
      })),
    );
    await db.insert(schema.productImages).values([
      {
        tenantId: 'power',
        productId: id.later,
        mediaId: 'm-status-b',
        altText: 'Router from the side',
        sequenceNum: 2,
      },
      { tenantId: 'power', productId: id.later, mediaId: 'm-status-a', altText: null, sequenceNum: 1 },
    ]);
    t.services.events.emit('catalog.changed', { tenantId: 'power', productIds: [id.later] });
    const details = await dataOf(`${B}/getproductdetails?productId=${id.later}`);
    expect(details.images).toEqual([
      { url: `http://${HOST}/media/t/power/m/status-a.webp`, altText: 'library alt a', mediaId: 'm-status-a' },
      {
        url: `http://${HOST}/media/t/power/m/status-b.webp`,
        altText: 'Router from the side',
        mediaId: 'm-status-b',
      },
    ]);
    const page = await get(`/velvetine-status-router/${id.later}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('alt="library alt a"');
    expect(page.body).toContain('Show picture 2 of 2: Router from the side');
  });
});

describe('cart, checkout and wishlist', () => {
  it('refuses to add a draft (404) or an archived product (409, a clear message)', async () => {
    const draft = await post(`${B}/product/addToCart`, { productId: id.draft, quantity: 1 }, shopper);
    expect(draft.statusCode).toBe(404);
    const archived = await post(`${B}/product/addToCart`, { productId: id.archived, quantity: 1 }, shopper);
    expect(archived.statusCode).toBe(409);
    expect(archived.json().message).toBe('Sorry, Velvetine Status Sander is no longer available.');
    const wish = await post('/skulocity/api/v1/ecommerce/wishlist/items', { productId: id.draft }, shopper);
    expect(wish.statusCode).toBe(404);
  });

  it('a line archived meanwhile is marked in the cart and refused at checkout; the wishlist shows it unavailable', async () => {
    expect((await post(`${B}/product/addToCart`, { productId: id.later, quantity: 1 }, shopper)).statusCode).toBe(200);
    const wish = await post('/skulocity/api/v1/ecommerce/wishlist/items', { productId: id.later }, shopper);
    expect(wish.statusCode).toBeLessThan(300);
    await write(
      {
        productName: 'Velvetine Status Router',
        sku: 'ST-LATER',
        status: 'ARCHIVED',
        categoryIds: [categoryId],
        listPrice: 1999,
      },
      id.later,
    );
    const { cart } = await dataOf(`${B}/cart/showcart`, shopper);
    const line = cart.lines.find((l: { productId: string }) => l.productId === id.later);
    expect(line.problem).toBe('No longer available. Please remove it from your cart');
    const order = await post(
      '/skulocity/api/v1/ecommerce/checkout/processorder',
      {
        shipTo: {
          toName: 'Grace Hopper',
          address1: '1 Market Street',
          city: 'San Francisco',
          postalCode: '94105',
          countryGeoId: 'USA',
          stateProvinceGeoId: 'US_CA',
        },
        shippingMethodId: 'STANDARD',
        payment: {
          method: 'card',
          cardNumber: '4242424242424242',
          cvc: '123',
          expMonth: 12,
          expYear: 2099,
          nameOnCard: 'G H',
        },
      },
      { ...shopper, 'idempotency-key': crypto.randomUUID() },
    );
    expect(order.statusCode).toBe(409);
    expect(order.json().message).toContain('Velvetine Status Router: No longer available');
    const { wishlist: list } = await dataOf('/skulocity/api/v1/ecommerce/wishlist', shopper);
    expect(list.items.find((i: { productId: string }) => i.productId === id.later)).toMatchObject({ available: false });
    // Gone from search at once (the index was patched).
    const found = await dataOf(`${B}/product/search?searchText=velvetine&pageSize=48`);
    expect(ids(found.products)).not.toContain(id.later);
  });
});

describe('sitemap', () => {
  it('lists ACTIVE products only, with their last edit as lastmod', async () => {
    const res = await post('/api/sitemap/generate', { tenantId: 'power' }, owner);
    expect(res.statusCode).toBe(202);
    await t.services.jobs.drain();
    const files = await t.database.db
      .select()
      .from(schema.sitemapFiles)
      .where(eq(schema.sitemapFiles.tenantId, 'power'));
    const body = files.map((f) => f.body).join('\n');
    const [row] = await t.database.db
      .select({ updatedAt: schema.products.updatedAt, slug: schema.products.slug })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'power'), eq(schema.products.productId, id.active)));
    expect(body).toContain(`/${row?.slug}/${id.active}</loc><lastmod>${row?.updatedAt.toISOString()}</lastmod>`);
    for (const pid of [id.draft, id.archived, id.later]) expect(body).not.toContain(`/${pid}<`);
  });
});
