import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * Tax as a draft (decision 120): the power store's owner starts a draft, adds a Florida rate to it
 * (the live rates do not have it), publishes it, then drafts a new tax number and discards it. The
 * Florida rate is removed at the end, at once, so the store taxes as seeded again. No other spec
 * edits the power store's taxes, and no spec ships its orders to Florida.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const PAGE = '/manage-store/settings/tax';
const FLORIDA = 'United States, Florida';

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `settings-tax-drafts-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `settings-tax-drafts-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).first();

test('the owner drafts a rate, publishes it, and discards a second draft', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, owner, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Taxes' })).toBeVisible();
  await expect(page.getByText('Changes you save here apply at checkout at once.')).toBeVisible();
  const rates = page.getByRole('table', { name: 'Tax rates' });
  await expect(rates.getByRole('row', { name: /Florida/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Start a draft' }).click();
  const bar = page.getByRole('region', { name: 'Unpublished changes' });
  await expect(bar).toContainText('Draft — not live yet');
  await expect(bar).toContainText('Shoppers still see the published tax setup.');

  const add = page.getByRole('form', { name: 'Add a tax rate' });
  await add.getByLabel('Place').selectOption({ label: 'Florida, United States' });
  await add.getByLabel('Name on receipts').fill('FL sales tax');
  await add.getByLabel('Standard rate (%)').fill('6');
  await add.getByRole('button', { name: 'Add rate' }).click();
  await expect(toast(page, `Tax rate added to the draft for ${FLORIDA}.`)).toBeVisible();
  await expect(rates.getByRole('row', { name: /Florida/ })).toContainText('6 %');
  await expect(bar).toContainText('Draft — not live yet');
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'draft');

  await bar.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page, 'Taxes published. Checkout charges the new taxes now.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
  await expect(page.getByText(/Last draft published/)).toBeVisible();
  await expect(rates.getByRole('row', { name: /Florida/ })).toContainText('6 %');

  // A second draft: a tax number typed into it goes when the draft is discarded.
  const settings = page.getByRole('form', { name: 'Tax settings' });
  const number = settings.getByLabel('Tax registration number');
  const seeded = await number.inputValue();
  await page.getByRole('button', { name: 'Start a draft' }).click();
  await expect(bar).toContainText('Draft — not live yet');
  await number.fill('PWR-DRAFT-1');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Tax settings saved to the draft')).toBeVisible();
  await expect(number).toHaveValue('PWR-DRAFT-1');
  await bar.getByText('Discard', { exact: true }).click();
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(toast(page, 'Draft discarded. Checkout keeps charging the live taxes.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
  await expect(number).toHaveValue(seeded);

  // Leave the store as seeded: Florida goes, at once (no draft now).
  await rates.getByLabel(`Remove the rate for ${FLORIDA}`).click();
  await page.getByRole('button', { name: 'Remove rate' }).click();
  await expect(toast(page, 'Tax rate removed.')).toBeVisible();
  await expect(rates.getByRole('row', { name: /Florida/ })).toHaveCount(0);
});
