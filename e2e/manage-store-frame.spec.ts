import { readFileSync } from 'node:fs';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { axeFindings, STORES, signIn, snap } from './helpers';

/**
 * The dashboard's own frame (decision 085): a compact top bar, the sidebar, the page, a thin footer
 * with the copyright, and nothing of the shop around it; neutral colours whatever the store's
 * theme; the sidebar first in the tab order after the skip link; and no serious or moderate axe
 * finding on any dashboard page, at desktop and phone width. Read-only for the lighting store,
 * whose dashboard test expects no owner change.
 */

const lighting = STORES.lighting.url;
const WIDTHS = [1280, 375] as const;

/** A page of the owner's, signed in, in a context of its own. */
async function ownerPage(browser: Browser, store: 'lighting' | 'garden' = 'lighting') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, { base: STORES[store].url, email: `owner@${store}.test` }, '/manage-store');
  return page;
}

async function sendContactMessage(browser: Browser, base: string) {
  const visitor = await browser.newPage();
  await visitor.goto(`${base}/contact`);
  const form = visitor.getByTestId('contact-form');
  await form.getByLabel('Name').fill('Frame Test');
  await form.getByLabel('Email').fill(`frame-${Date.now()}@example.com`);
  await form.getByLabel('Message').fill('Do you ship lamps abroad?');
  await visitor.getByRole('button', { name: 'Send message' }).click();
  await expect(visitor.getByTestId('contact-sent')).toBeVisible();
  await visitor.close();
}

/** The first link on a list page that opens one of its rows. */
async function firstDetail(page: Page, list: string, pattern: RegExp, base: string = lighting): Promise<string> {
  await page.goto(`${base}${list}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const hrefs = await page.locator('main a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  const href = hrefs.map((h) => h.split(/[?#]/)[0] as string).find((h) => pattern.test(h));
  expect(href, `a row link on ${list}`).toBeTruthy();
  return href as string;
}

/** axe's findings a user would feel: moderate and up. */
// The theme editor's sample is a sketch of the store in the colours being edited: its contrast is
// the owner's choice (the editor warns when it is low), not the dashboard's.
const dashboardFindings = (page: Page) =>
  axeFindings(page, { atLeast: 'moderate', exclude: ['[data-testid=theme-sample]'] });

const LIST_PAGES = [
  '/manage-store',
  '/manage-store/orders',
  '/manage-store/orders/cleanup',
  '/manage-store/returns',
  '/manage-store/products',
  '/manage-store/products/new',
  '/manage-store/products/import',
  '/manage-store/categories',
  '/manage-store/inventory',
  '/manage-store/reviews',
  '/manage-store/customers',
  '/manage-store/messages',
  '/manage-store/promo-codes',
  '/manage-store/promo-codes/new',
  '/manage-store/settings/theme',
  '/manage-store/settings/banners',
  '/manage-store/settings/cms',
  '/manage-store/settings/cms/details',
  '/manage-store/settings/other',
  '/manage-store/settings/other/cancel',
  '/manage-store/settings/access',
  '/manage-store/settings/access/support',
  '/manage-store/settings/sitemap',
  '/manage-store/settings/shipping',
  '/manage-store/settings/carriers',
  '/manage-store/settings/domains',
  '/manage-store/settings/export',
  '/manage-store/settings/tax',
  '/manage-store/payments',
  '/manage-store/payments/issues',
  '/manage-store/payments/settings',
  '/manage-store/bonanza-connect',
];

/** One page of each kind that opens from a list: found on the list, so no seeded id is assumed. */
const DETAIL_PAGES: [string, RegExp][] = [
  ['/manage-store/products', /^\/manage-store\/products\/(?!new$|import$)[^/]+$/],
  ['/manage-store/orders', /^\/manage-store\/orders\/(?!cleanup$)[^/]+$/],
  ['/manage-store/customers', /^\/manage-store\/customers\/(?!guest\/)[^/]+$/],
  ['/manage-store/promo-codes', /^\/manage-store\/promo-codes\/(?!new$)[^/]+$/],
  ['/manage-store/returns', /^\/manage-store\/returns\/[^/]+$/],
  ['/manage-store/messages', /^\/manage-store\/messages\/[^/]+$/],
  ['/manage-store/categories', /^\/manage-store\/categories\/[^/]+$/],
  ['/manage-store/inventory', /^\/manage-store\/inventory\/[^/]+$/],
];

/** Looked at by people (the decision's figures): the pages an owner spends the day on. */
const SCREENSHOTS: Record<string, string> = {
  '/manage-store': 'home',
  '/manage-store/products': 'products',
  '/manage-store/inventory': 'inventory',
  '/manage-store/settings/other': 'store-details',
};

/**
 * What axe's rules see of a part of the page, element by element in document order: whether it is
 * rendered, and for a rendered one its colours, opacity, whether its text counts as large for the
 * contrast rule (24 px, or 18.66 px bold) and whether it scrolls (scrollable-region-focusable). The
 * DOM is the same at every width (the dashboard renders nothing by the screen's width in script:
 * its phone-only parts are CSS), so two widths with the same rendering give axe the same input,
 * only laid out differently.
 */
type Rendering = { main: string[]; frame: string[] };
const rendering = (page: Page): Promise<Rendering> =>
  page.evaluate(() => {
    const main = document.querySelector('main');
    const describe = (el: Element) => {
      const name = `${el.tagName}${el.id ? `#${el.id}` : ''}`;
      if (!el.checkVisibility({ checkVisibilityCSS: true })) return `${name} hidden`;
      const s = getComputedStyle(el);
      const size = Number.parseFloat(s.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
      const scrolls = (overflow: string, content: number, box: number) =>
        (overflow === 'auto' || overflow === 'scroll') && content > box;
      const scroll =
        scrolls(s.overflowX, el.scrollWidth, el.clientWidth) || scrolls(s.overflowY, el.scrollHeight, el.clientHeight);
      return `${name} ${s.color} ${s.backgroundColor} ${s.opacity}${large ? ' large' : ''}${scroll ? ' scrolls' : ''}`;
    };
    const all = Array.from(document.body.querySelectorAll('*'));
    return {
      main: all.filter((el) => main?.contains(el)).map(describe),
      frame: all.filter((el) => !main?.contains(el)).map(describe),
    };
  });

/**
 * The frame (top bar, menu, footer: everything outside `main`) at phone width, as the dashboard's
 * home page renders it. axe checks it there at both widths (`FRAME_PAGE`).
 */
const FRAME_PAGE = '/manage-store';
let phoneFrame: string[] | undefined;

async function checkPage(page: Page, path: string, shot?: string, base: string = lighting) {
  const found: string[] = [];
  let wide: Rendering | undefined;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${base}${path}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // At phone width axe runs only where it could find something it did not at 1280 px: where the
    // page's own content renders differently (a column or a line shown on a phone only, a table
    // that scrolls in its box), or where the frame differs from the home page's frame, which axe
    // checks at phone width. Elsewhere its input is the same as at 1280 px and at home (decision 109).
    const now = await rendering(page);
    const same =
      width !== WIDTHS[0] &&
      path !== FRAME_PAGE &&
      phoneFrame !== undefined &&
      JSON.stringify(now.main) === JSON.stringify(wide?.main) &&
      JSON.stringify(now.frame) === JSON.stringify(phoneFrame);
    if (!same) for (const f of await dashboardFindings(page)) found.push(`${path} at ${width}: ${f}`);
    else
      test.info().annotations.push({ type: 'axe', description: `${path} at ${width} px: same rendering as checked` });
    wide ??= now;
    // Nothing wider than the screen: a table scrolls in its own box, the page never sideways.
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > width) found.push(`${path} at ${width}: the page is ${scrollWidth} px wide`);
    if (shot) await snap(page, `manage-store-frame-${shot}-${width}`);
  }
  return found;
}

test('every page of the dashboard menu is among the pages axe checks', () => {
  // Read from the menu's source: a page added to the menu without its check here fails this test.
  const nav = readFileSync(
    new URL('../apps/web/app/components/manage-store/dashboard-nav.tsx', import.meta.url),
    'utf8',
  );
  const menu = [...nav.matchAll(/\bto: '(\/manage-store[^']*)'/g)].map((m) => m[1]);
  expect(menu.length).toBeGreaterThan(20);
  expect(menu.filter((path) => !LIST_PAGES.includes(path as string))).toEqual([]);
});

test.describe('axe finds nothing serious or moderate on any dashboard page', () => {
  // Signed in once per worker; each page then opens in a context with the owner's cookie.
  let state: Awaited<ReturnType<BrowserContext['storageState']>>;
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(60_000);
    const page = await ownerPage(browser);
    state = await page.context().storageState();
    // The frame at phone width as the home page renders it, for checkPage.
    await page.setViewportSize({ width: WIDTHS[1], height: 800 });
    await page.goto(`${lighting}${FRAME_PAGE}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    phoneFrame = (await rendering(page)).frame;
    await page.context().close();
  });

  for (const path of LIST_PAGES) {
    test(`${path} at ${WIDTHS.join(' and ')} px`, async ({ browser }) => {
      test.setTimeout(180_000);
      const page = await (await browser.newContext({ storageState: state })).newPage();
      const found = await checkPage(page, path, SCREENSHOTS[path]);
      expect(found).toEqual([]);
    });
  }

  for (const [list, pattern] of DETAIL_PAGES) {
    test(`a detail page from ${list} at ${WIDTHS.join(' and ')} px`, async ({ browser }) => {
      test.setTimeout(180_000);
      const messages = list === '/manage-store/messages';
      // Opening a message marks it read, an owner's change in the activity feed: in the garden store,
      // as the lighting store's dashboard test expects none. The visitor writes one first.
      const base = messages ? STORES.garden.url : lighting;
      if (messages) await sendContactMessage(browser, base);
      const page = messages
        ? await ownerPage(browser, 'garden')
        : await (await browser.newContext({ storageState: state })).newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      const path = await firstDetail(page, list, pattern, base);
      const shot = list === '/manage-store/products' ? 'product-editor' : undefined;
      const found = await checkPage(page, path, shot, base);
      expect(found).toEqual([]);
    });
  }
});

test.describe('the frame', () => {
  // Two sign-ins and a few pages each: more than the default half minute on a busy machine.
  test.describe.configure({ timeout: 90_000 });

  test('top bar, menu, page and a thin footer: nothing of the shop around the dashboard', async ({ browser }) => {
    const page = await ownerPage(browser);
    for (const path of ['/manage-store', '/manage-store/settings/theme', '/manage-store/products']) {
      await page.goto(`${lighting}${path}`);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      // No promo strip, shop header, category bar or shop footer, on settings pages as on the rest.
      for (const id of ['top-strip', 'logo', 'category-bar', 'footer', 'copyright', 'user-menu-button'])
        await expect(page.getByTestId(id), `${id} on ${path}`).toHaveCount(0);
      const top = page.getByRole('banner');
      await expect(top).toContainText('Lighting');
      await expect(top.getByRole('link', { name: 'View store' })).toHaveAttribute('href', '/');
      await expect(top).toContainText('Owner');
      await expect(top.getByRole('button', { name: 'Sign out' })).toBeVisible();
      const foot = page.getByRole('contentinfo');
      await expect(foot).toContainText('All Rights Reserved 2023');
      await expect(foot).toContainText('Powered by');
      await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
    }
    // Compact: the top bar and the footer take about a hundred pixels between them.
    const chrome = await page.evaluate(() =>
      ['header', 'footer'].map((s) => document.querySelector(s)?.getBoundingClientRect().height ?? 0),
    );
    expect(chrome[0]).toBeLessThanOrEqual(64);
    expect(chrome[1]).toBeLessThanOrEqual(72);
    // Signing out from the top bar ends the session and lands on the shop.
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${lighting}/`);
    await expect(page.getByTestId('login-link')).toBeVisible();
    await page.context().close();
  });

  test('a store’s theme does not reach the dashboard: same greys for an orange and a green store', async ({
    browser,
  }) => {
    /** The frame's colours, and what the theme's utilities (bg-brand, bg-action) draw inside it. */
    const colours = async (page: Page, base: string) => {
      await page.goto(`${base}/manage-store`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // The keyboard's focus on the menu's first link: its outline is the focus colour.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      return page.evaluate(() => {
        const css = (el: Element | null, p: string) => (el ? getComputedStyle(el).getPropertyValue(p) : 'missing');
        const probe = (cls: string) => {
          const el = document.createElement('span');
          el.className = cls;
          document.querySelector('main')?.append(el);
          const c = getComputedStyle(el).backgroundColor;
          el.remove();
          return c;
        };
        const link = document.activeElement;
        return {
          top: css(document.querySelector('header'), 'background-color'),
          menu: css(document.querySelector('nav[aria-label="Dashboard"]'), 'background-color'),
          page: css(document.querySelector('main')?.parentElement ?? null, 'background-color'),
          current: css(document.querySelector('nav [aria-current="page"]'), 'color'),
          focus: css(link, 'outline-color'),
          brand: probe('bg-brand'),
          action: probe('bg-action'),
          themeStyle: document.querySelectorAll('style[data-theme]').length,
        };
      });
    };
    const lightingOwner = await ownerPage(browser, 'lighting');
    const gardenOwner = await ownerPage(browser, 'garden');
    const a = await colours(lightingOwner, lighting);
    const b = await colours(gardenOwner, STORES.garden.url);
    expect(b).toEqual(a);
    expect(a).toMatchObject({
      top: 'rgb(26, 26, 26)',
      page: 'rgb(241, 241, 241)',
      focus: 'rgb(0, 91, 211)',
      brand: 'rgb(23, 23, 23)',
      action: 'rgb(23, 23, 23)',
      themeStyle: 0,
    });
    // A loud theme on the page itself (as a visit from the shop, client-side, could leave one)
    // changes nothing either.
    await lightingOwner.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const loud = document.createElement('style');
        loud.textContent = ':root{--brand:255, 0, 255;--medium:0, 255, 0;--dark:255, 255, 0;--action:255, 0, 0}';
        document.head.append(loud);
      });
    });
    expect(await colours(lightingOwner, lighting)).toEqual(a);
    // The shop keeps its own colours.
    await lightingOwner.goto(`${lighting}/`);
    await expect(lightingOwner.locator('style[data-theme]')).toHaveCount(1);
    await lightingOwner.context().close();
    await gardenOwner.context().close();
  });

  for (const width of WIDTHS) {
    test(`at ${width} px the keyboard meets the skip link, then the menu, then the page`, async ({ browser }) => {
      const page = await ownerPage(browser);
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${lighting}/manage-store/products`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const nav = page.getByRole('navigation', { name: 'Dashboard' });
      const inside = (selector: string) => page.evaluate((s) => Boolean(document.activeElement?.closest(s)), selector);
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
      // The menu: every link from md up, the one disclosure button on a phone.
      const stops = width >= 768 ? await nav.getByRole('link').count() : 1;
      expect(stops).toBeGreaterThan(0);
      for (let i = 0; i < stops; i++) {
        await page.keyboard.press('Tab');
        expect(await inside('nav[aria-label="Dashboard"]'), `tab stop ${i + 2} is in the menu`).toBe(true);
      }
      if (width >= 768) await expect(nav.getByRole('link').first()).toHaveText('Home');
      await page.keyboard.press('Tab');
      expect(await inside('main'), 'after the menu comes the page').toBe(true);
      // The skip link takes the keyboard straight to the page.
      await page.goto(`${lighting}/manage-store/products`);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await inside('main'), 'after the skip link comes the page').toBe(true);
      await page.context().close();
    });
  }
});
