import { createHash } from 'node:crypto';
import { basisPointsText, type TaxRate, type TaxSettings, taxRateSchema, taxSettingsSchema } from '@app/contracts';
import { z } from 'zod';

/**
 * Tax as a draft (decision 120, as shipping): the settings and every rate, as the owner's read shows
 * them, plus a fingerprint of the live state the draft was started from. Publishing compares the
 * fingerprint with what is live then: a change saved straight to live meanwhile (the API, another
 * tab) refuses the publish instead of being silently undone.
 */
export const taxDraftSchema = z.object({
  basedOn: z.string().max(100),
  settings: taxSettingsSchema,
  rates: z.array(taxRateSchema).max(500),
});
export type TaxDraft = z.infer<typeof taxDraftSchema>;

export const TAX_DRAFT_KEY = 'store';

/** The fingerprint of the settings and rates: equal states (same order, same fields) give the same text. */
export function taxFingerprint(settings: TaxSettings, rates: TaxRate[]): string {
  return createHash('sha256').update(JSON.stringify({ settings, rates })).digest('base64url');
}

function rateWords(r: TaxRate) {
  const reduced = r.reducedBasisPoints === null ? '' : `, reduced ${basisPointsText(r.reducedBasisPoints)}`;
  return `${r.label} ${basisPointsText(r.rateBasisPoints)}${reduced}, shipping ${r.taxShipping ? 'taxed' : 'not taxed'}`;
}

const pricesWords = (s: TaxSettings) => (s.pricesIncludeTax ? 'with tax included' : 'without tax');

/** What a publish changes, one sentence a change, as the audit log shows it to the owner. */
export function describeTaxChange(before: TaxDraft | null, after: TaxDraft): string[] {
  const out: string[] = [];
  const was = before?.settings ?? { pricesIncludeTax: false, taxNumber: '' };
  if (was.pricesIncludeTax !== after.settings.pricesIncludeTax)
    out.push(`Prices are entered ${pricesWords(after.settings)} (were ${pricesWords(was)}).`);
  if (was.taxNumber !== after.settings.taxNumber)
    out.push(
      after.settings.taxNumber
        ? `Tax registration number ${was.taxNumber ? `${was.taxNumber} → ` : 'set to '}${after.settings.taxNumber}.`
        : `Tax registration number ${was.taxNumber} removed.`,
    );
  const old = new Map((before?.rates ?? []).map((r) => [r.rateId, r]));
  const kept = new Set(after.rates.map((r) => r.rateId));
  for (const r of before?.rates ?? []) if (!kept.has(r.rateId)) out.push(`Removed the rate for ${r.placeName}.`);
  for (const r of after.rates) {
    const prev = old.get(r.rateId);
    if (!prev) out.push(`Added a rate for ${r.placeName}: ${rateWords(r)}.`);
    else if (rateWords(prev) !== rateWords(r)) out.push(`${r.placeName}: ${rateWords(prev)} → ${rateWords(r)}.`);
  }
  return out.length > 0 ? out : ['No change to what shoppers pay.'];
}
