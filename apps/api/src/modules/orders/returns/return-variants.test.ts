import { fileURLToPath } from 'node:url';
import { type Db, schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../lib/context';
import { buyWithTestCard } from '../../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import type { MailMessage } from '../../mail/index';
// biome-ignore lint/style/noRestrictedImports: part A's test helpers for variants (decision 112) are test-only and so not in products' index.
import { givenVariants } from '../../products/variants-test-setup';

// A return of a product with variants (decision 112): the order has Brass and Black of one pendant on
// two lines; the shopper's order page offers each with its variant, a request names the line (by its
// number or the variant's id, not the product's: that is two lines), and the request, its mail and
// the page say which variant goes back. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../../web/build', import.meta.url));
const T = 'lighting';
const HOST = 'lighting.localhost';
const B = '/skulocity/api/v1';

let t: TestApp;
let db: Db;
let shopper: BrowserSession;
const mail: MailMessage[] = [];
let pendant: { productId: string; name: string; brass: string; black: string; brassSku: string; blackSku: string };
let orderId: string;

function call(method: 'GET' | 'POST', url: string, body?: object) {
  return t.app.inject({
    method,
    url,
    headers: { host: HOST, origin: `http://${HOST}`, ...shopper },
    ...(body ? { payload: body } : {}),
  });
}
const page = (url: string) => t.app.inject({ url, headers: { host: HOST, cookie: shopper.cookie } });
/** The part of a page's HTML inside the element with this data-testid (to its closing tag's depth is not needed here). */
function section(html: string, testId: string): string {
  const at = html.indexOf(`data-testid="${testId}"`);
  expect(at, `no ${testId} on the page`).toBeGreaterThan(-1);
  return html.slice(at, at + 6000);
}

beforeAll(async () => {
  t = await createTestApp({
    webBuildDir,
    jobs: { pollMs: 60_000 },
    mailer: {
      async send(m) {
        mail.push(m);
      },
      close() {},
    },
  });
  db = t.database.db;
  const ctx = systemContext(
    { tenantId: T, productStoreId: '9000', hostName: HOST, viaDevAlias: false, origin: `http://${HOST}` },
    'return-variants-test',
  );
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  const p = schema.products;
  const [row] = await db
    .select({ productId: p.productId, name: p.productName })
    .from(p)
    .where(and(eq(p.tenantId, T), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE'), eq(p.status, 'ACTIVE')))
    .orderBy(asc(p.productId))
    .limit(1);
  if (!row) throw new Error('no product');
  const [brass, black] = (await givenVariants(db, ctx, row.productId, 'Finish', [
    { label: 'Brass', stock: 5, listPrice: 12_000 },
    { label: 'Black', stock: 5, listPrice: 10_000 },
  ])) as [string, string];
  const v = schema.productVariants;
  const skus = await db
    .select({ id: v.variantId, sku: v.sku })
    .from(v)
    .where(and(eq(v.tenantId, T), eq(v.productId, row.productId)));
  const skuOf = (id: string) => skus.find((s) => s.id === id)?.sku as string;
  pendant = { ...row, brass, black, brassSku: skuOf(brass), blackSku: skuOf(black) };

  const placed = await buyWithTestCard(t.app, HOST, shopper, [
    { variantId: brass, quantity: 1 },
    { variantId: black, quantity: 2 },
  ]);
  expect(placed.statusCode, placed.body).toBe(200);
  orderId = placed.json().data.orderId;
  await db
    .update(schema.orders)
    .set({ status: 'delivered' })
    .where(and(eq(schema.orders.tenantId, T), eq(schema.orders.orderId, orderId)));
});
afterAll(async () => t?.close());
beforeEach(() => {
  mail.length = 0;
});

describe('returning a variant', () => {
  it("offers each line with its variant on the shopper's order page", async () => {
    const res = await page(`/order?orderId=${orderId}`);
    expect(res.statusCode).toBe(200);
    const form = section(res.body, 'return-form');
    expect(form).toContain(`Brass · ${pendant.brassSku}`);
    expect(form).toContain(`Black · ${pendant.blackSku}`);
  });

  it('refuses the product alone (two lines have it) and names the line by the variant instead', async () => {
    const byProduct = await call('POST', `${B}/ecommerce/createreturns`, {
      orderId,
      lines: [{ productId: pendant.productId, quantity: 1 }],
      reason: 'damaged',
    });
    expect(byProduct.statusCode).toBe(400);
    expect(byProduct.json().message).toBe(
      `${pendant.productId} is on several lines of order ${orderId}; name the line by lineNo.`,
    );

    const unknown = await call('POST', `${B}/ecommerce/createreturns`, {
      orderId,
      lines: [{ variantId: `${pendant.productId}-9`, quantity: 1 }],
      reason: 'damaged',
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe(`Order ${orderId} has no ${pendant.productId}-9.`);

    const both = await call('POST', `${B}/ecommerce/createreturns`, {
      orderId,
      lines: [{ lineNo: 2, variantId: pendant.black, quantity: 1 }],
      reason: 'damaged',
    });
    expect(both.statusCode).toBe(400);

    const asked = await call('POST', `${B}/ecommerce/createreturns`, {
      orderId,
      lines: [{ variantId: pendant.black, quantity: 2 }],
      reason: 'damaged',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().data.lines).toEqual([
      {
        lineNo: 2,
        productId: pendant.productId,
        productName: pendant.name,
        variantId: pendant.black,
        variantTitle: 'Black',
        sku: pendant.blackSku,
        quantity: 2,
      },
    ]);
    // What the store reads back: the return line is the order's line 2, Black.
    const [line] = await db
      .select({ lineNo: schema.returnLines.lineNo, quantity: schema.returnLines.quantity })
      .from(schema.returnLines)
      .where(and(eq(schema.returnLines.tenantId, T), eq(schema.returnLines.returnId, asked.json().data.returnId)));
    expect(line).toEqual({ lineNo: 2, quantity: 2 });

    // The mail names the variant.
    await expect.poll(() => mail.length, { timeout: 2_000 }).toBe(1);
    expect(mail[0]?.text).toContain(`2 x ${pendant.name} (Black · ${pendant.blackSku})`);

    // Asked again, the refusal names the variant, not only the product.
    const again = await call('POST', `${B}/ecommerce/createreturns`, {
      orderId,
      lines: [{ variantId: pendant.black, quantity: 1 }],
      reason: 'damaged',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`Every ${pendant.name}, Black of this order is already in a return request.`);
  });

  it("shows the request's variant on the order page, and offers only Brass still", async () => {
    const res = await page(`/order?orderId=${orderId}`);
    expect(res.statusCode).toBe(200);
    const request = section(res.body, 'return-request');
    expect(request).toContain(`Black · ${pendant.blackSku}`);
    const form = section(res.body, 'return-form');
    expect(form).toContain(`Brass · ${pendant.brassSku}`);
    expect(form).not.toContain(`Black · ${pendant.blackSku}`);
  });
});
