import type { DraftStatus } from '../drafts';
import type { ShippingPreview, ShippingSettings } from '../shipping';
import type { Country, FormOutcome } from '../storefront';

/** The fields of the Shipping page's forms, as their inputs are named. */
export type ShippingFormField =
  | 'name'
  | 'countries'
  | 'states'
  | 'restOfWorld'
  | 'description'
  | 'kind'
  | 'flatRate'
  | 'bands'
  | 'freeAbove'
  | 'handlingDays'
  | 'methods'
  | 'zones'
  | 'subtotal'
  | 'weightGrams'
  | 'countryGeoId'
  | 'stateProvinceGeoId';

export type ShippingActionResult =
  | { ok: true; message: string; preview?: ShippingPreview & { currency: string } }
  | FormOutcome<ShippingFormField>;

/** Settings, Shipping: the zones with their methods, and the forms that change them. */
export interface ShippingPages {
  /**
   * The zones the page edits: the draft's while there is one (`status.draft`, decision 120), else
   * the live ones, which every save changes at once.
   */
  shippingSettingsPage(): Promise<ShippingSettings & { countries: Country[]; currency: string; status: DraftStatus }>;
  /**
   * One form post: intent saveZone, deleteZone, saveMethod, deleteMethod or preview, with the
   * form's fields as typed (amounts as decimals in the store's currency, bands one "upTo rate" a line);
   * startDraft, draft-publish (with `seen`, the draft's updatedAt shown) and draft-discard. While
   * there is a draft, the saves and deletes change the draft.
   */
  shippingAction(fields: Record<string, string | undefined>): Promise<ShippingActionResult>;
}
