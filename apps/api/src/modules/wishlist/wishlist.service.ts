import { MAX_WISHLIST_ITEMS, type Wishlist, type WishlistItem } from '@app/contracts';
import { productDisplayImage } from '@app/contracts/client';
import { type Db, schema } from '@app/db';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../lib/result';
import { absoluteMediaUrl } from '../../lib/urls';
import type { CartService } from '../cart/index';
import { storeIdentity } from '../store/index';

const w = schema.wishlistItems;
const p = schema.products;
const u = schema.users;

/** Same threshold as the product pages' "Only 3 left" when the store's is not given (tests). */
const LOW_STOCK = 5;

/** The cart's refusals of an add (stock, caps), which moving to the cart passes on. */
type AddToCartRefusal = Extract<Awaited<ReturnType<CartService['add']>>, { ok: false }>;

/** Adding to the wishlist: it is full (decision 088). */
export type AddToWishlistRefusal = Refusal<'UNPROCESSABLE'>;
/** Moving to the cart: the product needs its options chosen, or the cart refuses it (stock, caps). */
export type MoveToCartRefusal = Refusal<'UNPROCESSABLE'> | AddToCartRefusal;

const notInWishlist = () => AppError.notFound('That product is not in your wishlist.');

/**
 * A signed-in shopper's wishlist: one row per product, private to the shopper and the store. Every
 * query names the tenant and the user, so another shopper's or another store's rows are simply not
 * found (404), never refused in a way that would tell them apart.
 */
export function createWishlistService(
  db: Db,
  deps: { cart: CartService; lowStockThreshold?: (ctx: TenantContext) => Promise<number> },
) {
  async function productFor(ctx: TenantContext, productId: string) {
    const [row] = await db
      .select({ productId: p.productId, productName: p.productName, productType: p.productType, status: p.status })
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
    if (!row) throw AppError.notFound(`Product ${productId} does not exist in this store.`);
    return row;
  }

  async function has(ctx: TenantContext, userId: string, productId: string) {
    const [row] = await db
      .select({ productId: w.productId })
      .from(w)
      .where(and(eq(w.tenantId, ctx.tenantId), eq(w.userId, userId), eq(w.productId, productId)));
    return Boolean(row);
  }

  return {
    /** The items priced from the catalog as it is now, newest first. */
    async list(ctx: TenantContext, userId: string): Promise<Wishlist> {
      const store = await storeIdentity(db, ctx);
      const rows = await db
        .select({ addedAt: w.createdAt, product: p })
        .from(w)
        .innerJoin(p, and(eq(p.tenantId, w.tenantId), eq(p.productId, w.productId)))
        .where(and(eq(w.tenantId, ctx.tenantId), eq(w.userId, userId)))
        .orderBy(desc(w.createdAt), asc(w.productId))
        .limit(MAX_WISHLIST_ITEMS);
      const low = deps.lowStockThreshold ? await deps.lowStockThreshold(ctx) : LOW_STOCK;
      const items: WishlistItem[] = rows.map(({ addedAt, product }) => ({
        productId: product.productId,
        productName: product.productName,
        slug: product.slug,
        brandName: product.brandName,
        imageUrl: productDisplayImage({
          smallImageUrl: absoluteMediaUrl(ctx, product.smallImageUrl),
          mediumImageUrl: absoluteMediaUrl(ctx, product.mediumImageUrl),
          detailImageUrl: absoluteMediaUrl(ctx, product.detailImageUrl),
        }),
        price: product.effectivePrice ?? product.listPrice,
        listPrice: product.salePrice !== null && product.salePrice < product.listPrice ? product.listPrice : null,
        inStock: product.stockQuantity > 0,
        lowStock: product.stockQuantity > 0 && product.stockQuantity <= low ? product.stockQuantity : null,
        configurable: product.productType === 'CONFIGURABLE',
        available: product.status === 'ACTIVE',
        addedAt: addedAt.toISOString(),
      }));
      return { currency: store?.currency ?? 'USD', items, count: items.length };
    },

    /** The ids alone, for the header count and the hearts of every page: one index-only query. */
    async productIds(ctx: TenantContext, userId: string): Promise<string[]> {
      const rows = await db
        .select({ productId: w.productId })
        .from(w)
        .where(and(eq(w.tenantId, ctx.tenantId), eq(w.userId, userId)))
        .limit(MAX_WISHLIST_ITEMS);
      return rows.map((r) => r.productId);
    },

    /**
     * Adds a product of this store; adding one that is already there changes nothing (a second tap,
     * a replayed form). `added` says which it was.
     */
    async add(
      ctx: TenantContext,
      userId: string,
      productId: string,
    ): Promise<Result<{ added: boolean; productName: string }, AddToWishlistRefusal>> {
      const product = await productFor(ctx, productId);
      // Only what shoppers can see can be saved; one saved earlier stays, shown as unavailable.
      if (product.status !== 'ACTIVE') throw AppError.notFound(`Product ${productId} does not exist in this store.`);
      // A full list is found under the lock: thrown (Refused) to end the transaction, returned below.
      const added = await returnRefusals<boolean, AddToWishlistRefusal>(() =>
        db.transaction(async (tx) => {
          // The shopper's row is locked so that two adds at once cannot both pass the cap check.
          await tx
            .select({ userId: u.userId })
            .from(u)
            .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, userId)))
            .for('update');
          const [there] = await tx
            .select({ productId: w.productId })
            .from(w)
            .where(and(eq(w.tenantId, ctx.tenantId), eq(w.userId, userId), eq(w.productId, productId)));
          if (there) return false;
          const [{ n } = { n: 0 }] = await tx
            .select({ n: sql<number>`count(*)::int` })
            .from(w)
            .where(and(eq(w.tenantId, ctx.tenantId), eq(w.userId, userId)));
          if (n >= MAX_WISHLIST_ITEMS) {
            throw new Refused(
              refuse(
                422,
                'UNPROCESSABLE',
                `Your wishlist is full: it holds at most ${MAX_WISHLIST_ITEMS} products. Remove one to add another.`,
              ),
            );
          }
          await tx.insert(w).values({ tenantId: ctx.tenantId, userId, productId }).onConflictDoNothing();
          return true;
        }),
      );
      if (typeof added !== 'boolean') return added;
      return ok({ added, productName: product.productName });
    },

    /** Takes a product off; one that is not on this shopper's list is a 404. */
    async remove(ctx: TenantContext, userId: string, productId: string): Promise<void> {
      const gone = await db
        .delete(w)
        .where(and(eq(w.tenantId, ctx.tenantId), eq(w.userId, userId), eq(w.productId, productId)))
        .returning({ productId: w.productId });
      if (gone.length === 0) throw notInWishlist();
    },

    /**
     * One of the product into the shopper's cart, through the cart's own rules (stock, per-line cap),
     * then off the wishlist. When the cart refuses (out of stock: 409) the item stays where it was.
     */
    async moveToCart(
      ctx: TenantContext,
      userId: string,
      productId: string,
    ): Promise<Result<{ productName: string }, MoveToCartRefusal>> {
      if (!(await has(ctx, userId, productId))) throw notInWishlist();
      const product = await productFor(ctx, productId);
      if (product.productType === 'CONFIGURABLE') {
        return refuse(
          422,
          'UNPROCESSABLE',
          `Please choose the options of ${product.productName} on its page, then add it to your cart.`,
        );
      }
      const added = await deps.cart.add(ctx, { userId, guestToken: null }, { productId, quantity: 1 });
      if (!added.ok) return added;
      // A concurrent remove may have taken it already: the shopper's intent is met either way.
      await db.delete(w).where(and(eq(w.tenantId, ctx.tenantId), eq(w.userId, userId), eq(w.productId, productId)));
      return ok({ productName: product.productName });
    },
  };
}

export type WishlistService = ReturnType<typeof createWishlistService>;
