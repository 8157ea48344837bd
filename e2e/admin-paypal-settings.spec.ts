import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';
import { STAND_IN_OWN_APP } from './playwright.config';

/**
 * PP_CONFIG in the dashboard (decision 051) on the lighting store: the owner sets
 * the store's own PayPal app (the stand-in knows it: PAYPAL_STAND_IN_APPS), a wrong secret first,
 * which PayPal refuses next to the field; saved, the secret never comes back to the page. Then the
 * owner switches PayPal off and a guest's checkout offers no PayPal; at the end PayPal is on again
 * and the own app removed, as lighting was.
 */

const base = STORES.lighting.url;
const owner = { base: base, email: 'owner@lighting.test' };
const PAGE = '/manage-store/payments/settings';
const WRONG_SECRET = 'not-the-right-secret-41';

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-paypal-settings-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-paypal-settings-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Saves and waits for the server's answer: the toast of an earlier save may still be showing. */
async function save(page: Page, toast: string) {
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(PAGE));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await answered).ok()).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: toast })).toBeVisible();
}

test('the owner sets the store’s own PayPal app, the secret stays hidden, and PayPal can be switched off', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, owner, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'PayPal settings' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Payments', exact: true }).first()).toBeVisible();
  const enabled = page.getByRole('switch', { name: 'Offer PayPal at checkout' });
  await expect(enabled).toBeChecked();
  const clientId = page.getByLabel('Client ID');
  const secret = page.getByLabel('Secret', { exact: true });
  await expect(secret).toHaveAttribute('type', 'password');
  await screenshots(page, 'start');

  // PayPal refuses a wrong secret: said next to the secret, the client id kept, nothing saved.
  await clientId.fill(STAND_IN_OWN_APP.id);
  await secret.fill(WRONG_SECRET);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('error-clientSecret')).toHaveText('PayPal refused this client id and secret.');
  await expect(clientId).toHaveValue(STAND_IN_OWN_APP.id);
  await expect(secret).toHaveValue('');
  await expect(secret).toHaveAttribute('aria-invalid', 'true');
  expect(await page.content()).not.toContain(WRONG_SECRET);
  await screenshots(page, 'refused');

  // The right pair is saved; the keyboard reaches Save.
  await secret.fill(STAND_IN_OWN_APP.secret);
  await secret.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'PayPal settings saved.' })).toBeVisible();
  await expect(page.getByText('Shoppers pay with PayPal into the account of your own PayPal app.')).toBeVisible();

  // Reloaded: the secret field is empty, its hint says one is stored, the page holds no secret.
  const reloaded = await page.reload();
  const html = (await reloaded?.text()) ?? '';
  expect(html).toContain(STAND_IN_OWN_APP.id);
  expect(html).not.toContain(STAND_IN_OWN_APP.secret);
  await expect(secret).toHaveValue('');
  await expect(page.getByText('Stored. Leave empty to keep it.')).toBeVisible();
  await expect(page.getByText('Remove own app', { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(STAND_IN_OWN_APP.secret);
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'saved');

  // A guest at lighting's checkout is offered PayPal, paid into the store's own app.
  const guest = await browser.newContext();
  const shopper = await guest.newPage();
  await shopper.goto(`${base}/product/search/lamp?inStock=true`);
  await shopper.getByTestId('product-card').first().getByRole('link').first().click();
  await shopper.getByTestId('add-to-cart').click();
  await expect(shopper).toHaveURL(`${base}/cart`);
  await shopper.goto(`${base}/checkout`);
  await expect(shopper.getByRole('radio', { name: 'PayPal' })).toBeVisible();

  // Switched off: the checkout offers cards only.
  await page.getByText('Offer PayPal at checkout').click();
  await expect(enabled).not.toBeChecked();
  await save(page, 'PayPal settings saved.');
  await expect(page.getByText('PayPal is switched off: shoppers pay by card only.')).toBeVisible();
  await expect(enabled).not.toBeChecked();
  await screenshots(page, 'off');
  await shopper.reload();
  await expect(shopper.getByLabel('Card number')).toBeVisible();
  await expect(shopper.getByRole('radio', { name: 'PayPal' })).toHaveCount(0);
  await snap(shopper, 'admin-paypal-settings-checkout-without-paypal');

  // Back as lighting was: PayPal on, no own app.
  // The switch by keyboard.
  await enabled.focus();
  await page.keyboard.press('Space');
  await expect(enabled).toBeChecked();
  await save(page, 'PayPal settings saved.');
  await expect(enabled).toBeChecked();
  // Removing asks first: the trigger opens the question, whose critical button removes.
  await page.getByText('Remove own app', { exact: true }).click();
  await page.getByRole('button', { name: 'Remove the app' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your own PayPal app was removed.' })).toBeVisible();
  await expect(clientId).toHaveValue('');
  await expect(page.getByText('Remove own app', { exact: true })).toHaveCount(0);
  await guest.close();
});
