import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiJson, expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * Review moderation: the owner hides a review and it leaves the product page and
 * its summary; replies to another and the reply shows under it as "Response from Voltline Tools".
 * Power store, on two seeded products no other spec touches (Pry Bar 600 mm and Wood Chisel Set);
 * both are put back as they were at the end.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const HIDE_PRODUCT = 'PWR-1041';
const REPLY_PRODUCT = 'PWR-1040';

type Details = {
  data: {
    slug: string;
    productName: string;
    reviewSummary: {
      count: number;
      latest: { authorName: string; createdAt: string; reply: { text: string } | null }[];
    };
  };
};
const details = (productId: string) =>
  apiJson<Details>(null, 'power', `/skulocity/api/v1/public/ecommerce/getproductdetails?productId=${productId}`);

/** The owner's API as a script calls it: the session as a bearer token. */
async function ownerApi(page: Page, method: string, path: string, body?: object) {
  const token = (await page.context().cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  return page.evaluate(
    async ({ token, method, path, body }) => {
      const r = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, json: (await r.json()) as { data: { items: { reviewId: string }[] } } };
    },
    { token, method, path, body },
  );
}

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-reviews-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-reviews-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function shopperPage(browser: Browser, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${power}${path}`);
  return { page, close: () => context.close() };
}

const rows = (page: Page) => page.getByRole('list', { name: 'Reviews' }).getByRole('listitem');

test('the owner hides a review and it leaves the product page; a reply shows under another', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const hideBefore = await details(HIDE_PRODUCT);
  const hidden = hideBefore.data.reviewSummary.latest[0];
  expect(hidden, 'the product has reviews').toBeDefined();
  const count = hideBefore.data.reviewSummary.count;
  const productPath = `/${hideBefore.data.slug}/${HIDE_PRODUCT}`;

  // Hiding without JavaScript: the Hide button is a plain form.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await signIn(plain, owner, `/manage-store/reviews?productId=${HIDE_PRODUCT}`);
  await expect(plain.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
  const first = rows(plain).first();
  await expect(first).toContainText(hideBefore.data.productName);
  await expect(first).toContainText(hidden?.authorName as string);
  await expect(first.getByTestId('review-status')).toHaveText('Published');
  await first.getByRole('button', { name: /^Hide / }).click();
  await expect(rows(plain).first().getByTestId('review-status')).toHaveText('Hidden');
  await expect(
    rows(plain)
      .first()
      .getByRole('button', { name: /^Publish / }),
  ).toBeVisible();
  await noJs.close();

  // The product page has it no more, nor its star in the summary.
  const after = await details(HIDE_PRODUCT);
  expect(after.data.reviewSummary.count).toBe(count - 1);
  expect(
    after.data.reviewSummary.latest.some(
      (r) => r.authorName === hidden?.authorName && r.createdAt === hidden?.createdAt,
    ),
  ).toBe(false);
  const shopper = await shopperPage(browser, productPath);
  await expect(shopper.page.getByTestId('reviews')).toContainText(`Based on ${count - 1} review`);
  await shopper.close();

  // A reply, with JavaScript: written inline, and shown under the review on the product page.
  await signIn(page, owner, `/manage-store/reviews?productId=${REPLY_PRODUCT}`);
  const replyBefore = await details(REPLY_PRODUCT);
  const target = replyBefore.data.reviewSummary.latest[0];
  const text = `Thanks for the kind words — e2e ${Date.now()}`;
  const row = rows(page).first();
  await expect(row).toContainText(target?.authorName as string);
  // The reply form opens from its disclosure (a <details>), as a keyboard user would: focus and Enter.
  await row.getByText(/^Reply to /).focus();
  await page.keyboard.press('Enter');
  await row.getByLabel('Public reply, shown under the review').fill(text);
  await row.getByRole('button', { name: 'Save reply' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Reply saved' })).toBeVisible();
  await expect(rows(page).first().getByTestId('store-reply')).toContainText(text);
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'list');

  const replyPage = await shopperPage(browser, `/${replyBefore.data.slug}/${REPLY_PRODUCT}`);
  const reply = replyPage.page.getByTestId('review-reply');
  await expect(reply).toContainText('Response from Voltline Tools');
  await expect(reply).toContainText(text);
  await replyPage.page.getByTestId('reviews').scrollIntoViewIfNeeded();
  await snap(replyPage.page, 'admin-reviews-product-reply-1280');
  await replyPage.page.setViewportSize({ width: 375, height: 800 });
  await snap(replyPage.page, 'admin-reviews-product-reply-375');
  await replyPage.close();

  // Put both products back as they were, for a rerun on the same server.
  const list = await ownerApi(page, 'GET', `/api/v1/reviews?productId=${HIDE_PRODUCT}&status=HIDDEN`);
  for (const r of list.json.data.items) {
    expect((await ownerApi(page, 'POST', `/api/v1/reviews/${r.reviewId}/publish`)).status).toBe(200);
  }
  const replied = await ownerApi(page, 'GET', `/api/v1/reviews?productId=${REPLY_PRODUCT}`);
  const repliedId = replied.json.data.items[0]?.reviewId as string;
  expect((await ownerApi(page, 'DELETE', `/api/v1/reviews/${repliedId}/reply`)).status).toBe(200);
  expect((await details(HIDE_PRODUCT)).data.reviewSummary.count).toBe(count);
});
