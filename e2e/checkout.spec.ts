import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { confirmFromMail, expectNoSeriousA11yIssue, holdApp, hydrated, STORES, type StoreName, snap } from './helpers';
import { connectPayPal } from './paypal-connect';

/** Buying: a guest with the test card on one store, a signed-in shopper with a saved address on another. */

/** Adds the first in-stock search result; answers the product page's URL. */
async function addFirstProductToCart(page: Page, base: string, search: string) {
  await page.goto(`${base}/product/search/${search}?inStock=true`);
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await expect(page.getByTestId('add-to-cart-form')).toBeVisible();
  const productUrl = page.url();
  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(`${base}/cart`);
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  return productUrl;
}

async function fillCard(page: Locator, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Month').fill('12');
  await page.getByLabel('Year').fill('2099');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Grace Hopper');
}

test('a guest buys with the test card: cart badge, promo code, declined card kept nothing, order confirmed', async ({
  page,
}) => {
  const base = STORES.lighting.url;
  await addFirstProductToCart(page, base, 'lamp');
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByLabel('Promo code').fill('welcome10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('applied-promo')).toContainText('WELCOME10');
  await expect(page.getByTestId('cart-discount')).toBeVisible();
  await snap(page, 'cart');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await page.getByRole('link', { name: 'Check out' }).click();

  await expect(page).toHaveURL(`${base}/checkout`);
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Email').fill('grace@example.com');
  await form.getByLabel('Full name').fill('Grace Hopper');
  await form.getByLabel('Street address').fill('1 Market Street');
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Postal code').fill('94105');
  await form.getByLabel('State or region').selectOption('US_CA');
  await expect(page.getByTestId('checkout-totals')).toContainText('CA sales tax');
  await fillCard(form, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Place order' }).click();
  // Said by the card's number, which takes focus.
  await expect(page.getByTestId('error-cardNumber')).toHaveText('The card was declined. Please use another card.');
  await expect(form.getByLabel('Card number')).toBeFocused();
  await expect(form.getByLabel('City')).toHaveValue('San Francisco');

  await fillCard(form, '4242 4242 4242 4242');
  await snap(page, 'checkout');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Paid');
  await expect(page.getByTestId('order-totals')).toContainText('WELCOME10');
  await snap(page, 'order-confirmation');
  const download = page.waitForEvent('download');
  await page.getByTestId('invoice-link').click();
  expect((await download).suggestedFilename()).toMatch(/^invoice-LIG-[A-Z0-9]{8}\.pdf$/);
  await expect(page.getByTestId('cart-count')).toHaveText('0');
});

test('a signed-in shopper pays with PayPal on another store, then: history, PDF, buy again, a return, a review', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const base = STORES.power.url;
  await page.goto(`${base}/auth/login`);
  // Not shopper@power.test: the password-reset browser test changes that account's password.
  await page.getByLabel('Email').fill('owner@power.test');
  await page.getByLabel('Password').fill('owner-demo-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('user-menu-button')).toBeVisible();
  // Only a store connected to its own PayPal account offers PayPal: the owner connects it first.
  await connectPayPal(page, base);
  const productUrl = await addFirstProductToCart(page, base, 'drill');
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page.getByText('Receipt goes to')).toContainText('owner@power.test');
  // Another test may have saved addresses for this account: ship to a new one.
  const newAddress = page.getByRole('radio', { name: 'A new address' });
  if (await newAddress.count()) await newAddress.check();
  await page.getByLabel('Full name').fill('Olivia Owner');
  await page.getByLabel('Street address').fill('200 Industrial Way');
  await page.getByLabel('City').fill('Austin');
  await page.getByLabel('Postal code').fill('78701');
  await page.getByLabel('State or region').selectOption('US_TX');
  await expect(page.getByTestId('checkout-totals')).toContainText('TX sales tax');
  // The summary follows the chosen method.
  const standardTotal = await page.getByTestId('checkout-total').textContent();
  await page.getByRole('radio', { name: /Express/ }).check();
  await expect(page.getByTestId('checkout-total')).not.toHaveText(standardTotal ?? '');
  const total = (await page.getByTestId('checkout-total').textContent()) ?? '';
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await snap(page, 'checkout-paypal');
  await page.getByRole('button', { name: 'Continue to PayPal' }).click();

  // The stand-in's approval page approves and sends the shopper back; the store captures.
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`^${base}/order\\?orderId=POW-`));
  await expect(page.getByTestId('order-status')).toHaveText('Paid');
  await expect(page.getByTestId('order-totals')).toContainText('Express');
  await expect(page.getByTestId('order-totals')).toContainText(total);
  await expect(page.getByText('PayPal').first()).toBeVisible();
  const heading = await page.getByRole('heading', { level: 1 }).textContent();
  const orderId = heading?.replace('Order ', '').trim() ?? '';
  await expect(page.getByTestId('cart-count')).toHaveText('0');

  await page.goto(`${base}/order/history`);
  await expect(page.getByTestId('order-history')).toContainText(orderId);
  await snap(page, 'order-history');
  await page.getByRole('link', { name: orderId }).first().click();
  const download = page.waitForEvent('download');
  await page.getByTestId('invoice-link').click();
  expect((await download).suggestedFilename()).toBe(`invoice-${orderId}.pdf`);

  // Buy again: the order's line is in the cart at today's price.
  await page.getByTestId('buy-again').click();
  await expect(page).toHaveURL(`${base}/cart`);
  await expect(page.getByText('The products of this order are in your cart.')).toBeVisible();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-count')).toHaveText('1');

  // A return of the seeded delivered order, then a review of the drill just bought.
  await page.goto(`${base}/order?orderId=POW-DEMO-O1`);
  await expect(page.getByTestId('order-status')).toHaveText('Delivered');
  const returnForm = page.getByTestId('return-form');
  await returnForm
    .getByRole('combobox', { name: /quantity to return/ })
    .first()
    .selectOption('1');
  await returnForm.getByLabel('Reason').selectOption({ label: 'Arrived damaged' });
  await returnForm.getByRole('button', { name: 'Request a return' }).click();
  await expect(page.getByTestId('return-request').first().getByTestId('return-status')).toHaveText('Requested');

  await page.goto(productUrl);
  const review = page.getByTestId('review-form');
  await review.getByText('5 · Excellent').click();
  await review.getByLabel('Your review').fill('Drives 3-inch screws <b>all day</b>.');
  await review.getByRole('button', { name: 'Publish review' }).click();
  await expect(page.getByTestId('review-note')).toContainText('You reviewed this product on');
  await expect(page.getByTestId('review-body').first()).toHaveText('Drives 3-inch screws <b>all day</b>.');
});

test('leaving PayPal without paying brings the shopper back to checkout with nothing charged', async ({ page }) => {
  const base = STORES.garden.url;
  await addFirstProductToCart(page, base, 'seed');
  await page.goto(`${base}/checkout?paypal=cancelled`);
  await expect(page.getByText('You left PayPal without paying.')).toBeVisible();
  await page.goto(`${base}/checkout/paypal/return?token=NOT-A-REAL-ORDER`);
  await expect(page.getByTestId('paypal-failure')).toContainText('could not be found');
  await page.getByRole('link', { name: 'Back to checkout' }).click();
  await expect(page).toHaveURL(`${base}/checkout`);
  await expect(page.getByTestId('cart-count')).toHaveText('1');
});

/** What each store sells that a search finds in stock. */
const SEARCH: Record<StoreName, string> = { lighting: 'lamp', garden: 'seed', power: 'drill' };

async function fillAddress(page: Page) {
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Street address').fill('12 Analytical Row');
  await page.getByLabel('City').fill('Seattle');
  await page.getByLabel('Postal code').fill('98101');
  await page.getByLabel('State or region').selectOption('US_WA');
}

// The checkout page works before its app starts (the app starts at the shopper's first intent): an
// address typed in that time, the region included, is the one the totals are for once it runs.
test('a region chosen before the app has started still brings its sales tax into the totals', async ({ page }) => {
  const base = STORES.power.url;
  await addFirstProductToCart(page, base, SEARCH.power);
  const release = await holdApp(page);
  await page.goto(`${base}/checkout`);
  await fillAddress(page);
  await expect(page.getByTestId('checkout-totals')).not.toContainText('WA sales tax');
  release();
  await hydrated(page);
  await expect(page.getByLabel('State or region')).toHaveValue('US_WA');
  await expect(page.getByTestId('checkout-totals')).toContainText('WA sales tax');
});

for (const store of ['garden', 'power'] as const) {
  test(`a guest buys with the test card on the ${store} store`, async ({ page }) => {
    const base = STORES[store].url;
    if (store === 'garden') await page.setViewportSize({ width: 375, height: 812 });
    await addFirstProductToCart(page, base, SEARCH[store]);
    await page.goto(`${base}/checkout`);
    await page.getByTestId('checkout-form').getByLabel('Email').fill(`guest-${store}@example.com`);
    await fillAddress(page);
    await fillCard(page.getByTestId('checkout-form'), '4242 4242 4242 4242');
    await expect(page.getByTestId('checkout-totals')).toContainText('WA sales tax');
    const total = (await page.getByTestId('checkout-total').textContent()) ?? '';
    if (store === 'garden') await snap(page, 'checkout-mobile');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Paid');
    await expect(page.getByTestId('order-totals')).toContainText(`Total${total}`);
    if (store === 'garden') await snap(page, 'order-confirmation-mobile');
  });
}

for (const store of ['lighting', 'garden'] as const) {
  test(`a new shopper signs up on the ${store} store and buys with the test card`, async ({ page }) => {
    // Sign-up and two purchases.
    test.setTimeout(60_000);
    const base = STORES[store].url;
    const email = `buyer-${store}-${Date.now()}@example.com`;
    await page.goto(`${base}/auth/register`);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('engines-of-1843');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await confirmFromMail(page, email);
    await expect(page.getByTestId('user-menu-button')).toHaveText('Ada');
    await addFirstProductToCart(page, base, SEARCH[store]);
    await page.goto(`${base}/checkout`);
    await expect(page.getByText('Receipt goes to')).toContainText(email);
    await fillAddress(page);
    await fillCard(page.getByTestId('checkout-form'), '4242424242424242');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
    const orderId = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Order ', '').trim();
    await page.goto(`${base}/order/history`);
    await expect(page.getByTestId('order-history')).toContainText(orderId);
    // The address typed at checkout was kept ("Save this address" is on by default) and is offered next time.
    await page.goto(`${base}/account/addresses`);
    await expect(page.getByText('12 Analytical Row')).toBeVisible();
    await addFirstProductToCart(page, base, SEARCH[store]);
    await page.goto(`${base}/checkout`);
    await expect(page.getByTestId('saved-address')).toHaveCount(1);
    await expect(page.getByRole('radio', { name: /Ada Lovelace/ })).toBeChecked();
    await expect(page.getByTestId('new-address')).toBeHidden();
    await expect(page.getByTestId('checkout-totals')).toContainText('WA sales tax');
    await fillCard(page.getByTestId('checkout-form'), '4242424242424242');
    if (store === 'lighting') await snap(page, 'checkout-saved-address');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
    await expect(page.getByText('12 Analytical Row')).toBeVisible();
  });
}

test('without JavaScript a guest adds to the cart and buys: every step is a plain form post', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const base = STORES.power.url;
  // The first add of a browser: the cart is made, its cookie issued, and the page shows it at once.
  await addFirstProductToCart(page, base, SEARCH.power);
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page).toHaveURL(`${base}/checkout`);
  await page.getByTestId('checkout-form').getByLabel('Email').fill('guest-nojs@example.com');
  await fillAddress(page);
  await fillCard(page.getByTestId('checkout-form'), '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Paid');
  await context.close();
});

/**
 * A code refused at Place order. The power store's owner makes a code of this
 * run's own, the shopper applies it, the owner deactivates it while the shopper is at checkout, and
 * Place order is refused: the message is where the code is (in the summary), in view and focused,
 * the totals are without the discount, and "Remove" there lets the order go through.
 */
async function ownerMakesCode(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: true });
  const owner = await context.newPage();
  // Not the lighting store: its dashboard test expects no owner change in this part of the run.
  const base = STORES.power.url;
  await owner.goto(`${base}/auth/login`);
  await owner.getByLabel('Email').fill('owner@power.test');
  await owner.getByLabel('Password').fill('owner-demo-1');
  await owner.getByRole('button', { name: 'Log in' }).click();
  await expect(owner.getByTestId('user-menu-button')).toBeVisible();
  const token = (await context.cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  const api = (path: string, body?: object) =>
    owner.evaluate(
      async ({ token, path, body }) =>
        (
          await fetch(path, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
            ...(body ? { body: JSON.stringify(body) } : {}),
          })
        ).status,
      { token, path, body },
    );
  const code = `GONE-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  expect(
    await api('/api/v1/promo-codes', { code, kind: 'percent', value: 25, description: 'A quarter off (E2E)' }),
  ).toBe(201);
  return {
    code,
    deactivate: async () => {
      expect(await api(`/api/v1/promo-codes/${code}/deactivate`)).toBe(200);
      await context.close();
    },
  };
}

/** In the cart with the code applied, then the checkout form filled by a guest. */
async function toCheckoutWithCode(page: Page, code: string, email: string, js = true) {
  const base = STORES.power.url;
  await addFirstProductToCart(page, base, SEARCH.power);
  await page.getByLabel('Promo code').fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('applied-promo')).toContainText(code);
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page).toHaveURL(`${base}/checkout`);
  await expect(page.getByTestId('checkout-totals')).toContainText(`Discount (${code})`);
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Email').fill(email);
  await fillAddress(page);
  await fillCard(form, '4242 4242 4242 4242');
  // The app reloads the rates for the region chosen; a page without JavaScript shows them once posted.
  if (js) await expect(page.getByTestId('checkout-totals')).toContainText('WA sales tax');
}

/** The refusal as the shopper meets it: in view, focused, next to the code, totals without it. */
async function expectRefusalSeen(page: Page, code: string, discounted: string) {
  const summary = page.getByRole('complementary', { name: 'Order summary' });
  const message = summary.getByRole('alert');
  await expect(message).toContainText(`${code} is no longer valid`);
  await expect(message).toBeInViewport();
  await expect(message).toBeFocused();
  await expect(summary.getByRole('button', { name: `Remove promo code ${code}` })).toHaveAttribute(
    'aria-describedby',
    (await message.getAttribute('id')) ?? 'the message has an id',
  );
  await expect(page.getByTestId('checkout-totals')).not.toContainText('Discount');
  const total = (await page.getByTestId('checkout-total').textContent()) ?? '';
  expect(moneyOf(total)).toBeGreaterThan(moneyOf(discounted));
  return total;
}

const moneyOf = (s: string) => Number(s.replace(/[^0-9.]/g, ''));

test('a promo code the owner deactivated is refused at Place order where the code is, and Remove lets the order through', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const { code, deactivate } = await ownerMakesCode(browser);
  await toCheckoutWithCode(page, code, 'refused-code@example.com');
  const discounted = (await page.getByTestId('checkout-total').textContent()) ?? '';
  await deactivate();

  // Pressed from the bottom of a phone's page: the refusal must come to the shopper.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByRole('button', { name: 'Place order' }).scrollIntoViewIfNeeded();
  await page.getByRole('button', { name: 'Place order' }).click();
  const total = await expectRefusalSeen(page, code, discounted);
  // What the shopper sees, as they see it, and the whole page.
  await page.screenshot({ path: 'test-results/screenshots/checkout-promo-refused-375-view.png' });
  await snap(page, 'checkout-promo-refused-375');
  // On a computer, Enter in a field places the order again (refused again), and never removes the
  // code: Remove comes before Place order in the form, but is not its default button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('checkout-form').getByLabel('Email').press('Enter');
  const again = page.getByRole('complementary', { name: 'Order summary' }).getByRole('alert');
  await expect(again).toBeFocused();
  await expect(again).toBeInViewport();
  await expect(page.getByRole('button', { name: `Remove promo code ${code}` })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/checkout-promo-refused-1280-view.png' });
  await snap(page, 'checkout-promo-refused-1280');
  await expectNoSeriousA11yIssue(page);

  await page.getByRole('button', { name: `Remove promo code ${code}` }).click();
  await expect(page.getByRole('complementary', { name: 'Order summary' }).getByRole('status')).toContainText(
    `${code} removed`,
  );
  await expect(page.getByTestId('checkout-total')).toHaveText(total);
  // What was typed is still there: the order goes through with one press.
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(page.getByTestId('order-totals')).toContainText(`Total${total}`);
  await expect(page.getByTestId('order-totals')).not.toContainText(code);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a refused promo code comes back focused next to the code, and Remove keeps what was typed', async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    const { code, deactivate } = await ownerMakesCode(browser);
    await toCheckoutWithCode(page, code, 'refused-code-nojs@example.com', false);
    const discounted = (await page.getByTestId('checkout-total').textContent()) ?? '';
    await deactivate();

    await page.getByRole('button', { name: 'Place order' }).click();
    const total = await expectRefusalSeen(page, code, discounted);
    await expect(page.getByTestId('checkout-form').getByLabel('City')).toHaveValue('Seattle');

    await page.getByRole('button', { name: `Remove promo code ${code}` }).click();
    await expect(page.getByRole('complementary', { name: 'Order summary' }).getByRole('status')).toContainText(
      `${code} removed`,
    );
    await expect(page.getByTestId('checkout-total')).toHaveText(total);
    const form = page.getByTestId('checkout-form');
    await expect(form.getByLabel('City')).toHaveValue('Seattle');
    await expect(form.getByLabel('Email')).toHaveValue('refused-code-nojs@example.com');
    // The card's number and code are never sent back in a page: typed again.
    await fillCard(form, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
    await expect(page.getByTestId('order-totals')).toContainText(`Total${total}`);
  });
});
