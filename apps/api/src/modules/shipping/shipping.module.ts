import { defineModule } from '../../lib/module';
import { shippingPages } from './shipping.pages';
import { shippingRoutes } from './shipping.routes';
import { createShippingService, type ShippingService } from './shipping.service';
import { createShippingTables, type ShippingTables } from './shipping-tables';

declare module '../../lib/module' {
  interface ModuleServices {
    /** The owner's shipping zones and methods; `shipping.ratesFor` is what checkout lists and charges. */
    shipping: { shipping: ShippingService; shippingTables: ShippingTables };
  }
}

export const shippingModule = defineModule({
  name: 'shipping',
  needs: ['audit', 'drafts'],
  create({ db, events }, { audit, drafts }) {
    const shippingTables = createShippingTables(db);
    // The shipping draft kind registers with the drafts service here (decision 120).
    return { shipping: createShippingService(db, { audit, events, drafts, tables: shippingTables }), shippingTables };
  },
  routes: (app, { shipping }) => app.register(shippingRoutes, { shipping }),
  pages: ({ shipping, drafts }, { db }) => [shippingPages({ db, shipping, drafts })],
  events: ({ shippingTables }) => ({
    'settings.changed': ({ tenantId }) => shippingTables.forget(tenantId),
    'events.missed': () => shippingTables.clear(),
  }),
});
