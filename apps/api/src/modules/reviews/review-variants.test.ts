import { fileURLToPath } from 'node:url';
import { type Db, schema } from '@app/db';
import { and, asc, eq, gt, isNotNull, ne, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import { buyWithTestCard } from '../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
// biome-ignore lint/style/noRestrictedImports: part A's test helpers for variants (decision 112) are test-only and so not in products' index.
import { givenVariants } from '../products/variants-test-setup';

// A review stays per product, and says which variant the reviewer bought (decision 112): "Bought:
// Large" from the order line that proved the purchase, as it was named when ordered, so renaming the
// variant later changes nothing; nothing for a product's default variant. The owner's reviews list
// and page show it too. The page part needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const T = 'lighting';
const HOST = 'lighting.localhost';
const B = '/skulocity/api/v1';

let t: TestApp;
let db: Db;
let shopper: BrowserSession;
let owner: BrowserSession;
let planter: { productId: string; large: string };
let plain: string;

const call = (method: 'GET' | 'POST', url: string, session: BrowserSession, body?: object) =>
  t.app.inject({
    method,
    url,
    headers: { host: HOST, origin: `http://${HOST}`, ...session },
    ...(body ? { payload: body } : {}),
  });

async function buy(line: { variantId?: string; productId?: string; quantity: number }) {
  const placed = await buyWithTestCard(t.app, HOST, shopper, [line]);
  expect(placed.statusCode, placed.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({ webBuildDir, jobs: { pollMs: 60_000 } });
  db = t.database.db;
  const ctx = systemContext(
    { tenantId: T, productStoreId: '9000', hostName: HOST, viaDevAlias: false, origin: `http://${HOST}` },
    'review-variants-test',
  );
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  // Two products the demo shopper never ordered nor reviewed, sold without options (the seed gives
  // some products variants; this test gives the first one its own).
  const withOptions = db
    .select({ id: schema.productVariants.productId })
    .from(schema.productVariants)
    .where(and(eq(schema.productVariants.tenantId, T), isNotNull(schema.productVariants.option1ValueId)));
  const ordered = db
    .select({ id: schema.orderLines.productId })
    .from(schema.orderLines)
    .where(eq(schema.orderLines.tenantId, T));
  const p = schema.products;
  const rows = await db
    .select({ productId: p.productId })
    .from(p)
    .where(
      and(
        eq(p.tenantId, T),
        gt(p.stockQuantity, 5),
        ne(p.productType, 'CONFIGURABLE'),
        eq(p.status, 'ACTIVE'),
        notInArray(p.productId, ordered),
        notInArray(p.productId, withOptions),
      ),
    )
    .orderBy(asc(p.productId))
    .limit(2);
  const [a, b] = rows.map((r) => r.productId) as [string, string];
  const [, large] = (await givenVariants(db, ctx, a, 'Size', [
    { label: 'Small', stock: 5 },
    { label: 'Large', stock: 5 },
  ])) as [string, string];
  planter = { productId: a, large };
  plain = b;
  await buy({ variantId: large, quantity: 1 });
  await buy({ productId: plain, quantity: 1 });
});
afterAll(async () => t?.close());

describe('a review of a variant bought', () => {
  it('says which variant the reviewer bought, as ordered, and nothing for a default variant', async () => {
    const written = await call('POST', `${B}/ecommerce/product/review`, shopper, {
      productId: planter.productId,
      rating: 4,
      text: 'Roomy.',
    });
    expect(written.statusCode, written.body).toBe(200);
    expect(written.json().data).toMatchObject({ productId: planter.productId, boughtVariant: 'Large' });

    const other = await call('POST', `${B}/ecommerce/product/review`, shopper, {
      productId: plain,
      rating: 5,
      text: 'Bright.',
    });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().data.boughtVariant).toBeNull();

    // Renamed since: the review keeps what was bought then.
    await db
      .update(schema.productVariants)
      .set({ title: 'Extra large' })
      .where(and(eq(schema.productVariants.tenantId, T), eq(schema.productVariants.variantId, planter.large)));
    const mine = await call('GET', `${B}/ecommerce/product/review?productId=${planter.productId}`, shopper);
    expect(mine.json().data.review).toMatchObject({ boughtVariant: 'Large' });
  });

  it("shows it on the owner's reviews list and page", async () => {
    const list = await call('GET', `/api/v1/reviews?productId=${planter.productId}`, owner);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.items).toEqual([expect.objectContaining({ rating: 4, boughtVariant: 'Large' })]);
    const plainList = await call('GET', `/api/v1/reviews?productId=${plain}`, owner);
    expect(plainList.json().data.items[0].boughtVariant).toBeNull();

    const page = await t.app.inject({
      url: `/manage-store/reviews?productId=${encodeURIComponent(planter.productId)}`,
      headers: { host: HOST, cookie: owner.cookie },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/data-testid="review-bought"[^>]*>Bought: (<!-- -->)?Large</);
  });
});
