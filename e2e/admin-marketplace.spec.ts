import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, fetchText, hydrated, STORES, signIn, snap } from './helpers';

/** The owner connects the store to Bonanza and gets a product feed for it. */

const lighting = STORES.lighting.url;
const garden = STORES.garden.url;
const PAGE = '/manage-store/bonanza-connect';
const TOKEN = 'bz_e2e_7f3a9c2d51e84b06a1c4';

const items = (xml: string) =>
  [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => ({
    title: /<g:title>([^<]*)<\/g:title>/.exec(m[1] ?? '')?.[1] ?? '',
    link: /<g:link>([^<]*)<\/g:link>/.exec(m[1] ?? '')?.[1] ?? '',
    // A product sold in variants is an item per variant, grouped by the product's id.
    product:
      /<g:item_group_id>([^<]*)<\/g:item_group_id>/.exec(m[1] ?? '')?.[1] ??
      /<g:id>([^<]*)<\/g:id>/.exec(m[1] ?? '')?.[1] ??
      '',
  }));

test('the owner connects lighting to Bonanza, opens the feed and finds the store’s products; the token stays hidden', async ({
  page,
}) => {
  await signIn(page, { base: lighting, email: 'owner@lighting.test' }, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Marketplace connect' })).toBeVisible();
  // Full screen: no store header or footer, no dashboard menu; a way back.
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', '/manage-store');
  await hydrated(page);
  await snap(page, 'bonanza-connect-form-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'bonanza-connect-form-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  const form = page.getByRole('form', { name: 'Connect to Bonanza' });
  await form.getByLabel('Bonanza account email').fill('not-an-email');
  await form.getByLabel('Booth name').fill('ab');
  await form.getByLabel('Bonanza API token').fill(TOKEN);
  await form.getByRole('button', { name: 'Connect to Bonanza' }).click();
  await expect(page.getByTestId('error-accountEmail')).toBeVisible();
  await expect(page.getByTestId('error-boothName')).toContainText('at least 3');
  await expect(form.getByLabel('Booth name')).toHaveValue('ab');

  await form.getByLabel('Bonanza account email').fill('seller@lighting.test');
  await form.getByLabel('Booth name').fill('Lumen Lamps');
  await form.getByLabel('Bonanza API token').fill(TOKEN);
  await form.getByRole('button', { name: 'Connect to Bonanza' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected to Bonanza' })).toBeVisible();
  await expect(page.getByTestId('bonanza-status')).toHaveText('Connected');
  const urlField = page.getByLabel('Feed URL');
  const feedUrl = await urlField.inputValue();
  expect(feedUrl).toMatch(new RegExp(`^${lighting}/feeds/google-merchant/[A-Za-z0-9_-]{43}\\.xml$`));
  await expect(page.getByRole('button', { name: 'Copy feed URL' })).toBeVisible();
  const figures = page.getByTestId('feed-figures');
  const count = Number((await figures.locator('dt:text-is("Products in feed") + dd').textContent())?.replace(/,/g, ''));
  expect(count).toBeGreaterThan(0);
  await expectNoSeriousA11yIssue(page);
  await snap(page, 'bonanza-connect-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'bonanza-connect-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // What Bonanza reads: the feed on the store's host, with lighting's products. Opened by the
  // browser (Node's resolver, which page.request uses, does not map *.localhost everywhere).
  const feed = await page.goto(feedUrl);
  expect(feed?.status()).toBe(200);
  expect(feed?.headers()['content-type']).toContain('application/xml');
  const xml = (await feed?.text()) ?? '';
  expect(xml).toContain('xmlns:g="http://base.google.com/ns/1.0"');
  const listed = items(xml);
  // "Products in feed" counts products; a product with variants has an item per variant.
  expect(new Set(listed.map((i) => i.product)).size).toBe(count);
  expect(listed.length).toBeGreaterThan(count);
  expect(listed.every((i) => i.link.startsWith(`${lighting}/`))).toBe(true);
  // A listed product is one of lighting's: its page opens with the feed's title.
  const first = listed[0];
  const productPage = await page.goto(first?.link ?? '');
  expect(productPage?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    (first?.title ?? '')
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'"),
  );

  // Back on the page: the token is masked and never in the page; the fetch is shown.
  await page.goto(`${lighting}${PAGE}`);
  await expect(page.getByTestId('bonanza-connection')).toContainText('•••••••• Stored');
  expect(await page.content()).not.toContain(TOKEN);
  await expect(page.getByText(/^Last fetched by/)).toContainText('Chrome');
  await page.getByText('Change the connection').click();
  await expect(page.getByLabel('Bonanza API token')).toHaveValue('');
  await expect(page.getByText('Stored. Leave empty to keep it.')).toBeVisible();

  // Disconnecting ends the feed URL.
  await hydrated(page);
  // It asks first: the trigger opens the question, whose critical button disconnects.
  await page.getByText('Disconnect from Bonanza', { exact: true }).click();
  await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Disconnected from Bonanza' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Connect to Bonanza' })).toBeVisible();
  expect((await fetchText('lighting', new URL(feedUrl).pathname)).status).toBe(404);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the connect form shows its errors next to the fields, connects, and the feed URL is a read-only input', async ({
    page,
  }) => {
    await signIn(page, { base: garden, email: 'owner@garden.test' }, PAGE);
    const form = page.getByRole('form', { name: 'Connect to Bonanza' });
    await form.getByLabel('Bonanza account email').fill('grower@garden.test');
    await form.getByLabel('Booth name').fill('Garden <Shop>');
    await form.getByRole('button', { name: 'Connect to Bonanza' }).click();
    // Every field's problem at once, the missing token too.
    await expect(page.getByTestId('error-boothName')).toContainText('Use letters');
    await expect(page.getByTestId('error-token')).toHaveText('Enter the token Bonanza gave you.');
    await form.getByLabel('Bonanza API token').fill(TOKEN);
    await form.getByLabel('Booth name').fill('Garden <Shop>');
    await form.getByRole('button', { name: 'Connect to Bonanza' }).click();
    await expect(page.getByTestId('error-boothName')).toContainText('Use letters');
    await expect(page.getByTestId('error-token')).toHaveCount(0);
    await expect(form.getByLabel('Bonanza account email')).toHaveValue('grower@garden.test');
    await expect(form.getByLabel('Booth name')).toHaveValue('Garden <Shop>');
    // The page the server sends back keeps the typed values, but never the token.
    await expect(form.getByLabel('Bonanza API token')).toHaveValue('');
    expect(await page.content()).not.toContain(TOKEN);

    await form.getByLabel('Booth name').fill('Garden Shop');
    await form.getByLabel('Bonanza API token').fill(TOKEN);
    await form.getByRole('button', { name: 'Connect to Bonanza' }).click();
    await expect(page.getByTestId('bonanza-status')).toHaveText('Connected');
    const urlField = page.getByLabel('Feed URL');
    await expect(urlField).toHaveAttribute('readonly', '');
    expect(await urlField.inputValue()).toMatch(/\/feeds\/google-merchant\/[A-Za-z0-9_-]{43}\.xml$/);
    // It asks first: the trigger opens the question, whose critical button disconnects.
    await page.getByText('Disconnect from Bonanza', { exact: true }).click();
    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await expect(page.getByRole('form', { name: 'Connect to Bonanza' })).toBeVisible();
  });
});
