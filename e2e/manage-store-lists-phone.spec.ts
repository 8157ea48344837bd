import { expect, type Locator, test } from '@playwright/test';
import { STORES, signIn, snap } from './helpers';

/**
 * The owner's busiest lists on a phone: each fits 375 px whole, with what a row is for in view and
 * no sideways scrolling. What does not fit folds in under the row's name. Read-only.
 */
interface PhoneList {
  path: string;
  /** The table's name (the first table so named). */
  table: string | RegExp;
  /** The store whose demo data has rows in this list. */
  store?: 'lighting' | 'garden';
  /** What a row is for: it must be on screen, in the row's last cell. */
  inView: (lastCell: Locator) => Locator;
  /** What folds in under the row's name. */
  folded: RegExp;
}

const LISTS: PhoneList[] = [
  { path: '/manage-store/orders', table: 'Orders', inView: (c) => c.getByText(/\$\d/), folded: /\w \w/ },
  {
    path: '/manage-store/customers',
    table: 'Customers',
    inView: (c) => c.getByText(/\$\d/),
    folded: /\d+ orders?/,
  },
  {
    path: '/manage-store/promo-codes',
    table: 'Promo codes, newest first',
    inView: (c) => c.getByText(/off/),
    folded: /Used \d+/,
  },
  // The garden store's demo data holds return requests and tax rates; the lighting store's none.
  {
    path: '/manage-store/returns',
    table: 'Return requests, newest first',
    store: 'garden',
    inView: (c) => c.getByText(/Requested|Approved|Received|Refunded|Rejected/),
    folded: /Order /,
  },
  {
    path: '/manage-store/products',
    table: 'Products',
    inView: (c) => c.getByText(/\$\d/).first(),
    folded: /in stock|Out of stock/,
  },
  {
    path: '/manage-store/inventory',
    table: 'Products and their stock',
    inView: (c) => c.getByRole('textbox'),
    folded: /in stock|left|Out of stock/,
  },
  {
    path: '/manage-store/settings/shipping',
    table: /^Methods of /,
    inView: (c) => c.getByRole('link', { name: /^Edit / }),
    folded: /Handling (same day|\d+ d)/,
  },
  {
    path: '/manage-store/settings/tax',
    table: 'Tax rates',
    store: 'garden',
    inView: (c) => c.getByRole('link', { name: /^Edit the rate for / }),
    folded: /reduced .* shipping/,
  },
];

test('at 375 px the dashboard lists fit whole, with the folded details under each name', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const store of ['lighting', 'garden'] as const) {
    await signIn(page, { base: STORES[store].url, email: `owner@${store}.test` }, '/manage-store');
  }
  for (const list of LISTS) {
    await page.goto(`${STORES[list.store ?? 'lighting'].url}${list.path}`);
    const table = page.getByRole('table', { name: list.table }).first();
    const rows = table.getByRole('row');
    // The header row and at least one row.
    expect(await rows.count(), `rows on ${list.path}`).toBeGreaterThan(1);
    const wrap = table.locator('xpath=ancestor::div[contains(@class, "kit-table-wrap")][1]');
    const { scroll, client } = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll, `the table on ${list.path} scrolls sideways`).toBeLessThanOrEqual(client);
    const first = rows.nth(1);
    // The row's cells as laid out (a product's name is its row header), the last one on screen.
    const target = list.inView(first.locator('td:visible, th:visible').last());
    await expect(target).toBeVisible();
    const box = await target.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0), `what a row is for on ${list.path}`).toBeLessThanOrEqual(375);
    await expect(first).toContainText(list.folded);
    await snap(page, `manage-store-lists-phone-${list.path.split('/').pop()}-375`);
  }
});
