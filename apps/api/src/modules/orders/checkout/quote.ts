import type { Cart, Quote } from '@app/contracts';
import type { schema } from '@app/db';

type TaxRate = typeof schema.taxRates.$inferSelect;

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
