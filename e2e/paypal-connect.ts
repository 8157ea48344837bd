import { expect, type Page } from '@playwright/test';

/**
 * The store's owner (signed in on `page`) connects the store's PayPal account as an owner does
 *: Payments, "Connect PayPal", PayPal's sign-up page (the stand-in's), "Agree and
 * connect", back on Payments: "Connected". Only a connected store offers PayPal at checkout.
 * A store already connected (an earlier test of the run) is left as it is.
 */
export async function connectPayPal(page: Page, base: string) {
  await page.goto(`${base}/manage-store/payments`);
  const status = page.getByTestId('paypal-status');
  await expect(status).toBeVisible();
  if ((await status.textContent())?.trim() === 'Connected') return;
  await page.getByRole('button', { name: /^Connect PayPal/ }).click();
  await page.getByRole('button', { name: 'Agree and connect' }).click();
  await expect(page).toHaveURL(`${base}/manage-store/payments?paypal=connected`);
  await expect(status).toHaveText('Connected');
}
