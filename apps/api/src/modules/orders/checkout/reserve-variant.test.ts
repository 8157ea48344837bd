import { type Db, schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../../lib/context';
import { Refused } from '../../../lib/result';
import { CALIFORNIA_SHIP_TO } from '../../../test/guest-order';
import { createTestApp, type TestApp } from '../../../test/harness';
// biome-ignore lint/style/noRestrictedImports: part A's test helper for variants (decision 112) is test-only and so not in products' index.
import { givenVariants } from '../../products/variants-test-setup';
import { reserve } from './reserve-order';

// The reservation by variant (decision 112): the one-statement take is per variant, and when the last
// unit of a variant went to someone else between the cart's pricing and the take, the refusal names
// the variant as the shelf does ("Pendant, Opal sold out").

let t: TestApp;
let db: Db;
let ctx: RequestContext;
const T = 'lighting';
const v = schema.productVariants;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  ctx = systemContext(
    {
      tenantId: T,
      productStoreId: '9000',
      hostName: 'lighting.localhost',
      viaDevAlias: false,
      origin: 'http://lighting.localhost',
    },
    'reserve-variant-test',
  );
});
afterAll(async () => t?.close());

describe('reserve by variant', () => {
  it('refuses a variant taken since the cart was priced, naming it, and writes nothing', async () => {
    const p = schema.products;
    const [row] = await db
      .select({ productId: p.productId, name: p.productName })
      .from(p)
      .where(and(eq(p.tenantId, T), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE'), eq(p.status, 'ACTIVE')))
      .orderBy(asc(p.productId))
      .limit(1);
    if (!row) throw new Error('no product');
    const [brass, opal] = (await givenVariants(db, ctx, row.productId, 'Finish', [
      { label: 'Brass', stock: 5 },
      { label: 'Opal', stock: 1 },
    ])) as [string, string];
    const owner = { userId: null, guestToken: 'reserve-variant-guest-token-0000' };
    const guest = { ...ctx, actor: { kind: 'guest' as const, cartToken: owner.guestToken } };
    for (const variantId of [brass, opal]) {
      const added = await t.services.cart.add(guest, owner, { variantId, quantity: 1 });
      expect(added.ok).toBe(true);
    }
    const { cart } = await t.services.cart.findAndPrice(guest, owner);
    expect(cart.lines.map((l) => [l.variantTitle, l.problem])).toEqual([
      ['Brass', null],
      ['Opal', null],
    ]);
    // Someone else's order takes the last Opal after this cart was priced.
    await db
      .update(v)
      .set({ stockQuantity: 0 })
      .where(and(eq(v.tenantId, T), eq(v.variantId, opal)));
    const orderId = 'LIG-VARIANT1';
    const attempt = reserve(guest, db, {
      orderId,
      buyer: { owner, userId: null, accountEmail: null },
      email: 'grace@example.com',
      input: { shipTo: { ...CALIFORNIA_SHIP_TO, address2: null, phone: null }, shippingMethodId: 'STANDARD' },
      cart,
      cartRow: { promoCode: null },
      quote: {
        currency: 'USD',
        subtotal: cart.subtotal,
        discount: 0,
        shipping: 0,
        tax: 0,
        taxLabel: null,
        taxIncluded: false,
        total: cart.subtotal,
      },
      method: 'Standard',
      idempotencyKey: 'reserve-variant-key-1',
      requestHash: 'x',
      paymentLabel: 'Visa •••• 4242',
      paymentProvider: 'test',
      paymentAccount: null,
    });
    await expect(attempt).rejects.toBeInstanceOf(Refused);
    await expect(attempt).rejects.toMatchObject({
      refusal: {
        status: 409,
        code: 'OUT_OF_STOCK',
        message: `Sorry, ${row.name}, Opal sold out while you were checking out.`,
      },
    });
    // Nothing written: no order, and Brass kept its unit.
    expect(await db.select().from(schema.orders).where(eq(schema.orders.orderId, orderId))).toEqual([]);
    const [brassNow] = await db
      .select({ n: v.stockQuantity })
      .from(v)
      .where(and(eq(v.tenantId, T), eq(v.variantId, brass)));
    expect(brassNow?.n).toBe(5);
  });
});
