import { expect, test } from '@playwright/test';
import { STORES, signIn, snap } from './helpers';

/**
 * The owner's busiest lists on a phone: each fits 375 px whole, with what a row is for (an order's
 * total, a customer's amount spent, a code's discount, a return's status, a product's price and stock, a count to type) in view and no
 * sideways scrolling. What does not fit folds in under the row's name. Read-only.
 */
const LISTS = [
  { path: '/manage-store/orders', table: 'Orders', money: /\$\d/, folded: /@|\w \w/ },
  { path: '/manage-store/customers', table: 'Customers', money: /\$\d/, folded: /\d+ orders?/ },
  { path: '/manage-store/promo-codes', table: 'Promo codes, newest first', money: /off/, folded: /Used \d+/ },
  // The garden store's demo data holds a return request; the lighting store's does not.
  {
    path: '/manage-store/returns',
    table: 'Return requests, newest first',
    money: /\w/,
    folded: /Order /,
    store: 'garden',
  },
  { path: '/manage-store/products', table: 'Products', money: /\$\d/, folded: /in stock|Out of stock/ },
  {
    path: '/manage-store/inventory',
    table: 'Products and their stock',
    money: null,
    folded: /in stock|left|Out of stock/,
  },
] as const;

test('at 375 px the orders, customers, promo code, return, product and inventory lists fit whole, with the folded details under each name', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const store of ['lighting', 'garden'] as const) {
    await signIn(page, { base: STORES[store].url, email: `owner@${store}.test` }, '/manage-store');
  }
  for (const list of LISTS) {
    const store = 'store' in list ? list.store : 'lighting';
    await page.goto(`${STORES[store].url}${list.path}`);
    const table = page.getByRole('table', { name: list.table });
    const rows = table.getByRole('row');
    // The header row and at least one row.
    expect(await rows.count(), `rows on ${list.path}`).toBeGreaterThan(1);
    const wrap = table.locator('xpath=ancestor::div[contains(@class, "kit-table-wrap")][1]');
    const { scroll, client } = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll, `the table on ${list.path} scrolls sideways`).toBeLessThanOrEqual(client);
    const first = rows.nth(1);
    // Cells and the row's header cell (a product's name), as laid out.
    const cells = first.locator('td:visible, th:visible');
    // The last visible cell carries the money (the discount; on inventory the count's box) and is
    // inside the screen.
    const last = cells.last();
    await expect(last).toBeVisible();
    if (list.money) await expect(last).toHaveText(list.money);
    else await expect(last.getByRole('textbox')).toBeVisible();
    const box = await last.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0), `the last cell on ${list.path}`).toBeLessThanOrEqual(375);
    await expect(first).toContainText(list.folded);
    if (!list.money) await expect(first.getByRole('link', { name: /^Stock history of / })).toBeVisible();
    await snap(page, `manage-store-lists-phone-${list.path.split('/').pop()}-375`);
  }
});
