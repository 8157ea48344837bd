// The zod-free part of the tax contracts (decision 116), for browser code too.

/** The tax classes a product can be in (decision 116); exempt goods are never taxed. */
export const TAX_CLASSES = ['standard', 'reduced', 'exempt'] as const;
export type TaxClass = (typeof TAX_CLASSES)[number];
export const TAX_CLASS_LABELS: Record<TaxClass, string> = {
  standard: 'Standard rate',
  reduced: 'Reduced rate',
  exempt: 'Exempt (no tax)',
};

/** Percent text for basis points: 725 is "7.25 %". */
export const basisPointsText = (bp: number) => `${(bp / 100).toFixed(2).replace(/\.?0+$/, '')} %`;

/**
 * A percentage as a person types it ("7.25", "13", "0") in basis points; null when it is not one
 * (more than two decimals, a sign, an exponent, above 100).
 */
export function percentToBasisPoints(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}

/** Basis points as the form shows them: 725 is "7.25", 1300 is "13". */
export const basisPointsPercent = (bp: number) => (bp / 100).toFixed(2).replace(/\.?0+$/, '');
