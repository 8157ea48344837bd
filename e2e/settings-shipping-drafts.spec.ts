import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * Shipping as a draft (decision 120): the power store's owner starts a draft, adds a Hawaii zone
 * of this run's own to it, sees what a shopper in Honolulu pays now and once the draft is
 * published, then publishes it. The zone is deleted at the end, so the store ships as seeded again.
 * No other spec edits the power store's shipping, so nothing else meets the draft meanwhile.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const PAGE = '/manage-store/settings/shipping';

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `settings-shipping-drafts-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `settings-shipping-drafts-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function previewHonolulu(page: Page) {
  const preview = page.getByRole('region', { name: 'What would a shopper pay?' });
  await preview.getByLabel('Subtotal after discounts').fill('20.00');
  await preview.getByLabel('Weight (grams)').fill('500');
  await preview.getByLabel('Country').selectOption('USA');
  await preview.getByLabel('State or province').selectOption('US_HI');
  await preview.getByRole('button', { name: 'Show rates' }).click();
  return preview;
}

/**
 * A save lands on the page with `?done=…` (its toast), which the page then drops with a second,
 * replacing navigation. A link clicked before that one has committed can be overtaken by it (a CI run
 * lost the click on "Add zone" this way): wait for the address to settle first.
 */
async function settled(page: Page) {
  await expect(page).not.toHaveURL(/[?&]done=/);
}

test('the owner drafts a zone, previews what Honolulu would pay against the live rates, and publishes it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const zoneName = `Hawaii ${Math.random().toString(36).slice(2, 6).toUpperCase()}`;

  await signIn(page, owner, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Shipping' })).toBeVisible();
  await expect(page.getByText('Changes you save here apply at checkout at once.')).toBeVisible();
  await page.getByRole('button', { name: 'Start a draft' }).click();
  const bar = page.getByRole('region', { name: 'Unpublished changes' });
  await expect(bar).toContainText('Draft — not live yet');
  await expect(bar).toContainText('Shoppers still see the published shipping rates.');
  await settled(page);

  // The zone and its method go to the draft.
  await page.getByRole('link', { name: 'Add zone' }).first().click();
  const zoneForm = page.locator('#zone-form');
  await zoneForm.getByLabel('Zone name').fill(zoneName);
  await zoneForm.getByLabel('Countries').fill('USA');
  await zoneForm.getByLabel('Only these states or provinces (optional)').fill('US_HI');
  await zoneForm.getByRole('button', { name: 'Save zone' }).click();
  await expect(page.getByText('Zone saved.').first()).toBeVisible();
  await settled(page);
  const card = page.getByRole('region', { name: zoneName });
  await card.getByRole('link', { name: `Add method to ${zoneName}` }).click();
  const methodForm = page.locator('#method-form');
  await methodForm.getByLabel('Method name').fill('Island Air');
  await methodForm.getByLabel('Delivery estimate or pickup details').fill('3 to 5 business days');
  await methodForm.getByLabel('Rate', { exact: true }).selectOption('flat');
  await methodForm.getByLabel('Flat rate').fill('12.00');
  await methodForm.getByRole('button', { name: 'Save method' }).click();
  await expect(page.getByText('Method saved.').first()).toBeVisible();
  await expect(card.getByRole('row', { name: /Island Air/ })).toContainText('$12.00');
  await expect(bar).toContainText('Draft — not live yet');

  // Honolulu now: the store's North America methods; once published: Island Air.
  const preview = await previewHonolulu(page);
  const now = preview.getByRole('region', { name: 'Live rates' });
  const then = preview.getByRole('region', { name: 'Draft rates' });
  await expect(then.getByRole('row', { name: /Island Air/ })).toContainText('$12.00');
  await expect(now.getByRole('row', { name: /Island Air/ })).toHaveCount(0);
  await expect(now.getByRole('row').nth(1)).toBeVisible();
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'draft');

  await bar.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Shipping published. Shoppers pay the new rates now.').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
  const live = await previewHonolulu(page);
  await expect(live.getByRole('row', { name: /Island Air/ })).toContainText('$12.00');
  await expect(live.getByRole('region', { name: 'Draft rates' })).toHaveCount(0);
  await screenshots(page, 'published');

  // Leave the store as seeded: the zone goes, at once (no draft now).
  const published = page.getByRole('region', { name: zoneName });
  await published.getByLabel(`Delete zone ${zoneName}`).click();
  await published.getByRole('button', { name: 'Delete zone' }).click();
  await expect(page.getByText('Zone deleted.').first()).toBeVisible();
  await expect(page.getByRole('region', { name: zoneName })).toHaveCount(0);
});
