import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type AddConfigToCart,
  type AddToCart,
  type Cart,
  MAX_CART_LINES,
  MAX_LINE_QUANTITY,
  type ReorderResult,
  variantDisplayName,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { type RequestContext, signedInUser, type TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import type { ProductsService } from '../products/index';
import { type CartOwner, createCartPricing, hashGuestToken } from './cart-pricing';
import { evaluatePromo } from './promo';

export { type CartOwner, hashGuestToken } from './cart-pricing';

const c = schema.carts;
const cl = schema.cartLines;
const cik = schema.cartIdempotencyKeys;
const p = schema.products;
const v = schema.productVariants;
const po = schema.productOptions;
const pc = schema.promoCodes;

/** Whose cart a request means: the signed-in account's, else the guest cookie's. */
export function cartOwnerOf(ctx: RequestContext): CartOwner {
  const user = signedInUser(ctx);
  if (user) return { userId: user.userId, guestToken: null };
  return { userId: null, guestToken: ctx.actor.kind === 'guest' ? ctx.actor.cartToken : null };
}

export const newGuestToken = () => randomBytes(24).toString('base64url');

const outOfStock = (name: string) => refuse(409, 'OUT_OF_STOCK', `${name} is out of stock.`);
const onlyLeft = (name: string, n: number) =>
  refuse(409, 'OUT_OF_STOCK', `Only ${n} of ${name} ${n === 1 ? 'is' : 'are'} left in stock.`);

/**
 * What adding to the cart can answer besides done (decision 088): the product is sold out or short,
 * no longer sold, needs its options chosen, the line or the cart is full, the cart changed under
 * the request (a login merged it), or the idempotency key was used for another add.
 */
export type AddToCartRefusal = Refusal<
  'OUT_OF_STOCK' | 'CONFLICT' | 'BAD_REQUEST' | 'VARIANT_REQUIRED' | 'VARIANT_UNAVAILABLE'
>;
/** Changing a line's quantity: more than the variant's stock (sold out or short), or it is no longer sold. */
export type ModifyLineRefusal = Refusal<'OUT_OF_STOCK' | 'VARIANT_UNAVAILABLE'>;

/** What a line is of: the product as sold and one of its variants (decision 112). */
interface Bought {
  productId: string;
  productName: string;
  productType: string;
  variantId: string;
  variantTitle: string;
  /** The variant's own count: a line can hold at most this many. */
  stockQuantity: number;
  /** "Pendant, Brass / Large", or the product's name for a default variant. */
  displayName: string;
}

const unavailable = (message: string) => refuse(422, 'VARIANT_UNAVAILABLE', message);

const boughtOf = (
  product: { productId: string; productName: string; productType: string },
  variant: { variantId: string; title: string; stockQuantity: number },
): Bought => ({
  productId: product.productId,
  productName: product.productName,
  productType: product.productType,
  variantId: variant.variantId,
  variantTitle: variant.title,
  stockQuantity: variant.stockQuantity,
  displayName: variantDisplayName(product.productName, variant.title),
});
/** Putting a promo code on the cart: no cart yet, or the code does not apply now (evaluatePromo). */
export type ApplyPromoRefusal = Refusal<'PROMO_INVALID'>;

/** "FINISH=BRASS;LENGTH=L2": one key per configuration, whatever order the choices came in. */
const configKeyOf = (selections: Record<string, string>) =>
  Object.keys(selections)
    .sort()
    .map((k) => `${k}=${selections[k]}`)
    .join(';');

/**
 * Every refusal of a code (none in the cart, unknown, expired, used up) is the code field's story:
 * API clients read the message as it is, a form shows it next to the code and over the form.
 */
const promoRefused = (message: string): ApplyPromoRefusal =>
  refuseField(422, 'PROMO_INVALID', 'promoCode', message, { apiMessage: message, formMessage: message });

export function createCartService(db: Db, deps: { products: ProductsService }) {
  const { cartOwned, findAndPrice, price } = createCartPricing(db, deps);

  async function findCart(ctx: TenantContext, owner: CartOwner) {
    const where = cartOwned(ctx, owner);
    if (!where) return null;
    const [row] = await db.select().from(c).where(where);
    return row ?? null;
  }

  /**
   * The owner's cart, created when missing. A guest without a token gets one: the caller sets it as
   * the `cart` cookie (`issuedGuestToken`).
   */
  async function ensureCart(ctx: TenantContext, owner: CartOwner) {
    const found = await findCart(ctx, owner);
    if (found) return { cart: found, issuedGuestToken: null as string | null };
    const guestToken = owner.userId ? null : (owner.guestToken ?? newGuestToken());
    const cartId = randomUUID();
    await db
      .insert(c)
      .values({
        tenantId: ctx.tenantId,
        cartId,
        userId: owner.userId,
        guestTokenHash: guestToken ? hashGuestToken(guestToken) : null,
      })
      .onConflictDoNothing();
    // Two first requests of one shopper may race: whichever row won is the cart.
    const cart = await findCart(ctx, { userId: owner.userId, guestToken });
    if (!cart) throw new Error('cart not created');
    return { cart, issuedGuestToken: guestToken !== owner.guestToken ? guestToken : null };
  }

  /** The product as sold: unknown (or a draft) is the 404 of an id; no longer sold is a refusal. */
  async function productFor(ctx: TenantContext, productId: string) {
    const [row] = await db
      .select({
        productId: p.productId,
        productName: p.productName,
        stockQuantity: p.stockQuantity,
        productType: p.productType,
        status: p.status,
      })
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
    // A draft is not on sale yet: as unknown to shoppers as a product that does not exist.
    if (!row || row.status === 'DRAFT') throw AppError.notFound(`Product ${productId} does not exist in this store.`);
    if (row.status !== 'ACTIVE') return refuse(409, 'CONFLICT', `Sorry, ${row.productName} is no longer available.`);
    return { ok: true as const, ...row };
  }

  /**
   * The variant a request names (decision 112): by `variantId` (with `productId`, they must agree), or
   * by `productId` alone when the product has one enabled variant. Unknown or draft products are the
   * 404 of their id, as before; a variant not there, another product's, disabled or removed is
   * VARIANT_UNAVAILABLE; a product id whose product has several enabled variants is VARIANT_REQUIRED.
   */
  async function boughtFor(
    ctx: TenantContext,
    want: { productId?: string | undefined; variantId?: string | undefined },
  ): Promise<Result<Bought, AddToCartRefusal>> {
    const variantCols = {
      variantId: v.variantId,
      productId: v.productId,
      title: v.title,
      stockQuantity: v.stockQuantity,
      enabled: v.enabled,
      removedAt: v.removedAt,
    };
    if (want.variantId !== undefined) {
      const [variant] = await db
        .select(variantCols)
        .from(v)
        .where(and(eq(v.tenantId, ctx.tenantId), eq(v.variantId, want.variantId)));
      if (!variant) return unavailable(`variantId: ${want.variantId} is not a variant sold in this store.`);
      if (want.productId !== undefined && want.productId !== variant.productId) {
        return unavailable(`variantId: ${want.variantId} is not a variant of product ${want.productId}.`);
      }
      const product = await productFor(ctx, variant.productId);
      if (!product.ok) return product;
      const displayName = variantDisplayName(product.productName, variant.title);
      if (variant.removedAt || !variant.enabled) return unavailable(`Sorry, ${displayName} is not available.`);
      return ok(boughtOf(product, variant));
    }
    const productId = want.productId as string;
    const product = await productFor(ctx, productId);
    if (!product.ok) return product;
    const sellable = await db
      .select(variantCols)
      .from(v)
      .where(and(eq(v.tenantId, ctx.tenantId), eq(v.productId, productId), eq(v.enabled, true), isNull(v.removedAt)))
      .limit(2);
    const [only, another] = sellable;
    if (!only) return unavailable(`Sorry, ${product.productName} is not available.`);
    if (another) {
      const options = await db
        .select({ name: po.name })
        .from(po)
        .where(and(eq(po.tenantId, ctx.tenantId), eq(po.productId, productId)))
        .orderBy(asc(po.position));
      const which = options.map((o) => o.name.toLowerCase()).join(' and ') || 'variant';
      // Read by shoppers too (the wishlist's "move to cart", buy again): the code tells API clients.
      return refuse(422, 'VARIANT_REQUIRED', `Please choose a ${which} of ${product.productName} first.`);
    }
    return ok(boughtOf(product, only));
  }

  /** A line's variant as it is now, for a change of its quantity: still sold, and its stock. */
  async function boughtOfLine(
    ctx: TenantContext,
    line: { productId: string; variantId: string },
  ): Promise<Result<Bought, AddToCartRefusal>> {
    const bought = await boughtFor(ctx, { productId: line.productId, variantId: line.variantId });
    // A variant that is gone or disabled since it was added: removing the line is what is left to do.
    if (!bought.ok && bought.code === 'VARIANT_UNAVAILABLE') {
      return unavailable(`${bought.message.replace(/\.$/, '')}: please remove it from your cart.`);
    }
    return bought;
  }

  /**
   * Adds to the line of this variant and configuration, within the variant's stock and the per-line cap.
   * In one transaction under the cart row's lock: concurrent changes to one cart queue up, so each
   * reads the line as the previous one left it (no lost quantity, no duplicate line). With an
   * idempotency key, an add already made with that key (in the last day) is not made again.
   */
  async function addLine(
    ctx: TenantContext,
    owner: CartOwner,
    bought: Bought,
    quantity: number,
    configKey: string,
    idempotencyKey?: string,
  ): Promise<Result<{ issuedGuestToken: string | null }, AddToCartRefusal>> {
    const { productId, variantId, displayName } = bought;
    const { cart, issuedGuestToken } = await ensureCart(ctx, owner);
    // By variant: the default variant's id is the product's, so a key first used before variants
    // still hashes the same.
    const requestHash = createHash('sha256')
      .update(JSON.stringify([variantId, quantity, configKey]))
      .digest('hex');
    // A refusal inside the transaction is thrown (Refused) so the transaction writes nothing, and
    // returned from here.
    const refused = await returnRefusals<void, AddToCartRefusal>(() =>
      db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ cartId: c.cartId })
          .from(c)
          .where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, cart.cartId)))
          .for('update');
        // Merged into the account's cart at a login in between.
        if (!locked) throw new Refused(refuse(409, 'CONFLICT', 'Your cart has just changed. Please try again.'));
        if (idempotencyKey) {
          await tx
            .delete(cik)
            .where(
              and(
                eq(cik.tenantId, ctx.tenantId),
                eq(cik.cartId, cart.cartId),
                lt(cik.createdAt, sql`now() - interval '1 day'`),
              ),
            );
          const [seen] = await tx
            .select({ requestHash: cik.requestHash })
            .from(cik)
            .where(and(eq(cik.tenantId, ctx.tenantId), eq(cik.cartId, cart.cartId), eq(cik.key, idempotencyKey)));
          if (seen) {
            if (seen.requestHash === requestHash) return; // a retry: the add was made
            throw new Refused(
              refuse(
                409,
                'CONFLICT',
                'Idempotency-Key: this key was already used for another add to this cart. Send a new key with each new add.',
              ),
            );
          }
        }
        if (bought.stockQuantity <= 0) throw new Refused(outOfStock(displayName));
        const [existing] = await tx
          .select()
          .from(cl)
          .where(
            and(
              eq(cl.tenantId, ctx.tenantId),
              eq(cl.cartId, cart.cartId),
              eq(cl.variantId, variantId),
              eq(cl.configKey, configKey),
            ),
          );
        const wanted = (existing?.quantity ?? 0) + quantity;
        if (wanted > MAX_LINE_QUANTITY) {
          throw new Refused(
            refuseField(400, 'BAD_REQUEST', 'quantity', `a cart holds at most ${MAX_LINE_QUANTITY} of one product.`),
          );
        }
        if (wanted > bought.stockQuantity) throw new Refused(onlyLeft(displayName, bought.stockQuantity));
        if (existing) {
          await tx
            .update(cl)
            .set({ quantity: wanted })
            .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId), eq(cl.lineId, existing.lineId)));
        } else {
          const [{ n } = { n: 0 }] = await tx
            .select({ n: sql<number>`count(*)::int` })
            .from(cl)
            .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId)));
          if (n >= MAX_CART_LINES)
            throw new Refused(refuse(400, 'BAD_REQUEST', `A cart holds at most ${MAX_CART_LINES} different products.`));
          await tx.insert(cl).values({
            tenantId: ctx.tenantId,
            cartId: cart.cartId,
            lineId: randomUUID().slice(0, 8),
            productId,
            variantId,
            quantity: wanted,
            configKey,
          });
        }
        if (idempotencyKey) {
          await tx
            .insert(cik)
            .values({ tenantId: ctx.tenantId, cartId: cart.cartId, key: idempotencyKey, requestHash });
        }
        await tx
          .update(c)
          .set({ updatedAt: new Date() })
          .where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, cart.cartId)));
      }),
    );
    if (refused) return refused;
    return ok({ issuedGuestToken });
  }

  async function touch(ctx: TenantContext, cartId: string) {
    await db
      .update(c)
      .set({ updatedAt: new Date() })
      .where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, cartId)));
  }

  async function lineOf(ctx: TenantContext, owner: CartOwner, lineId: string) {
    const cart = await findCart(ctx, owner);
    const [line] = cart
      ? await db
          .select()
          .from(cl)
          .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId), eq(cl.lineId, lineId)))
      : [];
    if (!cart || !line) throw AppError.notFound('That item is no longer in your cart.');
    return { cart, line };
  }

  return {
    findCart,
    findAndPrice,

    async view(ctx: TenantContext, owner: CartOwner): Promise<Cart> {
      return (await findAndPrice(ctx, owner)).cart;
    },

    /** The number of items, for the header badge: one cheap query. */
    async size(ctx: TenantContext, owner: CartOwner): Promise<number> {
      const cart = await findCart(ctx, owner);
      if (!cart) return 0;
      const [row] = await db
        .select({ n: sql<number>`coalesce(sum(${cl.quantity}), 0)::int` })
        .from(cl)
        .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId)));
      return row?.n ?? 0;
    },

    async add(
      ctx: TenantContext,
      owner: CartOwner,
      input: AddToCart,
      opts: { idempotencyKey?: string } = {},
    ): Promise<Result<{ issuedGuestToken: string | null }, AddToCartRefusal>> {
      const bought = await boughtFor(ctx, input);
      if (!bought.ok) return bought;
      if (bought.value.productType === 'CONFIGURABLE') {
        return refuse(400, 'BAD_REQUEST', `Please choose the options of ${bought.value.productName} first.`);
      }
      return addLine(ctx, owner, bought.value, input.quantity, '', opts.idempotencyKey);
    },

    /**
     * "Buy again": lines of an earlier order into the cart, at today's prices, each as the variant it
     * was (decision 112). A line whose product is gone, whose variant is removed or disabled, that is
     * sold out or short, or that had options (to be chosen again), is skipped and named.
     */
    async reorder(
      ctx: TenantContext,
      owner: CartOwner,
      lines: {
        productId: string;
        /** Null only for lines of products deleted before variants existed. */
        variantId?: string | null;
        variantTitle?: string;
        productName: string;
        quantity: number;
        optionsText: string | null;
      }[],
    ): Promise<ReorderResult & { message: string }> {
      let added = 0;
      const skipped: ReorderResult['skipped'] = [];
      for (const line of lines) {
        const productName = variantDisplayName(line.productName, line.variantTitle ?? '');
        if (line.optionsText) {
          skipped.push({ productName, reason: 'choose its options again on the product page' });
          continue;
        }
        try {
          const result = await this.add(ctx, owner, {
            productId: line.productId,
            ...(line.variantId ? { variantId: line.variantId } : {}),
            quantity: Math.min(line.quantity, 99),
          });
          if (result.ok) added++;
          else if (result.code === 'VARIANT_UNAVAILABLE') skipped.push({ productName, reason: 'no longer sold' });
          else skipped.push({ productName, reason: result.message });
        } catch (err) {
          // A product deleted since the order is the 404 of its id.
          if (!(err instanceof AppError) || err.statusCode !== 404) throw err;
          skipped.push({ productName, reason: 'no longer sold' });
        }
      }
      const message =
        added === 0
          ? 'None of these products can be added to your cart now.'
          : added === lines.length
            ? 'The products of this order are in your cart.'
            : `Added to your cart, except: ${skipped.map((x) => `${x.productName} (${x.reason})`).join('; ')}.`;
      return { added, skipped, shoppingCartSize: await this.size(ctx, owner), message };
    },

    async addConfigured(
      ctx: TenantContext,
      owner: CartOwner,
      input: AddConfigToCart,
      opts: { idempotencyKey?: string } = {},
    ) {
      const bought = await boughtFor(ctx, input);
      if (!bought.ok) return bought;
      // Prices and checks the configuration: every option chosen once, from its own choices.
      const priced = await deps.products.configPrice(ctx, {
        productId: bought.value.productId,
        variantId: bought.value.variantId,
        selections: input.selections,
        quantity: input.quantity,
      });
      const selections = Object.fromEntries(priced.selections.map((s) => [s.optionId, s.choiceId]));
      return addLine(ctx, owner, bought.value, input.quantity, configKeyOf(selections), opts.idempotencyKey);
    },

    async modify(
      ctx: TenantContext,
      owner: CartOwner,
      lineId: string,
      quantity: number,
    ): Promise<Result<undefined, ModifyLineRefusal | AddToCartRefusal>> {
      const { cart, line } = await lineOf(ctx, owner, lineId);
      const bought = await boughtOfLine(ctx, line);
      if (!bought.ok) return bought;
      const { stockQuantity, displayName } = bought.value;
      if (quantity > stockQuantity) {
        if (stockQuantity <= 0) return outOfStock(displayName);
        return onlyLeft(displayName, stockQuantity);
      }
      await db
        .update(cl)
        .set({ quantity })
        .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId), eq(cl.lineId, lineId)));
      await touch(ctx, cart.cartId);
      return ok(undefined);
    },

    async remove(ctx: TenantContext, owner: CartOwner, lineId: string) {
      const { cart } = await lineOf(ctx, owner, lineId);
      await db.delete(cl).where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId), eq(cl.lineId, lineId)));
      await touch(ctx, cart.cartId);
    },

    async empty(ctx: TenantContext, owner: CartOwner) {
      const cart = await findCart(ctx, owner);
      if (!cart) return;
      await db.delete(cl).where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId)));
      await db
        .update(c)
        .set({ promoCode: null, updatedAt: new Date() })
        .where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, cart.cartId)));
    },

    /** Puts a code on the cart if it applies to it now; the order re-checks it when placed. */
    async applyPromo(
      ctx: TenantContext,
      owner: CartOwner,
      code: string,
    ): Promise<Result<undefined, ApplyPromoRefusal>> {
      const cart = await findCart(ctx, owner);
      if (!cart) return promoRefused('Add something to your cart before using a promo code.');
      const [row] = await db
        .select()
        .from(pc)
        .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)));
      const priced = await price(ctx, { cartId: cart.cartId, promoCode: null });
      const result = evaluatePromo(row ?? null, priced.subtotal, priced.currency, new Date());
      if (!result.ok) return promoRefused(result.message);
      await db
        .update(c)
        .set({ promoCode: code, updatedAt: new Date() })
        .where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, cart.cartId)));
      return ok(undefined);
    },

    async removePromo(ctx: TenantContext, owner: CartOwner) {
      const cart = await findCart(ctx, owner);
      if (!cart) return;
      await db
        .update(c)
        .set({ promoCode: null, updatedAt: new Date() })
        .where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, cart.cartId)));
    },

    /**
     * At login the guest's cart joins the account's: quantities of the same line add up (within the
     * cap and the stock), the guest cart is deleted, and a promo code carries over if the account's
     * cart has none.
     */
    async mergeGuestCart(ctx: TenantContext, guestToken: string, userId: string) {
      const guest = await findCart(ctx, { userId: null, guestToken });
      if (!guest) return;
      const guestLines = await db
        .select()
        .from(cl)
        .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, guest.cartId)));
      const { cart } = await ensureCart(ctx, { userId, guestToken: null });
      await db.transaction(async (tx) => {
        const mine = await tx
          .select()
          .from(cl)
          .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId)));
        // Each line is capped by its variant's stock.
        const stock = new Map(
          (
            await tx
              .select({ id: v.variantId, stock: v.stockQuantity })
              .from(v)
              .where(
                and(
                  eq(v.tenantId, ctx.tenantId),
                  inArray(
                    v.variantId,
                    guestLines.map((l) => l.variantId),
                  ),
                ),
              )
          ).map((r) => [r.id, r.stock]),
        );
        for (const g of guestLines) {
          const same = mine.find((m) => m.variantId === g.variantId && m.configKey === g.configKey);
          const cap = Math.min(MAX_LINE_QUANTITY, Math.max(1, stock.get(g.variantId) ?? 1));
          if (same) {
            await tx
              .update(cl)
              .set({ quantity: Math.min(cap, same.quantity + g.quantity) })
              .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cart.cartId), eq(cl.lineId, same.lineId)));
          } else if (mine.length < MAX_CART_LINES) {
            await tx.insert(cl).values({ ...g, cartId: cart.cartId, quantity: Math.min(cap, g.quantity) });
          }
        }
        if (!cart.promoCode && guest.promoCode) {
          await tx
            .update(c)
            .set({ promoCode: guest.promoCode })
            .where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, cart.cartId)));
        }
        await tx.delete(c).where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, guest.cartId)));
      });
    },
  };
}

export type CartService = ReturnType<typeof createCartService>;

/**
 * What "buy again" (the cart page's action and POST /ecommerce/order/reorder, both the cart's) needs
 * of the orders: one of the shopper's own orders, with its lines. Named here rather than imported:
 * checkout, in the orders domain, imports the cart, so no import goes back; the orders service fits
 * this shape and is passed in by the cart module.
 */
export interface ShopperOrders {
  read(
    ctx: TenantContext,
    orderId: string,
    who: { userId: string | null },
  ): Promise<{ lines: Parameters<CartService['reorder']>[2] }>;
}
