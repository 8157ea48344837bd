import { expect, type Page, request, test } from '@playwright/test';
import { STORES, signIn, snap } from './helpers';

/**
 * The dashboard home's analytics: two guest orders placed through the HTTP API
 * show in the chart's table for today. Other specs place orders on power at the same time, so the
 * figures are checked to have grown by at least these two orders. Runs on the power store.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const B = '/skulocity/api/v1';

/** Digits of a printed amount as minor units ("$1,234.50" -> 123450; the store's currency has cents). */
const minor = (text: string) => Number(text.replace(/[^0-9]/g, ''));

/** Today's row of the chart's table (the last bucket of "Last 7 days"): its orders and sales. */
async function todayRow(page: Page) {
  const chart = page.getByRole('region', { name: 'Sales over time' });
  const table = chart.getByRole('table', { name: /Sales over time/ });
  const row = table.getByRole('row').last();
  const cells = row.getByRole('cell');
  return {
    day: await row.locator('time').getAttribute('datetime'),
    orders: Number(await cells.nth(0).textContent()),
    sales: minor(String(await cells.nth(1).textContent())),
  };
}

/** A guest buys one unit through the HTTP API, as a browser would: a cart cookie, then checkout. */
async function placeGuestOrder(productIds: string[], email: string) {
  // To 127.0.0.1 with the store's Host header: Node's resolver may not map *.localhost (helpers.ts).
  const url = new URL(power);
  const api = await request.newContext({
    baseURL: `http://127.0.0.1:${url.port}`,
    extraHTTPHeaders: { host: url.host },
  });
  try {
    for (const productId of productIds) {
      const added = await api.post(`${B}/public/ecommerce/product/addToCart`, { data: { productId, quantity: 1 } });
      if (!added.ok()) continue;
      // The cart's cookie, sent back by hand as guest-order.ts does (the jar keys it by host).
      const cookie = String(added.headers()['set-cookie'] ?? '').split(';')[0] as string;
      const placed = await api.post(`${B}/ecommerce/checkout/processorder`, {
        headers: { 'idempotency-key': crypto.randomUUID(), cookie },
        data: {
          email,
          shipTo: {
            toName: 'Ana Lytics',
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
            nameOnCard: 'A L',
          },
        },
      });
      expect(placed.status(), await placed.text()).toBe(200);
      const order = (await placed.json()).data as { orderId: string; total: number; status: string };
      expect(order.status).toBe('paid');
      return order;
    }
    throw new Error('no product could be added to a cart');
  } finally {
    await api.dispose();
  }
}

test('the chart table for today counts two orders placed by guests', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, owner, '/manage-store?range=7d');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Orders, last 7 days' })).toBeVisible();
  const before = await todayRow(page);
  expect(before.day).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);

  // The products with the most stock, so the two units never sell anything out.
  const products = (await page.evaluate(async () => {
    const res = await fetch('/api/v1/inventory/products?sort=stock-desc&limit=20');
    return (await res.json()).data.items;
  })) as { productId: string; status: string; stock: number }[];
  const candidates = products.filter((p) => p.status === 'ACTIVE' && p.stock > 5).map((p) => p.productId);
  const first = await placeGuestOrder(candidates, 'analytics-one@example.com');
  const second = await placeGuestOrder(candidates, 'analytics-two@example.com');

  await page.reload();
  const after = await todayRow(page);
  expect(after.day).toBe(before.day);
  expect(after.orders).toBeGreaterThanOrEqual(before.orders + 2);
  expect(after.sales).toBeGreaterThanOrEqual(before.sales + first.total + second.total);

  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, 'admin-analytics-home-1280');
  await page.setViewportSize({ width: 375, height: 900 });
  await expect(page.getByRole('region', { name: 'Sales over time' })).toBeVisible();
  await snap(page, 'admin-analytics-home-375');

  // The clean-up page, reached by its address (the home links to it when it released orders lately).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${power}/manage-store/orders/cleanup`);
  await expect(page.getByRole('heading', { level: 1, name: 'Unpaid-order clean-up' })).toBeVisible();
  await snap(page, 'admin-analytics-cleanup-1280');
});

test('a custom range the wrong way round is refused beside its field, without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, owner, '/manage-store');
  await page.getByLabel('Date range', { exact: true }).selectOption({ label: 'Custom range' });
  await page.getByLabel('From', { exact: true }).fill('2026-03-10');
  await page.getByLabel('To', { exact: true }).fill('2026-03-01');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/range=custom/);
  await expect(page.getByRole('alert')).toContainText('To: Must be on or after the start date');
  await expect(page.getByLabel('To', { exact: true })).toHaveValue('2026-03-01');
  await expect(page.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  // Without JavaScript the chart is its table.
  await expect(page.getByRole('table', { name: /Sales over time/ })).toBeVisible();
  await context.close();
});
