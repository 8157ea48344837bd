import { defineModule } from '../../../lib/module';
import { returnAdminPages } from './return-admin.pages';
import { returnAdminRoutes } from './return-admin.routes';
import { createReturnAdminService, type ReturnAdminService } from './return-admin.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    'return-admin': { returnAdmin: ReturnAdminService };
  }
}

export const returnAdminModule = defineModule({
  name: 'return-admin',
  needs: ['audit', 'mail', 'orders'],
  create: ({ db, events, log, linkOrigin }, { audit, mailer, refunds, orders }) => ({
    returnAdmin: createReturnAdminService(db, { audit, events, mailer, refunds, orders, log, linkOrigin }),
  }),
  routes: (app, { returnAdmin }) => app.register(returnAdminRoutes, { returnAdmin }),
  pages: ({ returnAdmin }) => [returnAdminPages({ returnAdmin })],
});
