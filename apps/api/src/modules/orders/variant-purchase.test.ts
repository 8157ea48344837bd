import { type Db, schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../lib/context';
import { buyWithTestCard, guestCardOrder } from '../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import type { MailMessage } from '../mail/index';
// biome-ignore lint/style/noRestrictedImports: part A's test helpers for variants (decision 112) are test-only and so not in products' index.
import { booksOf, givenVariants } from '../products/variants-test-setup';

// A variant bought from end to end on the API (decision 112): added to the cart by its id, checked out,
// shown as "Black · SKU" on the order, the receipt, the invoice and the orders admin; its stock and
// books move and the other variants' do not; a return puts it back; buy again maps by variant.

let t: TestApp;
let db: Db;
let ctx: RequestContext;
let shopper: BrowserSession;
let owner: BrowserSession;
const T = 'lighting';
const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
const mail: MailMessage[] = [];
let pendant: { productId: string; name: string; brass: string; black: string; opal: string; blackSku: string };

const v = schema.productVariants;
const sm = schema.stockMovements;
const stockOf = async (variantId: string) =>
  (
    await db
      .select({ n: v.stockQuantity })
      .from(v)
      .where(and(eq(v.tenantId, T), eq(v.variantId, variantId)))
  )[0]?.n;
const movementsOf = (variantId: string) =>
  db
    .select({ delta: sm.delta, reason: sm.reason, orderId: sm.orderId })
    .from(sm)
    .where(and(eq(sm.tenantId, T), eq(sm.variantId, variantId)))
    .orderBy(asc(sm.createdAt));

function call(method: 'GET' | 'POST', url: string, session: BrowserSession | null, body?: object) {
  return t.app.inject({
    method,
    url,
    headers: { host: LIGHTING, origin: `http://${LIGHTING}`, ...(session ?? {}) },
    ...(body ? { payload: body } : {}),
  });
}

/** The signed-in shopper's cart holds `lines`, then is checked out with the test card. */
const buy = (lines: { variantId?: string; productId?: string; quantity: number }[]) =>
  buyWithTestCard(t.app, LIGHTING, shopper, lines);

beforeAll(async () => {
  t = await createTestApp({
    jobs: { pollMs: 60_000 },
    mailer: {
      async send(m) {
        mail.push(m);
      },
      close() {},
    },
  });
  db = t.database.db;
  ctx = systemContext(
    { tenantId: T, productStoreId: '9000', hostName: LIGHTING, viaDevAlias: false, origin: `http://${LIGHTING}` },
    'variant-purchase-test',
  );
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  const p = schema.products;
  const [row] = await db
    .select({ productId: p.productId, name: p.productName })
    .from(p)
    .where(and(eq(p.tenantId, T), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE'), eq(p.status, 'ACTIVE')))
    .orderBy(asc(p.productId))
    .limit(1);
  if (!row) throw new Error('no product');
  const [brass, black, opal] = (await givenVariants(db, ctx, row.productId, 'Finish', [
    { label: 'Brass', stock: 5, listPrice: 12_000 },
    { label: 'Black', stock: 4, listPrice: 10_000 },
    { label: 'Opal', stock: 1, listPrice: 11_000 },
  ])) as [string, string, string];
  const [blackRow] = await db
    .select({ sku: v.sku })
    .from(v)
    .where(and(eq(v.tenantId, T), eq(v.variantId, black)));
  pendant = { ...row, brass, black, opal, blackSku: blackRow?.sku as string };
});
afterAll(async () => t?.close());
beforeEach(() => {
  mail.length = 0;
});

describe('buying a variant', () => {
  it("takes the variant's stock only, writes it on the order line, the receipt, the invoice and the orders admin, and a return puts it back", async () => {
    const before = { brass: await stockOf(pendant.brass), opal: await stockOf(pendant.opal) };
    const placed = await buy([{ variantId: pendant.black, quantity: 2 }]);
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json().data;
    expect(order.lines).toEqual([
      expect.objectContaining({
        productId: pendant.productId,
        variantId: pendant.black,
        variantTitle: 'Black',
        sku: pendant.blackSku,
        quantity: 2,
        unitPrice: 10_000,
      }),
    ]);

    // The variant's stock and books moved; the others' did not; the product's totals are the sums.
    expect(await stockOf(pendant.black)).toBe(2);
    expect({ brass: await stockOf(pendant.brass), opal: await stockOf(pendant.opal) }).toEqual(before);
    expect((await movementsOf(pendant.black)).at(-1)).toEqual({ delta: -2, reason: 'SOLD', orderId: order.orderId });
    expect((await movementsOf(pendant.brass)).some((m) => m.orderId === order.orderId)).toBe(false);
    const books = await booksOf(db, T, pendant.productId);
    expect(books?.total).toBe(books?.sum_all);

    // The order line as written, and as the shopper, the receipt, the invoice and staff read it.
    const [line] = await db
      .select()
      .from(schema.orderLines)
      .where(and(eq(schema.orderLines.tenantId, T), eq(schema.orderLines.orderId, order.orderId)));
    expect(line).toMatchObject({ variantId: pendant.black, variantTitle: 'Black', sku: pendant.blackSku });
    const shown = await call('GET', `${B}/ecommerce/order/status?orderId=${order.orderId}`, shopper);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data.lines[0]).toMatchObject({ variantTitle: 'Black', sku: pendant.blackSku });
    await expect.poll(() => mail.length, { timeout: 2_000 }).toBe(1);
    expect(mail[0]?.text).toContain(`2 x ${pendant.name} (Black · ${pendant.blackSku}): $200.00`);
    // The invoice's PDF, as its text reads.
    const pdf = await call('GET', `${B}/ecommerce/order/order/pdf?orderId=${order.orderId}`, shopper);
    expect(pdf.statusCode).toBe(200);
    const doc = await getDocumentProxy(new Uint8Array(pdf.rawPayload));
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join('\n');
    expect(text).toContain(pendant.name);
    expect(text).toContain(`Black · ${pendant.blackSku}`);
    const admin = await call('GET', `/api/v1/orders/${order.orderId}`, owner);
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().data.lines[0]).toMatchObject({
      variantId: pendant.black,
      variantTitle: 'Black',
      sku: pendant.blackSku,
    });

    // Delivered, returned: the units go back into the variant sold.
    await db
      .update(schema.orders)
      .set({ status: 'delivered' })
      .where(and(eq(schema.orders.tenantId, T), eq(schema.orders.orderId, order.orderId)));
    const asked = await call('POST', `${B}/ecommerce/createreturns`, shopper, {
      orderId: order.orderId,
      lines: [{ lineNo: 1, quantity: 2 }],
      reason: 'damaged',
      note: 'Scratched',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const returnId = asked.json().data.returnId;
    expect(
      (await call('POST', `/api/v1/returns/${returnId}/approve`, owner, { instructions: 'Send it back.' })).statusCode,
    ).toBe(200);
    const received = await call('POST', `/api/v1/returns/${returnId}/receive`, owner, {
      lines: [{ lineNo: 1, restock: 2 }],
    });
    expect(received.statusCode, received.body).toBe(200);
    expect(await stockOf(pendant.black)).toBe(4);
    expect((await movementsOf(pendant.black)).at(-1)).toMatchObject({ delta: 2, reason: 'RETURNED' });
    expect({ brass: await stockOf(pendant.brass), opal: await stockOf(pendant.opal) }).toEqual(before);
  });

  it('refuses at Place order a variant sold out since it was added, naming the variant', async () => {
    await call('POST', `${B}/public/ecommerce/cart/emptycart`, shopper);
    await call('POST', `${B}/public/ecommerce/product/addToCart`, shopper, { variantId: pendant.opal, quantity: 1 });
    // Someone else buys the last one.
    const other = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/product/addToCart`,
      headers: { host: LIGHTING },
      payload: { variantId: pendant.opal, quantity: 1 },
    });
    const cookie = String([other.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    const theirs = await t.app.inject({
      method: 'POST',
      url: `${B}/ecommerce/checkout/processorder`,
      headers: { host: LIGHTING, cookie, 'idempotency-key': crypto.randomUUID() },
      payload: guestCardOrder('someone@example.com'),
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
    const { email: _guest, ...body } = guestCardOrder();
    const mine = await t.app.inject({
      method: 'POST',
      url: `${B}/ecommerce/checkout/processorder`,
      headers: { host: LIGHTING, origin: `http://${LIGHTING}`, ...shopper, 'idempotency-key': crypto.randomUUID() },
      payload: body,
    });
    expect(mine.statusCode).toBe(409);
    expect(mine.json().message).toBe(`${pendant.name}, Opal: Out of stock.`);
    expect(await stockOf(pendant.opal)).toBe(0);
  });

  it('buy again adds the variant bought, and skips a variant disabled since with a message', async () => {
    const placed = await buy([
      { variantId: pendant.brass, quantity: 1 },
      { variantId: pendant.black, quantity: 1 },
    ]);
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().data.orderId;
    await call('POST', `${B}/public/ecommerce/cart/emptycart`, shopper);
    const again = await call('POST', `${B}/ecommerce/order/reorder`, shopper, { orderId });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ added: 2, skipped: [] });
    const cart = await call('GET', `${B}/public/ecommerce/cart/showcart`, shopper);
    expect(cart.json().data.cart.lines.map((l: { variantTitle: string }) => l.variantTitle)).toEqual([
      'Brass',
      'Black',
    ]);

    await call('POST', `${B}/public/ecommerce/cart/emptycart`, shopper);
    await db
      .update(v)
      .set({ enabled: false })
      .where(and(eq(v.tenantId, T), eq(v.variantId, pendant.black)));
    const partly = await call('POST', `${B}/ecommerce/order/reorder`, shopper, { orderId });
    expect(partly.json().data).toMatchObject({
      added: 1,
      skipped: [{ productName: `${pendant.name}, Black`, reason: 'no longer sold' }],
    });
    expect(partly.json().message).toBe(`Added to your cart, except: ${pendant.name}, Black (no longer sold).`);
    await db
      .update(v)
      .set({ enabled: true })
      .where(and(eq(v.tenantId, T), eq(v.variantId, pendant.black)));
  });
});
