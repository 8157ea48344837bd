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

/**
 * The currencies stores use most, as en-US prints them: symbol, then the amount. Formatting these
 * by hand keeps `Intl` out of the browser's hydration: the first `Intl.NumberFormat` a page creates
 * loads ICU data, 25-30 ms of main thread on a desktop (four times that on a mid-range phone), for
 * a price label. money.test.ts checks every entry against `Intl` so the two cannot drift; any other
 * code goes through `Intl`.
 */
const PLAIN: Record<string, { symbol: string; digits: number }> = {
  USD: { symbol: '$', digits: 2 },
  EUR: { symbol: '€', digits: 2 },
  GBP: { symbol: '£', digits: 2 },
  CAD: { symbol: 'CA$', digits: 2 },
  AUD: { symbol: 'A$', digits: 2 },
  NZD: { symbol: 'NZ$', digits: 2 },
  MXN: { symbol: 'MX$', digits: 2 },
  HKD: { symbol: 'HK$', digits: 2 },
  INR: { symbol: '₹', digits: 2 },
  JPY: { symbol: '¥', digits: 0 },
  KRW: { symbol: '₩', digits: 0 },
};

/** "1,234": thousands grouped as en-US groups them. */
function grouped(whole: number): string {
  const digits = String(whole);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/** Digits after the decimal point for the currency (JPY 0, USD 2, KWD 3). */
export function currencyDigits(currency: string): number {
  return PLAIN[currency]?.digits ?? formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * "$1,234.50". With `trim`, whole amounts drop their zeros ("$50", not "$50.00"): for labels such as
 * price bands and option surcharges, never for a price to pay.
 */
export function formatMoney(amountMinor: number, currency: string, opts: { trim?: boolean } = {}): string {
  const digits = currencyDigits(currency);
  const scale = 10 ** digits;
  const whole = Boolean(opts.trim) && amountMinor % scale === 0;
  const plain = PLAIN[currency];
  if (plain && Number.isSafeInteger(amountMinor)) {
    const abs = Math.abs(amountMinor);
    const fraction = whole || digits === 0 ? '' : `.${String(abs % scale).padStart(digits, '0')}`;
    return `${amountMinor < 0 ? '-' : ''}${plain.symbol}${grouped(Math.floor(abs / scale))}${fraction}`;
  }
  return formatter(currency, whole).format(amountMinor / scale);
}

/** "348.99": the decimal string structured data (schema.org Offer.price) wants. */
export function decimalAmount(amountMinor: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (amountMinor / 10 ** digits).toFixed(digits);
}

/** The highest price in minor units (a hundred million in a two-digit currency). */
export const MAX_PRICE_MINOR = 10_000_000_000;

export type ParsedMoney = { ok: true; minor: number } | { ok: false; message: string };

/**
 * "12.50" in USD -> 1250; "1,299.00" -> 129900; "500" in JPY -> 500. A price is written with a
 * decimal point in the store's currency: no symbol, no more decimals than the currency has, no
 * minus. Exact (no floating point): the digits are joined as text.
 */
export function parseDecimalMoney(text: string, currency: string): ParsedMoney {
  const digits = currencyDigits(currency);
  const t = text.trim().replace(/,(?=\d{3}(\D|$))/g, '');
  const m = /^(\d{1,12})(?:\.(\d*))?$/.exec(t);
  if (!m) {
    return {
      ok: false,
      message: `"${text.trim()}" is not a price: write it like ${digits ? `12.50` : '1250'}, without a currency sign`,
    };
  }
  const whole = m[1] as string;
  const fraction = m[2] ?? '';
  if (fraction.length > digits) {
    return {
      ok: false,
      message: digits
        ? `"${text.trim()}" has more than ${digits} decimals; ${currency} has ${digits}`
        : `"${text.trim()}" has decimals; ${currency} has none`,
    };
  }
  const minor = Number(whole + fraction.padEnd(digits, '0'));
  if (minor > MAX_PRICE_MINOR) return { ok: false, message: `"${text.trim()}" is more than a price can be` };
  return { ok: true, minor };
}
