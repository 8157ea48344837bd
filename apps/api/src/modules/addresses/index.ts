export { addressesModule } from './addresses.module';
export { addressesPages } from './addresses.pages';
export { addressesRoutes } from './addresses.routes';
export { type AddressesService, checkPlace, createAddressesService } from './addresses.service';
