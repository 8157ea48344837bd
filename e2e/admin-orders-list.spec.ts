import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { apiJson, STORES, signIn, snap } from './helpers';
import { PORT } from './playwright.config';

/**
 * The owner's orders list (decision 042) on the power store: three guest orders
 * placed through the HTTP API as a browser would (a cart cookie, then checkout), found by email,
 * filtered by status, kept as a saved view that shows as a tab, and exported as CSV. The orders'
 * emails are unique to this run; nothing seeded is changed but the stock of one product (-3).
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const host = new URL(power).host;
const API = '/skulocity/api/v1/public/ecommerce';
const RUN = Date.now().toString(36);
const email = (i: number) => `orders-list-${RUN}-${i}@e2e.test`;

/** A request from the test process to 127.0.0.1 with the store's Host (Node does not resolve *.localhost). */
function call(
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; cookies: string[]; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: PORT,
        path,
        method,
        headers: { host, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, cookies: [res.headers['set-cookie'] ?? []].flat(), text }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A simple product of the store with stock (the last of the in-stock list: other specs take the first). */
async function simpleProduct(): Promise<string> {
  const list = await apiJson<{ data: { products: { productId: string; productName: string }[] } }>(
    null,
    'power',
    `${API}/product?inStock=true`,
  );
  for (const p of [...list.data.products].reverse()) {
    if (p.productName === 'Gutter Cleaning Kit') continue; // the inventory spec's
    const d = await apiJson<{ data: { configOptions: unknown[]; inStock: boolean } }>(
      null,
      'power',
      `${API}/getproductdetails?productId=${encodeURIComponent(p.productId)}`,
    );
    if (d.data.inStock && d.data.configOptions.length === 0) return p.productId;
  }
  throw new Error('no simple product in stock on power');
}

/** A guest buys one unit: a new cart (its cookie), then checkout paid with the test card. */
async function placeGuestOrder(productId: string, to: string): Promise<string> {
  const added = await call('POST', `${API}/product/addToCart`, { productId, quantity: 1 });
  expect(added.status, added.text).toBeLessThan(300);
  const cookie = added.cookies.map((c) => c.split(';')[0]).join('; ');
  const placed = await call(
    'POST',
    '/skulocity/api/v1/ecommerce/checkout/processorder',
    {
      email: to,
      shipTo: {
        toName: 'Orla Listing',
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
        nameOnCard: 'O L',
      },
    },
    { cookie, 'idempotency-key': crypto.randomUUID() },
  );
  expect(placed.status, placed.text).toBe(200);
  const id = (JSON.parse(placed.text) as { data: { orderId: string } }).data.orderId;
  expect(id).toBeTruthy();
  return id;
}

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-orders-list-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-orders-list-${name}-375`);
  // Nothing wider than the phone: the table fits (columns hide), no sideways scrolling of the page.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const table = (page: Page) => page.getByRole('table');
const rows = (page: Page) => table(page).getByRole('row');

test('the owner finds an order by email, filters by status, saves a view and exports the list', async ({ page }) => {
  test.setTimeout(120_000);
  const productId = await simpleProduct();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(await placeGuestOrder(productId, email(i)));

  await signIn(page, owner, '/manage-store/orders');
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Unpaid-order clean-up' })).toHaveAttribute(
    'href',
    '/manage-store/orders/cleanup',
  );
  // Newest first: the last order placed is on the first page.
  await expect(table(page).getByRole('link', { name: ids[2] as string })).toBeVisible();
  // Every column fits the card at 1280 px: the Total is never behind a sideways scroll.
  const fits = await page.locator('.kit-table-wrap').evaluate((w) => w.scrollWidth <= w.clientWidth);
  expect(fits, 'the orders table fits its card').toBe(true);
  await screenshots(page, 'all');

  // Search by the second order's email: that order only, linked to its page.
  const search = page.getByRole('searchbox', { name: 'Search orders' });
  await search.fill(email(1));
  await search.press('Enter');
  await expect(page).toHaveURL(/q=orders-list-/);
  await expect(rows(page)).toHaveCount(2); // the header and one order
  const link = table(page).getByRole('link', { name: ids[1] as string });
  await expect(link).toHaveAttribute('href', `/manage-store/orders/${encodeURIComponent(ids[1] as string)}`);
  await expect(table(page).getByText('Paid', { exact: true }).filter({ visible: true })).toBeVisible();
  await expect(table(page).getByText('Unfulfilled').filter({ visible: true })).toBeVisible();

  // Filter by status: the run's orders are paid; none of them is cancelled.
  await search.fill(`orders-list-${RUN}`);
  await page.getByText('Status', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Cancelled' }).check();
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No orders match these filters')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Clear filters' }).first()).toBeVisible();
  await page.getByText('Status (1)').click();
  await page.getByRole('checkbox', { name: 'Cancelled' }).uncheck();
  await page.getByRole('checkbox', { name: 'Paid' }).check();
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/status=paid/);
  await expect(rows(page)).toHaveCount(4);
  for (const id of ids) await expect(table(page).getByRole('link', { name: id })).toBeVisible();

  // Keep these filters as a view: its tab shows, selected.
  const viewName = `Run ${RUN}`;
  await page.getByLabel('Save these filters as a view').fill(viewName);
  await page.getByRole('button', { name: 'Save view' }).click();
  const tabs = page.getByRole('navigation', { name: 'Saved views' });
  await expect(tabs.getByRole('link', { name: viewName })).toHaveAttribute('aria-current', 'page');
  await screenshots(page, 'view');

  // From All, the tab brings the filters back.
  await tabs.getByRole('link', { name: 'All' }).click();
  await expect(page).toHaveURL(`${power}/manage-store/orders`);
  await tabs.getByRole('link', { name: viewName }).click();
  await expect(page).toHaveURL(/status=paid/);
  await expect(rows(page)).toHaveCount(4);

  // Export the filtered list: a CSV with the three orders and their emails.
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path()) as string, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  expect(lines[0]).toContain('order_id,placed_at,status,payment_status,customer_name,email');
  expect(lines).toHaveLength(4);
  for (let i = 0; i < 3; i++) {
    const line = lines.find((l) => l.startsWith(`${ids[i]},`));
    expect(line).toContain(email(i));
    expect(line).toContain(',paid,Paid,Orla Listing,');
  }

  // The view is deleted from its tab; the list stays.
  await page.getByRole('button', { name: `Delete view ${viewName}` }).click();
  await expect(tabs.getByRole('link', { name: viewName })).toHaveCount(0);
});

test('the list works without JavaScript: search, pages and the empty state', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, owner, '/manage-store/orders');
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(`no-such-order-${RUN}`);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No orders match these filters')).toBeVisible();
  await page.getByRole('link', { name: 'Clear filters' }).last().click();
  await expect(page).toHaveURL(`${power}/manage-store/orders`);
  await expect(rows(page).first()).toBeVisible();
  // A bad amount is named and not applied; the list still shows.
  await page.getByLabel(/Total from/).fill('12.345');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('alert')).toContainText('Total from');
  await expect(table(page)).toBeVisible();
  await context.close();
});
