import type { Cart, Quote, TaxClass } from '@app/contracts';
import { computeTax, type TaxRule } from '../../tax/index';

/** The region's rate, else the country's, else none. */
export function taxRateFor<R extends { countryGeoId: string; regionGeoId: string }>(
  rates: R[],
  countryGeoId: string,
  region: string | null | undefined,
): R | null {
  return (
    rates.find((r) => r.countryGeoId === countryGeoId && r.regionGeoId === (region ?? '')) ??
    rates.find((r) => r.countryGeoId === countryGeoId && r.regionGeoId === '') ??
    null
  );
}

/**
 * The destination's tax rule with the store's settings: a rate row (decision 070) is one, and taxes
 * prices entered without tax, every line at the standard rate, as before tax settings existed.
 */
export type QuoteTax = TaxRule & { pricesIncludeTax?: boolean };

/** A cart as the quote reads it; a line without a class is in the standard one. */
export type QuoteCart = Pick<Cart, 'currency' | 'subtotal' | 'discount' | 'total'> & {
  lines?: readonly { lineTotal: number; taxClass?: TaxClass }[];
};

/**
 * The order's totals in integer minor units (decision 116). Tax is rounded once per class group
 * (`computeTax`), so the parts always add up to the total. Prices without tax add it; prices with
 * tax hold it, and the shopper pays the shelf price.
 */
export function quote(cart: QuoteCart, shipping: number, tax: QuoteTax | null): Quote {
  // Lines that do not add up to the subtotal cannot be split by class: the whole is standard.
  const lines =
    cart.lines?.length && cart.lines.reduce((s, l) => s + l.lineTotal, 0) === cart.subtotal
      ? cart.lines.map((l) => ({ amount: l.lineTotal, taxClass: l.taxClass ?? ('standard' as const) }))
      : [{ amount: cart.subtotal, taxClass: 'standard' as const }];
  const included = tax?.pricesIncludeTax ?? false;
  const { tax: taxAmount } = computeTax({
    lines,
    discount: cart.discount,
    shipping,
    rule: tax,
    pricesIncludeTax: included,
  });
  return {
    currency: cart.currency,
    subtotal: cart.subtotal,
    discount: cart.discount,
    shipping,
    tax: taxAmount,
    taxLabel: tax && tax.rateBasisPoints > 0 ? tax.label : null,
    taxIncluded: included,
    total: cart.total + shipping + (included ? 0 : taxAmount),
  };
}
