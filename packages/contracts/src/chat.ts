/**
 * Where a store's chat widget, a third party's script, may run: never where a
 * shopper pays, signs in, or reads an account or an order, nor in the dashboard. One rule for the
 * page's Content-Security-Policy (server) and for the widget itself (browser).
 */
const CHAT_FREE_SECTIONS = new Set(['checkout', 'account', 'order', 'auth', 'manage-store']);

export function chatAllowed(pathname: string): boolean {
  let path: string;
  try {
    // The router matches decoded, case-insensitive paths: /%63heckout and /CHECKOUT are checkout.
    path = decodeURIComponent(pathname).toLowerCase();
  } catch {
    return false;
  }
  const first = path.split('/').find(Boolean) ?? '';
  if (CHAT_FREE_SECTIONS.has(first.replace(/\.data$/, ''))) return false;
  // The storefront's route rules treats any route containing /auth as an auth screen.
  return !path.includes('/auth');
}
