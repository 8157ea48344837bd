import { expect, type Page, test } from '@playwright/test';
import { getDocumentProxy } from 'unpdf';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * Decision 116 on the garden store: the owner switches it to prices with tax included and sets a tax
 * number on the Taxes page; a guest buys two of this run's product at its shelf price, and the cart,
 * checkout, order page and invoice all show that price with California's tax "included"; the owner
 * refunds one unit, and the refund and what is left add up to the order. The store is switched back
 * at the end, so the other specs meet it as seeded.
 */

const base = STORES.garden.url;
const owner = { base, email: 'owner@garden.test' };
const run = `TX${Date.now().toString(36).toUpperCase()}`;
const TAX_NUMBER = `GRD-${run}`;
// $107.25 holds exactly $7.25 of California's 7.25 %: two hold $14.50, and Standard ships free above $99.
const SHELF = 10725;

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `settings-tax-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `settings-tax-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function pdfText(bytes: number[]) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const parts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  return parts.join(' ').replace(/\s+/g, ' ');
}

async function saveSettings(page: Page, withTax: boolean, taxNumber: string) {
  await page.goto(`${base}/manage-store/settings/tax`);
  const form = page.getByRole('form', { name: 'Tax settings' });
  await form.getByLabel(withTax ? /^With tax included/ : /^Without tax/).check();
  await form.getByLabel('Tax registration number').fill(taxNumber);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Tax settings saved' }).first()).toBeVisible();
}

test('the owner switches to prices with tax; cart, checkout, order, invoice and a refund add up', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, owner, '/manage-store/settings/tax');

  // The Taxes page: the seeded rates are there to edit; a rate that is not a percentage is refused inline.
  await expect(page.getByRole('heading', { level: 1, name: 'Taxes' })).toBeVisible();
  const rates = page.getByRole('table', { name: 'Tax rates' });
  await expect(rates.getByRole('row', { name: /California/ })).toContainText('7.25 %');
  await expect(rates.getByRole('row', { name: /Ontario/ })).toContainText('Taxed');
  const add = page.getByRole('form', { name: 'Add a tax rate' });
  await add.getByLabel('Place').selectOption({ label: 'Florida, United States' });
  await add.getByLabel('Name on receipts').fill('FL sales tax');
  await add.getByLabel('Standard rate (%)').fill('6,5');
  await add.getByRole('button', { name: 'Add rate' }).click();
  await expect(add.getByTestId('error-rateBasisPoints')).toHaveText(/percentage from 0 to 100/);
  await add.getByLabel('Standard rate (%)').fill('6');
  await add.getByRole('button', { name: 'Add rate' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Tax rate added for United States, Florida' }).first(),
  ).toBeVisible();
  const florida = rates.getByRole('row', { name: /Florida/ });
  await expect(florida).toContainText('6 %');
  // Edited with the keyboard, then removed (asked first).
  await florida.getByRole('link', { name: 'Edit the rate for United States, Florida' }).focus();
  await page.keyboard.press('Enter');
  const edit = page.getByRole('form', { name: 'Edit the rate for United States, Florida' });
  await edit.getByLabel('Reduced rate (%)').fill('1.5');
  await edit.getByRole('button', { name: 'Save rate' }).click();
  await expect(florida).toContainText('1.5 %');
  await florida.getByLabel('Remove the rate for United States, Florida').click();
  await page.getByRole('button', { name: 'Remove rate' }).click();
  await expect(rates.getByRole('row', { name: /Florida/ })).toHaveCount(0);

  await saveSettings(page, true, TAX_NUMBER);
  await expect(page.getByLabel(/^With tax included/)).toBeChecked();
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'page');

  // This run's product, made by the owner as an API client (the session as a bearer token).
  const token = (await page.context().cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  const productId = await page.evaluate(
    async ({ token, run, price }) => {
      const r = await fetch('/skulocity/api/v1/catalog/products', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          fields: { productName: `${run} Tax Planter`, sku: `${run}-POT`, listPrice: price, status: 'ACTIVE' },
          initialStock: 10,
        }),
      });
      if (r.status !== 201) throw new Error(`product not created: ${r.status} ${await r.text()}`);
      return (await r.json()).data.productId as string;
    },
    { token, run, price: SHELF },
  );

  // A guest buys two at the shelf price, in a browser of its own.
  const guest = await browser.newContext();
  const shop = await guest.newPage();
  await shop.goto(`${base}/product/search/${run}`);
  await shop.getByTestId('product-card').first().getByRole('link').first().click();
  await shop.getByRole('spinbutton', { name: /quantity/i }).fill('2');
  await shop.getByTestId('add-to-cart').click();
  await expect(shop).toHaveURL(`${base}/cart`);
  await expect(shop.getByTestId('cart-line')).toContainText('$107.25');
  await expect(shop.getByTestId('cart-line')).toContainText('$214.50');
  await snap(shop, 'settings-tax-cart-1280');
  await shop.getByRole('link', { name: 'Check out' }).click();
  const form = shop.getByTestId('checkout-form');
  await form.getByLabel('Email').fill(`tax-${run.toLowerCase()}@example.com`);
  await form.getByLabel('Full name').fill('Grace Hopper');
  await form.getByLabel('Street address').fill('1 Market Street');
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Postal code').fill('94105');
  await form.getByLabel('State or region').selectOption('US_CA');
  const totals = shop.getByTestId('checkout-totals');
  await expect(totals).toContainText('Including CA sales tax$14.50');
  await expect(shop.getByTestId('checkout-total')).toHaveText('$214.50');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Month').fill('12');
  await form.getByLabel('Year').fill('2099');
  await form.getByLabel('CVC').fill('123');
  await form.getByLabel('Name on card').fill('Grace Hopper');
  await screenshots(shop, 'checkout');
  await shop.getByRole('button', { name: 'Place order' }).click();
  await expect(shop.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(shop.getByTestId('order-totals')).toContainText('Including tax$14.50');
  await expect(shop.getByTestId('order-total')).toHaveText('$214.50');
  const orderId = ((await shop.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Order ', '').trim();
  const orderUrl = shop.url();
  await screenshots(shop, 'order');

  // The invoice: the store's tax number, the shelf prices, the tax included and not added.
  const invoice = await shop.evaluate(async () => {
    const link = document.querySelector<HTMLAnchorElement>('[data-testid="invoice-link"]');
    const res = await fetch(link?.href ?? '');
    if (!res.ok) throw new Error(`invoice: ${res.status}`);
    return [...new Uint8Array(await res.arrayBuffer())];
  });
  const text = await pdfText(invoice);
  expect(text).toContain(`Tax number ${TAX_NUMBER}`);
  expect(text).toContain('$107.25');
  expect(text).toContain('Tax included $14.50');
  expect(text).toContain('Total $214.50');

  // The owner refunds one planter: the form proposes its shelf price (its tax is inside it).
  await page.goto(`${base}/manage-store/orders/${orderId}`);
  await expect(page.getByText('Tax (included in prices)')).toBeVisible();
  await page.getByRole('link', { name: 'Refund', exact: true }).click();
  const refund = page.getByRole('form', { name: 'Refund' });
  await refund.getByLabel(new RegExp(`${run} Tax Planter`)).fill('1');
  await expect(refund.getByTestId('proposed-amount')).toHaveText('$107.25');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByTestId('payment-status')).toHaveText('Partially refunded');
  await expect(page.getByTestId('refunded-total')).toHaveText('$107.25');
  await screenshots(page, 'refunded');

  // The shopper's order: the refund and what is left add up to the total paid.
  await shop.goto(orderUrl);
  await expect(shop.getByTestId('order-refund')).toContainText('107.25');
  await expect(shop.getByTestId('order-net')).toHaveText('$107.25');
  await guest.close();

  // The product editor's Tax class: saved with the product, shown again when it opens.
  await page.goto(`${base}/manage-store/products/${productId}`);
  await expect(page.getByLabel('Tax class')).toHaveValue('standard');
  await page.getByLabel('Tax class').selectOption({ label: 'Exempt (no tax)' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /saved/i }).first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Tax class')).toHaveValue('exempt');

  await saveSettings(page, false, '');
});
