import {
  parseDecimalMoney,
  type ShippingActionResult,
  type ShippingFormField,
  type ShippingPages,
  shippingMethodInputSchema,
  shippingPreviewInputSchema,
  shippingZoneInputSchema,
} from '@app/contracts';
import type { Db } from '@app/db';
import type { z } from 'zod';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import { type DraftsService, draftStatus } from '../drafts/index';
import { countryChoices } from '../geo/index';
import { storeIdentity } from '../store/index';
import type { ShippingService } from './shipping.service';
import { SHIPPING_DRAFT_KEY } from './shipping-draft';

const FIELDS: readonly ShippingFormField[] = [
  'name',
  'countries',
  'states',
  'restOfWorld',
  'description',
  'kind',
  'flatRate',
  'bands',
  'freeAbove',
  'handlingDays',
  'methods',
  'zones',
  'subtotal',
  'weightGrams',
  'countryGeoId',
  'stateProvinceGeoId',
];
const FIELDS_MESSAGE = 'Please check the fields marked below.';

type Errors = Partial<Record<ShippingFormField, string>>;
const sentence = (m: string) => m.charAt(0).toUpperCase() + m.slice(1) + (m.endsWith('.') ? '' : '.');
const list = (v: string | undefined) =>
  (v ?? '')
    .split(/[\s,]+/)
    .map((x) => x.trim().toUpperCase())
    .filter(Boolean);
const whole = (v: string | undefined) => (/^\d{1,9}$/.test((v ?? '').trim()) ? Number((v ?? '').trim()) : null);

/** The first message of each field a schema refused, by its top-level path. */
function zodErrors(error: z.ZodError): Errors {
  const out: Errors = {};
  for (const issue of error.issues) {
    const f = String(issue.path[0] ?? 'name') as ShippingFormField;
    if (FIELDS.includes(f) && !out[f]) out[f] = sentence(issue.message);
  }
  return out;
}

const refused = (fieldErrors: Errors): ShippingActionResult => ({
  ok: false,
  status: 400,
  message: FIELDS_MESSAGE,
  fieldErrors,
});

/** Settings, Shipping: its page functions, each checking the settings permission itself. */
export function shippingPages(deps: {
  db: Db;
  shipping: ShippingService;
  drafts: DraftsService;
}): PageModule<ShippingPages> {
  const { shipping } = deps;
  return (page) => {
    const { ctx } = page;
    const currencyOf = async () => (await storeIdentity(deps.db, ctx))?.currency ?? 'USD';

    /** Amounts typed as decimals of the store's currency; bands one "upTo rate" a line. */
    function methodFromForm(f: Record<string, string | undefined>, currency: string) {
      const errors: Errors = {};
      const money = (field: 'flatRate' | 'freeAbove', optional: boolean) => {
        const text = (f[field] ?? '').trim();
        if (!text) return optional ? null : 0;
        const m = parseDecimalMoney(text, currency);
        if (!m.ok) errors[field] = sentence(m.message);
        return m.ok ? m.minor : 0;
      };
      const bands: { upTo: number; rate: number }[] = [];
      for (const [i, line] of (f.bands ?? '').split(/\r?\n/).entries()) {
        if (!line.trim()) continue;
        const [upTo, rate, extra] = line.trim().split(/\s+/);
        const u = whole(upTo);
        const r = rate === undefined ? null : parseDecimalMoney(rate, currency);
        if (u === null || !r || !r.ok || extra !== undefined) {
          errors.bands ??= `Line ${i + 1}: write the upper limit, a space and the rate, like "2000 6.95".`;
        } else bands.push({ upTo: u, rate: r.minor });
      }
      const handling = (f.handlingDays ?? '').trim() === '' ? 0 : whole(f.handlingDays);
      if (handling === null) errors.handlingDays = 'Enter a whole number of days.';
      const kind = f.kind ?? '';
      const parsed = shippingMethodInputSchema.safeParse({
        name: f.name ?? '',
        description: f.description ?? '',
        kind,
        flatRate: kind === 'flat' ? money('flatRate', false) : 0,
        bands: kind === 'weight' || kind === 'subtotal' ? bands : [],
        freeAbove: kind === 'pickup' ? null : money('freeAbove', true),
        handlingDays: handling ?? 0,
      });
      if (Object.keys(errors).length > 0 || !parsed.success)
        return { ok: false as const, errors: { ...(parsed.success ? {} : zodErrors(parsed.error)), ...errors } };
      return { ok: true as const, input: parsed.data };
    }

    return {
      async shippingSettingsPage() {
        requireAccess(ctx, 'settings');
        const [live, draft, currency, status] = await Promise.all([
          shipping.list(ctx),
          shipping.draft(ctx),
          currencyOf(),
          draftStatus(deps.drafts, ctx, 'shipping', SHIPPING_DRAFT_KEY),
        ]);
        return { zones: (draft ?? live).zones, countries: countryChoices(), currency, status };
      },

      async shippingAction(f) {
        requireAccess(ctx, 'settings');
        return submitForm(FIELDS, async (): Promise<ShippingActionResult> => {
          page.assertFormFromStore();
          const zoneId = f.zoneId ?? '';
          // While there is a draft, every change goes to it; shoppers see none until it is published.
          const drafting = ['saveZone', 'deleteZone', 'saveMethod', 'deleteMethod'].includes(f.intent ?? '')
            ? (await shipping.draft(ctx)) !== null
            : false;
          switch (f.intent) {
            case 'startDraft': {
              await shipping.startDraft(ctx);
              return { ok: true, message: 'Draft started. Shoppers see your changes only once you publish them.' };
            }
            case 'draft-publish': {
              const r = await shipping.publishDraft(ctx, f.seen || undefined);
              if (!r.ok) return formRefusal(r, FIELDS);
              return { ok: true, message: 'Shipping published. Shoppers pay the new rates now.' };
            }
            case 'draft-discard': {
              await shipping.discardDraft(ctx);
              return { ok: true, message: 'Draft discarded. Shoppers keep paying the live rates.' };
            }
            case 'saveZone': {
              const parsed = shippingZoneInputSchema.safeParse({
                name: f.name ?? '',
                countries: list(f.countries),
                states: list(f.states),
                restOfWorld: f.restOfWorld === 'on' || f.restOfWorld === 'true',
              });
              if (!parsed.success) return refused(zodErrors(parsed.error));
              const r = drafting
                ? await shipping.draftSaveZone(ctx, zoneId || null, parsed.data)
                : zoneId
                  ? await shipping.updateZone(ctx, zoneId, parsed.data)
                  : await shipping.createZone(ctx, parsed.data);
              if (!r.ok) return formRefusal(r, FIELDS);
              return { ok: true, message: `${r.value.name} saved.` };
            }
            case 'deleteZone': {
              if (drafting) await shipping.draftDeleteZone(ctx, zoneId);
              else await shipping.deleteZone(ctx, zoneId);
              return { ok: true, message: 'Zone deleted.' };
            }
            case 'saveMethod': {
              const parsed = methodFromForm(f, await currencyOf());
              if (!parsed.ok) return refused(parsed.errors);
              const r = drafting
                ? await shipping.draftSaveMethod(ctx, zoneId, f.methodId || null, parsed.input)
                : f.methodId
                  ? await shipping.updateMethod(ctx, zoneId, f.methodId, parsed.input)
                  : await shipping.createMethod(ctx, zoneId, parsed.input);
              if (!r.ok) return formRefusal(r, FIELDS);
              return { ok: true, message: `${r.value.name} saved.` };
            }
            case 'deleteMethod': {
              if (drafting) await shipping.draftDeleteMethod(ctx, zoneId, f.methodId ?? '');
              else await shipping.deleteMethod(ctx, zoneId, f.methodId ?? '');
              return { ok: true, message: 'Method deleted.' };
            }
            case 'preview': {
              const currency = await currencyOf();
              const errors: Errors = {};
              const subtotal = parseDecimalMoney(f.subtotal ?? '', currency);
              if (!subtotal.ok) errors.subtotal = sentence(subtotal.message);
              const weight = whole(f.weightGrams);
              if (weight === null) errors.weightGrams = 'Enter the weight in grams, a whole number.';
              const parsed = shippingPreviewInputSchema.safeParse({
                subtotal: subtotal.ok ? subtotal.minor : 0,
                weightGrams: weight ?? 0,
                countryGeoId: f.countryGeoId ?? '',
                ...(f.stateProvinceGeoId ? { stateProvinceGeoId: f.stateProvinceGeoId } : {}),
              });
              if (!parsed.success) Object.assign(errors, zodErrors(parsed.error), errors);
              if (Object.keys(errors).length > 0 || !parsed.success) return refused(errors);
              const preview = await shipping.preview(ctx, parsed.data);
              return {
                ok: true,
                message: preview.zone
                  ? `Rates for ${preview.zone.name}.`
                  : preview.draft?.zone
                    ? `Rates for ${preview.draft.zone.name} once the draft is published.`
                    : 'No zone ships there.',
                preview: { ...preview, currency },
              };
            }
            default:
              return { ok: false, status: 400, message: 'Unknown action.', fieldErrors: {} };
          }
        });
      },
    };
  };
}
