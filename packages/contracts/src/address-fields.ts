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

/**
 * Postal code forms where a wrong one is a common, costly mistake (and where carriers quote by it);
 * elsewhere letters, digits, spaces and dashes, 2 to 10 of them. Keyed by the country's geo id.
 */
export const POSTAL_CODE_RULES: Record<string, { re: RegExp; example: string }> = {
  USA: { re: /^\d{5}(-\d{4})?$/, example: '94109 or 94109-1234' },
  CAN: { re: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i, example: 'K1A 0B1' },
  GBR: { re: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i, example: 'SW1A 1AA' },
  AUS: { re: /^\d{4}$/, example: '2000' },
  DEU: { re: /^\d{5}$/, example: '10115' },
  FRA: { re: /^\d{5}$/, example: '75001' },
  NLD: { re: /^\d{4} ?[A-Z]{2}$/i, example: '1012 AB' },
};
const ANY_POSTAL_CODE = /^[A-Za-z0-9 -]{2,10}$/;

/** Whether a postal code has the form of the country's (trimmed by the caller). */
export const postalCodeFits = (countryGeoId: string, code: string) =>
  (POSTAL_CODE_RULES[countryGeoId]?.re ?? ANY_POSTAL_CODE).test(code);

/**
 * One spelling per postal code (upper case, single spaces, trimmed), so "k1a0b1 " and "K1A 0B1" ask a
 * carrier the same and keep the same rates; Canada's is written with its space.
 */
export function normalPostalCode(countryGeoId: string, code: string): string {
  const upper = code.trim().toUpperCase().replace(/\s+/g, ' ');
  if (countryGeoId === 'CAN' && /^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(upper)) return `${upper.slice(0, 3)} ${upper.slice(3)}`;
  return upper;
}
