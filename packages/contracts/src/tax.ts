import { z } from 'zod';
import type { DraftStatus } from './drafts';
import type { Country, FormOutcome } from './storefront';
import { TAX_CLASSES } from './tax-display';

export * from './tax-display';

export const taxClassSchema = z.enum(TAX_CLASSES, { error: 'taxClass must be standard, reduced or exempt' });

import { jsonInt } from './strict-input';

const basisPoints = (name: string) => jsonInt(name, { min: 0, max: 10_000 });

/** A store's tax settings: how prices are entered and the number printed on invoices. */
export const taxSettingsSchema = z.object({
  /** Prices are entered with tax: the shelf price is what the shopper pays, tax inside it. */
  pricesIncludeTax: z.boolean(),
  /** The store's tax registration number, printed on invoices; '' for none. */
  taxNumber: z.string(),
});
export type TaxSettings = z.infer<typeof taxSettingsSchema>;

/** PUT /api/v1/tax/settings: what GET answers can be sent back as it is. */
export const taxSettingsInputSchema = z.strictObject({
  pricesIncludeTax: z.boolean({ error: 'pricesIncludeTax must be true or false' }),
  taxNumber: z
    .string({ error: 'taxNumber must be text' })
    .trim()
    .max(40, 'taxNumber: at most 40 characters')
    .regex(/^[A-Za-z0-9 .\-/]*$/, 'taxNumber: letters, digits, spaces, dots, dashes and slashes only'),
});
export type TaxSettingsInput = z.infer<typeof taxSettingsInputSchema>;

/** A rate by destination; `regionGeoId` '' is the whole country's rate (a region's own rate wins). */
export const taxRateSchema = z.object({
  /** `USA` or `USA.US_CA`: the rate's id in paths. */
  rateId: z.string(),
  countryGeoId: z.string(),
  regionGeoId: z.string(),
  /** The country and region as a person reads them ("United States, California"). */
  placeName: z.string(),
  label: z.string(),
  /** The standard class's rate in basis points (725 is 7.25 %). */
  rateBasisPoints: z.number().int(),
  /** The reduced class's rate; null: reduced goods pay the standard rate. */
  reducedBasisPoints: z.number().int().nullable(),
  /** Shipping is taxed too, at the standard rate. */
  taxShipping: z.boolean(),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

/** POST /api/v1/tax/rates (and PUT /api/v1/tax/rates/:rateId, where the place cannot change). */
// Messages without the field's name: the API's answer puts the path before them (`body.label: …`)
// and the rate form shows them beside the field.
const CHOOSE_A_COUNTRY = 'choose a country';
const NAME_THE_TAX = 'name the tax';

export const taxRateInputSchema = z.strictObject({
  countryGeoId: z
    .string({ error: CHOOSE_A_COUNTRY })
    .trim()
    .regex(/^[A-Z]{3}$/, CHOOSE_A_COUNTRY),
  regionGeoId: z
    .string()
    .trim()
    .max(20)
    .regex(/^([A-Z]{2}_[A-Z0-9]{1,4})?$/, 'choose a state or region')
    .default(''),
  label: z.string({ error: NAME_THE_TAX }).trim().min(1, NAME_THE_TAX).max(60, 'at most 60 characters'),
  rateBasisPoints: basisPoints('rateBasisPoints'),
  reducedBasisPoints: basisPoints('reducedBasisPoints').nullable().default(null),
  taxShipping: z.boolean({ error: 'must be true or false' }).default(false),
});
export type TaxRateInput = z.infer<typeof taxRateInputSchema>;

/** PUT /api/v1/tax/products/:productId: the product's tax class. */
export const productTaxClassInputSchema = z.strictObject({ taxClass: taxClassSchema });
export const productTaxClassParamsSchema = z.strictObject({ productId: z.string().trim().min(1).max(64) });

export const taxRateIdParamsSchema = z.strictObject({
  rateId: z
    .string()
    .regex(/^[A-Z]{3}(\.[A-Z]{2}_[A-Z0-9]{1,4})?$/, 'rateId: a country (USA) or a country and region (USA.US_CA)'),
});

/** GET /api/v1/tax: the settings and every rate, countries A to Z, a country before its regions. */
export const taxOverviewSchema = z.object({ settings: taxSettingsSchema, rates: z.array(taxRateSchema) });
export type TaxOverview = z.infer<typeof taxOverviewSchema>;

/**
 * PUT /api/v1/tax/draft (decision 120): the settings and every rate, as GET /api/v1/tax answers them,
 * changed. A rate not sent is removed from the draft. Nothing reaches checkout until the draft is
 * published (POST /api/v1/drafts/tax/store/publish).
 */
export const taxDraftInputSchema = z.strictObject({
  settings: taxSettingsInputSchema,
  rates: z
    .array(
      taxRateInputSchema.extend({
        // A rate from GET can be sent back as it is: its id and place name are read-only.
        rateId: z.string().max(40).optional(),
        placeName: z.string().max(200).optional(),
      }),
    )
    .max(500, 'rates: at most 500'),
});
export type TaxDraftInput = z.infer<typeof taxDraftInputSchema>;

/** The draft's settings and rates, and when and by whom it was last saved. */
export const taxDraftViewSchema = taxOverviewSchema.extend({
  draft: z.object({ updatedAt: z.string(), updatedByName: z.string().nullable() }),
});
export type TaxDraftView = z.infer<typeof taxDraftViewSchema>;

export type TaxFormField =
  | 'pricesIncludeTax'
  | 'taxNumber'
  | 'countryGeoId'
  | 'regionGeoId'
  | 'label'
  | 'rateBasisPoints'
  | 'reducedBasisPoints'
  | 'taxShipping';
export type TaxFormResult = { ok: true; message: string } | FormOutcome<TaxFormField>;

/** The dashboard's Taxes page (decision 116). */
export interface TaxPages {
  /** The draft's settings and rates while there is one (`status.draft`), else the live ones. */
  taxSettingsPage(): Promise<TaxOverview & { countries: Country[]; status: DraftStatus }>;
  /**
   * One form per intent: settings, add-rate, change-rate, remove-rate (to the draft while there is
   * one, else live), startDraft, draft-publish (with `seen`), draft-discard.
   */
  taxAction(form: Record<string, string | string[]>): Promise<TaxFormResult>;
  /** The product editor's Tax class select (catalog permission); an unknown class is a 400. */
  setProductTaxClass(productId: string, taxClass: string): Promise<void>;
}
