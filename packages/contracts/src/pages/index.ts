import type { AccessPages } from '../access';
import type { CancelRequestPages } from '../cancel-request';
import type { CarrierPages } from '../carriers';
import type { CatalogAdminPages } from '../catalog-admin';
import type { ContactInboxPages } from '../contact-inbox';
import type { DashboardPages } from '../dashboard';
import type { DomainPages } from '../domains';
import type { InventoryPages } from '../inventory';
import type { MarketplacePages } from '../marketplace';
import type { OrderAdminPages } from '../order-page';
import type { PaymentIssuesPages } from '../payment-issues';
import type { PaypalSettingsPages } from '../paypal-seller';
import type { ProductEditorPages } from '../product-editor';
import type { ProductImportPages } from '../product-import';
import type { PromoCodesPages } from '../promo-codes';
import type { ReviewAdminPages } from '../review-admin';
import type { FirstRunPages } from '../signup-schemas';
import type { SitemapPages } from '../sitemap';
import type { StoreAccessPages } from '../store-access';
import type { StoreArchivePages } from '../store-archive';
import type { TaxPages } from '../tax';
import type { AddressesPages } from './addresses';
import type { AuthPages } from './auth';
import type { BannersPages, MediaPages } from './banners';
import type { CardsPages } from './cards';
import type { CartPages } from './cart';
import type { CatalogPages } from './catalog';
import type { CheckoutPages } from './checkout';
import type { CmsPages } from './cms';
import type { ContactPages } from './contact';
import type { CustomersPages } from './customers';
import type { DraftsPages } from './drafts';
import type { NewsletterPages } from './newsletter';
import type { SupportAccessPages } from './operator-console';
import type { OrderListPages } from './order-list';
import type { OrdersPages } from './orders';
import type { PaypalSellerPages } from './paypal-seller';
import type { PlatformPageApi } from './platform';
import type { ProductListPages } from './product-list';
import type { ReturnAdminPages } from './return-admin';
import type { ReturnsPages } from './returns';
import type { ReviewsPages } from './reviews';
import type { ShellPages } from './shell';
import type { ShippingPages } from './shipping';
import type { StoreLifecyclePages } from './store-lifecycle';
import type { StoreSettingsPages } from './store-settings';
import type { WishlistPages } from './wishlist';

export type {
  AddressesPages,
  AuthPages,
  BannersPages,
  CardsPages,
  CartPages,
  CatalogPages,
  CheckoutPages,
  CmsPages,
  ContactPages,
  CustomersPages,
  DraftsPages,
  MediaPages,
  NewsletterPages,
  OrderListPages,
  OrdersPages,
  PaypalSellerPages,
  ProductListPages,
  ReturnAdminPages,
  ReturnsPages,
  ReviewsPages,
  ShellPages,
  StoreLifecyclePages,
  StoreSettingsPages,
  WishlistPages,
};

/**
 * What the page server hands to React Router loaders as `context.api`: every domain's page
 * functions, bound to the request's store and actor. Each domain declares its own interface in
 * this folder; a new area of pages adds a file and one line here.
 */
export interface PageApi
  extends ShellPages,
    CatalogPages,
    AuthPages,
    CartPages,
    CheckoutPages,
    OrdersPages,
    ReturnsPages,
    ReviewsPages,
    WishlistPages,
    ContactPages,
    CustomersPages,
    NewsletterPages,
    AddressesPages,
    CardsPages,
    DashboardPages,
    DraftsPages,
    BannersPages,
    MediaPages,
    AccessPages,
    StoreAccessPages,
    SitemapPages,
    CancelRequestPages,
    CmsPages,
    StoreSettingsPages,
    ProductEditorPages,
    CatalogAdminPages,
    InventoryPages,
    ReturnAdminPages,
    OrderAdminPages,
    ProductListPages,
    ProductImportPages,
    PromoCodesPages,
    ReviewAdminPages,
    ContactInboxPages,
    CarrierPages,
    OrderListPages,
    PaymentIssuesPages,
    MarketplacePages,
    PaypalSellerPages,
    PaypalSettingsPages,
    FirstRunPages,
    StoreLifecyclePages,
    ShippingPages,
    SupportAccessPages {}

/** The Taxes page (decision 116), merged into PageApi. */
export interface PageApi extends TaxPages, StoreArchivePages {}

/** The Domains page (decision 121), merged into PageApi. */
export interface PageApi extends DomainPages {}

/** The former name of PageApi, which the web app's loaders know it by. */
export type StorefrontApi = PageApi;

export interface PageLoadContext {
  api: PageApi;
  /**
   * The platform's page functions on the platform's own host (sign-up, operator console), where
   * `api` answers 404 for everything, as for a host without a store; null on every store's host.
   */
  platform: PlatformPageApi | null;
  /** The token every form posts back in its hidden `_csrf` field. */
  csrfToken: string;
  /** Per-response CSP nonce for the scripts React Router writes inline. */
  nonce: string;
  requestId: string;
}
export type { CmsDeleteResult, CmsSaveResult } from './cms';
export type { DraftActionResult } from './drafts';
export type {
  OperatorConsolePages,
  OperatorCreateStoreField,
  OperatorSignInField,
  OperatorTokenField,
  SupportAccessPages,
} from './operator-console';
export type { PaymentsPageData, SellerActionResult } from './paypal-seller';
export type { PlatformPageApi } from './platform';
export type { ReturnActionResult } from './return-admin';
export type { ShippingActionResult, ShippingFormField, ShippingPages } from './shipping';
