import { schema } from '@app/db';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../lib/app-types';
import { type BrowserSession, createTestApp, openSecondHandle, signIn, type TestApp } from '../../test/harness';

// "hides a review and it leaves the product page", on every app process. Two app
// instances on one PostgreSQL database with their own buses, public caches and product memories: the
// owner hides a review through one; the other's product page (summary and latest reviews) and the
// product's card rating follow within a second (review.changed over NOTIFY).

const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
let a: TestApp;
let b: TestApp;
let owner: BrowserSession;
let review: { reviewId: string; productId: string; productName: string; authorName: string; createdAt: Date };

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: await openSecondHandle(a.database) });
  const rv = schema.productReviews;
  const p = schema.products;
  // The newest seeded review of the last reviewed lighting product (the other review tests take the first ones).
  const [row] = await a.database.db
    .select({
      reviewId: rv.reviewId,
      productId: rv.productId,
      productName: p.productName,
      authorName: rv.authorName,
      createdAt: rv.createdAt,
    })
    .from(rv)
    .innerJoin(p, and(eq(p.tenantId, rv.tenantId), eq(p.productId, rv.productId)))
    .where(and(eq(rv.tenantId, 'lighting'), isNull(rv.userId), eq(rv.status, 'PUBLISHED')))
    .orderBy(desc(rv.productId), desc(rv.createdAt), asc(rv.reviewId))
    .limit(1);
  if (!row) throw new Error('no review');
  review = row;
  owner = await signIn(a.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

type Latest = { authorName: string; createdAt: string };
async function shown(app: App) {
  const [details, search] = await Promise.all([
    app.inject({
      url: `${B}/public/ecommerce/getproductdetails?productId=${review.productId}`,
      headers: { host: LIGHTING },
    }),
    app.inject({
      url: `${B}/public/ecommerce/product/search?searchText=${encodeURIComponent(review.productName)}`,
      headers: { host: LIGHTING },
    }),
  ]);
  const d = details.json().data;
  const card = (search.json().data.products as { productId: string; reviewCount?: number; rating?: unknown }[]).find(
    (x) => x.productId === review.productId,
  );
  return {
    count: d.reviewSummary.count as number,
    listed: (d.reviewSummary.latest as Latest[]).some(
      (r) => r.authorName === review.authorName && r.createdAt === review.createdAt.toISOString(),
    ),
    card: JSON.stringify(card ?? null),
  };
}

async function until(check: () => Promise<boolean>, deadlineMs = 1000): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > deadlineMs) throw new Error(`not seen within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const post = (action: string) =>
  a.app.inject({
    method: 'POST',
    url: `/api/v1/reviews/${review.reviewId}/${action}`,
    headers: { host: LIGHTING, origin: `http://${LIGHTING}`, ...owner },
  });

describe('a review hidden through one app process leaves the product page on every other', () => {
  it('hidden: gone from the other process within a second; published: back', async () => {
    const before = await shown(b.app); // b has read (and cached) the product with the review
    expect(before.listed).toBe(true);
    expect(before.card, 'the product is found by its name').not.toBe('null');

    expect((await post('hide')).statusCode).toBe(200);
    const goneMs = await until(async () => {
      const s = await shown(b.app);
      return s.count === before.count - 1 && !s.listed && s.card !== before.card;
    });
    expect((await post('publish')).statusCode).toBe(200);
    const backMs = await until(async () => {
      const s = await shown(b.app);
      return s.count === before.count && s.listed && s.card === before.card;
    });
    console.log(`[review hidden everywhere] gone after ${goneMs.toFixed(0)} ms, back after ${backMs.toFixed(0)} ms`);
  });
});
