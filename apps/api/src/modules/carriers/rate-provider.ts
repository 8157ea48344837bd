import type { Carrier } from '@app/contracts';

/**
 * The rate-provider port (decision 117): what checkout needs from a parcel carrier, whichever it is.
 * A client is built per account (its credentials and account number) and keeps its OAuth token.
 * Every call answers a typed outcome; nothing a carrier does (slow, down, refusing) throws past it.
 */
export interface Address {
  /** ISO 3166 alpha-2, as carriers name countries. */
  countryCode: string;
  /** The region's code within the country (US_CA: "CA"), when the address has one. */
  stateCode?: string | undefined;
  postalCode?: string | undefined;
  city?: string | undefined;
  addressLine?: string | undefined;
}

/** One box: the cart's weight in the store's default box. */
export interface Parcel {
  weightGrams: number;
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

/** A service the carrier quoted: its own code and the charge in minor units of `currency`. */
export interface QuotedService {
  code: string;
  amount: number;
  currency: string;
  /** Business days in transit when the carrier says (UPS's GuaranteedDelivery.BusinessDaysInTransit); else absent. */
  transitDays?: number;
}

export type RateOutcome =
  | { kind: 'rates'; services: QuotedService[] }
  /** `refused`: the carrier turned the credentials down; `timeout`, `error`: try again later. */
  | { kind: 'unavailable'; reason: 'timeout' | 'error' | 'refused'; detail?: string };

/** What the carrier said to a client id and secret: a token (they work), a refusal, or nothing usable. */
export type AuthOutcome = 'ok' | 'refused' | 'unreachable';

export interface RateProvider {
  readonly carrier: Carrier;
  authenticate(): Promise<AuthOutcome>;
  rate(origin: Address, parcel: Parcel, destination: Address): Promise<RateOutcome>;
}

export interface CarrierCredentials {
  clientId: string;
  clientSecret: string;
  accountNumber: string;
}

export interface ClientOptions {
  baseUrl: string;
  /** Each call to the carrier gives up after this long (default 2.5 s): checkout then lists table rates. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

/** "12.48" to 1248: the carrier's decimal string read as integer minor units, never through a float. */
export function decimalToMinor(value: unknown): number | null {
  const s = typeof value === 'number' ? value.toFixed(2) : value;
  if (typeof s !== 'string') return null;
  const m = /^\s*(\d{1,7})(?:\.(\d{1,2})\d*)?\s*$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Grams to whole pounds' tenths, rounded up (a carrier bills the started tenth), at least 0.1 lb. */
export function poundsOf(grams: number): string {
  const tenths = Math.max(1, Math.ceil((grams / 453.59237) * 10));
  return (tenths / 10).toFixed(1);
}
