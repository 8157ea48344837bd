import { gzipSync } from 'node:zlib';
import { expect, type Locator, test } from '@playwright/test';
import { apiJson, fetchText, STORES, type StoreName, snap } from './helpers';

interface Catalog {
  prodCatalogId: string;
  catalogName: string;
  categoryList: Array<{ productCategoryId: string }>;
}
interface CmsPage {
  pageTitle: string;
  pageUrl: string;
  pageLinks: string[];
}

const catalogsOf = async (store: StoreName) =>
  (await apiJson<{ data: { catalogCol: Catalog[] } }>(null, store, '/skulocity/api/v1/public/ecommerce/categories'))
    .data.catalogCol;
const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
};

/** The category bar is plain HTML (the Popover API); no script is needed. */
test.describe('category bar without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a tab opens its overlay, another switches, More lists MENU pages, a category navigates', async ({ page }) => {
    const [first, second] = await catalogsOf('lighting');
    const menu = (await apiJson<{ data: CmsPage[] }>(null, 'lighting', '/api/v1/cms/fetch')).data.filter((p) =>
      p.pageLinks.includes('MENU'),
    );
    expect(menu.length).toBeGreaterThan(0);
    await page.goto('/');
    const bar = page.getByTestId('category-bar');
    const overlayOf = (name: string) => page.getByRole('region', { name });

    const firstTab = bar.getByRole('button', { name: first!.catalogName, exact: true });
    await firstTab.click();
    const firstOverlay = overlayOf(`${first!.catalogName} categories`);
    await expect(firstOverlay).toBeVisible();
    await expect(firstOverlay.getByRole('link')).toHaveCount(first!.categoryList.length);
    // Under the bar, aligned with its tab.
    const [tabBox, overlayBox] = [await box(firstTab), await box(firstOverlay)];
    expect(Math.abs(overlayBox.x - tabBox.x)).toBeLessThan(2);
    expect(overlayBox.y).toBeGreaterThanOrEqual(tabBox.y + tabBox.height - 1);
    await snap(page, 'category-overlay-nojs-1280');
    await page.screenshot({ path: 'test-results/screenshots/category-overlay-nojs-1280-top.png' });

    // Another tab switches; the selected tab closes its own.
    await bar.getByRole('button', { name: second!.catalogName, exact: true }).click();
    await expect(overlayOf(`${second!.catalogName} categories`)).toBeVisible();
    await expect(firstOverlay).toBeHidden();
    await bar.getByRole('button', { name: second!.catalogName, exact: true }).click();
    await expect(overlayOf(`${second!.catalogName} categories`)).toBeHidden();

    await bar.getByRole('button', { name: 'More', exact: true }).click();
    for (const p of menu) {
      await expect(overlayOf('More pages').getByRole('link', { name: p.pageTitle })).toHaveAttribute(
        'href',
        `/page/details/${p.pageUrl}`,
      );
    }

    // At 375 px the overlay fits the screen.
    await page.setViewportSize({ width: 375, height: 812 });
    await firstTab.click();
    await expect(firstOverlay).toBeVisible();
    const small = await box(firstOverlay);
    expect(small.x).toBeGreaterThanOrEqual(0);
    expect(small.x + small.width).toBeLessThanOrEqual(375);
    await snap(page, 'category-overlay-nojs-375');
    await page.screenshot({ path: 'test-results/screenshots/category-overlay-nojs-375-top.png' });

    const category = first!.categoryList[0]!;
    await firstOverlay.getByRole('link').first().click();
    await expect(page).toHaveURL(`${STORES.lighting.url}/categories/${category.productCategoryId}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('the first four overlays open to the right of their tab, the rest to the left', async ({ page }) => {
    const catalogs = await catalogsOf('power');
    expect(catalogs.length).toBeGreaterThanOrEqual(6);
    await page.goto(`${STORES.power.url}/`);
    const bar = page.getByTestId('category-bar');
    for (const [i, c] of catalogs.entries()) {
      const tab = bar.getByRole('button', { name: c.catalogName, exact: true });
      await tab.click();
      const overlay = page.getByRole('region', { name: `${c.catalogName} categories` });
      await expect(overlay).toBeVisible();
      const [t, o] = [await box(tab), await box(overlay)];
      if (i < 4) expect(Math.abs(o.x - t.x)).toBeLessThan(2);
      else expect(Math.abs(o.x + o.width - (t.x + t.width))).toBeLessThan(2);
      if (i === 5) await page.screenshot({ path: 'test-results/screenshots/category-overlay-nojs-power-left.png' });
    }
  });

  test('the overlays, sent in the HTML for every tab, keep the home page light', async () => {
    const html = (await fetchText('lighting', '/')).body;
    const overlays = html.match(/<section id="category-overlay-[\s\S]*?<\/section>/g) ?? [];
    const catalogs = await catalogsOf('lighting');
    expect(overlays.length).toBe(catalogs.length + 1);
    // Measured at 5.2 KB for lighting's 20 categories and 2 MENU pages (the home page grew from
    // 109.6 KB to 115.1 KB, about 16.6 KB gzipped): styles live in app.css, not on every link.
    expect(overlays.join('').length).toBeLessThan(6_000);
    expect(gzipSync(html).length).toBeLessThan(18_000);
  });
});
