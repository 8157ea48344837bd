import { request as httpRequest } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { apiJson, expectNoSeriousA11yIssue, fetchText, STORES, signIn, snap } from './helpers';
import { PORT } from './playwright.config';

/**
 * Returns and reviews with the seeded history of shopper@lighting.test (the auth tests only log it
 * in and out; no other test touches its orders or reviews): a return of one line of the delivered
 * order LIG-DEMO-S1, then a review with HTML in it of that line's product, shown as written.
 */
const base = STORES.lighting.url;
const ORDER = 'LIG-DEMO-S1';
const shopper = { base, email: 'shopper@lighting.test', password: 'shopper-demo-1' };
const TITLE = 'Bright <b>and</b> warm';
const TEXT = 'Lovely <b>glow</b> in the evening. </script><script>alert(1)</script>';

interface Details {
  data: { productId: string; slug: string; productName: string; reviewSummary: { count: number } };
}

/** No serious or critical accessibility problem, and nothing wider than a 375 px phone. */
async function looksRight(page: Page) {
  await expectNoSeriousA11yIssue(page);
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a shopper returns one line of a delivered order, then reviews its product; the review shows literally', async ({
  page,
}) => {
  // A long journey (login, order, return, review, screenshots at two widths) on a shared 2-core box.
  test.setTimeout(60_000);
  const dialogs: string[] = [];
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await signIn(page, shopper, '/order/history');
  const history = page.getByTestId('order-history');
  await expect(history).toContainText(`Order ${ORDER}`);
  await history.getByRole('link', { name: new RegExp(`Order ${ORDER}`) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Order ${ORDER}`);
  await expect(page.getByTestId('order-status')).toHaveText('Delivered');

  // Read in the page (Node does not resolve *.localhost; the browser does, with the session cookie).
  const order = await page.evaluate(async (url) => {
    const res = await fetch(url);
    return (await res.json()).data as { lines: { productId: string; productName: string; quantity: number }[] };
  }, `/skulocity/api/v1/ecommerce/order/status?orderId=${ORDER}`);
  const line = order.lines[0];
  if (!line) throw new Error('the seeded order has no lines');

  const form = page.getByTestId('return-form');
  await form.getByLabel(new RegExp(line.productName)).selectOption('1');
  await form.getByLabel('Reason').selectOption({ label: 'Arrived damaged' });
  await form.getByLabel(/Anything we should know/).fill('The glass shade arrived cracked.');
  await looksRight(page);
  await snap(page, 'order-return-form');
  await page.setViewportSize({ width: 375, height: 812 });
  await snap(page, 'order-return-form-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await form.getByRole('button', { name: 'Request a return' }).click();

  const requests = page.getByTestId('return-request');
  await expect(requests).toHaveCount(1);
  await expect(requests.first().getByTestId('return-status')).toHaveText('Requested');
  await expect(requests.first()).toContainText(`1 × ${line.productName}`);
  await expect(requests.first()).toContainText('Arrived damaged');
  // One of the two is still returnable, and the form starts afresh: the request just made is not
  // still filled in, one press away from a second one.
  await expect(form).toContainText(`1 of ${line.quantity} left to return`);
  await expect(form.getByLabel(new RegExp(line.productName))).toHaveValue('0');
  await expect(form.getByLabel(/Anything we should know/)).toHaveValue('');
  await snap(page, 'order-returns');
  await page.setViewportSize({ width: 375, height: 812 });
  await snap(page, 'order-returns-375');
  await page.getByTestId('returns').screenshot({ path: 'test-results/screenshots/order-returns-section-375.png' });
  await page.setViewportSize({ width: 1280, height: 800 });

  const before = await apiJson<Details>(
    null,
    'lighting',
    `/skulocity/api/v1/public/ecommerce/getproductdetails?productId=${line.productId}`,
  );
  const count = before.data.reviewSummary.count + 1;
  await page.goto(`${base}/${before.data.slug}/${line.productId}`);
  const reviews = page.getByTestId('reviews');
  const write = page.getByTestId('review-form');
  await write.getByText('4 · Very good').click();
  await write.getByLabel('Title (optional)').fill(TITLE);
  await write.getByLabel('Your review').fill(TEXT);
  await looksRight(page);
  await reviews.screenshot({ path: 'test-results/screenshots/product-review-form.png' });
  await page.setViewportSize({ width: 375, height: 812 });
  await reviews.screenshot({ path: 'test-results/screenshots/product-review-form-375.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await write.getByRole('button', { name: 'Publish review' }).click();

  await expect(page.getByTestId('review-note')).toContainText('You reviewed this product on');
  await expect(reviews.getByTestId('review-body').first()).toHaveText(TEXT);
  await expect(reviews.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(reviews).toContainText(`Based on ${count} ${count === 1 ? 'review' : 'reviews'}`);
  await expect(reviews).toContainText('Sam S.');
  // Shown as text: no element came out of the review.
  await expect(reviews.locator('article b')).toHaveCount(0);
  await reviews.scrollIntoViewIfNeeded();
  await snap(page, 'product-reviews');
  await page.setViewportSize({ width: 375, height: 812 });
  await snap(page, 'product-reviews-375');
  await reviews.screenshot({ path: 'test-results/screenshots/product-reviews-section-375.png' });

  // The server's HTML: the text escaped in the page, and `<` escaped in the JSON-LD.
  const html = (await fetchText('lighting', `/${before.data.slug}/${line.productId}`)).body;
  expect(html).toContain(
    'Lovely &lt;b&gt;glow&lt;/b&gt; in the evening. &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
  );
  expect(html).not.toContain('<b>glow</b>');
  expect(html).not.toContain('<script>alert(1)');
  expect(html).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
  expect(dialogs).toEqual([]);
});

/** A GET with the browser's cookies, from the test process (Node does not resolve *.localhost). */
function getWithCookies<T>(path: string, cookie: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: PORT, path, headers: { host: new URL(base).host, cookie } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve(JSON.parse(body) as T));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('without JavaScript: a return of the completed order and a review of a paid one, through the plain forms', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, shopper, '/order?orderId=LIG-DEMO-S2');
  // The seeded, refunded return of this order, and the form for what is left.
  const requests = page.getByTestId('return-request');
  await expect(requests).toHaveCount(1);
  await expect(requests.first().getByTestId('return-status')).toHaveText('Refunded');
  const form = page.getByTestId('return-form');
  const selects = form.getByRole('combobox', { name: /quantity to return/ });
  await expect(selects).toHaveCount(2);
  await selects.nth(1).selectOption('1');
  await form.getByLabel('Reason').selectOption({ label: 'No longer needed' });
  await form.getByRole('button', { name: 'Request a return' }).click();
  await expect(requests).toHaveCount(2);
  await expect(requests.first().getByTestId('return-status')).toHaveText('Requested');
  await expect(requests.first()).toContainText('No longer needed');

  // Nothing chosen: the form says so by its field.
  await form.getByLabel('Reason').selectOption({ label: 'Other reason' });
  await form.getByRole('button', { name: 'Request a return' }).click();
  await expect(page.getByTestId('error-lines')).toHaveText('Choose at least one item to return.');

  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const paid = await getWithCookies<{ data: { lines: { productId: string }[] } }>(
    '/skulocity/api/v1/ecommerce/order/status?orderId=LIG-DEMO-S3',
    cookie,
  );
  const productId = paid.data.lines[0]?.productId ?? '';
  const details = await apiJson<Details>(
    null,
    'lighting',
    `/skulocity/api/v1/public/ecommerce/getproductdetails?productId=${productId}`,
  );
  await page.goto(`${base}/${details.data.slug}/${productId}`);
  const write = page.getByTestId('review-form');
  await write.getByText('5 · Excellent').click();
  await write.getByLabel('Your review').fill('Green shade, warm light, solid brass.');
  await write.getByRole('button', { name: 'Publish review' }).click();
  await expect(page.getByTestId('review-note')).toContainText('You reviewed this product on');
  await expect(page.getByTestId('review-body').first()).toHaveText('Green shade, warm light, solid brass.');
  await context.close();
});
