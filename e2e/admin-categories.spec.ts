import { expect, type Page, test } from '@playwright/test';
import { STORES, signIn, snap } from './helpers';

/**
 * The owner's Categories page: a catalog of the test's own on the garden store,
 * two categories in it, one dragged into the other and moved back with the keyboard, the
 * storefront's category bar following each change; deleting, refused while a category has products.
 * Only the catalog and categories made here change; the catalog is taken off the store at the end.
 */

const garden = STORES.garden.url;
const owner = { base: garden, email: 'owner@garden.test' };
const PAGE = '/manage-store/categories';
const CATALOG = 'Tree Test Catalog';
const PARENT = 'Tree Fern Parent';
const CHILD = 'Tree Moss Child';

/** The storefront's overlay of our catalog, opened from the category bar (a shopper's own browser). */
async function barCategories(shopper: Page): Promise<string[]> {
  await shopper.goto(`${garden}/`);
  const tab = shopper.getByTestId('category-bar').getByRole('button', { name: CATALOG, exact: true });
  await tab.click();
  const overlay = shopper.getByRole('region', { name: `${CATALOG} categories` });
  await expect(overlay).toBeVisible();
  return overlay.getByRole('link').allTextContents();
}

/** Delete asks first: the trigger opens the question, whose critical button names the category. */
async function confirmDelete(page: Page) {
  await page.getByText('Delete category', { exact: true }).click();
  await page
    .getByRole('group')
    .filter({ hasText: 'This cannot be undone' })
    .getByRole('button', { name: /^Delete / })
    .click();
}

const row = (page: Page, id: string) => page.locator(`[data-category-id="${id}"]`).first();
const catalogCard = (page: Page) => page.getByRole('region', { name: CATALOG });

async function addCategory(page: Page, name: string) {
  await page.goto(`${garden}${PAGE}`);
  await page.getByRole('link', { name: 'Add category' }).first().click();
  await expect(page).toHaveURL(`${garden}${PAGE}/new`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Where').selectOption({ label: `Top of ${CATALOG}` });
  await page.getByRole('button', { name: 'Create category' }).click();
  await expect(page).toHaveURL(/\/manage-store\/categories(\?done=created)?$/);
  await expect(page.getByText('Category created.')).toBeVisible();
}

test('the owner builds a catalog, drags a category into another and moves it back by keyboard; the category bar follows; deleting is refused while a category has products', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signIn(page, owner, PAGE);
  await expect(page.getByRole('heading', { name: 'Categories', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Dashboard' }).first().getByRole('link', { name: 'Categories' }),
  ).toHaveAttribute('aria-current', 'page');

  // A catalog of our own: a new tab of the store's category bar.
  await page.getByLabel('Catalog name').fill(CATALOG);
  await page.getByRole('button', { name: 'Create catalog' }).click();
  await expect(page.getByText('Catalog created.')).toBeVisible();
  await expect(catalogCard(page).getByText('No categories in this catalog.')).toBeVisible();

  await addCategory(page, PARENT);
  await addCategory(page, CHILD);
  const card = catalogCard(page);
  await expect(card.getByTestId('category-row')).toHaveCount(2);

  const shopperContext = await browser.newContext();
  const shopper = await shopperContext.newPage();
  expect(await barCategories(shopper)).toEqual([PARENT, CHILD]);

  // Drag the child's handle onto the parent's row: it goes inside it.
  await row(page, 'TREE_MOSS_CHILD')
    .getByRole('button', {
      name: `Drag ${CHILD} to move it, or press the up and down arrow keys; or use the Move to menu`,
    })
    .dragTo(row(page, 'TREE_FERN_PARENT').locator('> div'));
  await expect(page.getByText('Category moved.')).toBeVisible();
  const inside = page.getByRole('list', { name: `Inside ${PARENT}` });
  await expect(inside.getByRole('link', { name: CHILD })).toBeVisible();
  // The storefront's category bar lists a catalog's top categories: the child has left it.
  expect(await barCategories(shopper)).toEqual([PARENT]);

  await page.reload();
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'admin-categories-tree-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'admin-categories-tree-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The keyboard way back: the row's Move menu, a place chosen, Move pressed: no mouse.
  const childRow = row(page, 'TREE_MOSS_CHILD');
  await childRow.locator('summary').first().focus();
  await page.keyboard.press('Enter');
  const select = childRow.getByLabel(`Move ${CHILD} to`, { exact: true });
  await expect(select).toBeVisible();
  await select.focus();
  await select.selectOption({ label: `Top of ${CATALOG}` });
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Category moved.')).toBeVisible();
  await expect(page.getByRole('list', { name: `Inside ${PARENT}` })).toHaveCount(0);
  expect(await barCategories(shopper)).toEqual([PARENT, CHILD]);

  // Without JavaScript: the same Move menu is a plain form (a native disclosure and a full page post).
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  await noJs.addCookies(await page.context().cookies());
  const plain = await noJs.newPage();
  for (const [to, expected] of [
    [`Inside ${PARENT}`, [PARENT]],
    [`Top of ${CATALOG}`, [PARENT, CHILD]],
  ] as const) {
    await plain.goto(`${garden}${PAGE}`);
    const r = row(plain, 'TREE_MOSS_CHILD');
    await r.locator('summary').first().click();
    await r.getByLabel(`Move ${CHILD} to`, { exact: true }).selectOption({ label: to });
    await r.getByRole('button', { name: 'Move', exact: true }).click();
    await expect(plain.getByRole('alert')).toHaveCount(0); // no refusal
    expect(await barCategories(shopper)).toEqual(expected);
  }
  await noJs.close();
  await page.reload();

  // Move up, by keyboard: the order of the bar follows.
  await row(page, 'TREE_MOSS_CHILD')
    .getByRole('button', { name: `Move ${CHILD} up` })
    .focus();
  await page.keyboard.press('Enter');
  await expect(catalogCard(page).getByTestId('category-row').first()).toHaveAttribute(
    'data-category-id',
    'TREE_MOSS_CHILD',
  );
  expect(await barCategories(shopper)).toEqual([CHILD, PARENT]);
  // And back down with the drag handle's arrow keys.
  await row(page, 'TREE_MOSS_CHILD')
    .getByRole('button', { name: new RegExp(`^Drag ${CHILD}`) })
    .focus();
  await page.keyboard.press('ArrowDown');
  await expect(catalogCard(page).getByTestId('category-row').first()).toHaveAttribute(
    'data-category-id',
    'TREE_FERN_PARENT',
  );
  expect(await barCategories(shopper)).toEqual([PARENT, CHILD]);

  // Deleting is refused while a category has products (a seeded one: nothing is changed), with the reason.
  await page.goto(`${garden}${PAGE}/GRD_PRUNERS`);
  await confirmDelete(page);
  await expect(page.getByRole('alert')).toContainText(/still has \d+ products?; move or remove/);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'admin-categories-refused-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Edit: a new name reaches the bar; then both of ours are deleted.
  await page.goto(`${garden}${PAGE}/TREE_FERN_PARENT`);
  await page.getByLabel('Name', { exact: true }).fill(`${PARENT} Edited`);
  await page.getByLabel('Page title', { exact: false }).fill('Ferns for shade');
  await page.getByRole('button', { name: 'Save category' }).click();
  await expect(page.getByText('Category saved.')).toBeVisible();
  await snap(page, 'admin-categories-edit-1280');
  expect(await barCategories(shopper)).toEqual([`${PARENT} Edited`, CHILD]);

  for (const id of ['TREE_FERN_PARENT', 'TREE_MOSS_CHILD']) {
    await page.goto(`${garden}${PAGE}/${id}`);
    await confirmDelete(page);
    await expect(page).toHaveURL(/\/manage-store\/categories(\?done=deleted)?$/);
    await expect(page.getByText('Category deleted.')).toBeVisible();
  }
  expect(await barCategories(shopper)).toEqual([]);

  // Off the store again: the tab goes, the catalog is kept under "Not in the store".
  await catalogCard(page).getByRole('button', { name: 'Remove from store' }).click();
  await expect(page.getByRole('region', { name: 'Not in the store' }).getByText(CATALOG)).toBeVisible();
  await shopper.goto(`${garden}/`);
  await expect(shopper.getByTestId('category-bar').getByRole('button', { name: CATALOG, exact: true })).toHaveCount(0);
  await shopperContext.close();
});
