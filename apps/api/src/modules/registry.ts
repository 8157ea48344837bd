// biome-ignore lint/style/noRestrictedImports: the registry sits beside the modules; lib/ is not one of them
import type { ModuleRegistry } from '../lib/module';

/**
 * Every module the app mounts, one line each (decision 081), loaded only when the app boots it (a
 * test may boot a few). Routes are registered in this order; services are built in the order
 * their `needs` require, this order breaking ties.
 */
export const MODULES = {
  health: () => import('./health/index').then((m) => m.healthModule),
  tenant: () => import('./tenant/index').then((m) => m.tenantModule),
  'store-lifecycle': () => import('./store-lifecycle/index').then((m) => m.storeLifecycleModule),
  staff: () => import('./staff/index').then((m) => m.staffModule),
  'store-access': () => import('./store-access/index').then((m) => m.storeAccessModule),
  store: () => import('./store/index').then((m) => m.storeModule),
  'store-settings': () => import('./store-settings/index').then((m) => m.storeSettingsModule),
  cms: () => import('./cms/index').then((m) => m.cmsModule),
  catalog: () => import('./catalog/index').then((m) => m.catalogModule),
  contact: () => import('./contact/index').then((m) => m.contactModule),
  newsletter: () => import('./newsletter/index').then((m) => m.newsletterModule),
  auth: () => import('./auth/index').then((m) => m.authModule),
  addresses: () => import('./addresses/index').then((m) => m.addressesModule),
  payments: () => import('./payments/index').then((m) => m.paymentsModule),
  cart: () => import('./cart/index').then((m) => m.cartModule),
  wishlist: () => import('./wishlist/index').then((m) => m.wishlistModule),
  checkout: () => import('./checkout/index').then((m) => m.checkoutModule),
  orders: () => import('./orders/index').then((m) => m.ordersModule),
  returns: () => import('./returns/index').then((m) => m.returnsModule),
  'return-admin': () => import('./return-admin/index').then((m) => m.returnAdminModule),
  reviews: () => import('./reviews/index').then((m) => m.reviewsModule),
  audit: () => import('./audit/index').then((m) => m.auditModule),
  dashboard: () => import('./dashboard/index').then((m) => m.dashboardModule),
  drafts: () => import('./drafts/index').then((m) => m.draftsModule),
  sitemap: () => import('./sitemap/index').then((m) => m.sitemapModule),
  marketplace: () => import('./marketplace/index').then((m) => m.marketplaceModule),
  'cancel-request': () => import('./cancel-request/index').then((m) => m.cancelRequestModule),
  'catalog-admin': () => import('./catalog-admin/index').then((m) => m.catalogAdminModule),
  mail: () => import('./mail/index').then((m) => m.mailModule),
  products: () => import('./products/index').then((m) => m.productsModule),
  media: () => import('./media/index').then((m) => m.mediaModule),
  banners: () => import('./banners/index').then((m) => m.bannersModule),
  'product-admin': () => import('./product-admin/index').then((m) => m.productAdminModule),
  inventory: () => import('./inventory/index').then((m) => m.inventoryModule),
  promotions: () => import('./promotions/index').then((m) => m.promotionsModule),
  'order-admin': () => import('./order-admin/index').then((m) => m.orderAdminModule),
  'product-list': () => import('./product-list/index').then((m) => m.productListModule),
  'order-list': () => import('./order-list/index').then((m) => m.orderListModule),
  customers: () => import('./customers/index').then((m) => m.customersModule),
  'product-import': () => import('./product-import/index').then((m) => m.productImportModule),
  'paypal-seller': () => import('./paypal-seller/index').then((m) => m.paypalSellerModule),
  'paypal-webhooks': () => import('./paypal-webhooks/index').then((m) => m.paypalWebhooksModule),
  jobs: () => import('./jobs/index').then((m) => m.jobsModule),
  operator: () => import('./operator/index').then((m) => m.operatorModule),
} satisfies ModuleRegistry;
