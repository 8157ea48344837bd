import { formatMoney } from '@app/contracts/client';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/** The owner's dashboard: its home's figures, its menu by keyboard and on a phone, and who is let in. */

const lighting = STORES.lighting.url;
const owner = { base: lighting, email: 'owner@lighting.test', password: 'owner-demo-1' };
const shopper = { base: lighting, email: 'shopper@lighting.test', password: 'shopper-demo-1' };

interface Home {
  currency: string;
  analytics: { sales: { value: number }; orders: { value: number }; series: unknown[] };
  toFulfil: { count: number; orders: { orderId: string }[] };
  lowStock: { products: { productName: string; stock: number }[] };
}

/** The API's answer for the signed-in browser, from the page itself (its cookie, its origin). */
const apiHome = (page: Page) =>
  page.evaluate(async () => (await (await fetch('/api/v1/dashboard/home')).json()).data) as Promise<Home>;

test.describe('the owner', () => {
  test('sees the home with the store’s real figures, then reaches a settings page by keyboard', async ({ page }) => {
    await signIn(page, owner, '/manage-store');
    const dashboard = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await expect(dashboard.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');

    // Other browser tests place orders at the same time: compare with the API in one go, again
    // if an order landed in between.
    await expect(async () => {
      await page.reload();
      const home = await apiHome(page);
      // The home opens on the last 30 days, as the API answers without a range.
      const sales = page.getByRole('region', { name: 'Sales, last 30 days' });
      await expect(sales).toContainText(formatMoney(home.analytics.sales.value, home.currency), { timeout: 1000 });
      const orders = page.getByRole('region', { name: 'Orders, last 30 days' });
      await expect(orders).toContainText(home.analytics.orders.value.toLocaleString('en-US'), { timeout: 1000 });
      // The chart's table: a header row and one row per day.
      const chart = page.getByRole('region', { name: 'Sales over time' });
      await expect(chart.getByRole('row')).toHaveCount(home.analytics.series.length + 1, { timeout: 1000 });
      const toFulfil = page.getByRole('region', { name: 'Orders to fulfil' }).getByRole('listitem');
      await expect(toFulfil).toHaveCount(home.toFulfil.orders.length, { timeout: 1000 });
      for (const [i, o] of home.toFulfil.orders.entries()) {
        await expect(toFulfil.nth(i)).toContainText(o.orderId, { timeout: 1000 });
      }
    }).toPass({ timeout: 20_000 });
    // The seed has paid orders in the last 30 days and products out of stock.
    expect((await apiHome(page)).analytics.orders.value).toBeGreaterThan(0);
    const lowStock = page.getByRole('region', { name: 'Low stock' }).getByRole('listitem');
    await expect(lowStock.first()).toContainText('Out of stock');
    // The owner reads the audit log; no dashboard change has been made in this run's store yet.
    await expect(page.getByRole('region', { name: 'Latest activity' })).toContainText('No changes yet');
    await snap(page, 'manage-store-home-1280');
    await expectNoSeriousA11yIssue(page);

    // Keyboard: from Home down the menu to Theme, Enter.
    await dashboard.getByRole('link', { name: 'Home' }).focus();
    for (const name of [
      'Orders',
      'Returns',
      'Products',
      'Categories',
      'Inventory',
      'Reviews',
      'Customers',
      'Messages',
      'Promo codes',
      'Theme',
    ]) {
      await page.keyboard.press('Tab');
      await expect(dashboard.getByRole('link', { name })).toBeFocused();
    }
    const theme = dashboard.getByRole('link', { name: 'Theme' });
    // Focus is visible: the outline the whole site draws for keyboard focus.
    expect(await theme.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await snap(page, 'manage-store-keyboard-focus');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${lighting}/manage-store/settings/theme`);
    await expect(theme).toHaveAttribute('aria-current', 'page');
    await expect(dashboard.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    await expect(dashboard.locator('[aria-current="page"]')).toHaveCount(1);
    // The dashboard's own frame on settings pages as on the rest (decision 085): its top bar and
    // a thin footer with the copyright, none of the shop's header, category bar or footer.
    await expect(page.getByRole('banner')).toContainText('Lighting');
    await expect(page.getByRole('contentinfo')).toContainText('All Rights Reserved 2023');
    for (const id of ['logo', 'top-strip', 'category-bar', 'footer']) await expect(page.getByTestId(id)).toHaveCount(0);
    await snap(page, 'manage-store-theme-1280');
  });

  test('finds the Payments page: the PayPal card with what to do next', async ({ page }) => {
    await signIn(page, owner, '/manage-store/payments');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payments');
    // The PayPal card with the connection's status; other browser tests connect this
    // store meanwhile, so which status is theirs to check.
    const card = page.getByRole('region', { name: 'PayPal' });
    await expect(card.getByTestId('paypal-status')).toHaveText(/^(Not connected|Waiting for PayPal|Connected)$/);
    await expect(page.getByRole('link', { name: 'PayPal settings' })).toBeVisible();
    await snap(page, 'manage-store-payments');
  });

  test('marketplace connect is full screen, with a way out', async ({ page }) => {
    await signIn(page, owner, '/manage-store/bonanza-connect');
    await expect(page.getByTestId('logo')).toHaveCount(0);
    await expect(page.getByTestId('footer')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toHaveCount(0);
    await snap(page, 'manage-store-full-screen');
    await page.getByRole('link', { name: 'Exit to dashboard home' }).click();
    await expect(page).toHaveURL(`${lighting}/manage-store`);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the menu opens and closes, and choosing a page closes it', async ({ page }) => {
    await signIn(page, owner, '/manage-store');
    const menu = page.getByRole('button', { name: /^Menu/ });
    // The button sits in the menu's landmark; what it opens and closes is the list of links.
    const nav = page.locator(`[id="${await menu.getAttribute('aria-controls')}"]`);
    await expect(
      page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: /^Menu/ }),
    ).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toContainText('Home');
    await expect(nav).toBeHidden();
    await snap(page, 'manage-store-home-375');

    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await snap(page, 'manage-store-menu-open-375');
    await expectNoSeriousA11yIssue(page);
    // Escape closes it and puts focus back on the button.
    await nav.getByRole('link', { name: 'Orders' }).focus();
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    await menu.click();
    await nav.getByRole('link', { name: 'Banners' }).click();
    await expect(page).toHaveURL(`${lighting}/manage-store/settings/banners`);
    await expect(nav).toBeHidden();
    await expect(menu).toContainText('Banners');
    await menu.click();
    await expect(nav.getByRole('link', { name: 'Banners' })).toHaveAttribute('aria-current', 'page');
    await menu.click();
    await expect(nav).toBeHidden();
  });

  test('a shopper sees the 403 page in the store frame', async ({ page }) => {
    await signIn(page, shopper, '/account/profile');
    const res = await page.goto(`${lighting}/manage-store`);
    expect(res?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
    await expect(page.getByTestId('logo')).toBeVisible();
    await snap(page, 'manage-store-403-375');
  });
});

test.describe('who is let in', () => {
  test('a shopper opening /manage-store gets a 403 page with the store’s header and a way home', async ({ page }) => {
    await signIn(page, shopper, '/account/profile');
    const res = await page.goto(`${lighting}/manage-store`);
    expect(res?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
    await expect(page.getByText('You are signed in as Sam, with a customer account.')).toBeVisible();
    // The store's own frame, not the bare error page; and nothing of the dashboard.
    await expect(page.getByTestId('logo')).toBeVisible();
    await expect(page.getByTestId('footer')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toHaveCount(0);
    await expect(page.getByText('Sales over time')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/account/profile');
    await snap(page, 'manage-store-403-1280');
    await expectNoSeriousA11yIssue(page);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(`${lighting}/`);
  });

  test('a visitor is sent to login with the page as redirectUrl, and lands on it after', async ({ page }) => {
    await page.goto(`${lighting}/manage-store`);
    await expect(page).toHaveURL(`${lighting}/auth/login?redirectUrl=%2Fmanage-store`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(`${lighting}/manage-store`);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  });
});
