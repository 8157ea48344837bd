import { cartSchema, dataEnvelope, wishlistAddSchema, wishlistItemParamsSchema, wishlistSchema } from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireSignedIn } from '../../lib/access';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { CartService } from '../cart/index';
import type { WishlistService } from './wishlist.service';

const BASE = '/skulocity/api/v1';
const wishlistEnvelope = dataEnvelope(z.object({ wishlist: wishlistSchema }));
const errors = changeErrors;

const SIGNED_IN =
  'For a signed-in shopper (401 otherwise); a change sent with the session cookie needs the CSRF token. ';

/**
 * Wishlist paths. The product's rules shows none ("Wishlist calls: not shown"), so these are ours, in the style
 * of the account's paths (`/ecommerce/...`, signed in) and named by product: a shopper holds one row
 * per product, so the product id is the item's id (the wishlist decision in docs/decisions).
 */
export async function wishlistRoutes(app: App, { wishlist, cart }: { wishlist: WishlistService; cart: CartService }) {
  const answer = async (req: FastifyRequest, reply: FastifyReply, userId: string, message?: string) => {
    reply.header('cache-control', 'private, no-store');
    return { data: { wishlist: await wishlist.list(req.ctx, userId) }, ...(message ? { message } : {}) };
  };

  app.get(
    `${BASE}/ecommerce/wishlist`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['wishlist'],
        summary: "The shopper's wishlist, priced now",
        description: `${SIGNED_IN}Newest first; prices and stock are read from the catalog on every call.`,
        response: { 200: wishlistEnvelope, ...errors },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      return answer(req, reply, user.userId);
    },
  );

  app.post(
    `${BASE}/ecommerce/wishlist/items`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['wishlist'],
        summary: 'Adds a product to the wishlist',
        description:
          `${SIGNED_IN}A product of this store (404 otherwise). Adding one that is already there changes ` +
          'nothing. At most 200 products (422 beyond).',
        body: wishlistAddSchema,
        response: { 200: wishlistEnvelope, ...errors },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const result = await wishlist.add(req.ctx, user.userId, req.body.productId);
      if (!result.ok) return sendRefusal(reply, result);
      const { added } = result.value;
      return answer(req, reply, user.userId, added ? 'Added to your wishlist.' : 'Already in your wishlist.');
    },
  );

  app.delete(
    `${BASE}/ecommerce/wishlist/items/:productId`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['wishlist'],
        summary: 'Takes a product off the wishlist',
        description: `${SIGNED_IN}A product that is not on this shopper's wishlist is a 404.`,
        params: wishlistItemParamsSchema,
        response: { 200: wishlistEnvelope, ...errors },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      await wishlist.remove(req.ctx, user.userId, req.params.productId);
      return answer(req, reply, user.userId, 'Removed from your wishlist.');
    },
  );

  app.post(
    `${BASE}/ecommerce/wishlist/items/:productId/movetocart`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['wishlist'],
        summary: 'Moves a product from the wishlist to the cart',
        description:
          `${SIGNED_IN}Adds one to the cart with the cart's rules, then takes it off the wishlist. Out of stock ` +
          '(409 OUT_OF_STOCK) or a product whose options must be chosen first (422): the item stays on the ' +
          'wishlist.',
        params: wishlistItemParamsSchema,
        response: {
          200: dataEnvelope(z.object({ wishlist: wishlistSchema, cart: cartSchema })),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const moved = await wishlist.moveToCart(req.ctx, user.userId, req.params.productId);
      if (!moved.ok) return sendRefusal(reply, moved);
      reply.header('cache-control', 'private, no-store');
      const [list, shoppingCart] = await Promise.all([
        wishlist.list(req.ctx, user.userId),
        cart.view(req.ctx, { userId: user.userId, guestToken: null }),
      ]);
      return { data: { wishlist: list, cart: shoppingCart }, message: 'Moved to your cart.' };
    },
  );
}
