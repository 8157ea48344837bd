import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { fetchText, STORES, snap } from './helpers';

/**
 * The storefront follows the owner's catalog at once. Only products this spec makes are
 * changed (names unique to it: "Quillon ..."), through the product editor's API as the signed-in
 * owner, as the editor page itself does.
 */
const power = STORES.power.url;
const cards = (page: Page) => page.getByTestId('product-grid').first().getByTestId('product-card');

/** The power store's owner, signed in, on the product list. */
async function signedInOwner(owner: Page): Promise<Page> {
  await owner.goto(`${power}/auth/login?redirectUrl=${encodeURIComponent('/manage-store/products')}`);
  await owner.getByLabel('Email').fill('owner@power.test');
  await owner.getByLabel('Password').fill('owner-demo-1');
  await owner.getByRole('button', { name: 'Log in' }).click();
  await expect(owner).toHaveURL(`${power}/manage-store/products`);
  return owner;
}

/** A plain square picture of one colour, as PNG bytes (base64, to cross into the page). */
const picture = async (colour: string) =>
  (
    await sharp({ create: { width: 400, height: 400, channels: 3, background: colour } })
      .png()
      .toBuffer()
  ).toString('base64');

/**
 * Creates (POST) or changes (PUT) a product of the power store through the editor's API from the
 * owner's page, uploading `pictures` first; answers the product's id.
 */
async function writeProduct(
  owner: Page,
  body: { productId?: string; fields: Record<string, unknown>; pictures?: string[] },
): Promise<string> {
  // As an API client: the session's token as a bearer token (the API's way for scripts; no form token).
  const token = (await owner.context().cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  const res = await owner.evaluate(
    async ({ token, body }) => {
      const headers = { authorization: `Bearer ${token}` };
      const images: { mediaId: string; altText: string }[] = [];
      for (const [i, b64] of (body.pictures ?? []).entries()) {
        const form = new FormData();
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        form.append('file', new Blob([bytes], { type: 'image/png' }), `view-${i + 1}.png`);
        const up = await fetch('/skulocity/api/v1/catalog/products/images/upload', {
          method: 'POST',
          headers,
          body: form,
        });
        if (!up.ok) return { status: up.status, text: `upload: ${await up.text()}` };
        const name = String(body.fields.productName);
        images.push({ mediaId: (await up.json()).data.mediaId, altText: `${name}, view ${i + 1}` });
      }
      const path = body.productId
        ? `/skulocity/api/v1/catalog/products/${body.productId}`
        : '/skulocity/api/v1/catalog/products';
      const r = await fetch(path, {
        method: body.productId ? 'PUT' : 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ fields: body.fields, ...(images.length ? { images } : {}) }),
      });
      return { status: r.status, text: await r.text() };
    },
    { token, body },
  );
  expect(res.status, res.text).toBeLessThan(300);
  return JSON.parse(res.text).data.productId as string;
}

const fields = (name: string, sku: string, status: string) => ({ productName: name, sku, listPrice: 2599, status });

test('an archived product leaves search and its page 404s; a draft shows its owner a bar; a gallery shows both pictures', async ({
  page,
  browser,
}) => {
  // The owner works in the test's own page; a shopper looks at the storefront in a context of their own.
  const owner = await signedInOwner(page);
  const shopperContext = await browser.newContext();
  const shopper = await shopperContext.newPage();
  const archivedId = await writeProduct(owner, { fields: fields('Quillon Archive Grinder', 'QSF-ARCH', 'ACTIVE') });
  const draftId = await writeProduct(owner, { fields: fields('Quillon Draft Planer', 'QSF-DRAFT', 'DRAFT') });
  const galleryId = await writeProduct(owner, {
    fields: fields('Quillon Gallery Jigsaw', 'QSF-GAL', 'ACTIVE'),
    pictures: [await picture('#b45309'), await picture('#1e3a8a')],
  });

  // Found while ACTIVE; archived, it is gone from search at once and its page is a 404.
  await shopper.goto(`${power}/product/search/quillon`);
  await expect(cards(shopper).getByText('Quillon Archive Grinder')).toBeVisible();
  await expect(cards(shopper).getByText('Quillon Draft Planer')).toHaveCount(0);
  await writeProduct(owner, {
    productId: archivedId,
    fields: fields('Quillon Archive Grinder', 'QSF-ARCH', 'ARCHIVED'),
  });
  await shopper.goto(`${power}/product/search/quillon`);
  await expect(cards(shopper).getByText('Quillon Gallery Jigsaw')).toBeVisible();
  await expect(cards(shopper).getByText('Quillon Archive Grinder')).toHaveCount(0);
  await snap(shopper, 'admin-storefront-follows-search');
  const gone = await shopper.goto(`${power}/quillon-archive-grinder/${archivedId}`);
  expect(gone?.status()).toBe(404);
  expect((await fetchText('power', `/quillon-draft-planer/${draftId}`)).status).toBe(404);

  // The owner previews the draft, with the bar saying shoppers do not see it.
  await owner.goto(`${power}/quillon-draft-planer/${draftId}`);
  await expect(owner.getByTestId('product-preview-bar')).toHaveText('Draft: not visible to shoppers');
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText('Quillon Draft Planer');
  await snap(owner, 'admin-storefront-follows-draft-preview');

  // Two pictures: both shown, each named by its alt text; choosing the second shows it large.
  await shopper.goto(`${power}/quillon-gallery-jigsaw/${galleryId}`);
  const gallery = shopper.getByTestId('gallery');
  const main = gallery.getByTestId('gallery-main');
  await expect(main).toHaveAttribute('alt', 'Quillon Gallery Jigsaw, view 1');
  const thumbs = gallery.getByRole('button', { name: /^Show picture \d of 2/ });
  await expect(thumbs).toHaveCount(2);
  await thumbs.nth(1).focus();
  await shopper.keyboard.press('Enter');
  await expect(main).toHaveAttribute('alt', 'Quillon Gallery Jigsaw, view 2');
  await expect(thumbs.nth(1)).toHaveAttribute('aria-pressed', 'true');
  // Every picture has its box before it loads: no layout shift.
  const box = await main.boundingBox();
  expect(box && Math.abs(box.width - box.height)).toBeLessThan(2);
  await snap(shopper, 'admin-storefront-follows-gallery');
});
