import {
  type WishlistActionOutcome,
  type WishlistPages,
  wishlistAddSchema,
  wishlistProductIdSchema,
} from '@app/contracts';
import { requireSignedIn } from '../../lib/access';
import { type RequestContext, signedInUser } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { WishlistService } from './wishlist.service';

export function wishlistPages(deps: { wishlist: WishlistService }): PageModule<WishlistPages> {
  const { wishlist } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async wishlist() {
        const me = signedInUser(ctx);
        return me ? wishlist.list(ctx, me.userId) : { currency: 'USD', items: [], count: 0 };
      },
      async wishlistProductIds() {
        const me = signedInUser(ctx);
        return me ? wishlist.productIds(ctx, me.userId) : [];
      },
      async wishlistAction(action): Promise<WishlistActionOutcome> {
        const parsed = wishlistAddSchema.safeParse({ productId: action.productId });
        if (!parsed.success) return fieldFailure(parsed.error, ['productId'] as const);
        const { productId } = parsed.data;
        return submitForm([], async () => {
          page.assertFormFromStore();
          const me = requireSignedIn(ctx);
          switch (action.intent) {
            case 'add': {
              const result = await wishlist.add(ctx, me.userId, productId);
              if (!result.ok) return formRefusal(result);
              const { added } = result.value;
              return { ok: true as const, message: added ? 'Added to your wishlist.' : 'Already in your wishlist.' };
            }
            case 'remove':
              await wishlist.remove(ctx, me.userId, productId);
              return { ok: true as const, message: 'Removed from your wishlist.' };
            case 'move-to-cart': {
              const moved = await wishlist.moveToCart(ctx, me.userId, productId);
              if (!moved.ok) return formRefusal(moved);
              const { productName } = moved.value;
              return { ok: true as const, message: `${productName} was moved to your cart.` };
            }
          }
        });
      },
    };
  };
}

/**
 * The product of a guest's heart, carried through the login or sign-up form, once that succeeded.
 * Anything wrong with it (not an id, not this store's, a full wishlist) drops it: the login stands.
 */
export function carryWishlistItem(wishlist: WishlistService) {
  return async (ctx: RequestContext, userId: string, productId: string | undefined) => {
    const parsed = wishlistProductIdSchema.safeParse(productId);
    if (!productId || !parsed.success) return;
    try {
      // A full list (a returned refusal) drops it too.
      await wishlist.add(ctx, userId, parsed.data);
    } catch (err) {
      if (!(err instanceof AppError && err.statusCode < 500)) throw err;
    }
  };
}
