import { type Db, schema } from '@app/db';
import { and, asc, eq, gt, isNotNull, ne, notInArray, sql } from 'drizzle-orm';
import type { App } from '../lib/app-types';
import { TEST_CARDS } from '../modules/payments/index';

const B = '/skulocity/api/v1';

/** A shipping address checkout accepts for every demo store: US, California (taxed). */
export const CALIFORNIA_SHIP_TO = {
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};

/** A guest's place-order body paid with the test card that succeeds. */
export function guestCardOrder(email = 'grace@example.com') {
  return {
    email,
    shipTo: CALIFORNIA_SHIP_TO,
    shippingMethodId: 'STANDARD',
    payment: {
      method: 'card',
      cardNumber: TEST_CARDS.success,
      cvc: '123',
      expMonth: 12,
      expYear: 2099,
      nameOnCard: 'G H',
    },
  };
}

/**
 * The first simple product of a store with stock to spare (ordered by id, so tests are stable), sold
 * without options: a product id alone buys it (one with several variants is bought by naming one).
 */
export async function stockedProductId(db: Db, tenantId: string): Promise<string> {
  return (await stockedProduct(db, tenantId)).productId;
}

/** The same product with the unit price a shopper pays (the sale price when it has one). */
export async function stockedProduct(db: Db, tenantId: string): Promise<{ productId: string; price: number }> {
  const p = schema.products;
  const v = schema.productVariants;
  const withOptions = db
    .select({ id: v.productId })
    .from(v)
    .where(and(eq(v.tenantId, tenantId), isNotNull(v.option1ValueId)));
  const [product] = await db
    .select({ productId: p.productId, price: sql<number>`coalesce(${p.salePrice}, ${p.listPrice})` })
    .from(p)
    .where(
      and(
        eq(p.tenantId, tenantId),
        gt(p.stockQuantity, 5),
        ne(p.productType, 'CONFIGURABLE'),
        notInArray(p.productId, withOptions),
      ),
    )
    .orderBy(asc(p.productId))
    .limit(1);
  if (!product) throw new Error(`no stocked product in ${tenantId}`);
  return { productId: product.productId, price: Number(product.price) };
}

/**
 * A guest buys through the HTTP API as a browser would: a new cart (its cookie), then checkout with a
 * new Idempotency-Key. Answers the place-order response, for the test to check.
 */
export async function placeGuestOrder(
  app: App,
  opts: { host: string; productId: string; variantId?: string; quantity?: number; email?: string },
) {
  const added = await app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: opts.host },
    // A product with several variants is bought by naming one (a product id alone is refused).
    payload: {
      productId: opts.productId,
      ...(opts.variantId ? { variantId: opts.variantId } : {}),
      quantity: opts.quantity ?? 1,
    },
  });
  const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
  return app.inject({
    method: 'POST',
    url: `${B}/ecommerce/checkout/processorder`,
    headers: { host: opts.host, cookie, 'idempotency-key': crypto.randomUUID() },
    payload: guestCardOrder(opts.email),
  });
}

/**
 * A signed-in shopper's purchase: the cart emptied, `lines` added (each must be taken, else this
 * throws with the answer), then the order placed with the test card that succeeds and the address
 * of `guestCardOrder`. Returns the place-order answer; its status is the caller's to check.
 */
export async function buyWithTestCard(
  app: App,
  host: string,
  session: Record<string, string>,
  lines: readonly { variantId?: string; productId?: string; quantity: number }[],
) {
  const headers = { host, origin: `http://${host}`, ...session };
  await app.inject({ method: 'POST', url: `${B}/public/ecommerce/cart/emptycart`, headers });
  for (const line of lines) {
    const added = await app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/product/addToCart`,
      headers,
      payload: line,
    });
    if (added.statusCode !== 200)
      throw new Error(`addToCart ${JSON.stringify(line)}: ${added.statusCode} ${added.body}`);
  }
  const { email: _signedIn, ...order } = guestCardOrder();
  return app.inject({
    method: 'POST',
    url: `${B}/ecommerce/checkout/processorder`,
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    payload: order,
  });
}
