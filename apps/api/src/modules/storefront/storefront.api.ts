import type { IncomingHttpHeaders } from 'node:http';
import {
  ADDRESS_FIELDS,
  type AddConfigToCart,
  addConfigToCartSchema,
  addressInputSchema,
  addToCartSchema,
  type CardField,
  type CartActionOutcome,
  type CheckoutField,
  type ContactResult,
  cardCreateSchema,
  contactRequestSchema,
  createReturnSchema,
  destinationQuerySchema,
  FORGOT_MESSAGE,
  type FormOutcome,
  forgotPasswordQuerySchema,
  type LoginOutcome,
  loginRequestSchema,
  modifyCartSchema,
  PASSWORD_CHANGED_MESSAGE,
  type PlaceOrder,
  type PlaceOrderOutcome,
  PROFILE_SAVED_MESSAGE,
  passwordChangeSchema,
  payPalCaptureSchema,
  payPalCheckoutSchema,
  placeOrderSchema,
  productListQuerySchema,
  profileUpdateSchema,
  promoCodeRequestSchema,
  REGISTER_MESSAGE,
  RESET_DONE_MESSAGE,
  type RegisterOutcome,
  registerRequestSchema,
  resetPasswordRequestSchema,
  reviewCreateSchema,
  type ShellData,
  type StorefrontApi,
  searchQuerySchema,
  type WishlistActionOutcome,
  wishlistAddSchema,
  wishlistProductIdSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { PublicReadCache } from '../../lib/public-cache';
import type { AddressesService } from '../addresses/index';
import { csrfRefused } from '../auth/csrf';
import { type AuthService, clearedSessionCookie, requestToken, sessionCookie } from '../auth/index';
import { assertSameOrigin, cookieValue } from '../auth/session-token';
import { CART_COOKIE, type CartOwner, type CartService, cartCookie, mergeGuestCartOnLogin } from '../cart/index';
import type { CatalogService } from '../catalog/index';
import type { CheckoutService } from '../checkout/index';
import type { ContactService } from '../contact/index';
import { COUNTRIES } from '../geo/index';
import type { OrdersService } from '../orders/index';
import type { CardsService } from '../payments/index';
import type { ProductsService } from '../products/index';
import type { ReturnsService } from '../returns/index';
import type { ReviewsService } from '../reviews/index';
import type { StoreService } from '../store/index';
import type { TenantService } from '../tenant/index';
import type { WishlistService } from '../wishlist/index';

export interface StorefrontDeps {
  tenants: TenantService;
  store: StoreService;
  catalog: CatalogService;
  products: ProductsService;
  contact: ContactService;
  auth: AuthService;
  addresses: AddressesService;
  cards: CardsService;
  cart: CartService;
  wishlist: WishlistService;
  checkout: CheckoutService;
  orders: OrdersService;
  returns: ReturnsService;
  reviews: ReviewsService;
  cache: PublicReadCache;
  chatWidgetUrl: string;
  platformName: string;
}

/**
 * The in-process API that page loaders call, bound to one request's tenant. Shell data is shared
 * through the same per-tenant cache as the public JSON reads, so a page costs no queries when warm.
 */
export function storefrontApi(
  ctx: TenantContext | null,
  deps: StorefrontDeps,
  request: {
    ip: string | null;
    headers?: IncomingHttpHeaders;
    secure?: boolean;
    /** Whether the form post carried this browser's CSRF token (checked by the page handler). */
    csrfValid?: boolean;
  } = { ip: null },
): StorefrontApi {
  let shell: Promise<ShellData | null> | undefined;
  let user: ReturnType<StorefrontApi['user']> | undefined;
  const headers = request.headers ?? {};
  const token = requestToken(headers);
  const cached = async <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    if (!ctx) throw new Error('no tenant');
    const entry = await deps.cache.get(ctx.tenantId, `page:${key}:${ctx.origin}`, compute);
    return JSON.parse(entry.json) as T;
  };
  const notFound = (err: unknown) => {
    if (err instanceof AppError && err.statusCode === 404) return null;
    throw err;
  };
  function currentUser() {
    user ??= ctx && token ? deps.auth.resolve(ctx, token.token) : Promise.resolve(null);
    return user;
  }
  /**
   * A guest's cart token issued by a change in this very request (the first add to cart): the page's
   * loaders run after the action in the same request, before the browser has the new cookie, and
   * must read the cart it was just given. Without JavaScript, that render is what the shopper sees.
   */
  let issuedCartToken: string | null = null;
  async function owner(): Promise<CartOwner> {
    const me = await currentUser();
    return {
      userId: me?.userId ?? null,
      guestToken: me ? null : (issuedCartToken ?? cookieValue(headers.cookie, CART_COOKIE)),
    };
  }
  /** Every change a form asks for: from this store's own origin, with this browser's CSRF token. */
  function assertFormFromStore(origin: string) {
    assertSameOrigin('POST', headers, origin);
    if (!request.csrfValid) throw csrfRefused();
  }
  /** The signed-in user, or a 401 the forms turn into a message. */
  async function signedIn() {
    const me = await currentUser();
    if (!me) throw new AppError(401, 'UNAUTHENTICATED', 'Please log in to continue.');
    return me;
  }
  /**
   * The product of a guest's heart, carried through the login or sign-up form, once that succeeded.
   * Anything wrong with it (not an id, not this store's, a full wishlist) drops it: the login stands.
   */
  async function addCarriedWishlistItem(userId: string, productId: string | undefined) {
    if (!ctx || !productId) return;
    const parsed = wishlistProductIdSchema.safeParse(productId);
    if (!parsed.success) return;
    try {
      await deps.wishlist.add(ctx, userId, parsed.data);
    } catch (err) {
      if (!(err instanceof AppError && err.statusCode < 500)) throw err;
    }
  }
  return {
    shell() {
      shell ??= (async () => {
        if (!ctx) return null;
        return cached('shell', async (): Promise<ShellData> => {
          const id = ctx.productStoreId;
          const [store, main, pages, seo, lookup] = await Promise.all([
            deps.store.details(ctx, id),
            deps.catalog.mainData(ctx, id),
            deps.store.cmsPages(ctx, id, {}),
            deps.store.seoMeta(ctx),
            deps.tenants.lookupByHostName(ctx.hostName),
          ]);
          return {
            tenant: {
              tenantId: ctx.tenantId,
              productStoreId: id,
              hostName: ctx.hostName,
              viaDevAlias: ctx.viaDevAlias,
              isWs2Public: lookup.isWs2Public,
            },
            store,
            main,
            pages,
            seo,
            chatWidgetUrl: deps.chatWidgetUrl,
            platformName: deps.platformName,
          };
        });
      })();
      return shell;
    },
    user: currentUser,
    async profile() {
      const signedIn = await currentUser();
      return ctx && signedIn ? deps.auth.profile(ctx, signedIn.userId) : null;
    },
    async cartSize() {
      return ctx ? deps.cart.size(ctx, await owner()) : 0;
    },
    async cart() {
      if (!ctx) throw new Error('no tenant');
      return deps.cart.view(ctx, await owner());
    },
    async checkout(destination) {
      if (!ctx) throw new Error('no tenant');
      const me = await currentUser();
      const { shippingMethodId, ...where } = destination;
      const saved = me ? await deps.addresses.list(ctx, me.userId) : [];
      // No destination asked for yet: the shopper's default shipping address decides the rates.
      const home = saved.find((a) => a.isDefaultShipping) ?? saved[0];
      const asked =
        where.countryGeoId || !home
          ? where
          : {
              countryGeoId: home.countryGeoId,
              ...(home.stateProvinceGeoId ? { stateProvinceGeoId: home.stateProvinceGeoId } : {}),
            };
      const dest = lenient(destinationQuerySchema, asked as Record<string, string>);
      const [options, profile, savedCards] = await Promise.all([
        deps.checkout.options(ctx, await owner(), dest, shippingMethodId?.slice(0, 64)),
        me ? deps.auth.profile(ctx, me.userId) : null,
        me ? deps.cards.list(ctx, me.userId) : [],
      ]);
      const countries = COUNTRIES.map(({ geoId, name, regions }) => ({ geoId, name, regions }));
      return {
        ...options,
        countries,
        signedIn: Boolean(me),
        email: profile?.email ?? null,
        addresses: saved,
        cards: savedCards,
        paypal: deps.checkout.payPalEnabled(),
        destination: { countryGeoId: dest.countryGeoId, stateProvinceGeoId: dest.stateProvinceGeoId ?? null },
      };
    },
    async placeOrder(input): Promise<PlaceOrderOutcome> {
      if (!ctx) throw new Error('no tenant');
      const fields: CheckoutField[] = [
        'email',
        ...ADDRESS_FIELDS,
        'shippingMethodId',
        'cardNumber',
        'cvc',
        'expMonth',
        'expYear',
        'nameOnCard',
        'paymentMethodId',
        'shipToContactMechId',
      ];
      const me = await currentUser();
      // A saved address chosen: it is used as saved, whatever the (hidden) address fields hold.
      const chosen =
        me && input.shipToContactMechId && input.shipToContactMechId !== 'new' ? input.shipToContactMechId : null;
      const savedAddress = chosen
        ? (await deps.addresses.list(ctx, me?.userId ?? '')).find((a) => a.contactMechId === chosen)
        : undefined;
      if (chosen && !savedAddress) {
        return {
          ok: false,
          status: 400,
          message: 'Please check the fields marked below.',
          fieldErrors: { shipToContactMechId: 'Please choose one of your addresses.' },
        };
      }
      const fromSaved: Record<string, string> = savedAddress
        ? Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, savedAddress[f] ?? '']))
        : {};
      const v = (k: string) => fromSaved[k] ?? input[k] ?? '';
      const paypal = v('paymentMethod') === 'paypal';
      const payment = paypal
        ? undefined
        : v('paymentMethod') === 'saved-card'
          ? { method: 'saved-card', paymentMethodId: v('paymentMethodId') }
          : {
              method: 'card',
              cardNumber: v('cardNumber'),
              cvc: v('cvc'),
              expMonth: v('expMonth'),
              expYear: v('expYear'),
              nameOnCard: v('nameOnCard'),
            };
      const parsed = (paypal ? payPalCheckoutSchema : placeOrderSchema).safeParse({
        ...(me ? {} : { email: v('email') }),
        shipTo: Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, v(f)])),
        shippingMethodId: v('shippingMethodId'),
        ...(payment ? { payment } : {}),
      });
      if (!parsed.success) {
        // Nested paths (shipTo.city, payment.cvc) are reported by their last part, the form's field name.
        const flat = new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: [i.path.at(-1) ?? ''] })));
        return fieldFailure(flat, fields);
      }
      const key = v('idempotencyKey');
      if (key.length < 8 || key.length > 100) {
        return { ok: false, status: 400, message: 'This form has expired. Please try again.', fieldErrors: {} };
      }
      try {
        assertFormFromStore(ctx.origin);
        const profile = me ? await deps.auth.profile(ctx, me.userId) : null;
        const buyer = { owner: await owner(), userId: me?.userId ?? null, accountEmail: profile?.email ?? null };
        if (paypal) {
          const started = await deps.checkout.createPayPalOrder(ctx, buyer, parsed.data, {
            returnOrigin: ctx.origin,
            requestKey: key,
          });
          return { ok: true, approveUrl: started.approveUrl };
        }
        const order = await deps.checkout.placeOrder(ctx, buyer, parsed.data as PlaceOrder, key);
        if (me && !savedAddress && input.saveAddress === 'on') {
          // A full address book must not spoil a paid order: the address is then just not kept.
          await deps.addresses.create(ctx, me.userId, parsed.data.shipTo).catch(() => undefined);
        }
        return { ok: true, order };
      } catch (err) {
        return formFailure(err, fields);
      }
    },
    async capturePayPal(paypalOrderId) {
      if (!ctx) throw new Error('no tenant');
      const parsed = payPalCaptureSchema.safeParse({ paypalOrderId });
      if (!parsed.success) return { ok: false, status: 400, message: 'This PayPal payment could not be found.' };
      const me = await currentUser();
      try {
        const profile = me ? await deps.auth.profile(ctx, me.userId) : null;
        const buyer = { owner: await owner(), userId: me?.userId ?? null, accountEmail: profile?.email ?? null };
        return { ok: true, order: await deps.checkout.capturePayPal(ctx, buyer, parsed.data.paypalOrderId) };
      } catch (err) {
        const failure = formFailure(err, []);
        return { ok: false, status: failure.status, message: failure.message };
      }
    },
    async order(orderId, key) {
      if (!ctx) return null;
      const me = await currentUser();
      return deps.orders
        .read(ctx, orderId.slice(0, 64), { userId: me?.userId ?? null, key: key?.slice(0, 200) })
        .catch(notFound);
    },
    async orderHistory(page) {
      if (!ctx) throw new Error('no tenant');
      const me = await signedIn();
      return deps.orders.history(ctx, me.userId, Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1);
    },
    async requestReturn(input) {
      if (!ctx) throw new Error('no tenant');
      const fields = ['lines', 'reason', 'note'] as const;
      const parsed = createReturnSchema.safeParse({
        orderId: input.orderId,
        key: input.key || undefined,
        // Lines left at 0 are the ones the shopper keeps.
        lines: input.lines
          .map((l) => ({ lineNo: l.lineNo, quantity: Number(l.quantity || '0') }))
          .filter((l) => l.quantity !== 0),
        reason: input.reason,
        note: input.note,
      });
      if (!parsed.success) {
        const failure = fieldFailure(parsed.error, fields);
        // The API names the reason codes; a shopper picks from the list.
        if (failure.fieldErrors.reason) failure.fieldErrors.reason = 'Choose a reason for the return.';
        return failure;
      }
      try {
        assertFormFromStore(ctx.origin);
        const me = await currentUser();
        if (!me && !parsed.data.key) throw new AppError(401, 'UNAUTHENTICATED', 'Please log in to request a return.');
        const created = await deps.returns.create(
          ctx,
          { userId: me?.userId ?? null, key: parsed.data.key },
          parsed.data,
        );
        return {
          ok: true as const,
          message: `Return ${created.returnId} requested. We have emailed you a confirmation.`,
          returnId: created.returnId,
        };
      } catch (err) {
        return formFailure(err, fields);
      }
    },
    async reviewEligibility(productId) {
      if (!ctx) return null;
      const me = await currentUser();
      return deps.reviews.eligibility(ctx, me?.userId ?? null, productId.slice(0, 64)).catch(notFound);
    },
    async writeReview(input) {
      if (!ctx) throw new Error('no tenant');
      const fields = ['rating', 'title', 'text'] as const;
      const parsed = reviewCreateSchema.safeParse({
        productId: input.productId,
        rating: Number(input.rating || '0'),
        title: input.title,
        text: input.text,
      });
      if (!parsed.success) return fieldFailure(parsed.error, fields);
      try {
        assertFormFromStore(ctx.origin);
        const me = await signedIn();
        await deps.reviews.create(ctx, me.userId, parsed.data);
        return { ok: true as const, message: 'Thank you! Your review is published.' };
      } catch (err) {
        return formFailure(err, fields);
      }
    },
    async cartAction(action): Promise<CartActionOutcome> {
      if (!ctx) throw new Error('no tenant');
      try {
        assertFormFromStore(ctx.origin);
        const who = await owner();
        const cookies: string[] = [];
        let message: string;
        switch (action.intent) {
          case 'add': {
            const quantity = Number(action.quantity || '1');
            const parsed = action.selections
              ? addConfigToCartSchema.safeParse({
                  productId: action.productId,
                  quantity,
                  selections: action.selections,
                })
              : addToCartSchema.safeParse({ productId: action.productId, quantity });
            if (!parsed.success) return fieldFailure(parsed.error, ['quantity', 'selections'] as const);
            const { issuedGuestToken } =
              'selections' in parsed.data
                ? await deps.cart.addConfigured(ctx, who, parsed.data as AddConfigToCart)
                : await deps.cart.add(ctx, who, parsed.data);
            if (issuedGuestToken) {
              issuedCartToken = issuedGuestToken;
              cookies.push(cartCookie(issuedGuestToken, Boolean(request.secure)));
            }
            message = 'Added to your cart.';
            break;
          }
          case 'update': {
            const parsed = modifyCartSchema.safeParse({ lineId: action.lineId, quantity: Number(action.quantity) });
            if (!parsed.success) return fieldFailure(parsed.error, ['quantity'] as const);
            await deps.cart.modify(ctx, who, parsed.data.lineId, parsed.data.quantity);
            message = 'Your cart has been updated.';
            break;
          }
          case 'remove':
            await deps.cart.remove(ctx, who, action.lineId);
            message = 'Removed from your cart.';
            break;
          case 'promo': {
            const parsed = promoCodeRequestSchema.safeParse({ promoCode: action.promoCode });
            if (!parsed.success) return fieldFailure(parsed.error, ['promoCode'] as const);
            try {
              await deps.cart.applyPromo(ctx, who, parsed.data.promoCode);
            } catch (err) {
              if (err instanceof AppError && err.statusCode === 422) {
                return { ok: false, status: 422, message: err.message, fieldErrors: { promoCode: err.message } };
              }
              throw err;
            }
            message = 'Promo code applied.';
            break;
          }
          case 'remove-promo':
            await deps.cart.removePromo(ctx, who);
            message = 'Promo code removed.';
            break;
          case 'empty':
            await deps.cart.empty(ctx, who);
            message = 'Your cart is empty.';
            break;
          case 'reorder': {
            // "Buy again" on the order page: only the signed-in owner's own order.
            const me = await signedIn();
            const order = await deps.orders.read(ctx, action.orderId.slice(0, 64), { userId: me.userId });
            message = (await deps.cart.reorder(ctx, who, order.lines)).message;
            break;
          }
        }
        return { ok: true, message, cookies };
      } catch (err) {
        return formFailure(err, ['quantity'] as const);
      }
    },
    async wishlist() {
      if (!ctx) throw new Error('no tenant');
      const me = await currentUser();
      return me ? deps.wishlist.list(ctx, me.userId) : { currency: 'USD', items: [], count: 0 };
    },
    async wishlistProductIds() {
      const me = await currentUser();
      return ctx && me ? deps.wishlist.productIds(ctx, me.userId) : [];
    },
    async wishlistAction(action): Promise<WishlistActionOutcome> {
      if (!ctx) throw new Error('no tenant');
      const parsed = wishlistAddSchema.safeParse({ productId: action.productId });
      if (!parsed.success) return fieldFailure(parsed.error, ['productId'] as const);
      const { productId } = parsed.data;
      try {
        assertFormFromStore(ctx.origin);
        const me = await signedIn();
        switch (action.intent) {
          case 'add': {
            const { added } = await deps.wishlist.add(ctx, me.userId, productId);
            return { ok: true, message: added ? 'Added to your wishlist.' : 'Already in your wishlist.' };
          }
          case 'remove':
            await deps.wishlist.remove(ctx, me.userId, productId);
            return { ok: true, message: 'Removed from your wishlist.' };
          case 'move-to-cart': {
            const { productName } = await deps.wishlist.moveToCart(ctx, me.userId, productId);
            return { ok: true, message: `${productName} was moved to your cart.` };
          }
        }
      } catch (err) {
        return formFailure(err);
      }
    },
    async banners() {
      if (!ctx) return [];
      return cached('banners', () => deps.store.banners(ctx, ctx.productStoreId));
    },
    async cmsPage(pageUrl: string) {
      if (!ctx) return null;
      const pages = await cached(`cms:${pageUrl}`, () => deps.store.cmsPages(ctx, ctx.productStoreId, { pageUrl }));
      return pages[0] ?? null;
    },
    async products(params) {
      if (!ctx) throw new Error('no tenant');
      const q = lenient(productListQuerySchema, params);
      return cached(`products:${JSON.stringify(q)}`, () => deps.products.list(ctx, q));
    },
    async category(id) {
      if (!ctx) return null;
      return cached(`category:${id}`, () => deps.products.subcategories(ctx, id)).catch(notFound);
    },
    async product(id) {
      if (!ctx) return null;
      return cached(`product:${id}`, () => deps.products.details(ctx, id)).catch(notFound);
    },
    async search(searchText, params) {
      if (!ctx) throw new Error('no tenant');
      const q = lenient(searchQuerySchema, { ...params, searchText });
      return cached(`search:${JSON.stringify(q)}`, () => deps.products.search(ctx, q));
    },
    async sendContactMessage(input): Promise<ContactResult> {
      if (!ctx) throw new Error('no tenant');
      const parsed = contactRequestSchema.safeParse(input);
      if (!parsed.success) return fieldFailure(parsed.error, ['name', 'email', 'message']);
      try {
        assertFormFromStore(ctx.origin);
        await deps.contact.submit(ctx, parsed.data, request.ip);
        return { ok: true };
      } catch (err) {
        return formFailure(err);
      }
    },
    async login(input): Promise<LoginOutcome> {
      if (!ctx) throw new Error('no tenant');
      const { wishlistProductId, ...credentials } = input;
      const parsed = loginRequestSchema.safeParse(credentials);
      if (!parsed.success) return fieldFailure(parsed.error, ['email', 'password']);
      try {
        assertFormFromStore(ctx.origin);
        const r = await deps.auth.login(ctx, parsed.data, {
          ip: request.ip,
          userAgent: headers['user-agent'] ?? null,
          previousToken: token?.token,
        });
        const merged = await mergeGuestCartOnLogin(deps.cart)(ctx, headers, r.userId);
        await addCarriedWishlistItem(r.userId, wishlistProductId);
        return {
          ok: true,
          user: { userId: r.userId, firstName: r.firstName, partyId: r.partyId, userLoginId: r.userLoginId },
          cookies: [sessionCookie(r.token, new Date(r.expiresAt), Boolean(request.secure)), ...merged],
        };
      } catch (err) {
        return formFailure(err);
      }
    },
    async register(input): Promise<RegisterOutcome> {
      if (!ctx) throw new Error('no tenant');
      const { wishlistProductId, ...fields } = input;
      const parsed = registerRequestSchema.safeParse(fields);
      if (!parsed.success) return fieldFailure(parsed.error, ['firstName', 'lastName', 'email', 'password', 'phone']);
      try {
        assertFormFromStore(ctx.origin);
        const r = await deps.auth.register(ctx, parsed.data, {
          ip: request.ip,
          userAgent: headers['user-agent'] ?? null,
        });
        const cookies = r.created
          ? [
              sessionCookie(r.token, r.expiresAt, Boolean(request.secure)),
              ...(await mergeGuestCartOnLogin(deps.cart)(ctx, headers, r.userId)),
            ]
          : [];
        if (r.created) await addCarriedWishlistItem(r.userId, wishlistProductId);
        return { ok: true, message: REGISTER_MESSAGE, cookies };
      } catch (err) {
        return formFailure(err);
      }
    },
    async forgotPassword(email) {
      if (!ctx) throw new Error('no tenant');
      const parsed = forgotPasswordQuerySchema.safeParse({ email });
      if (!parsed.success) return fieldFailure(parsed.error, ['email']);
      try {
        assertFormFromStore(ctx.origin);
        await deps.auth.forgotPassword(ctx, parsed.data.email, { ip: request.ip });
        return { ok: true as const, message: FORGOT_MESSAGE };
      } catch (err) {
        return formFailure(err);
      }
    },
    async resetPassword(input) {
      if (!ctx) throw new Error('no tenant');
      const parsed = resetPasswordRequestSchema.safeParse(input);
      if (!parsed.success) return fieldFailure(parsed.error, ['token', 'password']);
      try {
        assertFormFromStore(ctx.origin);
        await deps.auth.resetPassword(ctx, parsed.data, { ip: request.ip });
        return {
          ok: true as const,
          message: RESET_DONE_MESSAGE,
          cookie: clearedSessionCookie(Boolean(request.secure)),
        };
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 400) {
          return { ok: false as const, status: 400 as const, message: err.message, fieldErrors: {} };
        }
        return formFailure(err);
      }
    },
    async updateProfile(input) {
      if (!ctx) throw new Error('no tenant');
      const fields = ['firstName', 'lastName', 'email', 'phone', 'currentPassword'] as const;
      const parsed = profileUpdateSchema.safeParse({ ...input, currentPassword: input.currentPassword || undefined });
      if (!parsed.success) return fieldFailure(parsed.error, fields);
      try {
        assertFormFromStore(ctx.origin);
        const me = await signedIn();
        const profile = await deps.auth.updateProfile(ctx, me.userId, parsed.data);
        return { ok: true as const, message: PROFILE_SAVED_MESSAGE, profile };
      } catch (err) {
        return formFailure(err, fields);
      }
    },
    async changePassword(input) {
      if (!ctx) throw new Error('no tenant');
      const fields = ['currentPassword', 'newPassword'] as const;
      const parsed = passwordChangeSchema.safeParse(input);
      if (!parsed.success) return fieldFailure(parsed.error, fields);
      try {
        assertFormFromStore(ctx.origin);
        const me = await signedIn();
        await deps.auth.changePassword(ctx, me.userId, token?.token ?? null, parsed.data);
        return { ok: true as const, message: PASSWORD_CHANGED_MESSAGE };
      } catch (err) {
        return formFailure(err, fields);
      }
    },
    async addresses() {
      const me = await currentUser();
      const countries = COUNTRIES.map(({ geoId, name, regions }) => ({ geoId, name, regions }));
      return { addresses: ctx && me ? await deps.addresses.list(ctx, me.userId) : [], countries };
    },
    async saveAddress(input) {
      if (!ctx) throw new Error('no tenant');
      const fields = ADDRESS_FIELDS;
      const parsed = addressInputSchema.safeParse({
        ...Object.fromEntries(fields.map((f) => [f, input[f] ?? ''])),
        isDefaultShipping: input.isDefaultShipping === 'on',
        isDefaultBilling: input.isDefaultBilling === 'on',
      });
      if (!parsed.success) return fieldFailure(parsed.error, fields);
      try {
        assertFormFromStore(ctx.origin);
        const me = await signedIn();
        if (input.contactMechId) await deps.addresses.update(ctx, me.userId, input.contactMechId, parsed.data);
        else await deps.addresses.create(ctx, me.userId, parsed.data);
        return { ok: true as const, message: input.contactMechId ? 'Address saved.' : 'Address added.' };
      } catch (err) {
        return formFailure(err, fields);
      }
    },
    async cards() {
      const me = await currentUser();
      if (!ctx || !me) return { cards: [], addresses: [] };
      const [cards, addresses] = await Promise.all([
        deps.cards.list(ctx, me.userId),
        deps.addresses.list(ctx, me.userId),
      ]);
      return { cards, addresses };
    },
    async addCard(input) {
      if (!ctx) throw new Error('no tenant');
      const fields: CardField[] = ['cardNumber', 'cvc', 'expMonth', 'expYear', 'nameOnCard', 'billingContactMechId'];
      const parsed = cardCreateSchema.safeParse({ ...input, billingContactMechId: input.billingContactMechId || null });
      if (!parsed.success) return fieldFailure(parsed.error, fields);
      try {
        assertFormFromStore(ctx.origin);
        const me = await signedIn();
        await deps.cards.create(ctx, me.userId, parsed.data);
        return { ok: true as const, message: 'Card saved.' };
      } catch (err) {
        return formFailure(err, fields);
      }
    },
    async removeCard(paymentMethodId) {
      if (!ctx) throw new Error('no tenant');
      try {
        assertFormFromStore(ctx.origin);
        const me = await signedIn();
        await deps.cards.remove(ctx, me.userId, paymentMethodId);
        return { ok: true as const, message: 'Card removed.' };
      } catch (err) {
        return formFailure(err);
      }
    },
    async removeAddress(contactMechId) {
      if (!ctx) throw new Error('no tenant');
      try {
        assertFormFromStore(ctx.origin);
        const me = await signedIn();
        await deps.addresses.remove(ctx, me.userId, contactMechId);
        return { ok: true as const, message: 'Address removed.' };
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 404) {
          return { ok: false as const, status: 400 as const, message: err.message, fieldErrors: {} };
        }
        return formFailure(err);
      }
    },
    async logout() {
      if (!ctx) throw new Error('no tenant');
      // A forged logout (no token) changes nothing.
      try {
        assertFormFromStore(ctx.origin);
      } catch {
        return { cookie: null };
      }
      if (token) await deps.auth.logout(ctx, token.token);
      return { cookie: clearedSessionCookie(Boolean(request.secure)) };
    },
    async faqs() {
      if (!ctx) throw new Error('no tenant');
      return cached('faqs', () => deps.store.faqs(ctx, 'HELP_AND_FAQS'));
    },
  };
}

/** A form's validation failure: the first message per field, for display next to the fields. */
function fieldFailure<F extends string>(error: z.ZodError, fields: readonly F[]): FormOutcome<F> {
  const fieldErrors: Partial<Record<F, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as F;
    if (fields.includes(field) && !fieldErrors[field]) fieldErrors[field] = issue.message;
  }
  return { ok: false, status: 400, message: 'Please check the fields marked below.', fieldErrors };
}

/**
 * A refusal the shopper can act on (wrong password, too many tries, foreign origin, a taken email)
 * becomes a message; a service error that names one of the form's fields ("email: …") goes by it.
 */
function formFailure<F extends string = never>(err: unknown, fields: readonly F[] = []): FormOutcome<F> {
  if (err instanceof AppError && [400, 401, 403, 404, 409, 422, 429].includes(err.statusCode)) {
    const status = err.statusCode as FormOutcome<F>['status'];
    const m = /^(\w+): (.+)$/.exec(err.message);
    const field = m?.[1] as F | undefined;
    if (m && field && fields.includes(field)) {
      return {
        ok: false,
        status,
        message: 'Please check the fields marked below.',
        fieldErrors: { [field]: sentence(m[2] ?? '') } as Partial<Record<F, string>>,
      };
    }
    return { ok: false, status, message: err.message, fieldErrors: {} };
  }
  throw err;
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Parses page URL params with an API schema, dropping the params it rejects. */
function lenient<S extends z.ZodType>(schema: S, params: Record<string, string>): z.infer<S> {
  const input: Record<string, string> = { ...params };
  for (let i = 0; i < 10; i++) {
    const r = schema.safeParse(input);
    if (r.success) return r.data;
    const bad = new Set(r.error.issues.map((x) => String(x.path[0] ?? '')));
    let dropped = false;
    for (const k of bad) {
      if (k && k in input && k !== 'searchText') {
        delete input[k];
        dropped = true;
      }
    }
    // Unknown keys are reported without a path: keep only what the schema knows.
    if (!dropped) {
      for (const issue of r.error.issues) {
        if (issue.code === 'unrecognized_keys') for (const k of issue.keys) delete input[k];
      }
      const again = schema.safeParse(input);
      if (again.success) return again.data;
      break;
    }
  }
  throw AppError.badRequest('The search is not valid.');
}
