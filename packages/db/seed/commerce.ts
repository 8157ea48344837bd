import type * as schema from '../src/schema/index';
import { STARTING_TAX_RATES } from '../src/starting-taxes';

/**
 * What each demo store needs to sell: shipping methods, tax rates and promo codes (listed in the
 * README). Amounts are integer cents (the stores sell in USD).
 */
type Zone = Omit<typeof schema.shippingZones.$inferInsert, 'tenantId'>;
type Shipping = Omit<typeof schema.shippingMethods.$inferInsert, 'tenantId'>;
type Tax = Omit<typeof schema.taxRates.$inferInsert, 'tenantId'>;
type Promo = Omit<typeof schema.promoCodes.$inferInsert, 'tenantId'>;

const NORTH_AMERICA = ['USA', 'CAN'];

/** The demo stores' shipping zones: North America, and a list of countries further away. */
const shippingZones: Zone[] = [
  { zoneId: 'NORTH_AMERICA', name: 'North America', countries: NORTH_AMERICA, sequenceNum: 0 },
  {
    zoneId: 'INTERNATIONAL',
    name: 'International',
    countries: ['GBR', 'IRL', 'FRA', 'DEU', 'NLD', 'BEL', 'ESP', 'ITA', 'AUS', 'NZL', 'JPN', 'MEX'],
    sequenceNum: 1,
  },
];

const shipping = (freeAbove: number): Shipping[] => [
  {
    methodId: 'STANDARD',
    zoneId: 'NORTH_AMERICA',
    name: 'Standard',
    description: '3 to 5 business days',
    kind: 'weight',
    bands: [
      { upTo: 2000, rate: 695 },
      { upTo: 10000, rate: 1295 },
      { upTo: 1000000, rate: 2495 },
    ],
    freeAbove,
    handlingDays: 1,
    sequenceNum: 0,
  },
  {
    methodId: 'EXPRESS',
    zoneId: 'NORTH_AMERICA',
    name: 'Express',
    description: '1 to 2 business days',
    kind: 'flat',
    flatRate: 2495,
    sequenceNum: 1,
  },
  {
    methodId: 'INTERNATIONAL',
    zoneId: 'INTERNATIONAL',
    name: 'International',
    description: '7 to 14 business days, duties paid on delivery',
    kind: 'flat',
    flatRate: 3995,
    sequenceNum: 2,
  },
];

/** The same rates a store opened by sign-up starts with. */
const taxes: Tax[] = [...STARTING_TAX_RATES];

const promos = (prefix: string): Promo[] => [
  { code: 'WELCOME10', kind: 'percent', value: 10, description: '10% off your order' },
  {
    code: `${prefix}SAVE20`,
    kind: 'amount',
    value: 2000,
    description: '$20 off orders of $150 or more',
    minSubtotal: 15000,
  },
  {
    code: 'ONCE15',
    kind: 'percent',
    value: 15,
    description: '15% off, once per customer',
    perCustomerLimit: 1,
  },
  { code: 'EXPIRED5', kind: 'percent', value: 5, description: 'Last season', endsAt: new Date('2024-01-01T00:00:00Z') },
];

export function commerceSeed(prefix: string) {
  return {
    shippingZones,
    shipping: shipping(prefix === 'PWR' ? 25000 : 9900),
    taxes,
    promos: promos(prefix),
  };
}
