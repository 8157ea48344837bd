import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * Promo codes in the dashboard: the owner of the garden store creates a code of
 * this run's own (a refused value first, shown next to its field), a guest in a browser of its own
 * buys with it, and the code's page shows it used once, by that order. Touches no seeded code.
 */

const garden = STORES.garden.url;
const owner = { base: garden, email: 'owner@garden.test' };
const LIST = '/manage-store/promo-codes';

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-promo-codes-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-promo-codes-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function fillCard(form: Locator) {
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Month').fill('12');
  await form.getByLabel('Year').fill('2099');
  await form.getByLabel('CVC').fill('123');
  await form.getByLabel('Name on card').fill('Grace Hopper');
}

test('the owner creates a promo code, a guest buys with it, and the code shows the order', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const code = `SPRING-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

  await signIn(page, owner, LIST);
  await expect(page.getByRole('heading', { level: 1, name: 'Promo codes' })).toBeVisible();
  await page.getByRole('link', { name: 'Create promo code' }).first().click();
  await expect(page).toHaveURL(`${garden}${LIST}/new`);

  // A percentage above 100 is refused next to its field; what was typed stays.
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code.toLowerCase());
  await page.getByLabel('Percentage', { exact: true }).check();
  await page.getByLabel('Percentage off', { exact: true }).fill('150');
  await page.getByLabel('Description').fill('20% off for spring (E2E)');
  await page.getByLabel('Minimum subtotal').fill('1.00');
  await page.getByRole('button', { name: 'Create promo code' }).click();
  await expect(page.getByTestId('error-value')).toHaveText('Enter a percentage from 1 to 100.');
  await expect(page.getByRole('textbox', { name: 'Code', exact: true })).toHaveValue(code.toLowerCase());
  await expect(page.getByLabel('Percentage off', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await screenshots(page, 'new-error');

  await page.getByLabel('Percentage off', { exact: true }).fill('20');
  await page.getByLabel('Uses per customer').fill('1');
  await page.getByRole('button', { name: 'Create promo code' }).click();
  await expect(page).toHaveURL(new RegExp(`${LIST}/${code}$`));
  await expect(page.getByText('Promo code created.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: code })).toBeVisible();
  await expect(page.getByTestId('promo-summary')).toHaveText('20% off orders over $1.00');
  await expect(page.getByTestId('promo-used')).toContainText('0');
  await expect(page.getByText('Not used yet')).toBeVisible();

  // The list has it, active; the status filter finds it.
  await page.goto(`${garden}${LIST}?status=active`);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: code }) });
  await expect(row).toContainText('20% off orders over $1.00');
  await expect(row).toContainText('Active');
  await page.goto(`${garden}${LIST}?status=inactive`);
  await expect(page.getByRole('link', { name: code })).toHaveCount(0);

  // A guest, in a browser of its own, buys with it.
  const guestContext = await browser.newContext();
  const shop = await guestContext.newPage();
  await shop.goto(`${garden}/product/search/seed?inStock=true`);
  await shop.getByTestId('product-card').first().getByRole('link').first().click();
  await shop.getByTestId('add-to-cart').click();
  await expect(shop).toHaveURL(`${garden}/cart`);
  await shop.getByLabel('Promo code').fill(code.toLowerCase());
  await shop.getByRole('button', { name: 'Apply' }).click();
  await expect(shop.getByTestId('applied-promo')).toContainText(code);
  await expect(shop.getByTestId('cart-discount')).toBeVisible();
  await snap(shop, 'admin-promo-codes-cart-1280');
  await shop.getByRole('link', { name: 'Check out' }).click();
  await expect(shop).toHaveURL(`${garden}/checkout`);
  const form = shop.getByTestId('checkout-form');
  await form.getByLabel('Email').fill('spring-guest@example.com');
  await form.getByLabel('Full name').fill('Grace Hopper');
  await form.getByLabel('Street address').fill('1 Market Street');
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Postal code').fill('94105');
  await form.getByLabel('State or region').selectOption('US_CA');
  await fillCard(form);
  await shop.getByRole('button', { name: 'Place order' }).click();
  await expect(shop.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(shop.getByTestId('order-totals')).toContainText(code);
  const orderId = ((await shop.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Order ', '').trim();
  expect(orderId).toMatch(/^GAR-[A-Z0-9]{8}$/);
  await guestContext.close();

  // The code's page: used once, by that order, which links to the order's page.
  await page.goto(`${garden}${LIST}/${code}`);
  await expect(page.getByTestId('promo-used')).toHaveText(/^1 \(no limit\), once per customer$/);
  const orders = page.getByRole('table', { name: `Orders that used ${code}` });
  await expect(orders.getByRole('row')).toHaveCount(2);
  const link = orders.getByRole('link', { name: orderId });
  await expect(link).toHaveAttribute('href', `/manage-store/orders/${orderId}`);
  await expect(orders).toContainText('spring-guest@example.com');
  // A used code cannot be deleted, only deactivated.
  await expect(page.getByRole('button', { name: 'Delete code' })).toHaveCount(0);
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'code-used');

  await page.getByRole('button', { name: 'Deactivate code' }).click();
  await expect(page.getByText(`${code} deactivated.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Activate code' })).toBeVisible();

  await page.goto(`${garden}${LIST}`);
  const listed = page.getByRole('row').filter({ has: page.getByRole('link', { name: code }) });
  await expect(listed).toContainText('Inactive');
  await expect(listed.getByRole('cell').nth(3)).toHaveText('1');
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'list');

  // Keyboard: the list's first link and the filter are reachable with Tab.
  await page.getByLabel('Status').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Show' })).toBeFocused();
});
