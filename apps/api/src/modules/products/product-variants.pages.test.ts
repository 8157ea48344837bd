import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import { createTestApp, type TestApp } from '../../test/harness';
import { givenStorefrontVariants } from './storefront-variants-test-setup';

// The product page of a product with variants as the page server renders it (decision 112): the
// picker's markup, the "Show" button's GET that the loader answers with ?variant= (303), sold-out and
// missing combinations, and the structured data. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const T = 'lighting';
const host = `${T}.localhost`;

let t: TestApp;
let href = '';
let singleHref = '';
/** Brass / Small, Brass / Large, Black / Small (sold out), Black / Large, Opal / Small; no Opal / Large. */
let ids: Record<string, string> = {};
let values: Record<string, string>[] = [];
let pictures: string[] = [];

const page = (url: string) => t.app.inject({ url, headers: { host } });

/** The radio of a value, as rendered. */
const radio = (html: string, valueId: string) =>
  new RegExp(`<input[^>]*name="option\\.O\\d"[^>]*value="${valueId}"[^>]*>`).exec(html)?.[0] ?? '';

const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1] as string),
  );

beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  const db = t.database.db;
  const ctx = systemContext(
    { tenantId: T, productStoreId: '9000', hostName: host, viaDevAlias: false, origin: `http://${host}` },
    'product-variants-pages-test',
  );
  const p = schema.products;
  const rows = await db
    .select({ id: p.productId, slug: p.slug })
    .from(p)
    .where(and(eq(p.tenantId, T), eq(p.status, 'ACTIVE'), eq(p.productType, 'FINISHED_GOOD')))
    .orderBy(asc(p.productId))
    .limit(2);
  const [product, single] = rows as [{ id: string; slug: string }, { id: string; slug: string }];
  href = `/${product.slug}/${product.id}`;
  singleHref = `/${single.slug}/${single.id}`;
  const made = await givenStorefrontVariants(db, ctx, product.id, {
    options: [
      {
        name: 'Finish',
        values: [
          { label: 'Brass', swatchColor: '#b5a642' },
          { label: 'Black', swatchColor: '#222222' },
          { label: 'Opal' },
        ],
      },
      { name: 'Size', values: [{ label: 'Small' }, { label: 'Large' }] },
    ],
    variants: [
      { values: ['Brass', 'Small'], stock: 5, listPrice: 120_00 },
      { values: ['Brass', 'Large'], stock: 3, listPrice: 150_00, pictures: [1] },
      { values: ['Black', 'Small'], stock: 0, listPrice: 120_00 },
      { values: ['Black', 'Large'], stock: 4, listPrice: 160_00 },
      { values: ['Opal', 'Small'], stock: 2, listPrice: 130_00 },
    ],
    pictures: 2,
  });
  const [brassSmall, brassLarge, blackSmall, blackLarge, opalSmall] = made.variantIds as string[];
  ids = { brassSmall, brassLarge, blackSmall, blackLarge, opalSmall } as Record<string, string>;
  values = made.valueIds;
  pictures = made.mediaIds;
  // Barcodes: Brass / Large's and the single-variant product's (its default variant has its id).
  const pv = schema.productVariants;
  await db
    .update(pv)
    .set({ barcode: '00012345678905' })
    .where(and(eq(pv.tenantId, T), eq(pv.variantId, brassLarge as string)));
  await db
    .update(pv)
    .set({ barcode: '4006381333931' })
    .where(and(eq(pv.tenantId, T), eq(pv.variantId, single.id)));
  t.services.events.emit('catalog.changed', { tenantId: T, productIds: [product.id, single.id] });
});
afterAll(() => t?.close());

describe('the product page with the variant picker', () => {
  it('renders a group of radios per option in the purchase form, swatches, and the variant asked for', async () => {
    const res = await page(`${href}?variant=${ids.brassLarge}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    const form = /<form[^>]*data-testid="add-to-cart-form"[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    expect(form).toContain('data-testid="variant-picker"');
    expect(form.match(/<fieldset[^>]*data-testid="variant-option"/g)).toHaveLength(2);
    expect(form).toMatch(/<legend[^>]*><span[^>]*>Finish<\/span><span>: <!-- -->Brass<\/span><\/legend>/);
    expect(radio(form, values[0]?.Brass as string)).toContain('checked');
    expect(radio(form, values[1]?.Large as string)).toContain('checked');
    expect(radio(form, values[1]?.Small as string)).not.toContain('checked');
    // Swatches where a value has a colour; Opal has none and is a plain button.
    expect(form).toContain('background-color:#b5a642');
    expect(form).toContain('background-color:#222222');
    // What Add to cart posts: the product (what the cart takes today) and the variant.
    expect(form).toContain(`name="variantId" value="${ids.brassLarge}"`);
    expect(form).toMatch(
      /<button[^>]*formMethod="get"[^>]*>Show<\/button>|<button[^>]*formmethod="get"[^>]*>Show<\/button>/i,
    );
    // Price, SKU and the first picture are the variant's.
    expect(html).toMatch(/data-testid="price-current" data-amount="15000"/);
    expect(html).toContain(`${pictures[1]}.webp`);
    const main = /<img[^>]*data-testid="gallery-main"[^>]*>/.exec(html)?.[0] ?? '';
    expect(main).toContain(`${pictures[1]}.webp`);
    expect(html).toMatch(/Only (<!-- -->)?3(<!-- -->)? left in stock/);
  });

  it('marks sold-out and missing combinations, and offers no Add to cart for a sold-out variant', async () => {
    // From Brass / Large: Black / Large exists, Opal / Large does not.
    const large = (await page(`${href}?variant=${ids.brassLarge}`)).body;
    expect(radio(large, values[0]?.Black as string)).toContain('data-state="available"');
    expect(radio(large, values[0]?.Opal as string)).toContain('data-state="unavailable"');
    expect(radio(large, values[0]?.Opal as string)).toContain('aria-label="Opal, unavailable"');
    // From Brass / Small: Black / Small is sold out.
    const small = (await page(`${href}?variant=${ids.brassSmall}`)).body;
    expect(radio(small, values[0]?.Black as string)).toContain('data-state="sold-out"');
    // Black / Small chosen: sold out, Add to cart disabled.
    const soldOut = (await page(`${href}?variant=${ids.blackSmall}`)).body;
    const button = /<button[^>]*data-testid="add-to-cart"[^>]*>[\s\S]*?<\/button>/.exec(soldOut)?.[0] ?? '';
    expect(button).toContain('disabled');
    expect(button).toContain('Sold out');
    expect(soldOut).toMatch(/data-testid="stock-status"[^>]*>[\s\S]*?Sold out/);
  });

  it('answers the "Show" button without JavaScript with the variant’s address (303)', async () => {
    const show = (fields: Record<string, string>) => page(`${href}?${new URLSearchParams(fields)}`);
    const form = (from: string, finish: string, size: string) => ({
      _csrf: 'x',
      intent: 'add',
      productId: href.split('/')[2] as string,
      variantId: from,
      'option.O1': values[0]?.[finish] as string,
      'option.O2': values[1]?.[size] as string,
      quantity: '1',
    });
    const black = await show(form(ids.brassLarge as string, 'Black', 'Large'));
    expect(black.statusCode).toBe(303);
    expect(black.headers.location).toBe(`${href}?variant=${ids.blackLarge}`);
    // A combination that does not exist: the nearest, keeping the value just chosen.
    const opal = await show(form(ids.brassLarge as string, 'Opal', 'Large'));
    expect(opal.statusCode).toBe(303);
    expect(opal.headers.location).toBe(`${href}?variant=${ids.opalSmall}`);
    // The address it leads to shows that variant.
    const shown = await page(opal.headers.location as string);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(`name="variantId" value="${ids.opalSmall}"`);
  });

  it('shows the default selection for a variant it does not offer, never a 404', async () => {
    for (const v of ['NOPE', ids.brassLarge?.replace(/^/, 'X'), '%3Cx%3E']) {
      const res = await page(`${href}?variant=${v}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`name="variantId" value="${ids.brassSmall}"`);
    }
  });

  it('says "From" on the card of a product whose variants differ in price, not on the others', async () => {
    const res = await page('/categories/LGT_PENDANTS');
    expect(res.statusCode).toBe(200);
    const cards = [...res.body.matchAll(/<article[^>]*data-product-id="([^"]+)"[\s\S]*?<\/article>/g)];
    const ofProduct = cards.find((c) => c[1] === href.split('/')[2])?.[0] ?? '';
    expect(ofProduct).toMatch(/data-testid="price-from"[^>]*>From<\/span>/);
    expect(ofProduct).toContain('data-amount="12000"');
    // The seed sells a few products in variants too: those whose variants differ in price say "From"
    // (the Ostra pendant), those sold at one price (the Bexley pendant) and single-variant ones do not.
    const p = schema.products;
    const ranged = new Set(
      (
        await t.database.db
          .select({ id: p.productId, low: p.effectivePrice, high: p.priceMax, n: p.variantCount })
          .from(p)
          .where(eq(p.tenantId, T))
      )
        .filter((r) => r.n > 1 && r.high !== r.low)
        .map((r) => r.id),
    );
    expect(ranged.has(href.split('/')[2] as string)).toBe(true);
    const others = cards.filter((c) => !ranged.has(c[1] as string));
    expect(others.length).toBeGreaterThan(0);
    for (const c of others) expect(c[0]).not.toContain('price-from');
    const seeded = cards.filter((c) => c[1] !== href.split('/')[2] && ranged.has(c[1] as string));
    expect(seeded.length).toBeGreaterThan(0);
    for (const c of seeded) expect(c[0]).toMatch(/data-testid="price-from"[^>]*>From<\/span>/);
  });

  it('describes a ProductGroup with an Offer per variant, and a single-variant product as a Product', async () => {
    const [group] = jsonLd((await page(href)).body);
    expect(group['@type']).toBe('ProductGroup');
    expect(group.productGroupID).toBe(href.split('/')[2]);
    expect(group.variesBy).toEqual(['https://schema.org/size']);
    expect(group.hasVariant).toHaveLength(5);
    const blackSmall = group.hasVariant.find((v: { offers: { url: string } }) =>
      v.offers.url.endsWith(`?variant=${ids.blackSmall}`),
    );
    expect(blackSmall).toMatchObject({
      '@type': 'Product',
      size: 'Small',
      offers: { '@type': 'Offer', price: '120.00', availability: 'https://schema.org/OutOfStock' },
    });
    expect(blackSmall.name).toMatch(/, Black \/ Small$/);
    const [single] = jsonLd((await page(singleHref)).body);
    expect(single['@type']).toBe('Product');
    expect(single.offers['@type']).toBe('Offer');
    expect(single.hasVariant).toBeUndefined();
  });

  it("gives a variant's barcode as its gtin, and a single-variant product's as the Product's", async () => {
    const [group] = jsonLd((await page(href)).body);
    const gtins = Object.fromEntries(
      group.hasVariant.map((v: { offers: { url: string }; gtin?: string }) => [v.offers.url.split('=')[1], v.gtin]),
    );
    expect(gtins[ids.brassLarge as string]).toBe('00012345678905');
    // No barcode, no gtin (an empty one would be an error in a search engine's report).
    expect(Object.keys(gtins)).toContain(ids.brassSmall);
    expect(gtins[ids.brassSmall as string]).toBeUndefined();
    const [single] = jsonLd((await page(singleHref)).body);
    expect(single.gtin).toBe('4006381333931');
  });

  it('sends "Show" without JavaScript through a GET form of its own: no CSRF token in the address', async () => {
    const html = (await page(`${href}?variant=${ids.brassLarge}`)).body;
    const showForm = /<form[^>]*data-testid="variant-show-form"[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    const formId = /id="([^"]+)"/.exec(showForm)?.[1] as string;
    expect(showForm).toMatch(/method="get"/);
    // What a browser sends for it: the fields inside it, and the radios and button tied to it by `form`.
    const fields = new URLSearchParams();
    for (const m of showForm.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
      fields.append(m[1] as string, m[2] as string);
    const radios = [...html.matchAll(/<input[^>]*type="radio"[^>]*>/g)].map((m) => m[0]);
    const tied = radios.filter((r) => r.includes(`form="${formId}"`));
    expect(tied.length).toBe(radios.filter((r) => r.includes('name="option.')).length);
    for (const r of tied.filter((x) => x.includes('checked'))) {
      fields.append(/name="([^"]+)"/.exec(r)?.[1] as string, /value="([^"]+)"/.exec(r)?.[1] as string);
    }
    expect(/<button[^>]*data-testid="variant-show"[^>]*>/.exec(html)?.[0]).toContain(`form="${formId}"`);
    // Choosing Black instead of Brass.
    fields.set('option.O1', values[0]?.Black as string);
    expect([...fields.keys()].sort()).toEqual(['option.O1', 'option.O2', 'variantId']);
    expect(fields.toString()).not.toMatch(/csrf/i);
    const shown = await page(`${href}?${fields}`);
    expect(shown.statusCode).toBe(303);
    expect(shown.headers.location).toBe(`${href}?variant=${ids.blackLarge}`);
  });

  it('lists option values as facets on the category page, as links of a GET form, and filters by them', async () => {
    const id = href.split('/')[2] as string;
    const listed = (html: string) => [...html.matchAll(/<article[^>]*data-product-id="([^"]+)"/g)].map((m) => m[1]);
    const all = (await page('/categories/LGT_PENDANTS')).body;
    // Without JavaScript the facets are checkboxes of the filter form (a GET), as brands are.
    expect(all).toMatch(/<legend[^>]*>Size<\/legend>/);
    expect(all).toMatch(/<input[^>]*type="checkbox"[^>]*name="option.size"[^>]*value="large"/);
    expect(all).toMatch(/<input[^>]*type="checkbox"[^>]*name="option.finish"[^>]*value="opal"/);
    // Only this product has a Size: Large lists it alone; Opal in Large is a combination it lacks.
    const large = await page('/categories/LGT_PENDANTS?option.size=large');
    expect(large.statusCode).toBe(200);
    expect(listed(large.body)).toEqual([id]);
    expect(large.body).toContain('Size: Large');
    expect(listed((await page('/categories/LGT_PENDANTS?option.size=large&option.finish=opal')).body)).toEqual([]);
    expect(listed((await page('/categories/LGT_PENDANTS?option.size=small&option.finish=opal')).body)).toEqual([id]);
    // Black / Small is sold out: with the in-stock filter, Black in Small no longer lists it.
    expect(
      listed((await page('/categories/LGT_PENDANTS?option.size=small&option.finish=black&inStock=true')).body),
    ).toEqual([]);
  });
});
