import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, hydrated, STORES, type StoreName, signIn, snap } from './helpers';

/**
 * A variant bought, returned and put back, on seeded products (decision 112): garden's Fibrestone
 * Tall Planter (pot size S, M, L; L sold out) and power's 18V Brushless Drill Driver (battery 2 Ah,
 * 5 Ah) with its Hammer Drill (2 Ah sold out). A guest buys one variant; the owner sees that
 * variant's count move in the product's stock history and through the variant API, the others' not;
 * a sold-out variant cannot be bought; the owner ships, the guest asks for a return, the owner
 * approves and receives it, and the unit is back on that variant. It buys only variants no other
 * spec reads (the storefront specs count products, not these variants' units), so it runs with them.
 */
const API = '/skulocity/api/v1/catalog/products';

interface Case {
  store: StoreName;
  owner: string;
  product: { id: string; slug: string; name: string };
  /** The variant bought, by its values' labels (one option). */
  buy: string;
  price: string;
  /** Sold out, on this product or another of the store. */
  soldOut: { id: string; slug: string; label: string };
}

const CASES: Case[] = [
  {
    store: 'garden',
    owner: 'owner@garden.test',
    product: { id: 'GRD-1057', slug: 'fibrestone-tall-planter', name: 'Fibrestone Tall Planter' },
    buy: 'M',
    price: '$108.99',
    soldOut: { id: 'GRD-1057', slug: 'fibrestone-tall-planter', label: 'L' },
  },
  {
    store: 'power',
    owner: 'owner@power.test',
    product: { id: 'PWR-1001', slug: '18v-brushless-drill-driver', name: '18V Brushless Drill Driver' },
    buy: '5 Ah',
    price: '$178.99',
    soldOut: { id: 'PWR-1002', slug: '18v-brushless-hammer-drill', label: '2 Ah' },
  },
];

type Variant = { variantId: string; title: string; stock: number };

/** The owner's variant API, from the owner's page, as the dashboard's session calls it. */
async function variantsOf(owner: Page, productId: string): Promise<Record<string, number>> {
  const token = (await owner.context().cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  const res = await owner.evaluate(
    async ({ url, token }) => {
      const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      return { status: r.status, text: await r.text() };
    },
    { url: `${API}/${productId}/variants`, token },
  );
  expect(res.status, res.text).toBe(200);
  const { variants } = JSON.parse(res.text).data as { variants: Variant[] };
  return Object.fromEntries(variants.map((v) => [v.title, v.stock]));
}

/** The product's stock page in the dashboard: its total, and the newest line of its books. */
async function stockPage(owner: Page, base: string, productId: string) {
  await owner.goto(`${base}/manage-store/inventory/${productId}`);
  const total = Number(await owner.getByTestId('stock-now').textContent());
  const newest = owner.getByRole('table', { name: 'Stock history, newest first' }).getByRole('row').nth(1);
  return { total, newest };
}

async function guest(browser: Browser, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

async function checkOut(page: Page, email: string) {
  await page.goto(`${new URL(page.url()).origin}/checkout`);
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Email').fill(email);
  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByLabel('Street address').fill('7 Compiler Way');
  await page.getByLabel('City').fill('Seattle');
  await page.getByLabel('Postal code').fill('98101');
  await page.getByLabel('State or region').selectOption('US_WA');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Month').fill('12');
  await form.getByLabel('Year').fill('2099');
  await form.getByLabel('CVC').fill('123');
  await form.getByLabel('Name on card').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible({ timeout: 15_000 });
  const orderId = new URL(page.url()).searchParams.get('orderId');
  expect(orderId).toBeTruthy();
  return orderId as string;
}

for (const c of CASES) {
  test(`${c.store}: a guest buys ${c.product.name}, ${c.buy}; only that variant's stock moves, and a return puts it back`, async ({
    page: owner,
    browser,
  }) => {
    test.setTimeout(120_000);
    const base = STORES[c.store].url;
    const run = Date.now().toString(36);
    await signIn(owner, { base, email: c.owner }, '/manage-store/inventory');
    const before = await variantsOf(owner, c.product.id);
    const bought = before[c.buy] as number;
    expect(bought).toBeGreaterThan(1);
    const { total: totalBefore } = await stockPage(owner, base, c.product.id);

    // A sold-out variant cannot be added: the button is disabled, and the cart refuses it by id.
    const buyer = await guest(browser);
    await buyer.goto(`${base}/${c.soldOut.slug}/${c.soldOut.id}`);
    await hydrated(buyer);
    const picker = buyer.getByTestId('variant-picker');
    await picker.getByRole('radio', { name: new RegExp(`^${c.soldOut.label}`) }).check();
    await expect(buyer.getByTestId('stock-status')).toHaveText(/Sold out/);
    await expect(buyer.getByTestId('add-to-cart')).toBeDisabled();
    const soldOutId = new URL(buyer.url()).searchParams.get('variant');
    expect(soldOutId).toBeTruthy();
    const refused = await buyer.evaluate(async (variantId) => {
      const r = await fetch('/skulocity/api/v1/public/ecommerce/product/addToCart', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ variantId, quantity: 1 }),
      });
      return { status: r.status, text: await r.text() };
    }, soldOutId);
    expect(refused.status, refused.text).toBeGreaterThanOrEqual(400);
    expect(refused.text).toMatch(/OUT_OF_STOCK|sold out|in stock/i);

    // The guest buys one of the chosen variant.
    await buyer.goto(`${base}/${c.product.slug}/${c.product.id}`);
    await hydrated(buyer);
    await picker.getByRole('radio', { name: new RegExp(`^${c.buy}`) }).check();
    await expect(buyer.getByTestId('product-price').getByTestId('price-current')).toHaveText(c.price);
    await buyer.getByTestId('add-to-cart').click();
    await expect(buyer).toHaveURL(`${base}/cart`);
    await expect(buyer.getByTestId('cart-line')).toContainText(c.buy);
    const orderId = await checkOut(buyer, `variant-${run}@example.com`);
    const orderUrl = buyer.url();
    await expect(buyer.getByText(c.buy).first()).toBeVisible();

    // The owner: only that variant's count moved, by one, and the books say so with the order.
    await expect.poll(() => variantsOf(owner, c.product.id)).toEqual({ ...before, [c.buy]: bought - 1 });
    const sold = await stockPage(owner, base, c.product.id);
    expect(sold.total).toBe(totalBefore - 1);
    await expect(sold.newest).toContainText('−1');
    await expect(sold.newest).toContainText(`${bought} → ${bought - 1}`);
    await expect(sold.newest).toContainText(`Order ${orderId}`);
    await snap(owner, `variant-purchase-${c.store}-stock-history`);
    await expectNoSeriousA11yIssue(owner);

    // The owner ships and delivers; the order page names the variant.
    await owner.goto(`${base}/manage-store/orders/${orderId}`);
    await expect(owner.getByRole('main')).toContainText(c.buy);
    await owner.getByRole('link', { name: 'Fulfil', exact: true }).click();
    const fulfil = owner.getByRole('form', { name: 'Fulfil order' });
    await fulfil.getByLabel('Carrier', { exact: true }).selectOption('ups');
    await fulfil.getByLabel('Tracking number').fill(`1Z${run.toUpperCase()}`);
    await fulfil.getByRole('button', { name: 'Mark as shipped' }).click();
    await expect(owner.getByTestId('order-status')).toHaveText('Shipped');
    await owner.getByRole('button', { name: 'Mark delivered' }).click();
    await expect(owner.getByTestId('order-status')).toHaveText('Delivered');

    // The guest asks to return the unit from the order page the checkout led to.
    await buyer.goto(orderUrl);
    const form = buyer.getByTestId('return-form');
    await form.getByLabel(new RegExp(c.product.name)).selectOption('1');
    await form.getByLabel('Reason').selectOption({ label: 'Arrived damaged' });
    await form.getByRole('button', { name: 'Request a return' }).click();
    const mine = buyer.getByTestId('return-request').first();
    await expect(mine.getByTestId('return-status')).toHaveText('Requested');
    const returnId = /Return (\S+)/.exec(
      (await mine
        .getByText(/^Return /)
        .first()
        .textContent()) ?? '',
    )?.[1];
    expect(returnId).toMatch(new RegExp(`^${orderId}-R\\d+$`));

    // The owner approves and receives it, restocking the unit: back on the variant bought.
    await owner.goto(`${base}/manage-store/returns/${returnId}`);
    await owner.getByLabel('Instructions for the shopper').fill('Send it back in its box, please.');
    await owner.getByRole('button', { name: 'Approve' }).click();
    await expect(owner.getByTestId('return-status').first()).toHaveText('Approved');
    await expect(owner.getByLabel(/units back to stock/)).toHaveValue('1');
    await owner.getByRole('button', { name: 'Mark received' }).click();
    await expect(owner.getByTestId('return-status').first()).toHaveText('Received');
    expect(await variantsOf(owner, c.product.id)).toEqual(before);
    const back = await stockPage(owner, base, c.product.id);
    expect(back.total).toBe(totalBefore);
    await expect(back.newest).toContainText('+1');
    await expect(back.newest).toContainText(`${bought - 1} → ${bought}`);
    await expect(back.newest).toContainText(`Return ${returnId}`);
    await buyer.context().close();
  });
}
