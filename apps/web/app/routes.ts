import { index, layout, prefix, type RouteConfig, route } from '@react-router/dev/routes';
import { flatRoutes } from '@react-router/fs-routes';

const dashboardRoutes = flatRoutes({
  rootDirectory: 'routes/manage-store',
  // The layout route above, and code that lives beside pages without being one.
  ignoredRouteFiles: ['routes/manage-store/guard.tsx', '**/*.test.*', '**/*.server.*'],
});

// The operator console (routes/platform/operator): flat file names, like the dashboard.
const operatorRoutes = flatRoutes({
  rootDirectory: 'routes/platform/operator',
  ignoredRouteFiles: ['**/*.test.*', '**/*.server.*'],
});

/** The route table of the storefront's route rules; every route module is loaded on demand. */
export default [
  index('routes/storefront/home.tsx'),
  ...prefix('auth', [
    index('routes/auth/index.tsx'),
    route('login', 'routes/auth/login.tsx'),
    route('register', 'routes/auth/register.tsx'),
    route('forgot-password', 'routes/auth/forgot-password.tsx'),
    route('reset-password', 'routes/auth/reset-password.tsx'),
    route('confirm-email', 'routes/auth/confirm-email.tsx'),
    route('logout', 'routes/auth/logout.tsx'),
    route('staff-invitation', 'routes/auth/staff-invitation.tsx'),
    route('customer-invitation', 'routes/auth/customer-invitation.tsx'),
    route('awaiting-approval', 'routes/auth/awaiting-approval.tsx'),
  ]),
  route('categories/:categoryId', 'routes/storefront/category.tsx'),
  ...prefix('product', [
    index('routes/storefront/product-index.tsx'),
    route('search', 'routes/storefront/search-redirect.tsx'),
    route('search/:searchText', 'routes/storefront/search.tsx'),
  ]),
  route('checkout', 'routes/storefront/checkout.tsx'),
  route('checkout/paypal/return', 'routes/storefront/paypal-return.tsx'),
  route('checkout/stripe/:step', 'routes/storefront/stripe-return.tsx'),
  route('cart', 'routes/storefront/cart.tsx'),
  route('faqs', 'routes/storefront/faqs.tsx'),
  ...prefix('page', [
    index('routes/storefront/page-index.tsx'),
    route('details/:pageUrl', 'routes/storefront/page-details.tsx'),
  ]),
  route('contact', 'routes/storefront/contact.tsx'),
  ...prefix('newsletter', [
    index('routes/storefront/newsletter.tsx'),
    route('confirm', 'routes/storefront/newsletter-confirm.tsx'),
    route('unsubscribe', 'routes/storefront/newsletter-unsubscribe.tsx'),
    route('embed', 'routes/storefront/newsletter-embed.tsx'),
  ]),
  ...prefix('order', [
    index('routes/storefront/order-index.tsx'),
    route('history', 'routes/storefront/order-history.tsx'),
  ]),
  layout('routes/account/guard.tsx', [
    ...prefix('account', [
      index('routes/account/index.tsx'),
      route('profile', 'routes/account/profile.tsx'),
      route('profile/settings', 'routes/account/profile-settings.tsx'),
      route('password', 'routes/account/password.tsx'),
      route('addresses', 'routes/account/addresses.tsx'),
      route('payment-methods', 'routes/account/payment-methods.tsx'),
      route('wishlist', 'routes/account/wishlist.tsx'),
    ]),
  ]),
  // The dashboard: every file of routes/manage-store is a page (React Router's flat file names,
  // decision 021), so adding one edits no central list. The guard lets only the store's staff in
  // and draws the dashboard frame around them.
  layout('routes/manage-store/guard.tsx', prefix('manage-store', await dashboardRoutes)),
  // The platform's own host (decision 103): sign-up and the operator console, in the platform's
  // frame; on a store's host the frame's loader answers 404.
  layout('routes/platform/frame.tsx', [
    route('signup', 'routes/platform/signup.tsx'),
    route('signup/confirm', 'routes/platform/signup-confirm.tsx'),
    ...prefix('operator', await operatorRoutes),
  ]),
  route(':slug/:productId', 'routes/storefront/product.tsx'),
  route('*', 'routes/storefront/not-found.tsx'),
] satisfies RouteConfig;
