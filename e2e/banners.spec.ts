import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * The owner's banners page: uploading a picture, the draft, reordering by
 * keyboard, publishing, and a shopper in another browser seeing the result on the home page.
 * Runs on the power store, which no other browser test edits.
 */

const power = STORES.power.url;
const PAGE = '/manage-store/settings/banners';
const owner = { base: power, email: 'owner@power.test' };

/** A picture made for the test (no binary fixture in git): a wide two-tone banner. */
async function bannerPng(): Promise<Buffer> {
  const left = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#1e3a8a' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1600, height: 600, channels: 3, background: '#f59e0b' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

const rows = (page: Page) => page.getByRole('list', { name: 'Banners in display order' }).getByRole('listitem');

/** Pictures drawn (the seed's are made on first request), and no toasts over the page. */
async function settled(page: Page) {
  await page.reload();
  await page.waitForFunction(() =>
    [...document.images].filter((i) => i.loading !== 'lazy').every((i) => i.complete && i.naturalWidth > 0),
  );
}

async function screenshots(page: Page, name: string) {
  await settled(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `banners-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `banners-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the owner uploads, orders by keyboard and publishes banners; a shopper sees them on home', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signIn(page, owner, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Banners' })).toBeVisible();
  await expect(rows(page)).toHaveCount(3);
  await screenshots(page, 'seeded');

  // Empty the draft: the page says so and offers the first step.
  for (let n = 3; n > 0; n--) {
    await rows(page)
      .first()
      .getByRole('button', { name: /^Delete / })
      .click();
    await expect(rows(page)).toHaveCount(n - 1);
  }
  await expect(page.getByText('No banners yet')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  await screenshots(page, 'empty');

  // Add: a refused link is shown next to its field, with what was typed kept.
  await page.getByRole('link', { name: 'Add banner' }).first().click();
  const form = page.getByRole('form', { name: 'Add banner' });
  await form.getByLabel('Upload a picture').setInputFiles({
    name: 'holiday.png',
    mimeType: 'image/png',
    buffer: await bannerPng(),
  });
  await expect(form.getByText('Chosen')).toBeVisible();
  await form.getByLabel('Alt text').fill('Cordless drill on a workbench');
  await form.getByLabel(/^Title/).fill('Drill week');
  await form.getByLabel(/^Link/).fill('javascript:alert(1)');
  await form.getByRole('button', { name: 'Add banner' }).click();
  await expect(page.getByTestId('error-linkUrl')).toContainText('path of this store');
  await expect(form.getByLabel('Alt text')).toHaveValue('Cordless drill on a workbench');
  await expect(form.getByLabel(/^Title/)).toHaveValue('Drill week');
  await snap(page, 'banners-form-error-1280');
  await expectNoSeriousA11yIssue(page);

  await form.getByLabel(/^Link/).fill('/categories/PWR_DRILLS');
  await form.getByRole('radio').first().check({ force: true });
  await form.getByRole('button', { name: 'Add banner' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Banner added as a draft' }).first()).toBeVisible();
  await expect(rows(page)).toHaveCount(1);

  // A second banner from the library (the picture just uploaded).
  await page.getByRole('link', { name: 'Add banner' }).first().click();
  const second = page.getByRole('form', { name: 'Add banner' });
  await second.getByRole('radio').first().check({ force: true });
  await second.getByLabel('Alt text').fill('Batteries lined up on a shelf');
  await second.getByLabel(/^Title/).fill('One battery for all');
  await second.getByRole('button', { name: 'Add banner' }).click();
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).nth(1)).toContainText('One battery for all');

  // Reorder with the keyboard: focus "Move … up" and press Enter.
  const moveUp = rows(page).nth(1).getByRole('button', { name: 'Move One battery for all up' });
  await moveUp.focus();
  await page.keyboard.press('Enter');
  await expect(rows(page).nth(0)).toContainText('One battery for all');
  await expect(rows(page).nth(1)).toContainText('Drill week');

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Published' }).first()).toBeVisible();
  // Version 1 is the store's banners from before (kept by this first publish); this is version 2.
  await expect(page.getByText('Version 2, published', { exact: false })).toBeVisible();
  await screenshots(page, 'published');
  await expectNoSeriousA11yIssue(page);

  // A shopper in another browser sees the published banners at once, in the new order.
  const shopperContext = await browser.newContext();
  const shopper = await shopperContext.newPage();
  await shopper.goto(`${power}/`);
  const hero = shopper.getByRole('region', { name: 'Featured' });
  await expect(hero.getByRole('heading', { level: 1 })).toHaveText('One battery for all');
  await expect(hero.getByRole('img', { name: 'Batteries lined up on a shelf' })).toBeVisible();
  const promo = shopper.getByRole('region', { name: 'Promotions' });
  await expect(promo.getByRole('img', { name: 'Cordless drill on a workbench' })).toBeVisible();
  await expect(promo.getByRole('link', { name: /Drill week/ })).toHaveAttribute('href', '/categories/PWR_DRILLS');
  const src = await hero.getByRole('img').first().getAttribute('src');
  expect(src).toMatch(/\/media\/t\/power\/m\/[0-9a-f]{32}\.webp$/);
  await snap(shopper, 'banners-shopper-home');
  await shopperContext.close();

  // Without JavaScript the same form posts the picture with it, through the same upload pipeline.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await signIn(plain, owner, PAGE);
  await plain.getByRole('link', { name: 'Add banner' }).first().click();
  const plainForm = plain.getByRole('form', { name: 'Add banner' });
  await plainForm.getByLabel('Upload a picture').setInputFiles({
    name: 'no-script.png',
    mimeType: 'image/png',
    buffer: await bannerPng(),
  });
  await plainForm.getByLabel('Alt text').fill('A drill without scripts');
  await plainForm.getByLabel(/^Title/).fill('Plain form');
  await plainForm.getByRole('button', { name: 'Add banner' }).click();
  await expect(rows(plain)).toHaveCount(3);
  await expect(rows(plain).nth(2)).toContainText('Plain form');
  await expect(plain.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  // A file that is not a picture is refused next to the field, by its content, whatever its name.
  await plain.getByRole('link', { name: 'Add banner' }).first().click();
  await plain
    .getByRole('form', { name: 'Add banner' })
    .getByLabel('Upload a picture')
    .setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
  await plain.getByRole('form', { name: 'Add banner' }).getByLabel('Alt text').fill('Not a picture');
  await plain.getByRole('form', { name: 'Add banner' }).getByRole('button', { name: 'Add banner' }).click();
  await expect(plain.getByTestId('error-mediaId')).toContainText('SVG pictures are not accepted');
  await expect(plain.getByRole('form', { name: 'Add banner' }).getByLabel('Alt text')).toHaveValue('Not a picture');
  await noJs.close();
});
