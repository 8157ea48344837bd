import { defineModule } from '../../lib/module';
import { type ActorResolver, createActorResolver } from './actor';
import { authPages } from './auth.pages';
import { authRoutes } from './auth.routes';
import { type AuthService, createAuthService } from './auth.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** Accounts and sessions; `resolveActor` says who acts on each request. Every app boots it. */
    auth: { auth: AuthService; resolveActor: ActorResolver };
  }
}

export const authModule = defineModule({
  name: 'auth',
  needs: ['mail', 'store'],
  // A guest's cart and wishlist follow them when they sign in, when the shop has those modules.
  // The store's access mode decides whether sign-up is open and how a new account starts (decision 105).
  optional: ['cart', 'wishlist', 'operator', 'store-access'],
  create({ db, log, config, sessionSecret, linkOrigin }, { mailer, store }, later) {
    const auth = createAuthService(db, {
      mailer,
      store,
      log,
      secret: sessionSecret,
      // Tests make many failed logins on purpose; waiting out the slow-down would only make them slow.
      slowDown: config.NODE_ENV !== 'test',
      loginPerIp: config.LOGIN_ATTEMPTS_PER_IP,
      linkOrigin,
      registration: () => later().access?.policy,
    });
    const resolveActor = createActorResolver(auth, {
      guestCartToken: (headers) => later().guestCartToken?.(headers) ?? null,
      resolveSupport: async (tenant, token) => (await later().supportAccess?.resolve(tenant, token)) ?? null,
    });
    return { auth, resolveActor };
  },
  routes: (app, { auth, mergeGuestCart }) => app.register(authRoutes, { auth, afterLogin: mergeGuestCart }),
  pages: ({ auth, mergeGuestCart, carryWishlist }) => [
    authPages({
      auth,
      async afterLogin(page, userId, carried) {
        const cookies = (await mergeGuestCart?.(page.ctx, page.headers, userId)) ?? [];
        await carryWishlist?.(page.ctx, userId, carried.wishlistProductId);
        return cookies;
      },
    }),
  ],
});
