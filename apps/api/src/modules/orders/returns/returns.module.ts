import { defineModule } from '../../../lib/module';
import { returnsPages } from './returns.pages';
import { returnsRoutes } from './returns.routes';
import { createReturnsService, orderReturns, type ReturnsService } from './returns.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    /** A shopper's returns; `orderReturns` reads an order's returns for the orders module. */
    returns: { returns: ReturnsService; orderReturns: typeof orderReturns };
  }
}

export const returnsModule = defineModule({
  name: 'returns',
  needs: ['orders', 'mail'],
  create: ({ db, log, linkOrigin }, { orders, mailer }) => ({
    returns: createReturnsService(db, { orders, mailer, log, linkOrigin }),
    orderReturns,
  }),
  routes: (app, { returns }) => app.register(returnsRoutes, { returns }),
  pages: ({ returns }) => [returnsPages({ returns })],
});
