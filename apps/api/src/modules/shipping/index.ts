export { type Destination, type RatedCart, shippingRate, zoneMatch, zonesFor } from './rate-table';
export { shippingModule } from './shipping.module';
export type { ShippingService } from './shipping.service';
export { addStartingShippingMethods } from './starting-shipping';
