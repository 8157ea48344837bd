import type { IncomingHttpHeaders } from 'node:http';
import {
  addConfigToCartSchema,
  addToCartSchema,
  cartLineQuerySchema,
  cartSchema,
  dataEnvelope,
  errorEnvelopeSchema,
  modifyCartSchema,
  promoCodeRequestSchema,
  reorderRequestSchema,
  reorderResultSchema,
} from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireSignedIn } from '../../lib/access';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import type { TenantContext } from '../../lib/context';
import { sendRefusal } from '../../plugins/errors';
import { cookieValue } from '../auth/index';
import { type CartOwner, type CartService, cartOwnerOf, type ShopperOrders } from './cart.service';

const BASE = '/skulocity/api/v1';
const cartEnvelope = dataEnvelope(z.object({ cart: cartSchema }));
const errors = { ...tenantErrors, 409: errorEnvelopeSchema, 422: errorEnvelopeSchema } as const;
/** Optional on adds: a retry with the same key (kept a day per cart) does not add twice. */
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(8).max(100).optional() }).passthrough();
const IDEMPOTENCY_DOC =
  ' An optional `Idempotency-Key` header (8 to 100 characters) makes a retry safe: the same key on the same ' +
  'cart within a day adds nothing more and answers the cart; the same key with another product or quantity is ' +
  'refused (409).';
const VARIANT_DOC =
  ' A line is one variant of a product: name it by `variantId` (with `productId` too, they must agree, else 422 ' +
  'VARIANT_UNAVAILABLE), or by `productId` alone for a product with one variant to sell (several: 422 ' +
  'VARIANT_REQUIRED). A variant disabled, removed or not in this store is 422 VARIANT_UNAVAILABLE; two variants ' +
  'of one product are two lines.';
const keyOf = (req: FastifyRequest) => {
  const key = req.headers['idempotency-key'];
  return typeof key === 'string' ? { idempotencyKey: key } : {};
};

/** The guest cart's cookie: a random token; the database keeps its SHA-256. */
export const CART_COOKIE = 'cart';
const CART_TTL_S = 30 * 24 * 3600;

export function cartCookie(token: string, secure: boolean) {
  return `${CART_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${CART_TTL_S}${secure ? '; Secure' : ''}`;
}

export function clearedCartCookie(secure: boolean) {
  return `${CART_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

/** At login or sign-up: the guest cart of this browser joins the account's, and its cookie goes. */
export function mergeGuestCartOnLogin(cart: CartService) {
  return async (ctx: TenantContext, headers: IncomingHttpHeaders, userId: string): Promise<string[]> => {
    const token = cookieValue(headers.cookie, CART_COOKIE);
    if (!token) return [];
    await cart.mergeGuestCart(ctx, token, userId);
    return [clearedCartCookie(false)];
  };
}

/** The guest cart token a request carries (the request context's guest actor holds it). */
export const guestCartToken = (headers: IncomingHttpHeaders) => cookieValue(headers.cookie, CART_COOKIE);

/** Cart paths as the existing clients call them; prices and totals always come from the server. */
export async function cartRoutes(app: App, { cart, orders }: { cart: CartService; orders: ShopperOrders }) {
  const answer = async (req: FastifyRequest, reply: FastifyReply, owner: CartOwner, message?: string) => {
    reply.header('cache-control', 'private, no-store');
    return { data: { cart: await cart.view(req.ctx, owner) }, ...(message ? { message } : {}) };
  };
  const issue = (req: FastifyRequest, reply: FastifyReply, token: string | null) => {
    if (token) reply.header('set-cookie', cartCookie(token, req.protocol === 'https'));
  };

  app.get(
    `${BASE}/public/ecommerce/cart/showcart`,
    {
      schema: {
        tags: ['cart'],
        summary: 'The cart: lines, totals and data.cart.shoppingCartSize',
        description:
          "The signed-in shopper's cart, else the guest cart of the `cart` cookie. Every price is read from the " +
          'catalog now; a line that cannot be bought as it is carries a `problem`.',
        response: { 200: cartEnvelope, ...tenantErrors },
      },
    },
    async (req, reply) => answer(req, reply, cartOwnerOf(req.ctx)),
  );

  app.post(
    `${BASE}/public/ecommerce/product/addToCart`,
    {
      schema: {
        tags: ['cart'],
        summary: 'Adds a product to the cart',
        description:
          'Quantity is a whole number from 1 to 99 per line; more than the stock is refused (409 OUT_OF_STOCK). A ' +
          'guest without a cart gets one, with the `cart` cookie. Configurable products go through ' +
          'addConfigItemsToCart.' +
          VARIANT_DOC +
          IDEMPOTENCY_DOC,
        headers: idempotencyHeaders,
        body: addToCartSchema,
        examples: { body: { variantId: 'LGT-1001', quantity: 2 } },
        response: { 200: cartEnvelope, ...errors },
      },
    },
    async (req, reply) => {
      const owner = cartOwnerOf(req.ctx);
      const added = await cart.add(req.ctx, owner, req.body, keyOf(req));
      if (!added.ok) return sendRefusal(reply, added);
      const { issuedGuestToken } = added.value;
      issue(req, reply, issuedGuestToken);
      return answer(req, reply, { ...owner, guestToken: owner.guestToken ?? issuedGuestToken }, 'Added to your cart.');
    },
  );

  app.post(
    `${BASE}/crmsfa/orders/addConfigItemsToCart`,
    {
      schema: {
        tags: ['cart'],
        summary: 'Adds a configured product to the cart',
        description: `One choice for every option of the product, as getConfigDetailsEvent prices it, on top of the variant's price.${VARIANT_DOC}${IDEMPOTENCY_DOC}`,
        headers: idempotencyHeaders,
        body: addConfigToCartSchema,
        response: { 200: cartEnvelope, ...errors },
      },
    },
    async (req, reply) => {
      const owner = cartOwnerOf(req.ctx);
      const added = await cart.addConfigured(req.ctx, owner, req.body, keyOf(req));
      if (!added.ok) return sendRefusal(reply, added);
      const { issuedGuestToken } = added.value;
      issue(req, reply, issuedGuestToken);
      return answer(req, reply, { ...owner, guestToken: owner.guestToken ?? issuedGuestToken }, 'Added to your cart.');
    },
  );

  app.put(
    `${BASE}/public/ecommerce/cart/modifycart`,
    {
      schema: {
        tags: ['cart'],
        summary: "Changes a line's quantity",
        description: 'From 1 to 99 and within the stock; to take a line out, DELETE /public/ecommerce/cart/line.',
        body: modifyCartSchema,
        response: { 200: cartEnvelope, ...errors },
      },
    },
    async (req, reply) => {
      const owner = cartOwnerOf(req.ctx);
      const modified = await cart.modify(req.ctx, owner, req.body.lineId, req.body.quantity);
      if (!modified.ok) return sendRefusal(reply, modified);
      return answer(req, reply, owner, 'Your cart has been updated.');
    },
  );

  app.delete(
    `${BASE}/public/ecommerce/cart/line`,
    {
      schema: {
        tags: ['cart'],
        summary: 'Takes a line out of the cart',
        querystring: cartLineQuerySchema,
        response: { 200: cartEnvelope, ...errors },
      },
    },
    async (req, reply) => {
      const owner = cartOwnerOf(req.ctx);
      await cart.remove(req.ctx, owner, req.query.lineId);
      return answer(req, reply, owner, 'Removed from your cart.');
    },
  );

  app.post(
    `${BASE}/public/ecommerce/cart/emptycart`,
    {
      schema: {
        tags: ['cart'],
        summary: 'Empties the cart',
        response: { 200: cartEnvelope, ...tenantErrors },
      },
    },
    async (req, reply) => {
      const owner = cartOwnerOf(req.ctx);
      await cart.empty(req.ctx, owner);
      return answer(req, reply, owner, 'Your cart is empty.');
    },
  );

  app.post(
    `${BASE}/public/ecommerce/cart/addpromocode`,
    {
      schema: {
        tags: ['cart'],
        summary: 'Puts a promo code on the cart',
        description:
          'Any case. Refused with 422 PROMO_INVALID and the reason (unknown, not active yet, expired, used up, ' +
          'minimum subtotal not reached). The order checks it again, with its usage limits, when placed.',
        body: promoCodeRequestSchema,
        response: { 200: cartEnvelope, ...errors },
      },
    },
    async (req, reply) => {
      const owner = cartOwnerOf(req.ctx);
      const applied = await cart.applyPromo(req.ctx, owner, req.body.promoCode);
      if (!applied.ok) return sendRefusal(reply, applied);
      return answer(req, reply, owner, 'Promo code applied.');
    },
  );

  app.delete(
    `${BASE}/public/ecommerce/cart/promocode`,
    {
      schema: {
        tags: ['cart'],
        summary: 'Takes the promo code off the cart',
        response: { 200: cartEnvelope, ...tenantErrors },
      },
    },
    async (req, reply) => {
      const owner = cartOwnerOf(req.ctx);
      await cart.removePromo(req.ctx, owner);
      return answer(req, reply, owner, 'Promo code removed.');
    },
  );

  // Buy again: the cart's, like the cart page's "reorder" action; the order is read through the orders
  // module (ShopperOrders). The path is the one clients have always called, under the order's.
  app.post(
    `${BASE}/ecommerce/order/reorder`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['orders'],
        summary: "Buy again: the lines of one of the shopper's orders, into their cart",
        description:
          "At today's prices. A line whose product is gone, sold out or short of the quantity, or that had options " +
          "(they must be chosen again), is skipped and named in `skipped`. Another shopper's order is a 404.",
        body: reorderRequestSchema,
        response: { 200: dataEnvelope(reorderResultSchema), ...tenantErrors, 401: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const user = requireSignedIn(req.ctx);
      const order = await orders.read(req.ctx, req.body.orderId, { userId: user.userId });
      const { message, ...data } = await cart.reorder(req.ctx, { userId: user.userId, guestToken: null }, order.lines);
      return { data, message };
    },
  );
}
