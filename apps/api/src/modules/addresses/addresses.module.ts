import { defineModule } from '../../lib/module';
import { addressesPages } from './addresses.pages';
import { addressesRoutes } from './addresses.routes';
import { type AddressesService, createAddressesService } from './addresses.service';

declare module '../../lib/module' {
  interface ModuleServices {
    addresses: { addresses: AddressesService };
  }
}

export const addressesModule = defineModule({
  name: 'addresses',
  needs: [],
  create: ({ db }) => ({ addresses: createAddressesService(db) }),
  routes: (app, { addresses }) => app.register(addressesRoutes, { addresses }),
  pages: ({ addresses }) => [addressesPages({ addresses })],
});
