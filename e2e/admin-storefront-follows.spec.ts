import { request } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { fetchText, STORES, snap } from './helpers';
import { PORT } from './playwright.config';

/**
 * Issue 16: the storefront follows the owner's catalog at once. Only products this spec makes are
 * changed (names unique to it: "Quillon ..."), through the test-only fixture route that writes
 * them as the owner with writeProduct and the same catalog.changed event as the editor.
 */
const power = STORES.power.url;
const cards = (page: Page) => page.getByTestId('product-grid').first().getByTestId('product-card');

/** Creates or changes a product of the power store as its owner; answers its id. */
function writeProduct(body: {
  productId?: string;
  fields: Record<string, unknown>;
  pictures?: number;
}): Promise<string> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: PORT,
        method: 'POST',
        path: '/__e2e/catalog/product',
        headers: {
          host: new URL(power).host,
          origin: power,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(JSON.parse(text).data.productId as string)
            : reject(new Error(`fixture: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const fields = (name: string, sku: string, status: string) => ({ productName: name, sku, listPrice: 2599, status });

test('an archived product leaves search and its page 404s; a draft shows its owner a bar; a gallery shows both pictures', async ({
  page,
  browser,
}) => {
  const archivedId = await writeProduct({ fields: fields('Quillon Archive Grinder', 'QSF-ARCH', 'ACTIVE') });
  const draftId = await writeProduct({ fields: fields('Quillon Draft Planer', 'QSF-DRAFT', 'DRAFT') });
  const galleryId = await writeProduct({ fields: fields('Quillon Gallery Jigsaw', 'QSF-GAL', 'ACTIVE'), pictures: 2 });

  // Found while ACTIVE; archived, it is gone from search at once and its page is a 404.
  await page.goto(`${power}/product/search/quillon`);
  await expect(cards(page).getByText('Quillon Archive Grinder')).toBeVisible();
  await expect(cards(page).getByText('Quillon Draft Planer')).toHaveCount(0);
  await writeProduct({ productId: archivedId, fields: fields('Quillon Archive Grinder', 'QSF-ARCH', 'ARCHIVED') });
  await page.goto(`${power}/product/search/quillon`);
  await expect(cards(page).getByText('Quillon Gallery Jigsaw')).toBeVisible();
  await expect(cards(page).getByText('Quillon Archive Grinder')).toHaveCount(0);
  await snap(page, 'admin-storefront-follows-search');
  const gone = await page.goto(`${power}/quillon-archive-grinder/${archivedId}`);
  expect(gone?.status()).toBe(404);
  expect((await fetchText('power', `/quillon-draft-planer/${draftId}`)).status).toBe(404);

  // The owner previews the draft, with the bar saying shoppers do not see it.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await owner.goto(`${power}/auth/login?redirectUrl=${encodeURIComponent(`/quillon-draft-planer/${draftId}`)}`);
  await owner.getByLabel('Email').fill('owner@power.test');
  await owner.getByLabel('Password').fill('owner-demo-1');
  await owner.getByRole('button', { name: 'Log in' }).click();
  await expect(owner).toHaveURL(`${power}/quillon-draft-planer/${draftId}`);
  await expect(owner.getByTestId('product-preview-bar')).toHaveText('Draft: not visible to shoppers');
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText('Quillon Draft Planer');
  await snap(owner, 'admin-storefront-follows-draft-preview');
  await ownerContext.close();

  // Two pictures: both shown, each named by its alt text; choosing the second shows it large.
  await page.goto(`${power}/quillon-gallery-jigsaw/${galleryId}`);
  const gallery = page.getByTestId('gallery');
  const main = gallery.getByTestId('gallery-main');
  await expect(main).toHaveAttribute('alt', 'Quillon Gallery Jigsaw, view 1');
  const thumbs = gallery.getByRole('button', { name: /^Show picture \d of 2/ });
  await expect(thumbs).toHaveCount(2);
  await thumbs.nth(1).focus();
  await page.keyboard.press('Enter');
  await expect(main).toHaveAttribute('alt', 'Quillon Gallery Jigsaw, view 2');
  await expect(thumbs.nth(1)).toHaveAttribute('aria-pressed', 'true');
  // Every picture has its box before it loads: no layout shift.
  const box = await main.boundingBox();
  expect(box && Math.abs(box.width - box.height)).toBeLessThan(2);
  await snap(page, 'admin-storefront-follows-gallery');
});
