import { createHmac } from 'node:crypto';
import { defineModule } from '../../lib/module';
import { marketplacePages } from './marketplace.pages';
import { marketplaceRoutes } from './marketplace.routes';
import { createMarketplaceService, type MarketplaceService } from './marketplace.service';

declare module '../../lib/module' {
  interface ModuleServices {
    marketplace: { marketplace: MarketplaceService };
  }
}

// Marketplace connect and each store's product feed (decision 054).
export const marketplaceModule = defineModule({
  name: 'marketplace',
  needs: ['audit', 'tenant'],
  create: ({ db, events, secrets, secretsKey, log, linkOrigin, config }, { audit, tenants }) => ({
    marketplace: createMarketplaceService(db, {
      audit,
      events,
      secrets,
      log,
      isPublic: (tenantId) => tenants.isPublic(tenantId),
      linkOrigin,
      // Feed URL tokens are signed with a key of their own derived from SECRETS_KEY.
      feedKey: createHmac('sha256', secretsKey).update('product-feed-url').digest(),
      cacheDir: `${config.DATA_DIR}/feeds`,
    }),
  }),
  routes: (app, { marketplace }) => app.register(marketplaceRoutes, { marketplace }),
  pages: ({ marketplace }) => [marketplacePages({ marketplace })],
});
