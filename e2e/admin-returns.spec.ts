import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * Returns, the store's side, on the garden store: the shopper asks to return one
 * unit of the seeded delivered order GAR-DEMO-S1 (no other spec touches the garden shopper's
 * orders), the owner approves it with instructions, marks it received with the unit put back in
 * stock (the inventory shows one more), refunds it, and the shopper's order page shows each step.
 */
const garden = STORES.garden.url;
const ORDER = 'GAR-DEMO-S1';
const INSTRUCTIONS = 'Send the parcel to Fernwood Returns, 12 Potting Shed Lane, Portland OR 97201.';

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { page: await context.newPage(), close: () => context.close() };
}

/** No serious or critical accessibility problem, and nothing wider than a 375 px phone. */
async function looksRight(page: Page, name: string) {
  await expectNoSeriousA11yIssue(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-returns-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await snap(page, `admin-returns-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function stockOf(page: Page, productName: string): Promise<number> {
  await page.goto(`${garden}/manage-store/inventory?q=${encodeURIComponent(productName)}`);
  // The inventory's one form: each row's "On hand" number starts at the stock the page read.
  const onHand = page
    .getByRole('table', { name: 'Products and their stock' })
    .getByRole('textbox', { name: `On hand: ${productName}` })
    .first();
  await expect(onHand).toBeVisible();
  return Number(await onHand.inputValue());
}

test('the owner approves, receives (restocking) and refunds a return; the shopper sees each step', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const shopper = await newPage(browser);
  const owner = await newPage(browser);
  const s = shopper.page;
  const o = owner.page;

  // The shopper asks for one unit of the first line back.
  await signIn(
    s,
    { base: garden, email: 'shopper@garden.test', password: 'shopper-demo-1' },
    `/order?orderId=${ORDER}`,
  );
  const order = await s.evaluate(async (url) => {
    const res = await fetch(url);
    return (await res.json()).data as { lines: { lineNo: number; productName: string; quantity: number }[] };
  }, `/skulocity/api/v1/ecommerce/order/status?orderId=${ORDER}`);
  const line = order.lines[0];
  if (!line) throw new Error('the seeded order has no lines');
  const form = s.getByTestId('return-form');
  await form.getByLabel(new RegExp(line.productName)).selectOption('1');
  await form.getByLabel('Reason').selectOption({ label: 'Arrived damaged' });
  await form.getByLabel(/Anything we should know/).fill('One pot arrived chipped.');
  await form.getByRole('button', { name: 'Request a return' }).click();
  const mine = s.getByTestId('return-request').first();
  await expect(mine.getByTestId('return-status')).toHaveText('Requested');
  const returnId = (/Return (\S+)/.exec(
    (await mine
      .getByText(/^Return /)
      .first()
      .textContent()) ?? '',
  ) ?? [])[1];
  expect(returnId).toMatch(new RegExp(`^${ORDER}-R\\d+$`));

  // The owner finds it in the Requested tab and opens it.
  await signIn(o, { base: garden, email: 'owner@garden.test' }, '/manage-store/inventory');
  const before = await stockOf(o, line.productName);
  await o.goto(`${garden}/manage-store/returns`);
  await o.getByRole('link', { name: 'Requested', exact: true }).click();
  await expect(o).toHaveURL(/status=requested/);
  const row = o.getByRole('row', { name: new RegExp(returnId as string) });
  await expect(row).toContainText(ORDER);
  await expect(row).toContainText('Arrived damaged');
  await expect(row.getByTestId('return-status')).toHaveText('Requested');
  await looksRight(o, 'list');
  await row.getByRole('link', { name: returnId as string }).click();
  await expect(o.getByRole('heading', { level: 1 })).toHaveText(`Return ${returnId}`);
  await expect(o.getByRole('link', { name: ORDER })).toHaveAttribute('href', `/manage-store/orders/${ORDER}`);
  await expect(o.getByText('“One pot arrived chipped.”')).toBeVisible();
  await looksRight(o, 'requested');

  // Approve with instructions (required: an empty box is refused by the browser and the server).
  await o.getByLabel('Instructions for the shopper').fill(INSTRUCTIONS);
  await o.getByRole('button', { name: 'Approve' }).click();
  await expect(o.getByTestId('return-status').first()).toHaveText('Approved');
  await expect(o.getByText(/approved\. The shopper has been emailed/)).toBeVisible();

  // Mark received: the one unit goes back to stock.
  await expect(o.getByLabel(new RegExp(`${line.productName}.*units back to stock`))).toHaveValue('1');
  await o.getByRole('button', { name: 'Mark received' }).click();
  await expect(o.getByTestId('return-status').first()).toHaveText('Received');
  await looksRight(o, 'received');
  const returnUrl = o.url();
  expect(await stockOf(o, line.productName)).toBe(before + 1);

  // Refund the proposed amount (the line with its tax share).
  await o.goto(returnUrl);
  const amount = await o.getByLabel(/^Amount/).inputValue();
  expect(Number(amount)).toBeGreaterThan(0);
  await o.getByRole('button', { name: 'Refund' }).click();
  await expect(o.getByTestId('return-status').first()).toHaveText('Refunded');
  await expect(o.getByRole('list', { name: 'Return history' })).toContainText(`Refunded · $${amount}`);
  await looksRight(o, 'refunded');

  // The shopper's order page shows every step, with the instructions and the amount.
  await s.reload();
  const ret = s.getByTestId('return-request').filter({ hasText: `Return ${returnId}` });
  await expect(ret.getByTestId('return-status')).toHaveText('Refunded');
  await expect(ret.getByTestId('return-step-requested')).toBeVisible();
  await expect(ret.getByTestId('return-step-approved')).toContainText(INSTRUCTIONS);
  await expect(ret.getByTestId('return-step-received')).toBeVisible();
  await expect(ret.getByTestId('return-step-refunded')).toContainText(`$${amount}`);
  await ret.scrollIntoViewIfNeeded();
  await looksRight(s, 'shopper-order');

  // The approval and the refund reached the shopper's mailbox.
  await expect(async () => {
    await s.goto(`${garden}/dev/mailbox`);
    await expect(s.getByRole('row', { name: new RegExp(`Your return ${returnId} is approved`) })).toBeVisible({
      timeout: 500,
    });
    await expect(s.getByRole('row', { name: new RegExp(`for return ${returnId}`) })).toBeVisible({ timeout: 500 });
  }).toPass();

  await shopper.close();
  await owner.close();
});
