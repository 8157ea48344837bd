import { defineModule } from '../../lib/module';
import { promotionsPages } from './promotions.pages';
import { promotionsRoutes } from './promotions.routes';
import { createPromotionsService, type PromotionsService } from './promotions.service';

declare module '../../lib/module' {
  interface ModuleServices {
    promotions: { promotions: PromotionsService };
  }
}

export const promotionsModule = defineModule({
  name: 'promotions',
  needs: ['audit'],
  create: ({ db }, { audit }) => ({ promotions: createPromotionsService(db, { audit }) }),
  routes: (app, { promotions }) => app.register(promotionsRoutes, { promotions }),
  pages: ({ promotions }, { db }) => [promotionsPages({ db, promotions })],
});
