import type { AccessMode } from './access-mode';
import type { Address } from './addresses';
import type { SavedCard } from './cards';
import type { Cart } from './cart';
import type { MainData } from './catalog';
import type { Order, Quote, ShippingRate } from './checkout';
import type { CmsPage, SeoMetaEntry, StoreDetails } from './store';

/** Everything the storefront frame needs, resolved on the server for the request's host. */
export interface ShellData {
  tenant: {
    tenantId: string;
    productStoreId: string;
    hostName: string;
    viaDevAlias: boolean;
    isWs2Public: boolean;
    /** Who may see the store (decision 105). */
    accessMode: AccessMode;
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
  /** The product's rules stores the user type as partyId; 'admin' sees Manage Store. */
  partyId: 'admin' | 'staff' | 'shopper';
  userLoginId: string;
}

export type FormOutcome<F extends string> = {
  ok: false;
  status: 400 | 401 | 403 | 404 | 409 | 422 | 429;
  message: string;
  fieldErrors: Partial<Record<F, string>>;
  /** The refusal's stable code (errors.ts), when the page acts on it (a login waiting for confirmation). */
  code?: string;
};

export interface Country {
  geoId: string;
  name: string;
  regions: { geoId: string; name: string }[];
}

export type CardField = 'cardNumber' | 'cvc' | 'expMonth' | 'expYear' | 'nameOnCard' | 'billingContactMechId';

export type RegisterField = 'firstName' | 'lastName' | 'email' | 'password';
export type RegisterOutcome = { ok: true; message: string } | FormOutcome<RegisterField | 'phone'>;

export type LoginOutcome = { ok: true; user: SessionUser; cookies: string[] } | FormOutcome<'email' | 'password'>;

export type ContactResult = { ok: true } | FormOutcome<'name' | 'email' | 'message'>;

export type CartAction =
  /** `variantId` names the variant chosen (decision 112); `productId` alone, a product with one. */
  | { intent: 'add'; productId: string; variantId?: string; quantity: string; selections?: Record<string, string> }
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
  /** "Pay with card (Stripe)" is offered: the store connected its own Stripe account (decision 118). */
  stripe?: boolean;
  /** The built-in test provider's card form is offered (not once a live Stripe key is connected). */
  testCards?: boolean;
  /** Where the rates and tax shown are for. */
  destination: { countryGeoId: string; stateProvinceGeoId: string | null; postalCode: string | null };
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
  | 'paymentMethodId'
  /** Refusals at Place order shown in the summary: the cart's promo code, and its lines (out of stock). */
  | 'promoCode'
  | 'lines';

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
