import { type AppLoadContext, data } from 'react-router';

/**
 * The frame's data (store, shopper, cart size, wishlist, CSRF token), loaded by the root route.
 * Its own file so that frame components (the post form, the newsletter form) can name its type
 * without importing root.tsx, which imports them.
 */
export async function loadFrameData(context: AppLoadContext) {
  const shell = await context.api.shell();
  if (!shell) throw data({ tenantMissing: true }, { status: 404 });
  // The wishlist's product ids (none for a guest): the header counts them and every heart reads them.
  const [user, cartSize, wishlist] = await Promise.all([
    context.api.user(),
    context.api.cartSize(),
    context.api.wishlistProductIds(),
  ]);
  return { shell, user, cartSize, wishlist, csrfToken: context.csrfToken, previewing: context.api.previewing() };
}
