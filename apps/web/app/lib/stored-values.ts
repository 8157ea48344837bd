import type { SessionUser, ShellData } from '@app/contracts';

/**
 * the store data the clients read lists the values clients keep in browser storage. The server is the source of
 * truth (session cookie, host-resolved tenant); these mirror it for scripts and other clients.
 *
 * Written when the browser is idle, as a task of its own: serialising the store and catalog data
 * and the storage writes took ~10 ms, which used to lengthen the task that ends hydration.
 */
export function persistStoreValues(shell: ShellData, user: SessionUser | null): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(() => writeStoreValues(shell, user), { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(() => writeStoreValues(shell, user), 0);
  return () => window.clearTimeout(id);
}

function writeStoreValues(shell: ShellData, user: SessionUser | null) {
  try {
    const s = window.localStorage;
    const { store, tenant } = shell;
    const values: Record<string, string> = {
      tenantId: tenant.viaDevAlias ? 'development' : tenant.tenantId,
      productStoreId: tenant.productStoreId,
      template: store.template,
      theme: store.theme,
      primaryColor: store.themeColors.primary,
      secondaryColor: store.themeColors.secondary,
      bannerColor: store.themeColors.banner,
      actionColor: store.themeColors.action,
      promotionTitle: store.promotionTitle ?? '',
      storeLogo: store.logo.url ?? '',
      companyName: store.companyName ?? '',
      isWs2Public: String(tenant.isWs2Public),
      chatWidgetId: store.chat.dataWidgetId ?? '',
      storeData: JSON.stringify(store),
      mainData: JSON.stringify(shell.main),
      isLogin: user ? 'true' : 'false',
    };
    // An unchanged value is not written again (a write costs more than the read).
    for (const [k, v] of Object.entries(values)) if (s.getItem(k) !== v) s.setItem(k, v);
    if (user) {
      s.setItem('userFirstName', user.firstName);
      s.setItem('partyId', user.partyId);
      s.setItem('userLoginId', user.userLoginId);
    } else {
      for (const k of ['userFirstName', 'partyId', 'userLoginId', 'token']) s.removeItem(k);
    }
  } catch {
    // Storage can be full or disabled (private mode); the page works without it.
  }
}

const LOGOUT_FLASH = 'flash:logged-out';

/** Set as the Logout form submits; the next page without a user shows the logout toast once. */
export function markLogout() {
  try {
    window.sessionStorage.setItem(LOGOUT_FLASH, '1');
  } catch {
    // No storage: the shopper is logged out all the same, only without the toast.
  }
}

export function takeLogoutFlash(): boolean {
  try {
    const had = window.sessionStorage.getItem(LOGOUT_FLASH) !== null;
    window.sessionStorage.removeItem(LOGOUT_FLASH);
    return had;
  } catch {
    return false;
  }
}
