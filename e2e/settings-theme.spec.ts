import { type Browser, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { axeFindings, confirmFromMail, hydrated, STORES, snap } from './helpers';

/**
 * The theme and store details editors: a change is a draft that only the owner's
 * preview shows, a publish makes it every shopper's, and a restore brings an earlier look back.
 * Power gets the theme test, garden the details test; each puts its store back as it was.
 */
test.describe.configure({ mode: 'serial' });

const power = STORES.power.url;
const garden = STORES.garden.url;

async function ownerOf(browser: Browser, base: string, email: string, then: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await page.goto(`${base}/auth/login?redirectUrl=${encodeURIComponent(then)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('owner-demo-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${base}${then}`);
  return page;
}

/** A new shopper of the store, signed in, in a browser of their own that also asks for preview. */
/** Discarding a draft asks first: the trigger opens the question, whose critical button discards. */
async function discardDraft(page: Page) {
  await page.getByText('Discard', { exact: true }).click();
  await page.getByRole('button', { name: 'Discard changes' }).click();
}

async function newShopper(browser: Browser, base: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `looker-${Date.now()}@example.com`;
  await page.goto(`${base}/auth/register`);
  await page.getByLabel('First name').fill('Lou');
  await page.getByLabel('Last name').fill('Looker');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('colours-of-2026');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await confirmFromMail(page, email);
  // Sending the preview cookie must change nothing for a shopper.
  await context.addCookies([{ name: 'sf_preview', value: '1', url: base }]);
  return page;
}

/** The newsletter embed included: garden's is an iframe of another origin, which axe passes over. */
async function expectNoSeriousA11yIssue(page: Page) {
  expect(await axeFindings(page, { exclude: [] })).toEqual([]);
}

const brandOf = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim());
const templateOf = (page: Page) => page.locator('header[data-template]').getAttribute('data-template');

async function looksLike(page: Page, brand: string, template: string) {
  await expect(async () => {
    await page.reload();
    expect(await brandOf(page)).toBe(brand);
    expect(await templateOf(page)).toBe(template);
  }).toPass({ timeout: 10_000 });
}

test('the owner drafts, previews, publishes and restores a theme; shoppers see only what is published', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const shopper = await newShopper(browser, power);
  await shopper.goto(`${power}/`);
  const oldBrand = await brandOf(shopper);
  expect(await templateOf(shopper)).toBe('DEFAULT');

  const owner = await ownerOf(browser, power, 'owner@power.test', '/manage-store/settings/theme');
  await expect(owner.getByRole('heading', { level: 1, name: 'Theme' })).toBeVisible();
  await hydrated(owner);
  await expectNoSeriousA11yIssue(owner);

  // A value that is not "R, G, B" 0-255 is refused next to its field, with what was typed kept.
  const brandField = owner.getByLabel('Brand', { exact: true });
  await brandField.fill('300, 0, 0');
  await owner.getByRole('button', { name: 'Save draft' }).click();
  await expect(owner.getByTestId('error-themeColors.primary')).toContainText('0 to 255');
  await expect(owner.getByLabel('Brand', { exact: true })).toHaveValue('300, 0, 0');
  await expect(owner.getByLabel('Brand', { exact: true })).toBeFocused();

  // A light action colour gets a contrast warning as it is typed (a warning: Save stays enabled).
  const action = owner.getByLabel('Primary action', { exact: true });
  const oldAction = await action.inputValue();
  await action.fill('250, 250, 120');
  await expect(owner.getByTestId('warning-themeColors.action')).toContainText('WCAG AA');
  await expect(owner.getByRole('button', { name: 'Save draft' })).toBeEnabled();
  await owner
    .getByRole('region', { name: 'Colours' })
    .screenshot({ path: 'test-results/screenshots/settings-theme-contrast-warning.png' });
  await action.fill(oldAction);
  await expect(owner.getByTestId('warning-themeColors.action')).toHaveCount(0);

  await owner.getByLabel('Brand', { exact: true }).fill('190, 18, 60');
  await expect(owner.getByLabel('Brand colour picker')).toHaveValue('#be123c');
  await owner.getByRole('radio', { name: /^One/ }).check();
  await owner.getByRole('button', { name: 'Save draft' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  await expect(owner.getByLabel('Brand', { exact: true })).toHaveValue('190, 18, 60');
  await snap(owner, 'settings-theme-1280');

  // Preview: the real storefront, in a new tab, with the draft; the shopper still sees the old look.
  const [preview] = await Promise.all([
    owner.context().waitForEvent('page'),
    owner.getByRole('button', { name: 'Preview' }).click(),
  ]);
  await preview.waitForLoadState();
  await expect(preview.getByText('Preview: you see unpublished changes')).toBeVisible();
  expect(await brandOf(preview)).toBe('190, 18, 60');
  expect(await templateOf(preview)).toBe('ONE');
  await expect(preview.getByTestId('cart-link')).toContainText('Shopping Cart');
  await snap(preview, 'settings-theme-preview-1280');
  await preview.setViewportSize({ width: 375, height: 800 });
  await preview.reload();
  expect(await templateOf(preview)).toBe('ONE');
  await snap(preview, 'settings-theme-preview-375');
  await looksLike(shopper, oldBrand, 'DEFAULT');

  // Publish: the shopper sees the new look at once.
  await owner.getByRole('button', { name: 'Publish' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
  await expect(owner.getByRole('region', { name: 'Version history' })).toContainText('Version 2');
  await looksLike(shopper, '190, 18, 60', 'ONE');

  // Restore the look from before (version 1) and publish it: the shopper sees the old look again.
  await owner.getByRole('button', { name: 'Restore version 1' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  await expect(owner.getByLabel('Brand', { exact: true })).toHaveValue(oldBrand);
  await looksLike(shopper, '190, 18, 60', 'ONE');
  await owner.getByRole('button', { name: 'Publish' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
  await looksLike(shopper, oldBrand, 'DEFAULT');

  await owner.setViewportSize({ width: 375, height: 800 });
  await owner.reload();
  await snap(owner, 'settings-theme-375');
  await owner.context().close();
  await shopper.context().close();
});

test('the owner edits company name and promotion title; shoppers see them once published', async ({ browser }) => {
  test.setTimeout(60_000);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitorContext.addCookies([{ name: 'sf_preview', value: '1', url: garden }]);
  await visitor.goto(`${garden}/`);
  const oldPromotion = (await visitor.getByTestId('promotion-title').textContent())?.trim() ?? '';
  const oldCompany = (await visitor.getByTestId('copyright').textContent()) ?? '';

  const owner = await ownerOf(browser, garden, 'owner@garden.test', '/manage-store/settings/other');
  await expect(owner.getByRole('heading', { level: 1, name: 'Store details' })).toBeVisible();
  await hydrated(owner);
  await expectNoSeriousA11yIssue(owner);

  // A field the server refuses keeps what was typed and says why next to it.
  await owner.getByLabel('Email address').fill('not-an-email');
  await owner.getByLabel('Company name').fill('Fernwood Growers Cooperative');
  await owner.getByRole('button', { name: 'Save draft' }).click();
  await expect(owner.getByTestId('error-emailAddress')).toContainText('valid email');
  // The refused field is where the owner is taken, however far down the long form it is.
  await expect(owner.getByLabel('Email address')).toBeFocused();
  await expect(owner.getByLabel('Company name')).toHaveValue('Fernwood Growers Cooperative');

  await owner.getByLabel('Email address').fill('grow@fernwood-garden.test');
  await owner.getByLabel('Promotion title').fill('Bulbs are in: 15% off until Sunday');
  await owner.getByRole('button', { name: 'Save draft' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  await snap(owner, 'settings-details-1280');

  // Not published yet: the visitor (even with the preview cookie) sees the old texts.
  await visitor.reload();
  await expect(visitor.getByTestId('promotion-title')).toHaveText(oldPromotion);

  await owner.getByRole('button', { name: 'Publish' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
  await visitor.reload();
  await expect(visitor.getByTestId('promotion-title')).toHaveText('Bulbs are in: 15% off until Sunday');
  await expect(visitor.getByTestId('copyright')).toContainText('Fernwood Growers Cooperative');
  await expect(visitor.getByTestId('footer')).toContainText('Fernwood Growers Cooperative');

  // Put the store back as it was: restore version 1 and publish.
  await owner.getByRole('button', { name: 'Restore version 1' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  await owner.getByRole('button', { name: 'Publish' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
  await visitor.reload();
  await expect(visitor.getByTestId('promotion-title')).toHaveText(oldPromotion);
  expect(await visitor.getByTestId('copyright').textContent()).toBe(oldCompany);

  await owner.setViewportSize({ width: 375, height: 800 });
  await owner.reload();
  await snap(owner, 'settings-details-375');
  await owner
    .getByRole('region', { name: 'Company' })
    .screenshot({ path: 'test-results/screenshots/settings-details-375-company.png' });
  await owner.context().close();
  await visitorContext.close();
});

test.describe('without JavaScript', () => {
  test('the details form saves a draft and shows a refused field next to it', async ({ browser }) => {
    const owner = await ownerOf(browser, garden, 'owner@garden.test', '/manage-store/settings/other', false);
    await owner.getByLabel('Chat widget id').fill('https://evil.example/x.js');
    await owner.getByRole('button', { name: 'Save draft' }).click();
    await expect(owner.getByTestId('error-chat.dataWidgetId')).toBeVisible();
    await expect(owner.getByLabel('Chat widget id')).toHaveValue('https://evil.example/x.js');
    await owner.getByLabel('Chat widget id').fill('');
    // A save that changes nothing saves no draft: the owner also renames the company.
    await owner.getByLabel('Company name').fill('Garden Goods (draft)');
    await owner.getByRole('button', { name: 'Save draft' }).click();
    await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
    await discardDraft(owner);
    await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);

    // A logo posted with the form goes through the upload pipeline: an SVG is refused by its
    // content (whatever its name says) next to the logo field; a PNG becomes the draft's logo.
    await owner.getByLabel('Upload a picture').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    await owner.getByRole('button', { name: 'Save draft' }).click();
    await expect(owner.getByTestId('error-logoMediaId')).toBeVisible();
    await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
    const png = await sharp({ create: { width: 300, height: 90, channels: 3, background: '#166534' } })
      .png()
      .toBuffer();
    await owner.getByLabel('Upload a picture').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await owner.getByRole('button', { name: 'Save draft' }).click();
    await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
    await expect(owner.getByLabel('Or a logo address')).toHaveValue(/\/media\/t\/garden\/m\/[0-9a-f]{32}\.webp/);
    await discardDraft(owner);
    await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
    await owner.context().close();
  });
});

test('the owner uploads a logo on the store details page; shoppers see it once published', async ({ browser }) => {
  test.setTimeout(60_000);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${power}/`);
  const logo = visitor.getByTestId('logo').getByRole('img');
  const oldLogo = await logo.getAttribute('src');

  const owner = await ownerOf(browser, power, 'owner@power.test', '/manage-store/settings/other');
  await hydrated(owner);
  const png = await sharp({ create: { width: 400, height: 120, channels: 3, background: '#0f766e' } })
    .png()
    .toBuffer();
  await owner.getByLabel('Upload a picture').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  // Uploaded at once (JavaScript), it is the one chosen in the library. The upload is stored and
  // resized before it is listed: seconds on a loaded machine.
  await expect(owner.getByRole('radio', { name: 'Picture 400 × 120' })).toBeChecked({ timeout: 20_000 });
  await owner.getByRole('button', { name: 'Save draft' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  await owner.getByRole('button', { name: 'Publish' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);

  await visitor.reload();
  await expect(logo).toHaveAttribute('src', /\/media\/t\/power\/m\/[0-9a-f]{32}\.webp/);

  // Put the old logo back: restore the version before and publish.
  const versions = owner.getByRole('region', { name: 'Version history' });
  await versions
    .getByRole('button', { name: /^Restore version/ })
    .first()
    .click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  await owner.getByRole('button', { name: 'Publish' }).click();
  await expect(owner.getByRole('region', { name: 'Unpublished changes' })).toHaveCount(0);
  await visitor.reload();
  expect(await logo.getAttribute('src')).toBe(oldLogo);
  await owner.context().close();
  await visitorContext.close();
});
