/** Money travels as integer minor units plus an ISO 4217 code; never as a float. */
export interface Money {
  amount: number;
  currency: string;
}

/**
 * Money arrives as integer minor units plus an ISO 4217 code. The locale is fixed so the server and
 * the browser print the same text (a hydration mismatch otherwise).
 */
const LOCALE = 'en-US';
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, whole = false): Intl.NumberFormat {
  const key = `${currency}|${whole}`;
  let f = formatters.get(key);
  if (!f) {
    const digits = whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
    try {
      f = new Intl.NumberFormat(LOCALE, { style: 'currency', currency, ...digits });
    } catch {
      // An unknown code must not take the page down: show the amount without the symbol.
      f = new Intl.NumberFormat(LOCALE, whole ? digits : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formatters.set(key, f);
  }
  return f;
}

/** Digits after the decimal point for the currency (JPY 0, USD 2, KWD 3). */
export function currencyDigits(currency: string): number {
  return formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * "$1,234.50". With `trim`, whole amounts drop their zeros ("$50", not "$50.00"): for labels such as
 * price bands and option surcharges, never for a price to pay.
 */
export function formatMoney(amountMinor: number, currency: string, opts: { trim?: boolean } = {}): string {
  const scale = 10 ** currencyDigits(currency);
  const whole = Boolean(opts.trim) && amountMinor % scale === 0;
  return formatter(currency, whole).format(amountMinor / scale);
}

/** "348.99": the decimal string structured data (schema.org Offer.price) wants. */
export function decimalAmount(amountMinor: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (amountMinor / 10 ** digits).toFixed(digits);
}
