import type { Cart, Quote, ShippingRate } from '@app/contracts';
import type { schema } from '@app/db';

type Method = typeof schema.shippingMethods.$inferSelect;
type TaxRate = typeof schema.taxRates.$inferSelect;

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
export function taxRateFor(rates: TaxRate[], countryGeoId: string, region: string | null | undefined) {
  return (
    rates.find((r) => r.countryGeoId === countryGeoId && r.regionGeoId === (region ?? '')) ??
    rates.find((r) => r.countryGeoId === countryGeoId && r.regionGeoId === '') ??
    null
  );
}

/**
 * The order's totals in integer minor units. Tax is rounded once, on the taxable sum (half away
 * from zero), so the parts always add up to the total.
 */
export function quote(
  cart: Pick<Cart, 'currency' | 'subtotal' | 'discount' | 'total'>,
  shipping: number,
  tax: TaxRate | null,
): Quote {
  const taxable = cart.total + (tax?.taxShipping ? shipping : 0);
  const taxAmount = tax ? Math.round((taxable * tax.rateBasisPoints) / 10000) : 0;
  return {
    currency: cart.currency,
    subtotal: cart.subtotal,
    discount: cart.discount,
    shipping,
    tax: taxAmount,
    taxLabel: tax && tax.rateBasisPoints > 0 ? tax.label : null,
    total: cart.total + shipping + taxAmount,
  };
}
