import { expect, test } from '@playwright/test';
import { fetchText, STORES, signIn, snap } from './helpers';

/** The owner's sitemap (Search engines) and the danger zone's cancel request. */

const garden = STORES.garden.url;
const power = STORES.power.url;

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);

test('the owner generates the sitemap and reads it on the store’s host', async ({ page }) => {
  await signIn(page, { base: garden, email: 'owner@garden.test' }, '/manage-store/settings/sitemap');
  await expect(page.getByRole('heading', { level: 1, name: 'Search engines' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(nav.getByRole('link', { name: 'Search engines' })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('button', { name: 'Generate sitemap' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /Sitemap generation started|being generated/ }),
  ).toBeVisible();
  // The page follows the job until it has finished.
  await expect(page.getByTestId('sitemap-last')).toContainText('Generated', { timeout: 20_000 });
  const sitemaps = page.getByRole('region', { name: 'Sitemaps' });
  await expect(sitemaps).toContainText('garden.localhost');
  const view = sitemaps.getByRole('link', { name: /View sitemap/ });
  await expect(view).toHaveAttribute('href', `${garden}/sitemap.xml`);
  await expect(page.getByRole('button', { name: 'Generate sitemap' })).toBeEnabled();
  await snap(page, 'sitemap-settings-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'sitemap-settings-375');

  // What a search engine reads on the store's host.
  const xml = await fetchText('garden', '/sitemap.xml');
  expect(xml.status).toBe(200);
  let urls = locs(xml.body);
  if (xml.body.includes('<sitemapindex')) {
    const parts = await Promise.all(urls.map((u) => fetchText('garden', new URL(u).pathname)));
    urls = parts.flatMap((p) => locs(p.body));
  }
  expect(urls.length).toBeGreaterThan(10);
  expect(urls.every((u) => u.startsWith(`${garden}/`))).toBe(true);
  expect(urls.some((u) => u.startsWith(`${garden}/categories/`))).toBe(true);
  expect(urls.some((u) => u.startsWith(`${garden}/page/details/`))).toBe(true);
  // A product URL: /<slug>/<productId>, and the page it names exists.
  const product = urls.find(
    (u) => /^https?:\/\/[^/]+\/[^/]+\/[^/]+$/.test(u) && !u.includes('/categories/') && !u.includes('/page/'),
  );
  expect(product).toBeTruthy();
  const figures = page.getByRole('region', { name: 'Sitemaps' });
  const productCount = Number((await figures.locator('dt:text-is("Products") + dd').textContent())?.replace(/,/g, ''));
  expect(productCount).toBeGreaterThan(0);
  const res = await page.goto(product as string);
  expect(res?.status()).toBe(200);

  const robots = await fetchText('garden', '/robots.txt');
  expect(robots.body).toContain(`Sitemap: ${garden}/sitemap.xml`);
  expect(robots.body).toContain('Disallow: /checkout/');
});

test('the owner files a cancel request in the danger zone, sees its state, and withdraws it', async ({ page }) => {
  await signIn(page, { base: garden, email: 'owner@garden.test' }, '/manage-store/settings/other');
  const zone = page.getByRole('region', { name: 'Danger zone' });
  await expect(zone.getByTestId('cancel-state')).toContainText('Your store is open.');
  await zone.getByText('Request to cancel your store…').click();
  // The confirmation step: nothing is sent without the reason and the tick.
  await zone.getByRole('button', { name: 'Request cancellation' }).click();
  await expect(zone.getByText('Please tell us why you want to cancel.')).toBeVisible();
  await expect(zone.getByText('Please confirm that you understand what cancelling means.')).toBeVisible();
  await zone.getByLabel('Why do you want to cancel?').fill('We are merging into our sister store.');
  await zone.getByRole('button', { name: 'Request cancellation' }).click();
  // The reason typed stays; only the tick is missing.
  await expect(zone.getByLabel('Why do you want to cancel?')).toHaveValue('We are merging into our sister store.');
  await expect(zone.getByText('Please confirm that you understand what cancelling means.')).toBeVisible();
  await snap(page, 'cancel-request-errors-1280');
  await zone.getByLabel(/I understand that my store will close/).check();
  await zone.getByRole('button', { name: 'Request cancellation' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your cancel request was sent' })).toBeVisible();
  await expect(zone.getByTestId('cancel-state')).toContainText('Cancellation requested');
  await expect(zone).toContainText('We are merging into our sister store.');
  const tenant = async () =>
    JSON.parse((await fetchText('garden', '/api/fetch/tenant?tenantId=garden')).body).data.cancelRequest.status;
  expect(await tenant()).toBe('requested');
  await snap(page, 'cancel-request-requested-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'cancel-request-requested-375');

  await zone.getByRole('button', { name: 'Withdraw request' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your cancel request was withdrawn' })).toBeVisible();
  await expect(zone.getByTestId('cancel-state')).toContainText('Request withdrawn');
  expect(await tenant()).toBe('withdrawn');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Danger zone' }).getByTestId('cancel-state')).toContainText(
    'Request withdrawn',
  );
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the cancel request form works as a plain post', async ({ page }) => {
    await signIn(page, { base: power, email: 'owner@power.test' }, '/manage-store/settings/other');
    await page
      .getByRole('region', { name: 'Danger zone' })
      .getByRole('link', { name: /cancel request/ })
      .click();
    await expect(page).toHaveURL(`${power}/manage-store/settings/other/cancel`);
    // The menu keeps Store details marked: the danger zone belongs to it.
    await expect(
      page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Store details' }),
    ).toHaveAttribute('aria-current', 'page');
    const zone = page.getByRole('region', { name: 'Danger zone' });
    await zone.getByText('Request to cancel your store…').click();
    await zone.getByLabel('Why do you want to cancel?').fill('Closing for the winter.');
    await zone.getByRole('button', { name: 'Request cancellation' }).click();
    await expect(zone.getByText('Please confirm that you understand what cancelling means.')).toBeVisible();
    await expect(zone.getByLabel('Why do you want to cancel?')).toHaveValue('Closing for the winter.');
    await snap(page, 'cancel-request-nojs-errors-1280');
    await zone.getByLabel(/I understand that my store will close/).check();
    await zone.getByRole('button', { name: 'Request cancellation' }).click();
    await expect(zone.getByRole('status')).toContainText('Your cancel request was sent');
    await expect(zone.getByTestId('cancel-state')).toContainText('Cancellation requested');
    await zone.getByRole('button', { name: 'Withdraw request' }).click();
    await expect(zone.getByTestId('cancel-state')).toContainText('Request withdrawn');
  });

  test('the sitemap can be generated with a plain post', async ({ page }) => {
    await signIn(page, { base: power, email: 'owner@power.test' }, '/manage-store/settings/sitemap');
    await page.getByRole('button', { name: 'Generate sitemap' }).click();
    await expect(page.getByRole('region', { name: 'Last generation' })).toBeVisible();
    // Right after the post the job waits or runs (or has just finished on a fast machine).
    await snap(page, 'sitemap-after-post-nojs-1280');
    // Without JavaScript the owner refreshes to follow the job.
    await expect(async () => {
      await page.goto(`${power}/manage-store/settings/sitemap`);
      await expect(page.getByTestId('sitemap-last')).toContainText('Generated', { timeout: 500 });
    }).toPass({ timeout: 20_000 });
  });
});
