/** A cart priced from the catalog as it is now: the owner's cart read with its lines, and their prices. */
import { createHash } from 'node:crypto';
import type { Cart, CartLine, TaxClass } from '@app/contracts';
import { productDisplayImage } from '@app/contracts/client';
import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { absoluteMediaUrl } from '../../lib/urls';
import type { ProductsService } from '../products/index';
import { storeIdentity } from '../store/index';
import { evaluatePromo } from './promo';

const c = schema.carts;
const cl = schema.cartLines;
const p = schema.products;
const v = schema.productVariants;
const pc = schema.promoCodes;

/** Who a cart belongs to: a signed-in user, or a guest by the token of its `cart` cookie. */
export interface CartOwner {
  userId: string | null;
  guestToken: string | null;
}

export const hashGuestToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The choices of a configuration key (configKeyOf's inverse). */
export const selectionsOf = (key: string): Record<string, string> =>
  Object.fromEntries(key ? key.split(';').map((kv) => kv.split('=') as [string, string]) : []);

/** Pricing over `db` and the catalog; the cart service's reads and checkout start from findAndPrice. */
export function createCartPricing(db: Db, deps: { products: ProductsService }) {
  /** The columns pricing needs, not the whole row: a product's search vector and descriptions are
   * most of its bytes, and every cart view and checkout would carry them across. */
  const pricedProduct = {
    productId: p.productId,
    productName: p.productName,
    slug: p.slug,
    smallImageUrl: p.smallImageUrl,
    mediumImageUrl: p.mediumImageUrl,
    detailImageUrl: p.detailImageUrl,
    status: p.status,
    weightGrams: p.weightGrams,
    taxClass: p.taxClass,
  };
  /** What is bought is the line's variant: its prices, stock and weight (decision 112). */
  const pricedVariant = {
    title: v.title,
    sku: v.sku,
    listPrice: v.listPrice,
    salePrice: v.salePrice,
    effectivePrice: v.effectivePrice,
    stockQuantity: v.stockQuantity,
    weightGrams: v.weightGrams,
    enabled: v.enabled,
    removedAt: v.removedAt,
  };
  type LineRow = {
    line: typeof cl.$inferSelect;
    product: { [K in keyof typeof pricedProduct]: (typeof p.$inferSelect)[K] };
    variant: { [K in keyof typeof pricedVariant]: (typeof v.$inferSelect)[K] };
  };
  // The line's variant; the composite key (tenant, product, variant) is the cart line's foreign key.
  const variantOfLine = and(eq(v.tenantId, cl.tenantId), eq(v.productId, cl.productId), eq(v.variantId, cl.variantId));

  function cartOwned(ctx: TenantContext, owner: CartOwner) {
    if (owner.userId) return and(eq(c.tenantId, ctx.tenantId), eq(c.userId, owner.userId));
    if (owner.guestToken)
      return and(eq(c.tenantId, ctx.tenantId), eq(c.guestTokenHash, hashGuestToken(owner.guestToken)));
    return null;
  }

  /**
   * The owner's cart row and its priced lines, read in one statement (the cart, left-joined to its
   * lines, their products and variants): what every cart view and checkout starts with. With them,
   * each product's tax class, which checkout taxes by (decision 116) without reading the products again.
   */
  async function findAndPrice(ctx: TenantContext, owner: CartOwner) {
    const where = cartOwned(ctx, owner);
    if (!where) return { cartRow: null, cart: await price(ctx, null), taxClasses: new Map<string, TaxClass>() };
    const rows = await db
      .select({ cart: c, line: cl, product: pricedProduct, variant: pricedVariant })
      .from(c)
      .leftJoin(cl, and(eq(cl.tenantId, c.tenantId), eq(cl.cartId, c.cartId)))
      .leftJoin(p, and(eq(p.tenantId, cl.tenantId), eq(p.productId, cl.productId)))
      .leftJoin(v, variantOfLine)
      .where(where)
      .orderBy(asc(cl.createdAt), asc(cl.lineId));
    const cartRow = rows[0]?.cart ?? null;
    const lines = rows.flatMap((r) =>
      r.line && r.product && r.variant ? [{ line: r.line, product: r.product, variant: r.variant } as LineRow] : [],
    );
    const taxClasses = new Map<string, TaxClass>(lines.map((l) => [l.product.productId, l.product.taxClass]));
    return { cartRow, cart: await price(ctx, cartRow, lines), taxClasses };
  }

  /**
   * Prices a cart from the catalog as it is now: nothing the client sent is trusted. `known`: its
   * lines as `findAndPrice` has just read them.
   */
  async function price(
    ctx: TenantContext,
    cart: { cartId: string; promoCode: string | null } | null,
    known?: LineRow[],
  ): Promise<Cart> {
    const store = await storeIdentity(db, ctx);
    const currency = store?.currency ?? 'USD';
    const empty: Cart = {
      currency,
      lines: [],
      shoppingCartSize: 0,
      subtotal: 0,
      discount: 0,
      promo: null,
      promoProblem: null,
      total: 0,
      weightGrams: 0,
    };
    if (!cart) return empty;
    const rows: LineRow[] =
      known ??
      (await db
        .select({ line: cl, product: pricedProduct, variant: pricedVariant })
        .from(cl)
        .innerJoin(p, and(eq(p.tenantId, cl.tenantId), eq(p.productId, cl.productId)))
        .innerJoin(v, variantOfLine)
        .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId)))
        .orderBy(asc(cl.createdAt), asc(cl.lineId)));
    const lines: CartLine[] = [];
    let weightGrams = 0;
    for (const { line, product, variant } of rows) {
      const variantPrice = variant.effectivePrice ?? variant.listPrice;
      let unitPrice = variantPrice;
      let optionsText: string | null = null;
      let problem: string | null = null;
      if (line.configKey) {
        try {
          // Priced on the line's variant: its price plus the configuration's changes.
          const priced = await deps.products.configPrice(ctx, {
            productId: product.productId,
            variantId: line.variantId,
            selections: selectionsOf(line.configKey),
            quantity: line.quantity,
          });
          unitPrice = priced.unitPrice;
          optionsText = priced.selections.map((s) => `${s.optionName}: ${s.label}`).join(', ');
        } catch {
          // The store changed the product's options since: the line cannot be bought as it is.
          problem = 'These options are no longer available. Please remove it and choose again.';
        }
      }
      if (product.status !== 'ACTIVE' || variant.removedAt)
        problem = 'No longer available. Please remove it from your cart';
      else if (!variant.enabled) problem = 'Not available just now. Please remove it from your cart';
      else if (variant.stockQuantity <= 0) problem = 'Out of stock';
      else if (line.quantity > variant.stockQuantity) problem = `Only ${variant.stockQuantity} left in stock`;
      weightGrams += (variant.weightGrams ?? product.weightGrams ?? 0) * line.quantity;
      lines.push({
        lineId: line.lineId,
        productId: product.productId,
        variantId: line.variantId,
        variantTitle: variant.title,
        sku: variant.sku,
        productName: product.productName,
        slug: product.slug,
        imageUrl: productDisplayImage({
          smallImageUrl: absoluteMediaUrl(ctx, product.smallImageUrl),
          mediumImageUrl: absoluteMediaUrl(ctx, product.mediumImageUrl),
          detailImageUrl: absoluteMediaUrl(ctx, product.detailImageUrl),
        }),
        optionsText,
        quantity: line.quantity,
        unitPrice,
        listUnitPrice: !line.configKey && variant.salePrice !== null ? variant.listPrice : null,
        lineTotal: unitPrice * line.quantity,
        stockQuantity: variant.stockQuantity,
        problem,
      });
    }
    const subtotal = lines.reduce((s, l) => s + l.lineTotal, 0);
    let discount = 0;
    let promo: Cart['promo'] = null;
    let promoProblem: string | null = null;
    if (cart.promoCode) {
      const [code] = await db
        .select()
        .from(pc)
        .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, cart.promoCode)));
      const result = evaluatePromo(code ?? null, subtotal, currency, new Date());
      promo = code ? { code: code.code, description: code.description } : null;
      if (result.ok) discount = result.discount;
      else promoProblem = result.message;
    }
    return {
      currency,
      lines,
      shoppingCartSize: lines.reduce((s, l) => s + l.quantity, 0),
      subtotal,
      discount,
      promo,
      promoProblem,
      total: subtotal - discount,
      weightGrams,
    };
  }

  return { cartOwned, findAndPrice, price };
}
