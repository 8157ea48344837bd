/** Money travels as integer minor units plus an ISO 4217 code; never as a float. */
export interface Money {
  amount: number;
  currency: string;
}

const formatters = new Map<string, Intl.NumberFormat>();

export function formatMoney(amountMinor: number, currency: string, locale = 'en-US'): string {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formatters.set(key, f);
  }
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(amountMinor / 10 ** digits);
}
