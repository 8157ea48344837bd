import { request } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { apiJson, STORES, signIn, snap } from './helpers';
import { PORT } from './playwright.config';

/**
 * The owner's customers (decision 045) on the power store: a new shopper account
 * (signed up on the storefront) and a guest who ordered through the HTTP API with a cart cookie, both
 * with emails unique to this run; the owner finds both by search, opens the guest and sees the order
 * and what was spent, notes something on the account, sends it a password reset (the dev mailbox
 * shows the mail), and exports the list as CSV.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const API = '/skulocity/api/v1';
const run = Date.now().toString(36);
const accountEmail = `cust-acc-${run}@example.com`;
const guestEmail = `cust-guest-${run}@example.com`;

/** A POST from the test process to 127.0.0.1 with the store's Host header (see helpers.fetchText). */
function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; body: string; cookies: string[] }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: PORT,
        path,
        method: 'POST',
        headers: {
          host: new URL(power).host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, cookies: [res.headers['set-cookie'] ?? []].flat() }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A guest buys one unit of an in-stock simple product as a browser would: cart cookie, then checkout. */
async function placeGuestOrder(email: string): Promise<string> {
  const list = await apiJson<{ data: { products: { productId: string; inStock: boolean; productType?: string }[] } }>(
    null,
    'power',
    `${API}/public/ecommerce/product?pageSize=48&page=1`,
  );
  for (const p of list.data.products.filter((x) => x.inStock && x.productType !== 'CONFIGURABLE')) {
    const added = await post(`${API}/public/ecommerce/product/addToCart`, { productId: p.productId, quantity: 1 });
    if (added.status !== 200) continue;
    const cookie = String(added.cookies[0]).split(';')[0] as string;
    const placed = await post(
      `${API}/ecommerce/checkout/processorder`,
      {
        email,
        shipTo: {
          toName: 'Grace Guest',
          address1: '1 Market Street',
          city: 'San Francisco',
          postalCode: '94105',
          countryGeoId: 'USA',
          stateProvinceGeoId: 'US_CA',
        },
        shippingMethodId: 'STANDARD',
        payment: {
          method: 'card',
          cardNumber: '4242424242424242',
          cvc: '123',
          expMonth: 12,
          expYear: 2099,
          nameOnCard: 'G G',
        },
      },
      { cookie, 'idempotency-key': crypto.randomUUID() },
    );
    expect(placed.status, placed.body).toBeLessThan(300);
    return (JSON.parse(placed.body) as { data: { orderId: string } }).data.orderId;
  }
  throw new Error('no product could be added to a cart on the power store');
}

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-customers-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-customers-${name}-375`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide, 'no sideways scroll at 375 px').toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the owner finds an account and a guest, sees what the guest spent, notes, resets and exports', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);

  // A shopper signs up on the storefront (in a browser of their own).
  const shopper = await browser.newContext();
  const signUp = await shopper.newPage();
  await signUp.goto(`${power}/auth/register`);
  await signUp.getByLabel('First name').fill('Cora');
  await signUp.getByLabel('Last name').fill(`Account${run}`);
  await signUp.getByLabel('Email').fill(accountEmail);
  await signUp.getByLabel('Password').fill('customers-e2e-1');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(signUp.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await shopper.close();

  // A guest orders through the HTTP API.
  const orderId = await placeGuestOrder(guestEmail);

  // Without JavaScript the filters are a plain GET form.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await signIn(plain, owner, '/manage-store/customers');
  await plain.getByRole('searchbox', { name: 'Search customers' }).fill(run);
  await plain.getByRole('combobox', { name: 'Account or guest' }).selectOption('guest');
  await plain.getByRole('button', { name: 'Filter' }).click();
  await expect(plain).toHaveURL(/type=guest/);
  const plainRows = plain.getByRole('table').getByRole('row');
  await expect(plainRows).toHaveCount(2); // the header and the guest
  await expect(plainRows.nth(1)).toContainText(guestEmail);
  await noJs.close();

  // The owner searches and finds both.
  await signIn(page, owner, '/manage-store/customers');
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await screenshots(page, 'list');
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(run);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(new RegExp(`q=${run}`));
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(3);
  const accountRow = rows.filter({ hasText: accountEmail });
  const guestRow = rows.filter({ hasText: guestEmail });
  await expect(accountRow).toContainText('Account');
  await expect(accountRow).toContainText(`Cora Account${run}`);
  await expect(guestRow).toContainText('Guest');
  await screenshots(page, 'search');

  // The guest: the order, and what was spent (the order's total, all captured).
  await guestRow.getByRole('link', { name: 'Grace Guest' }).click();
  await expect(page).toHaveURL(`${power}/manage-store/customers/guest/${encodeURIComponent(guestEmail)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Grace Guest' })).toBeVisible();
  const orderLink = page.getByRole('link', { name: orderId });
  await expect(orderLink).toHaveAttribute('href', `/manage-store/orders/${encodeURIComponent(orderId)}`);
  const total = (
    await page
      .getByRole('row', { name: new RegExp(orderId) })
      .getByRole('cell')
      .last()
      .innerText()
  ).trim();
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toContainText(`Lifetime value${total}`);
  await expect(summary).toContainText('Orders1');
  await expect(page.getByRole('button', { name: 'Send password reset' })).toHaveCount(0);
  await screenshots(page, 'guest');

  // The account: a note, then a password reset.
  await page.goto(`${power}/manage-store/customers?q=${encodeURIComponent(accountEmail)}`);
  await page.getByRole('link', { name: `Cora Account${run}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Cora Account${run}` })).toBeVisible();
  await expect(page.getByText('This account has not ordered.')).toBeVisible();
  await page.getByLabel('Add a note').fill('Asked about bulk pricing for a site build');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Note added').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Notes' })).toContainText('Asked about bulk pricing for a site build');
  await expect(page.getByLabel('Add a note')).toHaveValue('');
  await page.getByRole('button', { name: 'Send password reset' }).click();
  await expect(page.getByText(`Password reset email sent to ${accountEmail}`).first()).toBeVisible();
  await screenshots(page, 'account');

  // The dev mailbox shows the reset mail (it leaves as a job: read until it is there).
  const mail = page
    .getByRole('row', { name: new RegExp(accountEmail) })
    .getByRole('link', { name: /Reset your .* password/ });
  await expect(async () => {
    await page.goto(`${power}/dev/mailbox`);
    await expect(mail).toBeVisible({ timeout: 500 });
  }).toPass();
  await snap(page, 'admin-customers-mailbox');

  // Export: the filtered list as CSV.
  await page.goto(`${power}/manage-store/customers?q=${run}`);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
  const chunks: Buffer[] = [];
  for await (const c of (await file.createReadStream()) as AsyncIterable<Buffer>) chunks.push(c);
  const csv = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const lines = csv.trim().split('\n');
  expect(lines[0]).toBe('name,email,type,orders,amount_spent,currency,last_order_at,customer_since');
  expect(lines).toHaveLength(3);
  expect(csv).toContain(`${guestEmail},guest,1,`);
  expect(csv).toContain(`Cora Account${run},${accountEmail},account,0,0.00,`);
});
