import type { Cart, Quote, ShippingRate, TaxClass } from '@app/contracts';
import type { schema } from '@app/db';
import { computeTax, type TaxRule } from '../../tax/index';

type Method = typeof schema.shippingMethods.$inferSelect;

/** Whether a method ships to a country (`countries` null: everywhere). */
export const shipsTo = (m: Method, countryGeoId: string) => !m.countries || m.countries.includes(countryGeoId);

/**
 * What a method charges for a cart: a flat rate, or the first weight bracket that holds the goods
 * (the last bracket when heavier still); nothing once the discounted subtotal reaches `freeAbove`.
 */
export function shippingRate(m: Method, cart: Pick<Cart, 'total' | 'weightGrams'>): ShippingRate {
  let rate = m.flatRate;
  if (m.kind === 'weight') {
    const table = [...(m.weightTable ?? [])].sort((a, b) => a.upToGrams - b.upToGrams);
    rate = (table.find((b) => cart.weightGrams <= b.upToGrams) ?? table.at(-1))?.rate ?? 0;
  }
  const free = m.freeAbove !== null && cart.total >= m.freeAbove;
  return {
    methodId: m.methodId,
    name: m.name,
    description: m.description,
    rate: free ? 0 : rate,
    freeAbove: m.freeAbove !== null && !free ? m.freeAbove - cart.total : null,
  };
}

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
