import { randomBytes } from 'node:crypto';
import type { MarketplaceState } from '@app/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import type { AppEvents } from '../../lib/events/index';
import { SECRET_MASK } from '../../lib/secret-box';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
// biome-ignore lint/style/noRestrictedImports: part C's test helper for variants (decision 112) is test-only and so not in products' index.
import { givenStorefrontVariants } from '../products/storefront-variants-test-setup';
import { G_NS, sealContext } from './index';
import { feedItems, parseXml } from './xml-check';

const LIGHTING = SEEDED_HOSTS.lighting.host;
const GARDEN = SEEDED_HOSTS.garden.host;
const TOKEN = `bz_${randomBytes(20).toString('hex')}`;
const GARDEN_TOKEN = `bz_${randomBytes(20).toString('hex')}`;
const FETCH = '/api/marketplace/bonanza/fetch';
const CONNECT = '/api/marketplace/bonanza/connect';
const DISCONNECT = '/api/marketplace/bonanza/disconnect';
const REGENERATE = '/api/marketplace/feed/regenerate';

let t: TestApp;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let ordersStaff: BrowserSession;
let catalogStaff: BrowserSession;
const logs: string[] = [];
const heard: AppEvents['settings.changed'][] = [];

beforeAll(async () => {
  t = await createTestApp({
    // Every line the server writes, at the most talkative level, to look for the token in.
    logger: { level: 'trace', stream: { write: (line: string) => logs.push(line) } } as never,
  });
  t.services.events.on('settings.changed', (p) => {
    if (p.what === 'marketplace') heard.push(p);
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
  await createStaff(t.database, 'lighting', 'packer@lighting.test', ['orders']);
  await createStaff(t.database, 'lighting', 'merch@lighting.test', ['catalog']);
  ordersStaff = await signIn(t.app, 'packer@lighting.test', 'owner-demo-1', LIGHTING);
  catalogStaff = await signIn(t.app, 'merch@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(() => t.close());

const post = (host: string, url: string, body: object, session?: BrowserSession) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { host, origin: `http://${host}`, ...(session ?? {}) },
    payload: body,
  });
const get = (host: string, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const state = async (host: string = LIGHTING, session = owner, tenantId = 'lighting'): Promise<MarketplaceState> => {
  const res = await get(host, `${FETCH}?tenantId=${tenantId}`, session);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};
const feedPath = (s: MarketplaceState) => new URL(s.feed.url).pathname;
const connectBody = (extra: object = {}) => ({
  tenantId: 'lighting',
  accountEmail: 'seller@lighting.test',
  boothName: "Lumen's Lamps",
  token: TOKEN,
  ...extra,
});
/** A write to the catalog as the product admin makes one: the row, then its event after the commit. */
async function catalogWrite(tenantId: string, productIds: string[], q: ReturnType<typeof sql>) {
  await t.services.events.transaction(async (tx) => {
    await tx.execute(q);
    t.services.events.emitAfterCommit(tx, 'catalog.changed', { tenantId, productIds });
  });
}

/** An item the feed must list: its g:id, its g:item_group_id (none for a single-variant product) and availability. */
interface ExpectedItem {
  id: string;
  group: string | null;
  availability: 'in_stock' | 'out_of_stock';
}

/**
 * The items the feed must list, by a query of its own (decision 112, section 5 and part E): the
 * products that are active, in stock, in the store's categories, pictured and priced; one with at
 * most one live variant is one item with its own id, by its own count; one with several is an item
 * per enabled live priced variant (sold-out ones out_of_stock), grouped under the product's id, while
 * an enabled live variant has stock, and only if its id is a valid group id.
 */
async function expectedItems(tenantId: string): Promise<ExpectedItem[]> {
  const r = await rows<ExpectedItem>(sql`
    WITH RECURSIVE cats(id) AS (
      SELECT cc.product_category_id FROM catalog_categories cc
        JOIN catalogs c ON c.tenant_id = cc.tenant_id AND c.prod_catalog_id = cc.prod_catalog_id
       WHERE c.tenant_id = ${tenantId}
      UNION
      SELECT r.product_category_id FROM category_rollups r JOIN cats ON r.parent_product_category_id = cats.id
       WHERE r.tenant_id = ${tenantId}),
    listed AS (
      SELECT p.product_id,
        (SELECT count(*) FROM product_variants v
          WHERE v.tenant_id = p.tenant_id AND v.product_id = p.product_id AND v.removed_at IS NULL) AS live
        FROM products p
       WHERE p.tenant_id = ${tenantId} AND p.status = 'ACTIVE' AND p.stock_quantity > 0 AND p.list_price > 0
         AND coalesce(p.detail_image_url, p.medium_image_url, p.small_image_url) IS NOT NULL
         AND p.product_id IN (SELECT product_id FROM product_categories WHERE tenant_id = ${tenantId} AND product_category_id IN (SELECT id FROM cats)))
    SELECT l.product_id AS id, NULL::text AS "group", 'in_stock' AS availability FROM listed l WHERE l.live <= 1
    UNION ALL
    SELECT v.variant_id, l.product_id, CASE WHEN v.stock_quantity > 0 THEN 'in_stock' ELSE 'out_of_stock' END
      FROM listed l JOIN product_variants v ON v.tenant_id = ${tenantId} AND v.product_id = l.product_id
     WHERE l.live > 1 AND v.enabled AND v.removed_at IS NULL AND v.list_price > 0
       AND l.product_id ~ '^[A-Za-z0-9_-]{1,50}$'
       AND EXISTS (SELECT 1 FROM product_variants s
         WHERE s.tenant_id = ${tenantId} AND s.product_id = l.product_id AND s.enabled AND s.removed_at IS NULL AND s.stock_quantity > 0)`);
  return r.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
/** The g:ids the feed must list (expectedItems), sorted. */
async function eligibleIds(tenantId: string): Promise<string[]> {
  return (await expectedItems(tenantId)).map((x) => x.id).sort();
}

describe('who may use the marketplace connection', () => {
  it('a visitor 401, a shopper 403, staff without the catalog permission 403, staff with it 200; another tenant 404', async () => {
    for (const [url, body] of [
      [CONNECT, connectBody()],
      [DISCONNECT, { tenantId: 'lighting' }],
      [REGENERATE, { tenantId: 'lighting' }],
    ] as const) {
      expect((await post(LIGHTING, url, body)).statusCode, url).toBe(401);
      expect((await post(LIGHTING, url, body, shopper)).statusCode, url).toBe(403);
      expect((await post(LIGHTING, url, body, ordersStaff)).statusCode, url).toBe(403);
      const other = await post(LIGHTING, url, { ...body, tenantId: 'garden' }, owner);
      expect(other.statusCode, url).toBe(404);
    }
    expect((await get(LIGHTING, `${FETCH}?tenantId=lighting`)).statusCode).toBe(401);
    expect((await get(LIGHTING, `${FETCH}?tenantId=lighting`, shopper)).statusCode).toBe(403);
    expect((await get(LIGHTING, `${FETCH}?tenantId=lighting`, ordersStaff)).statusCode).toBe(403);
    expect((await get(LIGHTING, `${FETCH}?tenantId=garden`, owner)).statusCode).toBe(404);
    const s = await state(LIGHTING, catalogStaff);
    expect(s.connection).toBeNull();
    expect(s.feed.active).toBe(false);
    // Nothing was written by the refused calls.
    expect(await rows(sql`SELECT 1 FROM marketplace_connections`)).toHaveLength(0);
  });
});

describe('connect', () => {
  it('validates each field and names it', async () => {
    const cases: [object, string][] = [
      [{ accountEmail: 'not-an-email' }, 'body.accountEmail'],
      [{ boothName: 'ab' }, 'body.boothName'],
      [{ boothName: 'Lamps <b>' }, 'body.boothName'],
      [{ boothName: 'x'.repeat(61) }, 'body.boothName'],
      [{ token: 'short' }, 'body.token'],
      [{ token: `${'a'.repeat(20)} b` }, 'body.token'],
      [{ token: '' }, 'token'],
    ];
    for (const [extra, field] of cases) {
      const res = await post(LIGHTING, CONNECT, connectBody(extra), owner);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().errors[0], JSON.stringify(extra)).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
    expect(await rows(sql`SELECT 1 FROM marketplace_connections`)).toHaveLength(0);
  });

  it('stores the token sealed, answers only a mask, audits without the value and emits settings.changed', async () => {
    heard.length = 0;
    const res = await post(LIGHTING, CONNECT, connectBody(), owner);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(TOKEN);
    const s: MarketplaceState = res.json().data;
    expect(s.connection).toMatchObject({
      status: 'connected',
      accountEmail: 'seller@lighting.test',
      boothName: "Lumen's Lamps",
      tokenSet: true,
      tokenMask: SECRET_MASK,
    });
    expect(s.feed.active).toBe(true);
    expect(s.feed.url).toMatch(/^http:\/\/lighting\.localhost\/feeds\/google-merchant\/[A-Za-z0-9_-]{43}\.xml$/);
    const [row] = await rows<{ token_sealed: string }>(
      sql`SELECT token_sealed FROM marketplace_connections WHERE tenant_id = 'lighting'`,
    );
    expect(row?.token_sealed).not.toContain(TOKEN);
    expect(t.services.secrets.open(row?.token_sealed ?? '', sealContext('lighting'))).toBe(TOKEN);
    // Sealed for this store's row: it does not open as another store's.
    expect(t.services.secrets.open(row?.token_sealed ?? '', sealContext('garden'))).toBeNull();
    const audit = await rows<{ action: string; changes: Record<string, { before?: unknown; after?: unknown }> }>(
      sql`SELECT action, changes FROM audit_log WHERE tenant_id = 'lighting' AND entity = 'marketplace.connection'`,
    );
    expect(audit.map((a) => a.action)).toEqual(['connect']);
    expect(JSON.stringify(audit)).not.toContain(TOKEN);
    expect(audit[0]?.changes).toMatchObject({ token: { after: '[redacted]' }, boothName: { after: "Lumen's Lamps" } });
    expect(heard).toEqual([{ tenantId: 'lighting', what: 'marketplace' }]);
    const read = await get(LIGHTING, `${FETCH}?tenantId=lighting`, owner);
    expect(read.body).not.toContain(TOKEN);
  });

  it('keeps the stored token when the form leaves it empty', async () => {
    const res = await post(LIGHTING, CONNECT, connectBody({ token: '', boothName: 'Lumen Lamps' }), owner);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.connection).toMatchObject({ boothName: 'Lumen Lamps', tokenSet: true });
    const [row] = await rows<{ token_sealed: string }>(
      sql`SELECT token_sealed FROM marketplace_connections WHERE tenant_id = 'lighting'`,
    );
    expect(t.services.secrets.open(row?.token_sealed ?? '', sealContext('lighting'))).toBe(TOKEN);
    const [last] = await rows<{ action: string; changes: Record<string, unknown> }>(
      sql`SELECT action, changes FROM audit_log WHERE tenant_id = 'lighting' AND entity = 'marketplace.connection' ORDER BY id DESC LIMIT 1`,
    );
    expect(last).toMatchObject({
      action: 'update',
      changes: { boothName: { before: "Lumen's Lamps", after: 'Lumen Lamps' } },
    });
    expect(last?.changes).not.toHaveProperty('token');
    expect(JSON.stringify(last)).not.toContain(TOKEN);
  });
});

describe('the product feed', () => {
  it('is well-formed RSS 2.0 with the g namespace and lists exactly the eligible products of this store', async () => {
    const s = await state();
    const res = await get(LIGHTING, feedPath(s), { 'user-agent': 'BonanzaBot/1.0' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(res.headers['last-modified']).toBeTruthy();
    const root = parseXml(res.body);
    expect(root.name).toBe('rss');
    expect(root.attrs).toMatchObject({ version: '2.0', 'xmlns:g': G_NS });
    const items = feedItems(res.body);
    const want = await expectedItems('lighting');
    const expected = want.map((x) => x.id).sort();
    expect(expected.length).toBeGreaterThan(5);
    // The seed's variants are among them: grouped, and a sold-out one listed out of stock.
    expect(want.some((x) => x.group !== null)).toBe(true);
    expect(want.some((x) => x.availability === 'out_of_stock')).toBe(true);
    expect(items.map((i) => i['g:id']).sort()).toEqual(expected);
    const wanted = new Map(want.map((x) => [x.id, x]));
    // None of another store's products (ids are per store: check the links' host too).
    for (const i of items) {
      expect(i['g:link']).toMatch(/^http:\/\/lighting\.localhost\/[^/]+\/[^/]+$/);
      expect(i['g:image_link']).toMatch(/^https?:\/\//);
      expect(i['g:price']).toMatch(/^\d+\.\d{2} USD$/);
      expect(i['g:availability'], i['g:id']).toBe(wanted.get(String(i['g:id']))?.availability);
      expect(i['g:item_group_id'], i['g:id']).toBe(wanted.get(String(i['g:id']))?.group ?? undefined);
      expect(i['g:condition']).toBe('new');
      expect(i['g:title']?.length).toBeGreaterThan(0);
    }
    expect(items.some((i) => i['g:product_type'])).toBe(true);
    const [one] = await rows<{ product_id: string; list_price: number; slug: string }>(
      sql`SELECT product_id, list_price, slug FROM products WHERE tenant_id = 'lighting' AND product_id = ${want.find((x) => x.group === null)?.id}`,
    );
    const item = items.find((i) => i['g:id'] === one?.product_id);
    expect(item?.['g:link']).toBe(`http://lighting.localhost/${one?.slug}/${one?.product_id}`);
    expect(item?.['g:price']).toBe(`${((one?.list_price ?? 0) / 100).toFixed(2)} USD`);
  });

  it('answers 304 to If-None-Match, and a price change shows in the next fetch', async () => {
    const path = feedPath(await state());
    const first = await get(LIGHTING, path);
    const etag = String(first.headers.etag);
    const again = await get(LIGHTING, path, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const lastModified = String(first.headers['last-modified']);
    expect((await get(LIGHTING, path, { 'if-modified-since': lastModified })).statusCode).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await get(LIGHTING, path, { 'if-modified-since': earlier })).statusCode).toBe(200);
    expect(
      (await get(LIGHTING, path, { 'if-none-match': '"other"', 'if-modified-since': lastModified })).statusCode,
    ).toBe(200);
    // Kept between fetches: no rebuild without a change, and another store's change is not this one's.
    const builtAt = async () =>
      (await rows<{ built_at: unknown }>(sql`SELECT built_at FROM product_feeds WHERE tenant_id = 'lighting'`))[0]
        ?.built_at;
    const built = await builtAt();
    await catalogWrite('garden', [], sql`SELECT 1`);
    expect((await get(LIGHTING, path)).headers.etag).toBe(etag);
    expect(await builtAt()).toEqual(built);
    const [target] = feedItems(first.body);
    const id = String(target?.['g:id']);
    await catalogWrite(
      'lighting',
      [id],
      sql`UPDATE products SET list_price = 123456, sale_price = 99900 WHERE tenant_id = 'lighting' AND product_id = ${id}`,
    );
    const after = await get(LIGHTING, path, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    const changed = feedItems(after.body).find((i) => i['g:id'] === id);
    expect(changed?.['g:price']).toBe('1234.56 USD');
    expect(changed?.['g:sale_price']).toBe('999.00 USD');
  });

  it('leaves out a product out of stock, and lists one without an image or price as skipped with the reason', async () => {
    const path = feedPath(await state());
    // Three single-variant products (no group): their items are their products.
    const ids = feedItems((await get(LIGHTING, path)).body)
      .filter((i) => i['g:item_group_id'] === undefined)
      .map((i) => String(i['g:id']));
    const [soldOut, noImage, noPrice] = ids;
    await t.services.events.transaction(async (tx) => {
      await tx.execute(
        sql`UPDATE products SET stock_quantity = 0 WHERE tenant_id = 'lighting' AND product_id = ${soldOut}`,
      );
      t.services.events.emitAfterCommit(tx, 'stock.changed', { tenantId: 'lighting', productIds: [String(soldOut)] });
    });
    await catalogWrite(
      'lighting',
      [String(noImage), String(noPrice)],
      sql`UPDATE products SET
            small_image_url = CASE WHEN product_id = ${noImage} THEN NULL ELSE small_image_url END,
            medium_image_url = CASE WHEN product_id = ${noImage} THEN NULL ELSE medium_image_url END,
            detail_image_url = CASE WHEN product_id = ${noImage} THEN NULL ELSE detail_image_url END,
            list_price = CASE WHEN product_id = ${noPrice} THEN 0 ELSE list_price END,
            sale_price = CASE WHEN product_id = ${noPrice} THEN NULL ELSE sale_price END
          WHERE tenant_id = 'lighting' AND product_id IN (${noImage}, ${noPrice})`,
    );
    const listed = feedItems((await get(LIGHTING, path)).body);
    const items = listed.map((i) => i['g:id']);
    expect(items).not.toContain(soldOut);
    expect(items).not.toContain(noImage);
    expect(items).not.toContain(noPrice);
    expect(items.sort()).toEqual(await eligibleIds('lighting'));
    const s = await state();
    // Products listed: a single-variant product's item, or a group of variants' items.
    expect(s.feed.productCount).toBe(new Set(listed.map((i) => i['g:item_group_id'] ?? i['g:id'])).size);
    const [built] = await rows<{ item_count: number }>(
      sql`SELECT item_count FROM product_feeds WHERE tenant_id = 'lighting'`,
    );
    expect(built?.item_count).toBe(items.length);
    expect(s.feed.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ productId: noImage, reasons: ['no_image'] }),
        expect.objectContaining({ productId: noPrice, reasons: ['no_price'] }),
      ]),
    );
    expect(s.feed.skipped.map((x) => x.productId)).not.toContain(soldOut);
  });

  it('escapes markup and drops characters XML forbids in titles and descriptions', async () => {
    const path = feedPath(await state());
    const [first] = feedItems((await get(LIGHTING, path)).body);
    const id = String(first?.['g:id']);
    await catalogWrite(
      'lighting',
      [id],
      sql`UPDATE products SET product_name = ${'Brass & <Glass> "Lamp" \u0001it\'s'},
            description = ${'<p>Warm &amp; bright</p><script>x()</script>\u0008 ]]> done'}
          WHERE tenant_id = 'lighting' AND product_id = ${id}`,
    );
    const body = (await get(LIGHTING, path)).body;
    const item = feedItems(body).find((i) => i['g:id'] === id);
    expect(item?.['g:title']).toBe('Brass & <Glass> "Lamp" it\'s');
    expect(item?.['g:description']).toBe('Warm & bright ]]> done');
  });

  it('carries the GTIN and MPN a product’s features name, and the brand', async () => {
    const path = feedPath(await state());
    const [, second] = feedItems((await get(LIGHTING, path)).body);
    const id = String(second?.['g:id']);
    await catalogWrite(
      'lighting',
      [id],
      sql`INSERT INTO product_features (tenant_id, product_id, feature_id, label, value, sequence_num) VALUES
            ('lighting', ${id}, 'feed-gtin', 'GTIN', '0 12345-67890 5', 90),
            ('lighting', ${id}, 'feed-mpn', 'MPN', 'LL-2024-B', 91)`,
    );
    await catalogWrite(
      'lighting',
      [id],
      sql`UPDATE products SET brand_name = 'Ashby & Sons' WHERE tenant_id = 'lighting' AND product_id = ${id}`,
    );
    const item = feedItems((await get(LIGHTING, path)).body).find((i) => i['g:id'] === id);
    expect(item).toMatchObject({ 'g:gtin': '012345678905', 'g:mpn': 'LL-2024-B', 'g:brand': 'Ashby & Sons' });
    expect(item).not.toHaveProperty('g:identifier_exists');
  });

  it('lists a product with variants as one item per enabled variant, grouped; single-variant products keep their ids', async () => {
    const path = feedPath(await state());
    const before = feedItems((await get(LIGHTING, path)).body);
    // A product listed without options (the seed's products with variants have theirs): its one item, no
    // group; past the feed's first two items, which the tests above renamed and gave codes.
    const plain = new Set(
      (
        await rows<{ product_id: string }>(
          sql`SELECT p.product_id FROM products p WHERE p.tenant_id = 'lighting' AND NOT EXISTS (
                SELECT 1 FROM product_options o WHERE o.tenant_id = p.tenant_id AND o.product_id = p.product_id)`,
        )
      ).map((r) => r.product_id),
    );
    const productId = String(
      before.slice(2).find((i) => i['g:item_group_id'] === undefined && plain.has(String(i['g:id'])))?.['g:id'],
    );
    expect(plain.has(productId)).toBe(true);
    const groupsBefore = before.filter((i) => i['g:item_group_id'] !== undefined);
    expect(groupsBefore.length).toBeGreaterThan(0);
    const host = LIGHTING;
    const ctx = systemContext(
      { tenantId: 'lighting', productStoreId: '9000', hostName: host, viaDevAlias: false, origin: `http://${host}` },
      'feed-variants',
    );
    const made = await givenStorefrontVariants(t.database.db, ctx, productId, {
      options: [
        { name: 'Colour', values: [{ label: 'Brass' }, { label: 'Black' }] },
        { name: 'Bulb', values: [{ label: '2700 K' }, { label: '3000 K' }] },
      ],
      variants: [
        { values: ['Brass', '2700 K'], stock: 3, listPrice: 120_00, salePrice: 99_00, pictures: [1] },
        { values: ['Brass', '3000 K'], stock: 0, listPrice: 130_00 },
        { values: ['Black', '2700 K'], stock: 4, listPrice: 120_00, enabled: false },
      ],
      pictures: 2,
    });
    const [brass2700, brass3000, black2700] = made.variantIds as [string, string, string];
    await catalogWrite(
      'lighting',
      [productId],
      sql`UPDATE product_variants SET barcode = '4006381333931' WHERE tenant_id = 'lighting' AND variant_id = ${brass2700}`,
    );
    const items = feedItems((await get(LIGHTING, path)).body);
    const group = items.filter((i) => i['g:item_group_id'] === productId);
    const [name] = await rows<{ product_name: string; slug: string }>(
      sql`SELECT product_name, slug FROM products WHERE tenant_id = 'lighting' AND product_id = ${productId}`,
    );
    expect(
      group.map((i) => [i['g:id'], i['g:title'], i['g:color'], i['g:price'], i['g:sale_price'], i['g:availability']]),
    ).toEqual([
      [brass2700, `${name?.product_name}, 2700 K`, 'Brass', '120.00 USD', '99.00 USD', 'in_stock'],
      [brass3000, `${name?.product_name}, 3000 K`, 'Brass', '130.00 USD', undefined, 'out_of_stock'],
    ]);
    expect(items.map((i) => i['g:id'])).not.toContain(black2700);
    expect(group[0]?.['g:link']).toBe(`http://lighting.localhost/${name?.slug}/${productId}?variant=${brass2700}`);
    expect(group[0]?.['g:gtin']).toBe('4006381333931');
    expect(group[0]?.['g:image_link']).toMatch(/^http:\/\/lighting\.localhost\/media\//);
    // Every other item is as it was: a single-variant product's id with no group, the seed's groups as they were.
    const others = items.filter((i) => i['g:item_group_id'] === undefined);
    expect(others.map((i) => i['g:id']).sort()).toEqual(
      before
        .filter((i) => i['g:item_group_id'] === undefined)
        .map((i) => String(i['g:id']))
        .filter((id) => id !== productId)
        .sort(),
    );
    const groupOf = (list: typeof items) =>
      list.filter((i) => i['g:item_group_id'] !== undefined && i['g:item_group_id'] !== productId);
    expect(groupOf(items)).toEqual(groupOf(groupsBefore));
    expect(items.map((i) => i['g:id']).sort()).toEqual(await eligibleIds('lighting'));
    const s = await state();
    expect(s.feed.productCount).toBe(others.length + new Set(groupsBefore.map((i) => i['g:item_group_id'])).size + 1);
  });

  it('records fetches (time, user agent, count) but writes them at most once a minute', async () => {
    const path = feedPath(await state());
    const [before] = await rows<{ fetch_count: number }>(
      sql`SELECT fetch_count FROM product_feeds WHERE tenant_id = 'lighting'`,
    );
    for (let i = 0; i < 5; i++) await get(LIGHTING, path, { 'user-agent': 'BonanzaBot/2.0' });
    const [after] = await rows<{ fetch_count: number; last_fetched_by: string }>(
      sql`SELECT fetch_count, last_fetched_by FROM product_feeds WHERE tenant_id = 'lighting'`,
    );
    // The first fetch of the test file wrote; these five are counted in memory within the minute.
    expect(after?.fetch_count).toBe(before?.fetch_count);
    const s = await state();
    expect(s.feed.fetchCount).toBeGreaterThanOrEqual((before?.fetch_count ?? 0) + 5);
    expect(s.feed.lastFetchedBy).toBe('BonanzaBot/2.0');
    expect(s.feed.lastFetchedAt).not.toBeNull();
    expect(s.feed.builtAt).not.toBeNull();
  });

  it('answers 404 to a wrong token and to another store’s token on this host, without saying why', async () => {
    const path = feedPath(await state());
    const wrong = path.replace(/\/[A-Za-z0-9_-]{43}\.xml$/, `/${'A'.repeat(43)}.xml`);
    for (const p of [wrong, '/feeds/google-merchant/short.xml', `${path}x`]) {
      const res = await get(LIGHTING, p);
      expect(res.statusCode, p).toBe(404);
      expect(res.json().message).toBe('Not found.');
    }
    expect(
      (await post(GARDEN, CONNECT, { ...connectBody({ token: GARDEN_TOKEN }), tenantId: 'garden' }, gardenOwner))
        .statusCode,
    ).toBe(200);
    const gardenPath = feedPath(await state(GARDEN, gardenOwner, 'garden'));
    const onGarden = await get(GARDEN, gardenPath);
    expect(onGarden.statusCode).toBe(200);
    const gardenIds = feedItems(onGarden.body).map((i) => i['g:id']);
    expect(gardenIds.sort()).toEqual(await eligibleIds('garden'));
    for (const i of feedItems(onGarden.body)) expect(i['g:link']).toMatch(/^http:\/\/garden\.localhost\//);
    const onLighting = await get(LIGHTING, gardenPath);
    expect(onLighting.statusCode).toBe(404);
    expect(onLighting.json().message).toBe('Not found.');
  });

  it('regenerating the URL ends the old one, and is audited', async () => {
    const old = feedPath(await state());
    const res = await post(LIGHTING, REGENERATE, { tenantId: 'lighting' }, owner);
    expect(res.statusCode).toBe(200);
    const fresh = new URL(res.json().data.feed.url).pathname;
    expect(fresh).not.toBe(old);
    expect((await get(LIGHTING, old)).statusCode).toBe(404);
    expect((await get(LIGHTING, fresh)).statusCode).toBe(200);
    const audit = await rows<{ action: string }>(
      sql`SELECT action FROM audit_log WHERE tenant_id = 'lighting' AND entity = 'marketplace.feed'`,
    );
    expect(audit.map((a) => a.action)).toEqual(['regenerate_url']);
  });

  it('answers 404 for a private store, to visitors and members alike, and again once public', async () => {
    const path = feedPath(await state());
    const close = await post(LIGHTING, '/api/tenant/add/constraints', { tenantId: 'lighting' }, owner);
    expect(close.statusCode).toBe(200);
    expect((await get(LIGHTING, path)).statusCode).toBe(404);
    expect((await get(LIGHTING, path, owner)).statusCode).toBe(404);
    expect((await state()).feed.storePublic).toBe(false);
    await post(LIGHTING, '/api/tenant/remove/constraints', { tenantId: 'lighting' }, owner);
    expect((await get(LIGHTING, path)).statusCode).toBe(200);
  });
});

describe('disconnect', () => {
  it('erases the token, ends the feed URL, is audited; a second disconnect is 404', async () => {
    const path = feedPath(await state());
    const res = await post(LIGHTING, DISCONNECT, { tenantId: 'lighting' }, catalogStaff);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.connection).toMatchObject({ status: 'disconnected', tokenSet: false, tokenMask: null });
    const [row] = await rows<{ token_sealed: string | null; status: string }>(
      sql`SELECT token_sealed, status FROM marketplace_connections WHERE tenant_id = 'lighting'`,
    );
    expect(row).toEqual({ token_sealed: null, status: 'disconnected' });
    expect((await get(LIGHTING, path)).statusCode).toBe(404);
    expect((await post(LIGHTING, DISCONNECT, { tenantId: 'lighting' }, owner)).statusCode).toBe(404);
    const audit = await rows<{ action: string }>(
      sql`SELECT action FROM audit_log WHERE tenant_id = 'lighting' AND entity = 'marketplace.connection' ORDER BY id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['connect', 'update', 'disconnect']);
    // Reconnecting needs a token again.
    const again = await post(LIGHTING, CONNECT, connectBody({ token: '' }), owner);
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0]).toMatch(/^token: /);
  });

  it('no log line carries the marketplace token or a feed URL token', () => {
    expect(logs.length).toBeGreaterThan(20);
    const joined = logs.join('\n');
    expect(joined).not.toContain(TOKEN);
    expect(joined).not.toContain(GARDEN_TOKEN);
    expect(joined).toContain('/feeds/google-merchant/[redacted].xml');
    expect(joined).not.toMatch(/\/feeds\/google-merchant\/[A-Za-z0-9_-]{43}\.xml/);
  });
});
