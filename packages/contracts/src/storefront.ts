import type { AddressField } from './address-fields';
import type { Address } from './addresses';
import type { Profile } from './auth';
import type { SavedCard } from './cards';
import type { Cart } from './cart';
import type { MainData } from './catalog';
import type { Order, OrderSummary, Quote, ShippingRate } from './checkout';
import type { DashboardPages } from './dashboard';
import type { Faqs, ProductDetails, ProductPage, SearchResult, SubcategoryResult } from './products';
import type { ReviewEligibility } from './returns';
import type { Banner, CmsPage, SeoMetaEntry, StoreDetails } from './store';
import type { Wishlist } from './wishlist';

/** Everything the storefront frame needs, resolved on the server for the request's host. */
export interface ShellData {
  tenant: {
    tenantId: string;
    productStoreId: string;
    hostName: string;
    viaDevAlias: boolean;
    isWs2Public: boolean;
  };
  store: StoreDetails;
  main: MainData;
  pages: CmsPage[];
  seo: SeoMetaEntry[];
  /** Where the chat widget script comes from (configuration, not store data). */
  chatWidgetUrl: string;
  platformName: string;
}

export interface SessionUser {
  userId: string;
  firstName: string;
  /** SPEC.md stores the user type as partyId; 'admin' sees Manage Store. */
  partyId: 'admin' | 'shopper';
  userLoginId: string;
}

/**
 * What the page server hands to React Router loaders: in-process calls bound to the request's
 * tenant, so server rendering never goes through HTTP to itself.
 */
export interface StorefrontApi {
  shell(): Promise<ShellData | null>;
  user(): Promise<SessionUser | null>;
  /** The signed-in user's own details, or null when nobody is signed in. */
  profile(): Promise<Profile | null>;
  cartSize(): Promise<number>;
  /** The request's cart (the account's, else the guest cookie's), priced now. */
  cart(): Promise<Cart>;
  /** Everything the checkout page shows for a destination (and, signed in, saved addresses and cards). */
  checkout(destination: {
    /** Unset: the signed-in shopper's default shipping address, else the United States. */
    countryGeoId?: string;
    stateProvinceGeoId?: string;
    shippingMethodId?: string;
  }): Promise<CheckoutView>;
  /**
   * Places the order from the checkout form; `idempotencyKey` comes with the form. With PayPal
   * chosen it starts the PayPal payment and answers where to approve it.
   */
  placeOrder(input: Record<string, string>): Promise<PlaceOrderOutcome>;
  /** When PayPal sends the shopper back approved: places the order and captures the payment. */
  capturePayPal(
    paypalOrderId: string,
  ): Promise<{ ok: true; order: Order } | { ok: false; status: number; message: string }>;
  /** One order, for its owner or with its signed link; null when neither. */
  order(orderId: string, key: string | null): Promise<Order | null>;
  orderHistory(page: number): Promise<{ orders: OrderSummary[]; total: number; page: number; pageSize: number }>;
  /** Asks for a return of chosen lines of an order, from the order page's form (`key`: a guest's link). */
  requestReturn(
    input: ReturnFormInput,
  ): Promise<{ ok: true; message: string; returnId: string } | FormOutcome<ReturnField>>;
  /** Whether the signed-in shopper may review the product (the product page's form). */
  reviewEligibility(productId: string): Promise<ReviewEligibility | null>;
  /** Publishes the signed-in shopper's review of a product they bought. */
  writeReview(
    input: Record<'productId' | ReviewField, string>,
  ): Promise<{ ok: true; message: string } | FormOutcome<ReviewField>>;
  /** One change to the cart, as the cart page's and product page's forms ask for it. */
  cartAction(action: CartAction): Promise<CartActionOutcome>;
  /** The signed-in shopper's wishlist, priced now; empty for a guest. */
  wishlist(): Promise<Wishlist>;
  /** The product ids on the signed-in shopper's wishlist (header count, hearts); none for a guest. */
  wishlistProductIds(): Promise<string[]>;
  /** One change to the wishlist, as the wishlist page's forms and the hearts ask for it. */
  wishlistAction(action: WishlistAction): Promise<WishlistActionOutcome>;
  banners(): Promise<Banner[]>;
  cmsPage(pageUrl: string): Promise<CmsPage | null>;
  /**
   * Catalog reads for pages. `params` are the page URL's search params as they came: invalid ones
   * are dropped (a hand-edited URL shows the default view, not an error page).
   */
  products(params: Record<string, string>): Promise<ProductPage>;
  category(productCategoryId: string): Promise<SubcategoryResult | null>;
  product(productId: string): Promise<ProductDetails | null>;
  search(searchText: string, params: Record<string, string>): Promise<SearchResult>;
  faqs(): Promise<Faqs>;
  /** Stores a contact-form message for the store and mails it to the store's address. */
  sendContactMessage(input: { name: string; email: string; message: string }): Promise<ContactResult>;
  /**
   * Logs in; on success `cookies` are the Set-Cookie headers the page response must carry (the
   * session, and the guest cart's cookie cleared once that cart joined the account's).
   * `wishlistProductId` is a guest's heart carried through the login form: the product goes on the
   * wishlist once logged in, and is dropped without a word when it is not one of this store's.
   */
  login(input: { email: string; password: string; wishlistProductId?: string }): Promise<LoginOutcome>;
  /**
   * Creates an account. `cookies` are set only when a new account was logged in; an existing email
   * gets the same message and no cookie (its owner is emailed). A new account gets the
   * `wishlistProductId` on its wishlist, as with login.
   */
  register(input: Record<RegisterField | 'phone', string> & { wishlistProductId?: string }): Promise<RegisterOutcome>;
  /** Mails a reset link when the email has an account; the same answer either way. */
  forgotPassword(email: string): Promise<{ ok: true; message: string } | FormOutcome<'email'>>;
  /** Sets a new password from a reset link; `cookie` clears any session in this browser. */
  resetPassword(input: {
    token: string;
    password: string;
  }): Promise<{ ok: true; message: string; cookie: string } | FormOutcome<'token' | 'password'>>;
  /** Saves My Profile for the signed-in user. */
  updateProfile(
    input: Record<'firstName' | 'lastName' | 'email' | 'phone' | 'currentPassword', string>,
  ): Promise<
    | { ok: true; message: string; profile: Profile }
    | FormOutcome<'firstName' | 'lastName' | 'email' | 'phone' | 'currentPassword'>
  >;
  /** Changes the signed-in user's password; other sessions end. */
  changePassword(input: {
    currentPassword: string;
    newPassword: string;
  }): Promise<{ ok: true; message: string } | FormOutcome<'currentPassword' | 'newPassword'>>;
  /** The signed-in shopper's addresses and the countries (with regions) an address may name. */
  addresses(): Promise<{ addresses: Address[]; countries: Country[] }>;
  /** Adds an address, or updates the one `contactMechId` names. */
  saveAddress(
    input: Record<AddressField | 'contactMechId' | 'isDefaultShipping' | 'isDefaultBilling', string>,
  ): Promise<{ ok: true; message: string } | FormOutcome<AddressField>>;
  /** The signed-in shopper's saved cards, and addresses to bill them to. */
  cards(): Promise<{ cards: SavedCard[]; addresses: Address[] }>;
  /** Saves a new card through the payment provider. */
  addCard(
    input: Record<CardField | 'billingContactMechId', string>,
  ): Promise<{ ok: true; message: string } | FormOutcome<CardField>>;
  removeCard(paymentMethodId: string): Promise<{ ok: true; message: string } | FormOutcome<never>>;
  removeAddress(contactMechId: string): Promise<{ ok: true; message: string } | FormOutcome<never>>;
  /** Ends the request's session; `cookie` clears it in the browser. */
  /** `cookie: null` when the post was refused (no CSRF token): the session stays. */
  logout(): Promise<{ cookie: string | null }>;
}

export type FormOutcome<F extends string> = {
  ok: false;
  status: 400 | 401 | 403 | 404 | 409 | 422 | 429;
  message: string;
  fieldErrors: Partial<Record<F, string>>;
};

export interface Country {
  geoId: string;
  name: string;
  regions: { geoId: string; name: string }[];
}

export type CardField = 'cardNumber' | 'cvc' | 'expMonth' | 'expYear' | 'nameOnCard' | 'billingContactMechId';

export type RegisterField = 'firstName' | 'lastName' | 'email' | 'password';
export type RegisterOutcome = { ok: true; message: string; cookies: string[] } | FormOutcome<RegisterField | 'phone'>;

export type LoginOutcome = { ok: true; user: SessionUser; cookies: string[] } | FormOutcome<'email' | 'password'>;

export type ContactResult = { ok: true } | FormOutcome<'name' | 'email' | 'message'>;

export interface PageLoadContext {
  /**
   * MERGE: the dashboard's page functions join the shopper's here until StorefrontApi is assembled
   * from page modules (then `StorefrontApi extends DashboardPages`): storefront.api.ts still
   * promises a whole StorefrontApi, so StorefrontApi cannot extend it in this branch.
   */
  api: StorefrontApi & DashboardPages;
  /** The token every form posts back in its hidden `_csrf` field. */
  csrfToken: string;
  /** Per-response CSP nonce for the scripts React Router writes inline. */
  nonce: string;
  requestId: string;
}

export type CartAction =
  | { intent: 'add'; productId: string; quantity: string; selections?: Record<string, string> }
  | { intent: 'update'; lineId: string; quantity: string }
  | { intent: 'remove'; lineId: string }
  | { intent: 'promo'; promoCode: string }
  | { intent: 'remove-promo' }
  | { intent: 'empty' }
  /** "Buy again": the lines of one of the signed-in shopper's orders. */
  | { intent: 'reorder'; orderId: string };

/** `cookies` carries a new guest cart's cookie. */
export type CartActionOutcome =
  | { ok: true; message: string; cookies: string[] }
  | FormOutcome<'quantity' | 'promoCode' | 'selections'>;

export type WishlistAction = { intent: 'add' | 'remove' | 'move-to-cart'; productId: string };
export type WishlistActionOutcome = { ok: true; message: string } | FormOutcome<'productId'>;

export interface CheckoutView {
  cart: Cart;
  shippingMethods: ShippingRate[];
  quote: Quote;
  countries: Country[];
  signedIn: boolean;
  email: string | null;
  addresses: Address[];
  cards: SavedCard[];
  /** The method the totals are for. */
  shippingMethodId: string | null;
  /** PayPal is offered (the platform has PayPal credentials). */
  paypal: boolean;
  /** Where the rates and tax shown are for. */
  destination: { countryGeoId: string; stateProvinceGeoId: string | null };
}

export type CheckoutField =
  | 'shipToContactMechId'
  | 'email'
  | 'toName'
  | 'address1'
  | 'address2'
  | 'city'
  | 'postalCode'
  | 'countryGeoId'
  | 'stateProvinceGeoId'
  | 'phone'
  | 'shippingMethodId'
  | 'cardNumber'
  | 'cvc'
  | 'expMonth'
  | 'expYear'
  | 'nameOnCard'
  | 'paymentMethodId';

/** Paid and placed, or (PayPal) on the way to PayPal's approval page. */
export type PlaceOrderOutcome =
  | { ok: true; order: Order; approveUrl?: undefined }
  | { ok: true; approveUrl: string; order?: undefined }
  | FormOutcome<CheckoutField>;

export type ReturnField = 'lines' | 'reason' | 'note';
export interface ReturnFormInput {
  orderId: string;
  key: string | null;
  reason: string;
  note: string;
  /** Quantities as the form sent them; lines left at 0 are not returned. */
  lines: { lineNo: number; quantity: string }[];
}

export type ReviewField = 'rating' | 'title' | 'text';
