import type { TaxClass } from '@app/contracts';

/**
 * The tax arithmetic of checkout and refunds (decision 116), pure and in integer minor units. A
 * destination's rule: the standard rate, the reduced one (null: reduced goods pay the standard rate)
 * and whether shipping is taxed (at the standard rate).
 */
export interface TaxRule {
  label: string;
  rateBasisPoints: number;
  reducedBasisPoints?: number | null;
  taxShipping: boolean;
}

export interface TaxGroup {
  taxClass: TaxClass;
  rateBasisPoints: number;
  /** What the class is taxed on, after its share of the discount (and shipping, for standard). */
  base: number;
  tax: number;
}

export interface TaxResult {
  tax: number;
  /** The prices held the tax: it is inside the total, not added to it. */
  included: boolean;
  groups: TaxGroup[];
}

const CLASSES: readonly TaxClass[] = ['standard', 'reduced', 'exempt'];

/** The rate a class pays under a rule; exempt goods pay none. */
export function rateOf(rule: TaxRule, taxClass: TaxClass): number {
  if (taxClass === 'exempt') return 0;
  if (taxClass === 'reduced') return rule.reducedBasisPoints ?? rule.rateBasisPoints;
  return rule.rateBasisPoints;
}

/**
 * Splits `total` over `weights` in proportion, in integers that add up to `total` exactly (largest
 * remainder; ties go to the earlier weight, so the split is the same every time).
 */
export function spread(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0 || total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map((x) => Math.floor(x));
  let left = total - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

/**
 * The tax of an order. Lines are grouped by class; the discount is spread over the classes in
 * proportion to their goods; shipping, when taxed, joins the standard group. Each group is rounded
 * once (half up): exclusive prices add `base * r / 10000`, inclusive prices hold
 * `base * r / (10000 + r)`. A cart all in the standard class gives exactly the tax of one rounding
 * on the taxable sum, as orders were taxed before classes existed.
 */
export function computeTax(input: {
  lines: readonly { amount: number; taxClass: TaxClass }[];
  discount: number;
  shipping: number;
  rule: TaxRule | null;
  pricesIncludeTax: boolean;
}): TaxResult {
  const included = input.pricesIncludeTax;
  const { rule } = input;
  if (!rule) return { tax: 0, included, groups: [] };
  const gross = CLASSES.map((c) => input.lines.filter((l) => l.taxClass === c).reduce((s, l) => s + l.amount, 0));
  const goods = gross.reduce((s, g) => s + g, 0);
  const discounts = spread(Math.min(Math.max(0, input.discount), goods), gross);
  const groups: TaxGroup[] = [];
  CLASSES.forEach((taxClass, i) => {
    let base = (gross[i] ?? 0) - (discounts[i] ?? 0);
    if (taxClass === 'standard' && rule.taxShipping) base += input.shipping;
    if ((gross[i] ?? 0) <= 0 && !(taxClass === 'standard' && rule.taxShipping && input.shipping > 0)) return;
    const r = rateOf(rule, taxClass);
    const tax = included ? Math.round((base * r) / (10000 + r)) : Math.round((base * r) / 10000);
    groups.push({ taxClass, rateBasisPoints: r, base, tax });
  });
  return { tax: groups.reduce((s, g) => s + g.tax, 0), included, groups };
}

/** An order's money as refunds read it. */
export interface RefundableOrder {
  subtotal: number;
  discount: number;
  taxTotal: number;
  taxIncluded: boolean;
}

/**
 * What the shopper paid for `goods` (line prices times quantities) of an order: the goods less their
 * share of the discount, plus their share of the tax when it was added on top (inclusive prices
 * already hold it).
 */
export function goodsPaid(order: RefundableOrder, goods: number): number {
  if (order.subtotal <= 0) return goods;
  const discount = Math.round((order.discount * goods) / order.subtotal);
  const tax = order.taxIncluded ? 0 : Math.round((order.taxTotal * goods) / order.subtotal);
  return Math.max(0, goods - discount + tax);
}

/**
 * The tax inside a refund of `amount`: the order's tax in proportion to the amount, and on the refund
 * that gives back the last of what was captured, the rest of the tax, so that the refunds of an order
 * refunded in full give back exactly the tax it charged.
 */
export function refundTaxShare(
  order: { capturedAmount: number; taxTotal: number },
  amount: number,
  before: { amount: number; tax: number },
): number {
  const taxLeft = Math.max(0, order.taxTotal - before.tax);
  if (order.capturedAmount <= 0) return 0;
  if (before.amount + amount >= order.capturedAmount) return Math.min(amount, taxLeft);
  return Math.min(amount, taxLeft, Math.round((order.taxTotal * amount) / order.capturedAmount));
}
