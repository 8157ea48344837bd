export { carriersModule } from './carriers.module';
export type { CarriersService } from './carriers.service';
export { isLiveRateId, type LiveRates, withMarkup } from './live-rates';
