/**
 * The fields of a postal address as forms post them, in form order: the address book, checkout and
 * the API's shipTo name them alike. Zod-free, for browser code too.
 */
export const ADDRESS_FIELDS = [
  'toName',
  'address1',
  'address2',
  'city',
  'postalCode',
  'countryGeoId',
  'stateProvinceGeoId',
  'phone',
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
