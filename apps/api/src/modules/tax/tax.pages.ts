import {
  percentToBasisPoints,
  type TaxFormField,
  type TaxFormResult,
  type TaxPages,
  taxClassSchema,
  taxRateIdParamsSchema,
  taxRateInputSchema,
  taxSettingsInputSchema,
} from '@app/contracts';
import { AppError } from '../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal, ok } from '../../lib/result';
import { type DraftsService, draftStatus } from '../drafts/index';
import { countryChoices } from '../geo/index';
import type { TaxService } from './tax.service';
import { TAX_DRAFT_KEY } from './tax-draft';

const FIELDS = [
  'pricesIncludeTax',
  'taxNumber',
  'countryGeoId',
  'regionGeoId',
  'label',
  'rateBasisPoints',
  'reducedBasisPoints',
  'taxShipping',
] as const satisfies readonly TaxFormField[];

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

/**
 * The form's percentages as basis points. Text that is not a percentage stays text, so the
 * contract refuses it on its field ("must be a number") rather than the page guessing a number.
 */
function percent(text: string, optional: boolean): number | string | null {
  if (optional && text.trim() === '') return null;
  return percentToBasisPoints(text) ?? text;
}

/** A rate from the add and change forms; rates typed as percentages ("7.25"). */
function rateForm(form: Record<string, string | string[]>) {
  // The dashboard names the place in one select ("USA" or "USA.US_CA"); an API-like form, by parts.
  const [country = '', region = ''] = one(form.place).split('.');
  return {
    countryGeoId: one(form.place) ? country : one(form.countryGeoId),
    regionGeoId: one(form.place) ? region : one(form.regionGeoId),
    label: one(form.label),
    rateBasisPoints: percent(one(form.rateBasisPoints), false),
    reducedBasisPoints: percent(one(form.reducedBasisPoints), true),
    taxShipping: one(form.taxShipping) === 'on',
  };
}

/** Percent fields refuse in words a person reads, not "must be a number". */
function percentMessages(outcome: Extract<TaxFormResult, { ok: false }>): TaxFormResult {
  for (const f of ['rateBasisPoints', 'reducedBasisPoints'] as const) {
    if (outcome.fieldErrors[f]) outcome.fieldErrors[f] = 'Enter a percentage from 0 to 100, such as 7.25.';
  }
  return outcome;
}

/** The dashboard's Taxes page (decision 116); the service checks the settings permission. */
export function taxPages(deps: { tax: TaxService; drafts: DraftsService }): PageModule<TaxPages> {
  return (page) => ({
    async taxSettingsPage() {
      const [live, draft, status] = await Promise.all([
        deps.tax.overview(page.ctx),
        deps.tax.draft(page.ctx),
        draftStatus(deps.drafts, page.ctx, 'tax', TAX_DRAFT_KEY),
      ]);
      // While there is a draft the page shows and edits it; checkout keeps the live settings and rates.
      const shown = draft ? { settings: draft.settings, rates: draft.rates } : live;
      return { ...shown, countries: countryChoices(), status };
    },

    async setProductTaxClass(productId, taxClass) {
      page.assertFormFromStore();
      const parsed = taxClassSchema.safeParse(taxClass);
      if (!parsed.success) throw AppError.badRequest('Choose a tax class: standard, reduced or exempt.');
      await deps.tax.setProductClass(page.ctx, productId, parsed.data);
    },

    async taxAction(form): Promise<TaxFormResult> {
      const { ctx } = page;
      return submitForm(FIELDS, async (): Promise<TaxFormResult> => {
        page.assertFormFromStore();
        const intent = one(form.intent);
        // While there is a draft, every change goes to it; checkout sees none until it is published.
        const drafting = ['settings', 'add-rate', 'change-rate', 'remove-rate'].includes(intent)
          ? (await deps.tax.draft(ctx)) !== null
          : false;
        const toDraft = drafting ? ' to the draft' : '';
        switch (intent) {
          case 'startDraft': {
            const started = await deps.tax.startDraft(ctx);
            if (!started.ok) return formRefusal(started, FIELDS);
            return { ok: true, message: 'Draft started. Checkout uses your changes only once you publish them.' };
          }
          case 'draft-publish': {
            const published = await deps.tax.publishDraft(ctx, one(form.seen) || undefined);
            if (!published.ok) return formRefusal(published, FIELDS);
            return { ok: true, message: 'Taxes published. Checkout charges the new taxes now.' };
          }
          case 'draft-discard': {
            await deps.tax.discardDraft(ctx);
            return { ok: true, message: 'Draft discarded. Checkout keeps charging the live taxes.' };
          }
          case 'settings': {
            const parsed = taxSettingsInputSchema.safeParse({
              pricesIncludeTax: one(form.pricesIncludeTax) === 'with',
              taxNumber: one(form.taxNumber),
            });
            if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
            const saved = drafting
              ? await deps.tax.draftSaveSettings(ctx, parsed.data)
              : ok(await deps.tax.saveSettings(ctx, parsed.data));
            if (!saved.ok) return formRefusal(saved, FIELDS);
            return {
              ok: true,
              message: `Tax settings saved${toDraft}: prices are entered ${saved.value.pricesIncludeTax ? 'with' : 'without'} tax.`,
            };
          }
          case 'add-rate': {
            const parsed = taxRateInputSchema.safeParse(rateForm(form));
            if (!parsed.success) return percentMessages(fieldFailure(parsed.error, FIELDS));
            const added = drafting
              ? await deps.tax.draftAddRate(ctx, parsed.data)
              : await deps.tax.addRate(ctx, parsed.data);
            if (!added.ok) return formRefusal(added, FIELDS);
            return { ok: true, message: `Tax rate added${toDraft} for ${added.value.placeName}.` };
          }
          case 'change-rate': {
            const id = taxRateIdParamsSchema.safeParse({ rateId: one(form.rateId) });
            if (!id.success) throw AppError.badRequest('Unknown tax rate.');
            const { countryGeoId: _c, regionGeoId: _r, ...rest } = rateForm(form);
            const parsed = taxRateInputSchema.omit({ countryGeoId: true, regionGeoId: true }).safeParse(rest);
            if (!parsed.success) return percentMessages(fieldFailure(parsed.error, FIELDS));
            const changed = drafting
              ? await deps.tax.draftChangeRate(ctx, id.data.rateId, parsed.data)
              : await deps.tax.changeRate(ctx, id.data.rateId, parsed.data);
            if (!changed.ok) return formRefusal(changed, FIELDS);
            return { ok: true, message: `Tax rate for ${changed.value.placeName} saved${toDraft}.` };
          }
          case 'remove-rate': {
            const id = taxRateIdParamsSchema.safeParse({ rateId: one(form.rateId) });
            if (!id.success) throw AppError.badRequest('Unknown tax rate.');
            const gone = drafting
              ? await deps.tax.draftRemoveRate(ctx, id.data.rateId)
              : await deps.tax.removeRate(ctx, id.data.rateId);
            if (!gone.ok) return formRefusal(gone, FIELDS);
            return { ok: true, message: drafting ? 'Tax rate removed from the draft.' : 'Tax rate removed.' };
          }
          default:
            throw AppError.badRequest('Unknown action.');
        }
      });
    },
  });
}
