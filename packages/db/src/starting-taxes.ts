import type * as schema from './schema/index';

type Rate = Omit<typeof schema.taxRates.$inferInsert, 'tenantId'>;

/**
 * The tax rates a store starts with: the demo stores' (the seed) and every store sign-up opens,
 * which sells in USD and ships to the United States and Canada from its first day. The owner
 * edits them in Settings, Taxes; they are a start, not advice (rates change, nexus varies).
 */
export const STARTING_TAX_RATES: readonly Rate[] = [
  { countryGeoId: 'USA', regionGeoId: 'US_CA', label: 'CA sales tax', rateBasisPoints: 725 },
  { countryGeoId: 'USA', regionGeoId: 'US_NY', label: 'NY sales tax', rateBasisPoints: 400 },
  { countryGeoId: 'USA', regionGeoId: 'US_TX', label: 'TX sales tax', rateBasisPoints: 625 },
  { countryGeoId: 'USA', regionGeoId: 'US_WA', label: 'WA sales tax', rateBasisPoints: 650 },
  { countryGeoId: 'USA', regionGeoId: 'US_OR', label: 'No sales tax', rateBasisPoints: 0 },
  { countryGeoId: 'CAN', regionGeoId: '', label: 'GST', rateBasisPoints: 500, taxShipping: true },
  { countryGeoId: 'CAN', regionGeoId: 'CA_ON', label: 'HST', rateBasisPoints: 1300, taxShipping: true },
];
