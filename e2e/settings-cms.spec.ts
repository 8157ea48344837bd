import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, hydrated, STORES, signIn, snap } from './helpers';

/**
 * CMS pages: the owner writes a page in the rich-text editor, previews it as a
 * draft no shopper can open, publishes it into the top strip and the footer, edits it, and brings
 * the first version back.
 */
const lighting = STORES.lighting.url;
const owner = { base: lighting, email: 'owner@lighting.test', password: 'owner-demo-1' };
const shopper = { base: lighting, email: 'shopper@lighting.test', password: 'shopper-demo-1' };

/** What a shopper's browser gets for a page URL (status and, when found, the page heading). */
async function shopperStatus(page: Page, path: string) {
  const res = await page.goto(`${lighting}${path}`);
  return res?.status();
}

test('the owner writes, previews, publishes, edits and restores a page; shoppers only see it once published', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  const pageUrl = `gift-wrapping-${suffix}`;
  const title = `Gift wrapping ${suffix}`;

  await signIn(page, owner, '/manage-store/settings/cms');
  await expect(page.getByRole('heading', { level: 1, name: 'Pages' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'All pages' }).getByRole('row').first()).toBeVisible();
  await snap(page, 'settings-cms-list-1280');

  // A new page, written in the editor.
  await page.getByRole('link', { name: 'Add page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add page' })).toBeVisible();
  await hydrated(page);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Page URL').fill(pageUrl);
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  const editor = page.getByRole('textbox', { name: 'Page content' });
  await expect(toolbar).toBeVisible();
  await editor.click();
  await toolbar.getByRole('button', { name: 'Heading', exact: true }).click();
  await expect(toolbar.getByRole('button', { name: 'Heading', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('How we wrap');
  await page.keyboard.press('Enter');
  await toolbar.getByRole('button', { name: 'Bulleted list' }).click();
  await page.keyboard.type('Recycled paper');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Cotton ribbon');
  await expect(editor.locator('h2')).toHaveText('How we wrap');
  await expect(editor.locator('ul > li')).toHaveCount(2);
  await page.getByRole('checkbox', { name: /TOP/ }).check();
  await page.getByRole('checkbox', { name: /FOOTER/ }).check();
  await page.getByLabel('SEO title').fill('Gift wrapping at Lighting');
  await page.getByRole('button', { name: 'Save as draft' }).click();

  await expect(page).toHaveURL(/\/manage-store\/settings\/cms\/details\?id=page-/);
  await expect(page.getByText('Page saved as a draft. Preview, then publish.').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Unpublished changes' })).toBeVisible();
  await expect(page.getByText('Not published yet: shoppers cannot see it.')).toBeVisible();
  const editorUrl = page.url();
  await snap(page, 'settings-cms-editor-1280');

  // A shopper, in another browser, cannot open the draft, even with the preview cookie.
  const shopperContext = await browser.newContext();
  const shopperPage = await shopperContext.newPage();
  await signIn(shopperPage, shopper, '/account/profile');
  await shopperContext.addCookies([{ name: 'sf_preview', value: '1', url: lighting }]);
  expect(await shopperStatus(shopperPage, `/page/details/${pageUrl}`)).toBe(404);
  await shopperPage.goto(`${lighting}/`);
  await expect(shopperPage.getByRole('contentinfo').getByRole('link', { name: new RegExp(suffix, 'i') })).toHaveCount(
    0,
  );

  // The owner previews it on the real storefront (a new tab without JavaScript, this tab with it).
  const popup = page
    .context()
    .waitForEvent('page', { timeout: 5_000 })
    .catch(() => null);
  await page.getByRole('button', { name: 'Preview' }).click();
  const previewTab = (await popup) ?? page;
  await expect(previewTab).toHaveURL(`${lighting}/page/details/${pageUrl}`);
  await expect(previewTab.getByText('Preview: you see unpublished changes')).toBeVisible();
  await expect(previewTab.getByRole('heading', { level: 1, name: new RegExp(suffix, 'i') })).toBeVisible();
  await expect(previewTab.getByRole('heading', { level: 2, name: 'How we wrap' })).toBeVisible();
  await expect(previewTab.getByRole('listitem').filter({ hasText: 'Cotton ribbon' })).toBeVisible();
  await expect(
    previewTab.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: new RegExp(suffix, 'i') }),
  ).toBeVisible();
  await expect(previewTab).toHaveTitle(/Gift wrapping at Lighting/);
  if (previewTab !== page) await previewTab.close();

  // Publish: shoppers see it at once, in the top strip and the footer, and can open it.
  await page.goto(editorUrl);
  await hydrated(page);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published. Shoppers see it now.').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Version history' })).toContainText('Version 1');

  expect(await shopperStatus(shopperPage, '/')).toBe(200);
  const topLink = shopperPage.getByRole('navigation', { name: 'Store information' }).getByRole('link', {
    name: new RegExp(suffix, 'i'),
  });
  await expect(topLink).toBeVisible();
  await expect(
    shopperPage.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: new RegExp(suffix, 'i') }),
  ).toBeVisible();
  await topLink.click();
  await expect(shopperPage).toHaveURL(`${lighting}/page/details/${pageUrl}`);
  await expect(shopperPage.getByRole('heading', { level: 2, name: 'How we wrap' })).toBeVisible();

  // An edit stays a draft until it is published; then the first version comes back by Restore.
  await page.getByLabel('Title', { exact: true }).fill(`${title} and boxes`);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Changes saved as a draft. Preview, then publish.').first()).toBeVisible();
  await expect(page.getByText('Published, with changes')).toBeVisible();
  await shopperPage.reload();
  await expect(shopperPage.getByRole('heading', { level: 1 })).not.toContainText(/boxes/i);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('region', { name: 'Version history' })).toContainText('Version 2');
  await shopperPage.reload();
  await expect(shopperPage.getByRole('heading', { level: 1 })).toContainText(/and boxes/i);

  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await expect(page.getByText('Version 1 restored as a draft. Preview it, then publish.').first()).toBeVisible();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('region', { name: 'Version history' })).toContainText('Version 3');
  await shopperPage.reload();
  await expect(shopperPage.getByRole('heading', { level: 1 })).not.toContainText(/boxes/i);
  await expect(shopperPage.getByRole('heading', { level: 1 })).toContainText(new RegExp(suffix, 'i'));
  await shopperContext.close();
});

test('the page list and editor at 375 px, and the editor without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const page = await context.newPage();
  await signIn(page, owner, '/manage-store/settings/cms');
  await expect(page.getByRole('region', { name: 'All pages' })).toBeVisible();
  await snap(page, 'settings-cms-list-375');
  await expectNoSeriousA11yIssue(page);
  await page.getByRole('region', { name: 'All pages' }).getByRole('link').first().click();
  await expect(page).toHaveURL(/details\?id=/);
  await hydrated(page);
  await expect(page.getByRole('toolbar', { name: 'Formatting' })).toBeVisible();
  await snap(page, 'settings-cms-editor-375');
  await expectNoSeriousA11yIssue(page);
  await context.close();

  // Without JavaScript the body is a textarea of HTML, the form posts, and errors sit by their fields.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const p = await noJs.newPage();
  await signIn(p, owner, '/manage-store/settings/cms/details');
  await expect(p.getByRole('toolbar', { name: 'Formatting' })).toHaveCount(0);
  await p.getByLabel('Title', { exact: true }).fill('No script page');
  await p.getByLabel('Page URL').fill('Not A Valid URL');
  await p.getByLabel('Content', { exact: true }).fill('<h2>Plain</h2><script>alert(1)</script>');
  await p.getByRole('button', { name: 'Save as draft' }).click();
  await expect(p.locator('#pageUrl-error')).toContainText('lower-case letters');
  await expect(p.getByLabel('Title', { exact: true })).toHaveValue('No script page');
  await expect(p.getByLabel('Content', { exact: true })).toHaveValue('<h2>Plain</h2><script>alert(1)</script>');
  const url = `no-script-${Date.now().toString(36)}`;
  await p.getByLabel('Page URL').fill(url);
  await p.getByRole('button', { name: 'Save as draft' }).click();
  await expect(p).toHaveURL(/details\?id=page-/);
  // Stored clean: the script is gone from what the editor shows back.
  await expect(p.getByLabel('Content', { exact: true })).toHaveValue('<h2>Plain</h2>');
  await snap(p, 'settings-cms-editor-nojs');
  // Delete asks first, then removes the draft.
  await p.getByRole('link', { name: 'Delete…' }).click();
  await p.getByRole('button', { name: 'Delete page' }).click();
  await expect(p).toHaveURL(/\/manage-store\/settings\/cms\?deleted=1/);
  await expect(p.getByRole('region', { name: 'All pages' })).not.toContainText(url);
  await noJs.close();
});
