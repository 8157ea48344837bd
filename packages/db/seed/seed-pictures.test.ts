import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/client';
import * as s from '../src/schema/index';
import { openTestDatabase } from '../src/testing';
import { builtStores, productGlyph } from './build';
import { GLYPHS } from './glyphs';
import { renderSeedImage, SEED_STORES } from './index';

// The pictures the seed draws: the same on any database, so in the pglite project only (decision
// 083). What the seed writes is in seed.test.ts, on each database.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ seeded: true });
});
afterAll(async () => {
  await database.close();
});

const tenants = SEED_STORES.map((x) => x.tenantId);

describe('seed pictures', () => {
  it('draws product, category and banner pictures as WebP and the logo as SVG', async () => {
    const product = await renderSeedImage('seed/lighting/products/lgt-1001-medium.webp');
    expect(product?.contentType).toBe('image/webp');
    expect(product?.body.subarray(8, 12).toString()).toBe('WEBP');
    const { default: sharp } = await import('sharp');
    expect((await sharp(product?.body).metadata()).width).toBe(800);
    expect((await renderSeedImage('seed/garden/categories/grd_houseplants.webp'))?.contentType).toBe('image/webp');
    const banner = await renderSeedImage('seed/power/banners/pwr-banner-1.webp');
    expect((await sharp(banner?.body).metadata()).width).toBe(1600);
    const logo = await renderSeedImage('seed/garden/logo.svg');
    expect(logo?.body.toString()).toContain('Fernwood Garden Supply');
  });

  it('can draw the picture of every seeded product and category', async () => {
    const keys: string[] = [];
    for (const t of tenants) {
      const products = await database.db.select().from(s.products).where(eq(s.products.tenantId, t));
      for (const p of products) keys.push((p.smallImageUrl ?? p.detailImageUrl ?? '').replace(/^\/media\//, ''));
      const categories = await database.db.select().from(s.categories).where(eq(s.categories.tenantId, t));
      for (const c of categories) keys.push((c.linkTwoImageUrl ?? c.linkTwoImageUrlS3 ?? '').replace(/^\/media\//, ''));
      // The pictures of a product sold in variants, one per finish, are media rows whose keys the seed draws.
      for (const m of await database.db.select().from(s.media).where(eq(s.media.tenantId, t))) keys.push(m.storageKey);
    }
    expect(keys).toContain('seed/lighting/products/lgt-1005-brass-detail.webp');
    const missing: string[] = [];
    for (const key of keys) if (!(await renderSeedImage(key))) missing.push(key);
    expect(missing).toEqual([]);
  });

  it('draws what a product is: kinds outside its category and no category of one repeated shape', () => {
    for (const b of builtStores()) for (const [, art] of b.art) expect(GLYPHS[art.glyph]).toBeTypeOf('function');
    expect(productGlyph('Smart Dimmer Switch', 'bulb')).toBe('dimmer');
    expect(productGlyph('Pruning Saw 13-Inch', 'shears')).toBe('pruning-saw');
    const lighting = builtStores().find((b) => b.store.tenantId === 'lighting');
    const pendants = (lighting?.products ?? []).filter((p) => /pendant/i.test(p.productName));
    const shapes = new Set(pendants.map((p) => lighting?.art.get(p.productId.toLowerCase())?.glyph));
    expect(shapes.size).toBeGreaterThanOrEqual(5);
  });

  it('is deterministic and knows only its own keys', async () => {
    const a = await renderSeedImage('seed/power/products/pwr-1001-small.webp');
    const b = await renderSeedImage('seed/power/products/pwr-1001-small.webp');
    expect(a?.body.equals(b?.body as Buffer)).toBe(true);
    expect(await renderSeedImage('seed/power/products/lgt-1001-small.webp')).toBeNull();
    expect(await renderSeedImage('seed/nobody/logo.svg')).toBeNull();
    expect(await renderSeedImage('t/lighting/upload.webp')).toBeNull();
  });
});
