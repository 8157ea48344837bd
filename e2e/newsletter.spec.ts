import { expect, test } from '@playwright/test';
import { hydrated, STORES, snap } from './helpers';

const footerForm = (page: import('@playwright/test').Page) =>
  page.getByRole('contentinfo').getByRole('textbox', { name: 'Email address' });

test.describe('newsletter without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the footer form subscribes, and the mailed link confirms', async ({ page }) => {
    const email = `nojs-${Date.now()}@example.com`;
    await page.goto(`${STORES.lighting.url}/`);
    await footerForm(page).fill(email);
    await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Almost there' })).toBeVisible();
    await expect(page.getByText('Please check your inbox')).toBeVisible();
    await snap(page, 'newsletter-nojs-subscribed');

    // Mail leaves as a job, a moment after the answer: the mailbox is read until it is there.
    const mail = page
      .getByRole('row', { name: email })
      .getByRole('link', { name: 'Confirm your subscription to Brightside Lighting' });
    await expect(async () => {
      await page.goto(`${STORES.lighting.url}/dev/mailbox`);
      await expect(mail).toBeVisible({ timeout: 500 });
    }).toPass();
    await mail.click();
    await page.getByRole('link', { name: /\/newsletter\/confirm\?token=/ }).click();
    await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await snap(page, 'newsletter-nojs-confirmed');
    // Single use: the same link again says so.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'This link does not work any more' })).toBeVisible();

    // The unsubscribe link of the same mail asks first (mail scanners open links), then unsubscribes.
    await page.goto(`${STORES.lighting.url}/dev/mailbox`);
    await page.getByRole('row', { name: email }).getByRole('link').first().click();
    await page.getByRole('link', { name: /\/newsletter\/unsubscribe\?token=/ }).click();
    await expect(page.getByRole('heading', { name: 'Unsubscribe from our newsletter?' })).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  });
});

test('with JavaScript the footer form answers with a toast and the shopper stays on the page', async ({ page }) => {
  await page.goto(`${STORES.lighting.url}/faqs`);
  await hydrated(page);
  await footerForm(page).fill(`js-${Date.now()}@example.com`);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Please check your inbox' })).toBeVisible();
  await expect(page).toHaveURL(/\/faqs$/);
  await snap(page, 'newsletter-js-toast');
});
