import { request } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';
import { CARRIER_CONTROL_SOCKET, CARRIER_PORT, STAND_IN_CARRIER } from './playwright.config';

/**
 * Live carrier rates (decision 117) on the garden store: the owner connects the stand-in's UPS
 * account on Carriers (a wrong secret refused next to its field first), picks services and a
 * markup; a guest sees the live UPS rates at checkout beside the table rates and pays one. Then
 * UPS is down (the stand-in's port closed: connections refused): a guest sees the table rates only
 * and pays; UPS comes back and its rates are listed again. Then UPS is made slow: a guest sees the
 * table rates only and still checks out. At the end the owner disconnects, as the store was.
 */

const base = STORES.garden.url;
const PAGE = '/manage-store/settings/carriers';

/** Tells the stand-in to answer slowly, fail or behave (its test controls, not UPS's API). */
function fault(mode: 'none' | 'slow' | 'error', slowMs = 8_000) {
  const body = JSON.stringify({ mode, slowMs });
  return new Promise<void>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: CARRIER_PORT,
        path: '/__stand-in/fault',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`fault: ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Closes (`stop`) or opens again (`start`) the stand-in's carriers' port, through its control socket. */
function standIn(action: 'stop' | 'start') {
  return new Promise<void>((resolve, reject) => {
    const req = request({ socketPath: CARRIER_CONTROL_SOCKET, path: `/${action}`, method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${action}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Whether anything listens on the carriers' port (a connection refused says it is down). */
function carrierPortOpen() {
  return new Promise<boolean>((resolve) => {
    const req = request({ host: '127.0.0.1', port: CARRIER_PORT, path: '/', method: 'GET' }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `carrier-rates-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `carrier-rates-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * A guest's cart of the first seed in stock, then the checkout with an address in `state`. Rates are
 * kept per cart contents and address, so each part of the test ships to a state of its own: states
 * no other spec of its project ships to (the shipping spec gives the same store an Oregon and
 * Washington zone meanwhile).
 */
const ADDRESSES = {
  US_IL: ['Springfield', '62701'],
  US_CO: ['Denver', '80202'],
  US_MI: ['Detroit', '48226'],
  US_AZ: ['Phoenix', '85004'],
} as const;

async function guestCheckout(page: Page, state: keyof typeof ADDRESSES) {
  await page.goto(`${base}/product/search/seed?inStock=true`);
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(`${base}/cart`);
  await page.goto(`${base}/checkout`);
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Email').fill('rosa@example.com');
  await form.getByLabel('Full name').fill('Rosa Parks');
  await form.getByLabel('Street address').fill('8 Rose Street');
  const [city, postalCode] = ADDRESSES[state];
  await form.getByLabel('City').fill(city);
  await form.getByLabel('Postal code').fill(postalCode);
  await form.getByLabel('State or region').selectOption(state);
  // The rates shown are for this address, postal code included (carriers quote by it). The page's
  // address in its URL, in whichever order the fields were sent: the state can arrive first.
  await expect
    .poll(() => {
      const asked = new URL(page.url()).searchParams;
      return [asked.get('postalCode'), asked.get('stateProvinceGeoId')];
    })
    .toEqual([postalCode, state]);
  await expect(page.getByRole('radio', { name: /^Standard/ })).toBeVisible();
  return form;
}

async function pay(page: Page) {
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Month').fill('12');
  await form.getByLabel('Year').fill('2099');
  await form.getByLabel('CVC').fill('123');
  await form.getByLabel('Name on card').fill('Rosa Parks');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
}

test('the owner connects UPS and picks services; a guest pays a live rate, and checks out on table rates when UPS is down or slow', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await fault('none');
  await signIn(page, { base, email: 'owner@garden.test' }, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Carriers' })).toBeVisible();
  const ups = page.getByRole('region', { name: 'UPS' });
  await expect(ups.getByText('Not connected')).toBeVisible();
  // Each carrier's boxes carry the names its developer portal gives the credentials.
  const fedex = page.getByRole('region', { name: 'FedEx' });
  await expect(fedex.getByLabel('API key')).toBeVisible();
  await expect(fedex.getByLabel('Secret key')).toBeVisible();
  await expect(ups.getByLabel('API key')).toHaveCount(0);
  await screenshots(page, 'start');
  await expectNoSeriousA11yIssue(page);

  // UPS refuses a wrong secret: said next to the secret, the client id kept, nothing saved.
  await ups.getByLabel('Client ID').fill(STAND_IN_CARRIER.clientId);
  await ups.getByLabel('Client secret').fill('not-the-secret');
  await ups.getByLabel('Account number').fill(STAND_IN_CARRIER.account);
  await ups.getByRole('button', { name: 'Connect UPS' }).click();
  await expect(ups.getByTestId('error-clientSecret')).toHaveText('UPS refused this client id and secret.');
  await expect(ups.getByLabel('Client ID')).toHaveValue(STAND_IN_CARRIER.clientId);
  await expect(ups.getByLabel('Client secret')).toHaveValue('');

  await ups.getByLabel('Client secret').fill(STAND_IN_CARRIER.secret);
  await ups.getByRole('button', { name: 'Connect UPS' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'UPS connected, account ending 7890.' })).toBeVisible();
  await expect(ups.getByText('Connected, account ending 7890')).toBeVisible();
  expect(await page.content()).not.toContain(STAND_IN_CARRIER.secret);

  // Ground is offered from the start; the owner adds 2nd Day Air and a 10% markup.
  await expect(ups.getByRole('checkbox', { name: 'UPS Ground' })).toBeChecked();
  await ups.getByRole('checkbox', { name: 'UPS 2nd Day Air' }).check();
  await ups.getByLabel('Markup').selectOption('percent');
  await ups.getByLabel('Percent').fill('10');
  await ups.getByRole('button', { name: 'Save UPS rates' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'UPS settings saved.' })).toBeVisible();
  await expect(ups.getByLabel('Percent')).toHaveValue('10');
  await screenshots(page, 'connected');
  await expectNoSeriousA11yIssue(page);

  // A guest sees the live UPS rates after the store's own and pays 2nd Day Air.
  const shopper = await browser.newPage();
  await guestCheckout(shopper, 'US_IL');
  const secondDay = shopper.getByRole('radio', { name: /UPS 2nd Day Air/ });
  await expect(shopper.getByRole('radio', { name: /UPS Ground/ })).toBeVisible();
  await expect(secondDay).toBeVisible();
  await secondDay.check();
  // The price beside the rate is the shipping in the totals.
  const price = ((await shopper.locator('label', { has: secondDay }).textContent()) ?? '').match(
    /\$[\d,]+\.\d\d$/,
  )?.[0];
  expect(price).toBeTruthy();
  await expect(shopper.getByTestId('checkout-totals')).toContainText(`Shipping${price}`);
  const total = (await shopper.getByTestId('checkout-total').textContent()) ?? '';
  await snap(shopper, 'carrier-rates-checkout-1280');
  await shopper.setViewportSize({ width: 375, height: 812 });
  await snap(shopper, 'carrier-rates-checkout-375');
  await pay(shopper);
  await expect(shopper.getByTestId('order-totals')).toContainText('UPS 2nd Day Air');
  await expect(shopper.getByTestId('order-totals')).toContainText(`${price}`);
  await expect(shopper.getByTestId('order-totals')).toContainText(`Total${total}`);
  await shopper.close();

  // UPS is down (nothing listens: connections refused): the guest gets the table rates only and pays.
  await standIn('stop');
  try {
    expect(await carrierPortOpen()).toBe(false);
    const down = await browser.newPage();
    await guestCheckout(down, 'US_CO');
    await expect(down.getByRole('radio', { name: /^Standard/ })).toBeChecked();
    await expect(down.getByRole('radio', { name: /UPS/ })).toHaveCount(0);
    await snap(down, 'carrier-rates-checkout-ups-down');
    await pay(down);
    await expect(down.getByTestId('order-totals')).toContainText('Standard');
    await down.close();
  } finally {
    await standIn('start');
  }

  // UPS is back: once its short rest after the failure is over (seconds), its rates are listed again.
  expect(await carrierPortOpen()).toBe(true);
  const back = await browser.newPage();
  await guestCheckout(back, 'US_MI');
  await expect(async () => {
    await back.reload();
    await expect(back.getByRole('radio', { name: /UPS Ground/ })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000, intervals: [1_000] });
  await expect(back.getByRole('radio', { name: /UPS 2nd Day Air/ })).toBeVisible();
  await back.close();

  // UPS answers too slowly: the guest gets the table rates only and still checks out.
  await fault('slow');
  try {
    const late = await browser.newPage();
    await guestCheckout(late, 'US_AZ');
    await expect(late.getByRole('radio', { name: /UPS/ })).toHaveCount(0);
    await snap(late, 'carrier-rates-checkout-ups-slow');
    await pay(late);
    await expect(late.getByTestId('order-totals')).toContainText('Standard');
    await late.close();
  } finally {
    await fault('none');
  }

  // The owner disconnects: the store is as it was.
  await page.reload();
  await ups.locator('summary', { hasText: 'Disconnect UPS' }).click();
  await ups.getByRole('button', { name: 'Disconnect UPS', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'UPS disconnected.' })).toBeVisible();
  await expect(ups.getByText('Not connected')).toBeVisible();
});
