import type { ProductDetails } from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { DetailsMemory } from './product-details';

// The product page is read in one statement and kept in memory per store, exact through
// the catalog's events. These tests change what a shopper sees through the database and the event
// its writer emits, and check the page follows at once (the public read cache is dropped by the same
// events; the memory must not hide the change either).

const page = (id: string) => ({ details: { productId: id } as ProductDetails, low: 5, refs: [id] });

describe('DetailsMemory', () => {
  it('keeps a page until one of the products it shows changes', () => {
    const m = new DetailsMemory();
    m.set('a', 'p1', m.generation('a'), { ...page('p1'), refs: ['p1', 'p2'] });
    m.set('a', 'p3', m.generation('a'), page('p3'));
    expect(m.get('a', 'p1', 5)?.productId).toBe('p1');
    m.drop('a', ['p2']); // a related product changed
    expect(m.get('a', 'p1', 5)).toBeUndefined();
    expect(m.get('a', 'p3', 5)?.productId).toBe('p3');
    m.drop('a');
    expect(m.get('a', 'p3', 5)).toBeUndefined();
  });

  it('does not keep a read that a change overtook, nor one computed with another low-stock threshold', () => {
    const m = new DetailsMemory();
    const before = m.generation('a');
    m.drop('a', ['p9']);
    m.set('a', 'p1', before, page('p1'));
    expect(m.get('a', 'p1', 5)).toBeUndefined();
    const beforeClear = m.generation('b');
    m.clear();
    m.set('b', 'p1', beforeClear, page('p1'));
    expect(m.get('b', 'p1', 5)).toBeUndefined();
    m.set('a', 'p1', m.generation('a'), page('p1'));
    expect(m.get('a', 'p1', 3)).toBeUndefined();
  });

  it('stays within its bounds: least read pages of a store, then least used stores, go first', () => {
    const m = new DetailsMemory(3, 5);
    for (const id of ['p1', 'p2', 'p3']) m.set('a', id, m.generation('a'), page(id));
    m.get('a', 'p1', 5);
    m.set('a', 'p4', m.generation('a'), page('p4'));
    expect(m.get('a', 'p2', 5)).toBeUndefined(); // the least recently read of a
    expect(m.get('a', 'p1', 5)).toBeDefined();
    for (const id of ['q1', 'q2']) m.set('b', id, m.generation('b'), page(id));
    expect(m.stats()).toEqual({ stores: 2, pages: 5 });
    m.set('c', 'r1', m.generation('c'), page('r1'));
    // a was used before b: the whole of a goes, b and c stay.
    expect(m.stats()).toEqual({ stores: 2, pages: 3 });
    expect(m.get('a', 'p1', 5)).toBeUndefined();
    expect(m.get('b', 'q1', 5)).toBeDefined();
  });

  it('remembers products a store does not show apart from its pages, each until its own change', () => {
    const m = new DetailsMemory(3, 5);
    m.set('a', 'p1', m.generation('a'), page('p1'));
    for (let i = 0; i < 1_000; i++) m.setMissing('a', `bot-${i}`, m.generation('a'));
    expect(m.get('a', 'p1', 5)?.productId).toBe('p1'); // a walk of unknown ids pushes no page out
    expect(m.isMissing('a', 'bot-999')).toBe(true);
    expect(m.isMissing('a', 'bot-0')).toBe(false); // bounded: the oldest went
    expect(m.isMissing('b', 'bot-999')).toBe(false);
    m.drop('a', ['bot-999']); // created or published
    expect(m.isMissing('a', 'bot-999')).toBe(false);
    const before = m.generation('a');
    m.drop('a', ['x']);
    m.setMissing('a', 'late', before); // a read the change overtook
    expect(m.isMissing('a', 'late')).toBe(false);
    m.setMissing('a', 'bot-1', m.generation('a'));
    m.drop('a');
    expect(m.isMissing('a', 'bot-1')).toBe(false);
  });

  it('lets a page expire', () => {
    const m = new DetailsMemory(10, 10, -1);
    m.set('a', 'p1', m.generation('a'), page('p1'));
    expect(m.get('a', 'p1', 5)).toBeUndefined();
  });
});

describe('the product page, read once and kept exact', () => {
  const HOST = 'garden.localhost';
  const T = 'garden';
  const B = '/skulocity/api/v1/public/ecommerce';
  let t: TestApp;
  let productId = '';
  let relatedId = '';

  const details = async (id: string): Promise<ProductDetails> => {
    const res = await t.app.inject({ url: `${B}/getproductdetails?productId=${id}`, headers: { host: HOST } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const a = schema.productAssociations;
    // A product of the seed with related products and published reviews.
    const [row] = await t.database.db
      .select({ productId: a.productId, relatedId: a.relatedProductId })
      .from(a)
      .where(
        and(
          eq(a.tenantId, T),
          eq(a.assocType, 'RELATED'),
          sql`exists (select 1 from product_reviews r where r.tenant_id = ${T} and r.product_id = ${a.productId} and r.status = 'PUBLISHED')`,
        ),
      )
      .orderBy(asc(a.productId), asc(a.sequenceNum))
      .limit(1);
    if (!row) throw new Error('the seed has no related product with reviews');
    productId = row.productId;
    relatedId = row.relatedId;
    await t.database.db
      .update(schema.products)
      .set({ stockQuantity: 40 })
      .where(and(eq(schema.products.tenantId, T), eq(schema.products.productId, relatedId)));
    t.services.events.emit('stock.changed', { tenantId: T, productIds: [relatedId] });
  });
  afterAll(() => t?.close());

  it('agrees with the store’s other reads: breadcrumb, related cards and the review summary', async () => {
    const d = await details(productId);
    const rv = schema.productReviews;
    const [{ n }] = (await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(rv)
      .where(and(eq(rv.tenantId, T), eq(rv.productId, productId), eq(rv.status, 'PUBLISHED')))) as [{ n: number }];
    expect(d.reviewSummary.count).toBe(n);
    expect(d.rating).toEqual({ average: d.reviewSummary.average, count: n });
    expect(Object.values(d.reviewSummary.distribution).reduce((s, x) => s + x, 0)).toBe(n);
    expect(d.reviewSummary.latest.length).toBe(Math.min(3, n));
    // Each related card shows the same rating and price as that product's own page.
    expect(d.related.length).toBeGreaterThan(0);
    for (const card of d.related) {
      const own = await details(card.productId);
      expect(card.rating).toEqual(own.rating);
      expect(card.price).toBe(own.price);
      expect(card.inStock).toBe(own.inStock);
    }
    // The breadcrumb ends at the product's first category, whose own page gives the same crumbs.
    const last = d.breadcrumb.at(-1);
    expect(last).toBeDefined();
    const sub = await t.app.inject({
      url: `${B}/product/subcategory?productCategoryId=${last?.productCategoryId}`,
      headers: { host: HOST },
    });
    expect(sub.json().data.breadcrumb).toEqual(d.breadcrumb);
  });

  it('shows a related product sold out, a new price, and a hidden review at once', async () => {
    const before = await details(productId);
    const card = () => before.related.find((r) => r.productId === relatedId);
    expect(card()?.inStock).toBe(true);

    const p = schema.products;
    await t.database.db
      .update(p)
      .set({ stockQuantity: 0 })
      .where(and(eq(p.tenantId, T), eq(p.productId, relatedId)));
    t.services.events.emit('stock.changed', { tenantId: T, productIds: [relatedId] });
    expect((await details(productId)).related.find((r) => r.productId === relatedId)?.inStock).toBe(false);

    await t.database.db
      .update(p)
      .set({ listPrice: 123_45, salePrice: null })
      .where(and(eq(p.tenantId, T), eq(p.productId, relatedId)));
    t.services.events.emit('catalog.changed', { tenantId: T, productIds: [relatedId] });
    expect((await details(productId)).related.find((r) => r.productId === relatedId)?.price).toBe(123_45);

    const rv = schema.productReviews;
    const [review] = await t.database.db
      .select({ id: rv.reviewId })
      .from(rv)
      .where(and(eq(rv.tenantId, T), eq(rv.productId, productId), eq(rv.status, 'PUBLISHED')))
      .limit(1);
    await t.database.db
      .update(rv)
      .set({ status: 'HIDDEN' })
      .where(and(eq(rv.tenantId, T), eq(rv.reviewId, review?.id as string)));
    t.services.events.emit('review.changed', { tenantId: T, productId });
    expect((await details(productId)).reviewSummary.count).toBe(before.reviewSummary.count - 1);
  });

  it('gives a product archived since it was read a 404', async () => {
    await details(relatedId);
    const p = schema.products;
    await t.database.db
      .update(p)
      .set({ status: 'ARCHIVED' })
      .where(and(eq(p.tenantId, T), eq(p.productId, relatedId)));
    t.services.events.emit('catalog.changed', { tenantId: T, productIds: [relatedId] });
    const res = await t.app.inject({ url: `${B}/getproductdetails?productId=${relatedId}`, headers: { host: HOST } });
    expect(res.statusCode).toBe(404);
    expect((await details(productId)).related.some((r) => r.productId === relatedId)).toBe(false);
  });

  it('remembers a product it does not show, until that product’s own catalog event', async () => {
    // relatedId is archived by the test above: a 404, now remembered.
    const ask = () => t.app.inject({ url: `${B}/getproductdetails?productId=${relatedId}`, headers: { host: HOST } });
    expect((await ask()).statusCode).toBe(404);
    const p = schema.products;
    await t.database.db
      .update(p)
      .set({ status: 'ACTIVE' })
      .where(and(eq(p.tenantId, T), eq(p.productId, relatedId)));
    // Without its event the change is not seen: the miss is answered from memory, no statement.
    expect((await ask()).statusCode).toBe(404);
    t.services.events.emit('catalog.changed', { tenantId: T, productIds: [`${relatedId}-other`] });
    expect((await ask()).statusCode).toBe(404);
    t.services.events.emit('catalog.changed', { tenantId: T, productIds: [relatedId] });
    expect((await details(relatedId)).productId).toBe(relatedId);
  });
});
