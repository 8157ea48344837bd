import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, hydrated, STORES, snap } from './helpers';

/**
 * The product page's variant picker on a seeded pendant (decision 112): lighting's Ostra Ribbed
 * Glass Pendant comes in Brass, Black and Opal (each with its own picture) and 2700 K or 3000 K;
 * Black / 3000 K is sold out and Opal / 3000 K is not made. With JavaScript a choice moves the
 * price, stock message, picture and address at once; without it the "Show" button asks the page for
 * the chosen variant. Nothing here buys, so the seeded stock stays as other specs read it.
 */
const lighting = STORES.lighting.url;
const PRODUCT = `${lighting}/ostra-ribbed-glass-pendant/LGT-1005`;
const NAME = 'Ostra Ribbed Glass Pendant';

async function shopper(browser: Browser, javaScriptEnabled: boolean, width = 1280) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 900 } });
  return context.newPage();
}

/** The product's own price (the related products below have theirs). */
const price = (page: Page) => page.getByTestId('product-price').getByTestId('price-current');
const picker = (page: Page) => page.getByTestId('variant-picker');
const value = (page: Page, label: string) => picker(page).getByRole('radio', { name: new RegExp(`^${label}`) });

/** What a shopper reads of the chosen variant: the chosen values, price, stock and picture. */
async function expectShown(
  page: Page,
  v: { finish: string; temperature: string; price: string; stock: RegExp; picture: string },
) {
  await expect(value(page, v.finish)).toBeChecked();
  await expect(value(page, v.temperature)).toBeChecked();
  await expect(price(page)).toHaveText(v.price);
  await expect(page.getByTestId('stock-status')).toHaveText(v.stock);
  await expect(page.getByTestId('gallery-main')).toHaveAttribute('alt', `${NAME}, ${v.picture}`);
}

test('with JavaScript, each choice moves price, stock, picture and address; sold out and not made cannot be added', async ({
  browser,
}) => {
  const page = await shopper(browser, true);
  await page.goto(PRODUCT);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: NAME })).toBeVisible();
  // The first variant that can be bought, on sale.
  await expectShown(page, {
    finish: 'Brass',
    temperature: '2700 K',
    price: '$188.99',
    stock: /In stock/,
    picture: 'Brass',
  });

  await value(page, 'Black').check();
  await expectShown(page, {
    finish: 'Black',
    temperature: '2700 K',
    price: '$188.99',
    stock: /In stock/,
    picture: 'Black',
  });
  // Against Black, 3000 K is sold out: told to screen readers and struck through.
  await expect(value(page, '3000 K')).toHaveAccessibleName(/^3000 K, sold out$/);
  await value(page, '3000 K').check();
  await expect(page.getByTestId('stock-status')).toHaveText(/Sold out/);
  await expect(page.getByTestId('add-to-cart')).toBeDisabled();
  await expect(page).toHaveURL(/\?variant=LGT-1005-V4$/);

  await value(page, 'Brass').check();
  await expectShown(page, {
    finish: 'Brass',
    temperature: '3000 K',
    price: '$238.99',
    stock: /Only 3 left/,
    picture: 'Brass',
  });
  await expect(page).toHaveURL(/\?variant=LGT-1005-V2$/);
  await expect(page.getByTestId('add-to-cart')).toBeEnabled();
  // Against 3000 K, Opal is not made: marked, and choosing it moves to the Opal that exists.
  await expect(value(page, 'Opal')).toHaveAccessibleName(/^Opal, unavailable$/);
  await snap(page, 'variant-picker-brass-3000-1280');
  await expectNoSeriousA11yIssue(page);

  // A reload keeps the choice: the address names the variant.
  await page.reload();
  await hydrated(page);
  await expectShown(page, {
    finish: 'Brass',
    temperature: '3000 K',
    price: '$238.99',
    stock: /Only 3 left/,
    picture: 'Brass',
  });

  await value(page, 'Opal').check();
  await expectShown(page, {
    finish: 'Opal',
    temperature: '2700 K',
    price: '$248.99',
    stock: /In stock/,
    picture: 'Opal',
  });
  await expect(page).toHaveURL(/\?variant=LGT-1005-V5$/);
  await expect(value(page, '3000 K')).toHaveAccessibleName(/^3000 K, unavailable$/);

  // Brass / 3000 K goes to the cart as that variant.
  await value(page, 'Brass').check();
  await value(page, '3000 K').check();
  await expect(price(page)).toHaveText('$238.99');
  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(`${lighting}/cart`);
  const line = page.getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(NAME);
  await expect(line).toContainText('Brass / 3000 K');
  await expect(line).toContainText('$238.99');
  await page.context().close();
});

test('at 375 px the picker fits, its swatches are reachable by keyboard, and the page stays axe clean', async ({
  browser,
}) => {
  const page = await shopper(browser, true, 375);
  await page.goto(`${PRODUCT}?variant=LGT-1005-V3`);
  await hydrated(page);
  await expectShown(page, {
    finish: 'Black',
    temperature: '2700 K',
    price: '$188.99',
    stock: /In stock/,
    picture: 'Black',
  });
  // Arrow keys move within a group of radios, as they do everywhere.
  await value(page, 'Black').focus();
  await page.keyboard.press('ArrowRight');
  await expect(value(page, 'Opal')).toBeChecked();
  await expect(price(page)).toHaveText('$248.99');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await picker(page).scrollIntoViewIfNeeded();
  await snap(page, 'variant-picker-opal-375');
  await expectNoSeriousA11yIssue(page);
  await page.context().close();
});

test('without JavaScript, "Show" answers with the chosen variant, a missing one with the nearest, and Add to cart adds it', async ({
  browser,
}) => {
  const page = await shopper(browser, false);
  await page.goto(PRODUCT);
  await expectShown(page, {
    finish: 'Brass',
    temperature: '2700 K',
    price: '$188.99',
    stock: /In stock/,
    picture: 'Brass',
  });

  await value(page, '3000 K').check();
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page).toHaveURL(/\?variant=LGT-1005-V2$/);
  await expectShown(page, {
    finish: 'Brass',
    temperature: '3000 K',
    price: '$238.99',
    stock: /Only 3 left/,
    picture: 'Brass',
  });

  // Black / 3000 K: sold out, its button disabled on the page the server drew.
  await value(page, 'Black').check();
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page).toHaveURL(/\?variant=LGT-1005-V4$/);
  await expect(page.getByTestId('stock-status')).toHaveText(/Sold out/);
  await expect(page.getByTestId('add-to-cart')).toBeDisabled();

  // Opal / 3000 K is not made: the page shows the Opal there is, keeping the value just chosen.
  await value(page, 'Opal').check();
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page).toHaveURL(/\?variant=LGT-1005-V5$/);
  await expectShown(page, {
    finish: 'Opal',
    temperature: '2700 K',
    price: '$248.99',
    stock: /In stock/,
    picture: 'Opal',
  });
  // (axe runs in the page's JavaScript, so the markup is checked in the tests above, with it on.)
  await snap(page, 'variant-picker-no-js-opal');

  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(`${lighting}/cart`);
  const line = page.getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('Opal / 2700 K');
  await expect(line).toContainText('$248.99');
  await page.context().close();
});
