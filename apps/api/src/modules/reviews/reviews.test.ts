import { schema } from '@app/db';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { reviewAuthorName } from './reviews.service';

const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
const HOSTILE = '<b>Bright</b> </script><script>alert(1)</script> & "quoted"';

let t: TestApp;
let sam: BrowserSession;
let olivia: BrowserSession;
/** Products of Sam's seeded lighting orders, by the order's state. */
const bought: Record<'delivered' | 'completed' | 'paid' | 'cancelled', string> = {
  delivered: '',
  completed: '',
  paid: '',
  cancelled: '',
};

beforeAll(async () => {
  t = await createTestApp();
  sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
  olivia = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  const ol = schema.orderLines;
  for (const [state, orderId] of [
    ['delivered', 'LIG-DEMO-S1'],
    ['completed', 'LIG-DEMO-S2'],
    ['paid', 'LIG-DEMO-S3'],
    ['cancelled', 'LIG-DEMO-S4'],
  ] as const) {
    const [line] = await t.database.db
      .select()
      .from(ol)
      .where(and(eq(ol.tenantId, 'lighting'), eq(ol.orderId, orderId), eq(ol.lineNo, 1)));
    bought[state] = line?.productId ?? '';
  }
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.productReviews).where(isNotNull(schema.productReviews.userId));
  t.services.publicCache.clear();
});

const write = (headers: Record<string, string>, payload: object, host = LIGHTING) =>
  t.app.inject({ method: 'POST', url: `${B}/ecommerce/product/review`, headers: { host, ...headers }, payload });
const eligibility = (headers: Record<string, string>, productId: string) =>
  t.app.inject({
    method: 'GET',
    url: `${B}/ecommerce/product/review?productId=${productId}`,
    headers: { host: LIGHTING, ...headers },
  });
const details = async (productId: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `${B}/public/ecommerce/getproductdetails?productId=${productId}`,
      headers: { host: LIGHTING },
    })
  ).json().data;

describe('who may review', () => {
  it('a shopper with a paid, shipped, delivered or completed order of the product; not a cancelled one', async () => {
    for (const state of ['delivered', 'completed', 'paid'] as const) {
      expect((await eligibility(sam, bought[state])).json().data).toEqual({
        canReview: true,
        reason: null,
        review: null,
      });
    }
    expect((await eligibility(sam, bought.cancelled)).json().data).toMatchObject({
      canReview: false,
      reason: 'not-bought',
    });
    expect((await eligibility(olivia, bought.delivered)).json().data).toMatchObject({
      canReview: false,
      reason: 'not-bought',
    });
    const anonymous = await eligibility({}, bought.delivered);
    expect(anonymous.json().data).toMatchObject({ canReview: false, reason: 'sign-in' });
    expect(anonymous.headers['cache-control']).toBe('private, no-store');
  });

  it('someone who did not buy it gets 403 with the reason; nobody signed in gets 401', async () => {
    const res = await write(olivia, { productId: bought.delivered, rating: 5, text: 'Lovely.' });
    expect(res.statusCode).toBe(403);
    const name = (await details(bought.delivered)).productName;
    expect(res.json()).toMatchObject({
      error: true,
      code: 'REVIEW_NOT_ALLOWED',
      message: `Only shoppers who bought ${name} can review it, and none of your paid orders has it.`,
    });
    expect((await write(sam, { productId: bought.cancelled, rating: 5, text: 'Lovely.' })).statusCode).toBe(403);
    const anonymous = await write({}, { productId: bought.delivered, rating: 5, text: 'Lovely.' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');
  });

  it("another store's product, or one that does not exist, is 404", async () => {
    const gardenSam = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN);
    const res = await write(gardenSam, { productId: bought.delivered, rating: 5, text: 'Lovely.' }, GARDEN);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`Product ${bought.delivered} does not exist in this store.`);
    expect((await write(sam, { productId: 'LGT-0000', rating: 5, text: 'Lovely.' })).statusCode).toBe(404);
    expect((await eligibility(sam, 'LGT-0000')).statusCode).toBe(404);
  });
});

describe('writing a review', () => {
  it('is published at once, verbatim in JSON, in the summary, with first name and last initial', async () => {
    const before = await details(bought.delivered);
    // The product's card in a search, as a listing shows it (the service keeps cards in memory).
    const card = async () => {
      const res = await t.app.inject({
        url: `${B}/public/ecommerce/product/search?searchText=${encodeURIComponent(before.productName)}`,
        headers: { host: LIGHTING },
      });
      const found = (res.json().data.products as { productId: string; rating: { count: number } }[]).find(
        (x) => x.productId === bought.delivered,
      );
      return found?.rating.count;
    };
    expect(await card()).toBe(before.reviewSummary.count);
    const res = await write(sam, {
      productId: bought.delivered,
      rating: 4,
      title: '  Good lamp <i>really</i>  ',
      text: `  ${HOSTILE}  `,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      productId: bought.delivered,
      authorName: 'Sam S.',
      rating: 4,
      title: 'Good lamp <i>really</i>',
      body: HOSTILE,
    });
    // The cached product answer was dropped: the new review is in the summary.
    const after = await details(bought.delivered);
    expect(after.reviewSummary.count).toBe(before.reviewSummary.count + 1);
    expect(after.reviewSummary.distribution[4]).toBe(before.reviewSummary.distribution[4] + 1);
    expect(after.reviewSummary.latest[0]).toMatchObject({ authorName: 'Sam S.', rating: 4, body: HOSTILE });
    expect(await card()).toBe(before.reviewSummary.count + 1);
    const sum = Object.entries(after.reviewSummary.distribution as Record<string, number>).reduce(
      (s, [stars, n]) => s + Number(stars) * n,
      0,
    );
    expect(after.reviewSummary.average).toBe(Math.round((sum / after.reviewSummary.count) * 10) / 10);
    const [row] = await t.database.db
      .select()
      .from(schema.productReviews)
      .where(eq(schema.productReviews.userId, 'LGT-U-SHOPPER'));
    expect(row?.orderId).toBe('LIG-DEMO-S1');
    expect((await eligibility(sam, bought.delivered)).json().data).toMatchObject({
      canReview: false,
      reason: 'already-reviewed',
      review: { body: HOSTILE },
    });
  });

  it('once per shopper and product: a second one is 409, also when both are sent at once', async () => {
    const body = { productId: bought.paid, rating: 5, text: 'Great.' };
    const both = await Promise.all([write(sam, body), write(sam, body)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const again = await write(sam, { ...body, rating: 1, text: 'Changed my mind.' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_REVIEWED');
    expect(again.json().message).toMatch(/^You have already reviewed .+; each shopper reviews a product once\.$/);
    const rows = await t.database.db
      .select()
      .from(schema.productReviews)
      .where(and(eq(schema.productReviews.productId, bought.paid), eq(schema.productReviews.userId, 'LGT-U-SHOPPER')));
    expect(rows.map((r) => r.rating)).toEqual([5]);
  });

  const invalid: [string, object, string][] = [
    ['rating 0', { rating: 0, text: 'x' }, 'body.rating: Give a rating of 1 to 5 stars.'],
    ['rating 6', { rating: 6, text: 'x' }, 'body.rating: Give a rating of 1 to 5 stars.'],
    ['rating 4.5', { rating: 4.5, text: 'x' }, 'body.rating: Give a rating of 1 to 5 stars.'],
    ['rating as text', { rating: '5', text: 'x' }, 'body.rating: Give a rating of 1 to 5 stars.'],
    ['no text', { rating: 5 }, 'body.text: Tell other shoppers what you think.'],
    ['blank text', { rating: 5, text: '   ' }, 'body.text: Tell other shoppers what you think.'],
    ['text too long', { rating: 5, text: 'x'.repeat(4001) }, 'body.text: Use at most 4000 characters.'],
    ['title too long', { rating: 5, text: 'x', title: 't'.repeat(121) }, 'body.title: Use at most 120 characters.'],
    ['an unknown field', { rating: 5, text: 'x', authorName: 'Admin' }, 'body: unknown field(s): authorName'],
  ];
  it.each(invalid)('refuses %s with 400 naming the field', async (_name, payload, message) => {
    const res = await write(sam, { productId: bought.delivered, ...payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: true, code: 'VALIDATION_FAILED', message, data: { message } });
  });

  it('accepts the longest title and text', async () => {
    const res = await write(sam, {
      productId: bought.completed,
      rating: 3,
      title: 't'.repeat(120),
      text: 'x'.repeat(4000),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('author names', () => {
  it.each([
    ['Sam', 'Shopper', 'Sam S.'],
    [' Ada ', ' lovelace', 'Ada L.'],
    ['Cher', '', 'Cher'],
    ['', '', 'Customer'],
  ])('%s %s → %s', (first, last, expected) => {
    expect(reviewAuthorName(first, last)).toBe(expected);
  });
});
