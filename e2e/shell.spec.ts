import { expect, type Page, test } from '@playwright/test';
import {
  apiJson,
  expectNoSeriousA11yIssue,
  fetchText,
  holdApp,
  hydrated,
  STORE_NAMES,
  STORES,
  type StoreName,
  snap,
} from './helpers';
import { PORT } from './playwright.config';

interface Category {
  productCategoryId: string;
  categoryName: string | null;
  description: string | null;
  linkTwoImageUrl: string | null;
  linkTwoImageUrlS3: string | null;
}
interface Catalog {
  prodCatalogId: string;
  catalogName: string;
  categoryList: Category[];
}
interface Page_ {
  pageTitle: string;
  pageUrl: string;
  pageLinks: string[];
}

const mainData = async (page: Page, store: StoreName) =>
  (await apiJson<{ data: { catalogCol: Catalog[] } }>(page, store, '/skulocity/api/v1/public/ecommerce/categories'))
    .data.catalogCol;
const cmsPages = async (page: Page, store: StoreName) =>
  (await apiJson<{ data: Page_[] }>(page, store, '/api/v1/cms/fetch')).data;
const details = async (page: Page, store: StoreName) =>
  (
    await apiJson<{
      data: Record<string, never> & { companyName: string; storeName: string; promotionTitle: string | null };
    }>(page, store, '/api/v1/store/detail/fetch')
  ).data;

test.describe('server-rendered frame', () => {
  for (const store of STORE_NAMES) {
    test(`${store}: the HTML of / already holds catalogs, theme colours and template`, async ({ page }) => {
      const html = (await fetchText(store, '/')).body;
      const catalogs = await mainData(page, store);
      for (const c of catalogs) expect(html).toContain(c.catalogName.replace(/&/g, '&amp;'));
      expect(html).toMatch(/--brand:\d{1,3}, \d{1,3}, \d{1,3}/);
      expect(html).toContain(`data-template="${STORES[store].template}"`);
    });
  }

  for (const store of STORE_NAMES) {
    test(`${store}: the store's theme colours are what the page is painted with`, async ({ page }) => {
      const { data } = await apiJson<{ data: { themeColors: Record<'primary' | 'action' | 'banner', string> } }>(
        page,
        store,
        `/api/v1/store/config/fetch?productStoreId=${STORES[store].storeId}`,
      );
      await page.goto(`${STORES[store].url}/`);
      const rgb = (v: string) =>
        `rgb(${v
          .split(',')
          .map((x) => x.trim())
          .join(', ')})`;
      const search = page.getByTestId('search-desktop').locator('xpath=ancestor::form//button[@type="submit"]');
      await expect(search).toHaveCSS('background-color', rgb(data.themeColors.action));
      await expect(page.getByTestId('top-strip')).toHaveCSS('background-color', rgb(data.themeColors.banner));
    });
  }

  test('each store looks like itself on desktop and at 375 px', async ({ page }) => {
    // Six page loads and six full-page screenshots: on a busy two-core machine that passed 30 s.
    test.setTimeout(60_000);
    for (const store of STORE_NAMES) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${STORES[store].url}/`);
      await expect(page.getByTestId('logo')).toBeVisible();
      await snap(page, `home-${store}-desktop`);
      await page.setViewportSize({ width: 375, height: 812 });
      await page.reload();
      await expect(page.getByTestId('search-mobile')).toBeVisible();
      await expect(page.getByTestId('search-desktop')).toBeHidden();
      await snap(page, `home-${store}-mobile`);
    }
  });
});

test.describe('top strip', () => {
  test('shows the promotion title, TOP page links and EN, $', async ({ page }) => {
    await page.goto('/');
    const d = await details(page, 'lighting');
    await expect(page.getByTestId('promotion-title')).toHaveText(d.promotionTitle as string);
    await expect(page.getByTestId('locale-label')).toHaveText('EN, $');
    const top = (await cmsPages(page, 'lighting')).filter((p) => p.pageLinks.includes('TOP'));
    expect(top.length).toBeGreaterThan(0);
    for (const p of top)
      await expect(page.getByTestId('top-strip').getByRole('link', { name: p.pageTitle })).toHaveAttribute(
        'href',
        `/page/details/${p.pageUrl}`,
      );
  });

  test("shows 'Promotion title is not set.' when the store has none", async ({ page }) => {
    await page.goto(`${STORES.power.url}/`);
    await expect(page.getByTestId('promotion-title')).toHaveText('Promotion title is not set.');
  });
});

test.describe('header', () => {
  test('DEFAULT: Log in link, wishlist and cart with count, no labels', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('login-link')).toContainText('Log in');
    await expect(page.getByTestId('cart-count')).toHaveText('0');
    await expect(page.getByText('Shopping Cart')).toHaveCount(0);
    await expect(page.getByText('My Wishlist')).toHaveCount(0);
    await page.getByTestId('logo').click();
    await expect(page).toHaveURL(`${STORES.lighting.url}/`);
  });

  test('ONE: Sign in or Create Account, Shopping Cart and My Wishlist labels', async ({ page }) => {
    await page.goto(`${STORES.garden.url}/`);
    await expect(page.getByTestId('login-link')).toContainText('Sign in or Create Account');
    await expect(page.getByTestId('cart-link')).toContainText('Shopping Cart');
    await expect(page.getByTestId('wishlist-link')).toContainText('My Wishlist');
  });
});

test.describe('search box', () => {
  test('Enter opens the results page; empty does nothing; leaving the page clears it', async ({ page }) => {
    await page.goto('/faqs');
    const box = page.getByTestId('search-desktop');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/faqs$/);
    await box.fill('brass lamp');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/product\/search\/brass%20lamp$/);
    await expect(box).toHaveValue('brass lamp');
    await page.getByTestId('logo').click();
    await expect(page).toHaveURL(`${STORES.lighting.url}/`);
    await expect(box).toHaveValue('');
  });

  test('text typed before the app has loaded is searched for once it has, and gets suggestions', async ({ page }) => {
    const release = await holdApp(page);
    await page.goto('/faqs');
    const box = page.getByTestId('search-desktop');
    await box.fill('pendant');
    release();
    await hydrated(page);
    await expect(page.getByRole('listbox')).toBeVisible();
    await box.press('Escape');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/product\/search\/pendant$/);
  });

  test('the mobile box works the same at 375 px', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/');
    const box = page.getByTestId('search-mobile');
    await box.fill('pendant');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/product\/search\/pendant$/);
  });

  test('works without JavaScript through the form', async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    // Empty does nothing here too: the shopper stays on the page the form was on.
    await page.goto(`${STORES.lighting.url}/faqs`);
    await page.getByTestId('search-desktop').press('Enter');
    await expect(page).toHaveURL(/\/faqs$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByTestId('search-desktop').fill('desk lamp');
    await page.getByTestId('search-desktop').press('Enter');
    await expect(page).toHaveURL(/\/product\/search\/desk%20lamp$/);
    await ctx.close();
  });
});

test.describe('category bar', () => {
  test('a tab opens its overlay; the same tab closes it; another switches', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    const catalogs = await mainData(page, 'lighting');
    const [first, second] = catalogs;
    const bar = page.getByTestId('category-bar');
    await bar.getByRole('button', { name: first!.catalogName }).click();
    const overlay = page.getByTestId('category-overlay');
    await expect(overlay).toBeVisible();
    await expect(overlay.getByTestId('overlay-category')).toHaveCount(first!.categoryList.length);
    await snap(page, 'category-overlay-lighting');
    await bar.getByRole('button', { name: second!.catalogName }).click();
    await expect(overlay).toHaveAttribute('aria-label', `${second!.catalogName} categories`);
    await bar.getByRole('button', { name: second!.catalogName }).click();
    await expect(overlay).toBeHidden();
  });

  test('a tab clicked while the app is still loading opens once it has loaded', async ({ page }) => {
    const release = await holdApp(page);
    await page.goto('/');
    const [first] = await mainData(page, 'lighting');
    const tab = page.getByTestId('category-bar').getByRole('button', { name: first!.catalogName });
    await tab.click();
    await expect(page.getByTestId('category-overlay')).toHaveCount(0);
    release();
    await expect(page.getByTestId('category-overlay')).toHaveAttribute(
      'aria-label',
      `${first!.catalogName} categories`,
    );
    await expect(tab).toHaveAttribute('aria-expanded', 'true');
    // Held once, not twice: the next click closes it, and React alone handles it.
    await tab.click();
    await expect(page.getByTestId('category-overlay')).toBeHidden();
  });

  test('labels and images follow the fallback rules', async ({ page }) => {
    await page.goto('/');
    for (const store of STORE_NAMES) {
      await page.goto(`${STORES[store].url}/`);
      await hydrated(page);
      const catalogs = await mainData(page, store);
      for (const catalog of catalogs) {
        await page.getByTestId('category-bar').getByRole('button', { name: catalog.catalogName, exact: true }).click();
        const items = page.getByTestId('category-overlay').getByTestId('overlay-category');
        for (const [i, c] of catalog.categoryList.entries()) {
          const label = c.categoryName || c.description || c.productCategoryId;
          await expect(items.nth(i)).toHaveText(label);
          const expected = c.linkTwoImageUrl?.startsWith('http')
            ? c.linkTwoImageUrl
            : c.linkTwoImageUrlS3 || '/no-product-image.svg';
          await expect(items.nth(i).locator('img')).toHaveAttribute('src', expected);
        }
        await page.keyboard.press('Escape');
      }
    }
  });

  test('the first four overlays open to the right, the rest to the left', async ({ page }) => {
    await page.goto(`${STORES.power.url}/`);
    const catalogs = await mainData(page, 'power');
    expect(catalogs.length).toBeGreaterThanOrEqual(6);
    for (const [i, c] of catalogs.entries()) {
      await page.getByTestId('category-bar').getByRole('button', { name: c.catalogName, exact: true }).click();
      await expect(page.getByTestId('category-overlay')).toHaveAttribute('data-direction', i < 4 ? 'right' : 'left');
      if (i === 5) await snap(page, 'category-overlay-power-left');
    }
  });

  test('the More tab lists MENU pages', async ({ page }) => {
    await page.goto('/');
    const menu = (await cmsPages(page, 'lighting')).filter((p) => p.pageLinks.includes('MENU'));
    await page.getByTestId('category-bar').getByRole('button', { name: 'More' }).click();
    for (const p of menu) {
      await expect(page.getByTestId('category-overlay').getByRole('link', { name: p.pageTitle })).toHaveAttribute(
        'href',
        `/page/details/${p.pageUrl}`,
      );
    }
  });

  test('keyboard: focus moves into the overlay; Escape closes it and returns focus', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    const [first] = await mainData(page, 'lighting');
    const tab = page.getByTestId('category-bar').getByRole('button', { name: first!.catalogName });
    await tab.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('category-overlay').getByRole('link').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('category-overlay')).toBeHidden();
    await expect(tab).toBeFocused();
  });
});

test.describe('footer', () => {
  for (const store of STORE_NAMES) {
    test(`${store}: categories, Quick Links, Learn More, FOOTER links, contact, subscribe, copyright`, async ({
      page,
    }) => {
      await page.goto(`${STORES[store].url}/`);
      const cats: Category[] = [];
      for (const c of (await mainData(page, store)).flatMap((x) => x.categoryList)) {
        if (!cats.some((y) => y.productCategoryId === c.productCategoryId)) cats.push(c);
      }
      const label = (c: Category) => c.description || c.categoryName || c.productCategoryId;
      const col1 = page.getByTestId('footer-categories-1').getByRole('link');
      const col2 = page.getByTestId('footer-categories-2').getByRole('link');
      await expect(col1).toHaveCount(Math.min(5, cats.length));
      await expect(col2).toHaveCount(Math.max(0, Math.min(5, cats.length - 5)));
      await expect(col1.first()).toHaveText(label(cats[0]!));
      await expect(col1.first()).toHaveAttribute('href', `/categories/${cats[0]!.productCategoryId}`);
      await expect(col2.last()).toHaveText(label(cats[Math.min(10, cats.length) - 1]!));
      await expect(page.getByTestId('footer-quick-links').getByRole('link')).toHaveCount(Math.min(10, cats.length));

      const pages = await cmsPages(page, store);
      const bottom = pages.filter((p) => p.pageLinks.includes('BOTTOM'));
      const learn = page.getByTestId('footer-learn-more');
      if (bottom.length) {
        await expect(learn.getByRole('heading')).toHaveText('Learn More');
        for (const p of bottom) {
          const titled = p.pageTitle.replace(/\b([a-z])/g, (m, _c, i) =>
            i === 0 || !/^(a|an|and|as|at|but|by|for|in|of|on|or|the|to)\b/.test(p.pageTitle.slice(i))
              ? m.toUpperCase()
              : m,
          );
          await expect(learn.getByRole('link', { name: titled })).toHaveAttribute('href', `/page/details/${p.pageUrl}`);
        }
      } else {
        await expect(learn).toHaveCount(0);
      }
      for (const p of pages.filter((x) => x.pageLinks.includes('FOOTER'))) {
        await expect(page.getByTestId('footer-bottom-links').getByRole('link', { name: p.pageTitle })).toHaveAttribute(
          'href',
          `/page/details/${p.pageUrl}`,
        );
      }
      await expect(page.getByTestId('footer').getByRole('link', { name: 'Contact Seller' })).toHaveAttribute(
        'href',
        '/contact',
      );
      const icons = page.getByTestId('social-icons').getByRole('img');
      await expect(icons).toHaveCount(4);
      await expect(page.getByTestId('social-icons').getByRole('link')).toHaveCount(0);
      const copyright = page.getByTestId('copyright');
      await expect(copyright).toContainText('All Rights Reserved 2023');
      await expect(copyright).toContainText('Powered by');
      const d = await details(page, store);
      await expect(copyright).toContainText(d.companyName || d.storeName);
    });
  }

  test('garden shows its newsletter embed in a sandboxed frame; lighting the email field', async ({ page }) => {
    await page.goto(`${STORES.garden.url}/`);
    const frame = page.getByTestId('newsletter-embed');
    await expect(frame).toHaveAttribute('sandbox', 'allow-forms allow-popups');
    // The frame loads lazily, when the footer comes near the screen.
    await frame.scrollIntoViewIfNeeded();
    await expect(page.frameLocator('[data-testid=newsletter-embed]').locator('input[type=email]')).toBeVisible();
    await expect(page.getByPlaceholder('Email address')).toHaveCount(0);
    await page.goto(`${STORES.lighting.url}/`);
    const email = page.getByTestId('newsletter-fallback').getByPlaceholder('Email address');
    await expect(email).toHaveAttribute('type', 'email');
  });

  test('power has no address or phone: the placeholders show', async ({ page }) => {
    await page.goto(`${STORES.power.url}/`);
    await expect(page.getByTestId('company-address')).toHaveText('Company Address Goes Here');
    await expect(page.getByTestId('company-phone')).toHaveText('123-456-7890');
  });
});

test.describe('layout by route and the guard', () => {
  test('auth pages hide header, top strip, category bar, footer and copyright', async ({ page }) => {
    for (const path of ['/auth/login', '/auth/register', '/auth/forgot-password']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      for (const id of ['top-strip', 'category-bar', 'footer', 'copyright', 'logo'])
        await expect(page.getByTestId(id)).toHaveCount(0);
    }
    await snap(page, 'auth-forgot-password');
  });

  test('order history shows the frame but no category bar; other routes show everything', async ({ page }) => {
    await page.goto('/order/history');
    await expect(page.getByTestId('top-strip')).toBeVisible();
    await expect(page.getByTestId('footer')).toBeVisible();
    await expect(page.getByTestId('category-bar')).toHaveCount(0);
    // Route changes recompute the frame.
    await page.getByTestId('logo').click();
    await expect(page.getByTestId('category-bar')).toBeVisible();
    await page.goto('/cart');
    await expect(page.getByTestId('category-bar')).toBeVisible();
  });

  for (const path of ['/account/profile', '/account/payment-methods', '/manage-store/settings/theme']) {
    test(`a visitor who is not logged in is sent from ${path} to login with redirectUrl`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(`${STORES.lighting.url}/auth/login?redirectUrl=${encodeURIComponent(path)}`);
      await expect(page.locator('input[name=redirectUrl]')).toHaveValue(path);
    });
  }

  test('a redirectUrl to another site is never honoured', async ({ page }) => {
    await page.goto(`/auth/login?redirectUrl=${encodeURIComponent('//evil.example/x')}`);
    await expect(page.locator('input[name=redirectUrl]')).toHaveValue('/');
  });
});

test.describe('tenancy, SEO and accessibility', () => {
  test("an unknown host shows 'Tenant is not setup.' as page and toast", async ({ page }) => {
    const res = await page.goto(`http://nowhere.shop.test:${PORT}/`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tenant is not setup.');
    await expect(page.getByRole('alert')).toContainText('Tenant is not setup.');
    await expect(page.getByRole('alert')).toContainText('Error!!!');
  });

  test('.shop.test hosts serve their store like .localhost', async ({ page }) => {
    await page.goto(`http://garden.shop.test:${PORT}/`);
    await expect(page.getByTestId('login-link')).toContainText('Sign in or Create Account');
  });

  test('title, keywords, description, canonical and Open Graph come from the SEO config', async ({ page }) => {
    const seo = await apiJson<Array<{ route: string; title: string; description: string; keywords: string }>>(
      page,
      'lighting',
      '/assets/seo-meta.config.json',
    );
    const home = seo.find((e) => e.route === '/')!;
    await page.goto('/');
    await expect(page).toHaveTitle(home.title);
    await expect(page.locator('meta[name=description]')).toHaveAttribute('content', home.description);
    await expect(page.locator('meta[name=keywords]')).toHaveAttribute('content', home.keywords);
    await expect(page.locator('link[rel=canonical]')).toHaveAttribute('href', 'https://lighting.localhost/');
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', home.title);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const cart = seo.find((e) => e.route === '/cart')!;
    await page.goto('/cart');
    await expect(page).toHaveTitle(cart.title);
  });

  for (const store of STORE_NAMES) {
    test(`${store}: no serious or critical accessibility violation on the home page`, async ({ page }) => {
      await page.goto(`${STORES[store].url}/`);
      // The newsletter embed is a sandboxed frame without scripts: axe cannot run inside it.
      await expectNoSeriousA11yIssue(page);
    });
  }

  for (const store of STORE_NAMES) {
    test(`${store}: the home page raises no browser issue (CSP, mixed content, cookies)`, async ({ page }) => {
      const cdp = await page.context().newCDPSession(page);
      const issues: string[] = [];
      cdp.on('Audits.issueAdded', (e) => issues.push(JSON.stringify(e.issue).slice(0, 300)));
      await cdp.send('Audits.enable');
      await page.goto(`${STORES[store].url}/`, { waitUntil: 'networkidle' });
      await page.getByTestId('category-bar').getByRole('button').first().click();
      expect(issues).toEqual([]);
    });
  }

  test('toasts sit top right', async ({ page }) => {
    await page.goto(`http://nowhere.shop.test:${PORT}/`);
    const box = await page.getByRole('alert').boundingBox();
    const vp = page.viewportSize()!;
    expect(box!.y).toBeLessThan(60);
    expect(box!.x + box!.width).toBeGreaterThan(vp.width - 40);
  });
});

test.describe('behaviour', () => {
  test('scroll position is restored when going back', async ({ page }) => {
    await page.goto('/');
    const link = page.getByTestId('footer-categories-1').getByRole('link').first();
    await link.scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThan(500);
    await link.click();
    await expect(page).toHaveURL(/\/categories\//);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(50);
    await page.goBack();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before - 50);
  });

  test('store values are kept in browser storage for scripts and later visits', async ({ page }) => {
    await page.goto(`${STORES.garden.url}/`);
    await expect(page.getByTestId('logo')).toBeVisible();
    // The logo is server-rendered; the values are written once the app runs, at the first intent.
    await hydrated(page);
    const stored = await page.evaluate(() => ({ ...window.localStorage }));
    expect(stored.productStoreId).toBe('9001');
    expect(stored.template).toBe('ONE');
    expect(stored.isLogin).toBe('false');
    const main = JSON.parse(stored.mainData ?? '{}') as { catalogCol?: unknown[] };
    expect(main.catalogCol?.length).toBeGreaterThanOrEqual(2);
    // Later navigations use what the page already holds: no refetch of the store's start-up data.
    const refetched: string[] = [];
    page.on('request', (r) => {
      if (/\/(main|store\/config\/fetch|store\/detail\/fetch|cms\/fetch)\b/.test(r.url())) refetched.push(r.url());
    });
    await page.getByTestId('footer').getByRole('link', { name: 'Contact Seller' }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await page.getByTestId('logo').click();
    await expect(page).toHaveURL(`${STORES.garden.url}/`);
    expect(refetched).toEqual([]);
  });

  test('an error toast shows Error!!! and leaves after five seconds', async ({ page }) => {
    // The page's clock is the test's: it jumps the five seconds instead of waiting them out. Once
    // the toast shows, the clock stops a second later and moves only when the test moves it.
    await page.clock.install();
    await page.goto(`http://nowhere.shop.test:${PORT}/`);
    const toast = page.getByRole('alert');
    await expect(toast).toContainText('Error!!!');
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.clock.runFor(2500);
    await expect(toast).toBeVisible();
    await page.clock.runFor(2000);
    await expect(toast).toBeHidden();
  });
});
