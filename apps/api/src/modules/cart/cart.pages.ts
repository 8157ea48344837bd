import {
  type AddConfigToCart,
  addConfigToCartSchema,
  addToCartSchema,
  type CartActionOutcome,
  type CartPages,
  modifyCartSchema,
  promoCodeRequestSchema,
} from '@app/contracts';
import { requireSignedIn } from '../../lib/access';
import { fieldFailure, formFailure, type PageModule } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import { cartCookie } from './cart.routes';
import { type CartService, cartOwnerOf, type ShopperOrders } from './cart.service';

/** The cart form's only field a refusal can name (a line's quantity over the cap). */
const CART_FIELDS = ['quantity'] as const;

export function cartPages(deps: { cart: CartService; orders: ShopperOrders }): PageModule<CartPages> {
  const { cart } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      cartSize: () => cart.size(ctx, cartOwnerOf(ctx)),
      cart: () => cart.view(ctx, cartOwnerOf(ctx)),
      async cartAction(action): Promise<CartActionOutcome> {
        try {
          page.assertFormFromStore();
          const who = cartOwnerOf(ctx);
          const cookies: string[] = [];
          let message: string;
          switch (action.intent) {
            case 'add': {
              const quantity = Number(action.quantity || '1');
              // The product page's picker posts the chosen variant's id beside the product's (decision
              // 112); a form without one (a single-variant product, an older page) names the product.
              const what = {
                ...(action.productId ? { productId: action.productId } : {}),
                ...(action.variantId ? { variantId: action.variantId } : {}),
              };
              const parsed = action.selections
                ? addConfigToCartSchema.safeParse({ ...what, quantity, selections: action.selections })
                : addToCartSchema.safeParse({ ...what, quantity });
              if (!parsed.success) return fieldFailure(parsed.error, ['quantity', 'selections'] as const);
              const added =
                'selections' in parsed.data
                  ? await cart.addConfigured(ctx, who, parsed.data as AddConfigToCart)
                  : await cart.add(ctx, who, parsed.data);
              if (!added.ok) return formRefusal(added, CART_FIELDS);
              const { issuedGuestToken } = added.value;
              if (issuedGuestToken) {
                // The page's loaders run after this action in the same request, before the browser has
                // the new cookie: from here on the request acts for the cart it was just given.
                ctx.actor = { kind: 'guest', cartToken: issuedGuestToken };
                cookies.push(cartCookie(issuedGuestToken, page.secure));
              }
              message = 'Added to your cart.';
              break;
            }
            case 'update': {
              const parsed = modifyCartSchema.safeParse({ lineId: action.lineId, quantity: Number(action.quantity) });
              if (!parsed.success) return fieldFailure(parsed.error, ['quantity'] as const);
              const modified = await cart.modify(ctx, who, parsed.data.lineId, parsed.data.quantity);
              if (!modified.ok) return formRefusal(modified, CART_FIELDS);
              message = 'Your cart has been updated.';
              break;
            }
            case 'remove':
              await cart.remove(ctx, who, action.lineId);
              message = 'Removed from your cart.';
              break;
            case 'promo': {
              const parsed = promoCodeRequestSchema.safeParse({ promoCode: action.promoCode });
              if (!parsed.success) return fieldFailure(parsed.error, ['promoCode'] as const);
              // Every refusal of a code (unknown, expired, used up) belongs next to the code's field.
              const applied = await cart.applyPromo(ctx, who, parsed.data.promoCode);
              if (!applied.ok) return formRefusal(applied, ['promoCode'] as const);
              message = 'Promo code applied.';
              break;
            }
            case 'remove-promo':
              await cart.removePromo(ctx, who);
              message = 'Promo code removed.';
              break;
            case 'empty':
              await cart.empty(ctx, who);
              message = 'Your cart is empty.';
              break;
            case 'reorder': {
              // "Buy again" on the order page: only the signed-in owner's own order.
              const me = requireSignedIn(ctx);
              const order = await deps.orders.read(ctx, action.orderId.slice(0, 64), { userId: me.userId });
              message = (await cart.reorder(ctx, who, order.lines)).message;
              break;
            }
          }
          return { ok: true, message, cookies };
        } catch (err) {
          return formFailure(err, CART_FIELDS);
        }
      },
    };
  };
}
