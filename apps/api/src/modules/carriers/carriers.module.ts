import { defineModule } from '../../lib/module';
import { carrierPages } from './carriers.pages';
import { carrierRoutes } from './carriers.routes';
import { type CarriersService, createCarriersService } from './carriers.service';
import { createLiveRates, type LiveRates } from './live-rates';

declare module '../../lib/module' {
  interface ModuleServices {
    /** A store's UPS and FedEx accounts (settings) and the live rates checkout lists beside its table rates (decision 117). */
    carriers: { carriers: CarriersService; liveRates: LiveRates };
  }
}

export const carriersModule = defineModule({
  name: 'carriers',
  needs: ['audit'],
  create({ db, config, events, secrets, log }, { audit }) {
    const baseUrls = {
      ups: config.UPS_BASE_URL ?? 'https://onlinetools.ups.com',
      fedex: config.FEDEX_BASE_URL ?? 'https://apis.fedex.com',
    };
    const carriers = createCarriersService(db, { audit, events, secrets, baseUrls });
    return { carriers, liveRates: createLiveRates(db, carriers, { baseUrls, log }) };
  },
  routes: (app, { carriers }) => app.register(carrierRoutes, { carriers }),
  pages: ({ carriers }, { db }) => [carrierPages({ carriers, db })],
  events: ({ liveRates }) => ({
    'settings.changed': ({ tenantId }) => liveRates.forget(tenantId),
    'events.missed': () => liveRates.clear(),
  }),
});
