import { z } from 'zod';
import { shippingRateSchema } from './checkout';
import { jsonInt } from './strict-input';

/**
 * The owner's shipping settings (decision 115): zones (where), each with its methods (how and what
 * it costs). Checkout lists the methods of the most specific zone that holds the address.
 */
export const SHIPPING_LIMITS = { zones: 50, methodsPerZone: 20, bands: 20 } as const;
export const SHIPPING_METHOD_KINDS = ['flat', 'weight', 'subtotal', 'pickup'] as const;
export type ShippingMethodKind = (typeof SHIPPING_METHOD_KINDS)[number];

const amount = (name: string) => jsonInt(name, { min: 0, max: 100_000_000 });
const id = z.string().min(1).max(64);

export const shippingBandSchema = z.strictObject({
  /** Grams for a weight table, minor units of the discounted subtotal for a subtotal table. */
  upTo: jsonInt('upTo', { min: 1, max: 100_000_000 }),
  rate: amount('rate'),
});

const methodFields = z.strictObject({
  /** Read-only: sent back as read, or left out. */
  methodId: id.optional(),
  /** Read-only: the zone of the path, as read, or left out. */
  zoneId: id.optional(),
  name: z.string().trim().min(1, 'name is required').max(80),
  /** The delivery estimate, or for pickup the address and hours. */
  description: z.string().trim().max(300).default(''),
  kind: z.enum(SHIPPING_METHOD_KINDS, { error: 'kind must be flat, weight, subtotal or pickup' }),
  /** The rate of a flat method; 0 for pickup. */
  flatRate: amount('flatRate').default(0),
  /** The bands of a weight or subtotal method, ascending by upTo; the last covers everything above. */
  bands: z.array(shippingBandSchema).max(SHIPPING_LIMITS.bands, `at most ${SHIPPING_LIMITS.bands} bands`).default([]),
  /** Free once the discounted subtotal reaches this; null: never free. */
  freeAbove: amount('freeAbove').nullable().default(null),
  handlingDays: jsonInt('handlingDays', { min: 0, max: 60 }).default(0),
});

function methodRules(m: z.infer<typeof methodFields>, c: z.RefinementCtx) {
  const banded = m.kind === 'weight' || m.kind === 'subtotal';
  if (banded && m.bands.length === 0) c.addIssue({ code: 'custom', path: ['bands'], message: 'add at least one band' });
  if (!banded && m.bands.length > 0)
    c.addIssue({ code: 'custom', path: ['bands'], message: `a ${m.kind} method has no bands` });
  m.bands.forEach((b, i) => {
    const prev = m.bands[i - 1];
    if (prev && b.upTo <= prev.upTo)
      c.addIssue({
        code: 'custom',
        path: ['bands', i, 'upTo'],
        message: 'each band must go higher than the one before',
      });
  });
  if (m.kind === 'pickup' && (m.flatRate !== 0 || m.freeAbove !== null))
    c.addIssue({ code: 'custom', path: ['flatRate'], message: 'local pickup costs nothing' });
}

export const shippingMethodInputSchema = methodFields.superRefine(methodRules);
export type ShippingMethodInput = z.infer<typeof shippingMethodInputSchema>;

export const shippingMethodViewSchema = z.object({
  methodId: z.string(),
  zoneId: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(SHIPPING_METHOD_KINDS),
  flatRate: z.number().int(),
  bands: z.array(z.object({ upTo: z.number().int(), rate: z.number().int() })),
  freeAbove: z.number().int().nullable(),
  handlingDays: z.number().int(),
});
export type ShippingMethodView = z.infer<typeof shippingMethodViewSchema>;

const zoneFields = z.strictObject({
  /** Read-only: sent back as read, or left out. */
  zoneId: id.optional(),
  name: z.string().trim().min(1, 'name is required').max(80),
  /** Country geo ids (USA, CAN); empty for the rest of the world. */
  countries: z.array(z.string().min(2).max(20)).max(300).default([]),
  /** State or province geo ids (US_CA): the zone then holds only these of their countries. */
  states: z.array(z.string().min(2).max(20)).max(200).default([]),
  /** Every country no other zone names. */
  restOfWorld: z.boolean().default(false),
  /** When given, the zone's methods become exactly these (ids kept, new ones added, others deleted). */
  methods: z.array(shippingMethodInputSchema).max(SHIPPING_LIMITS.methodsPerZone).optional(),
});

function zoneRules(z0: z.infer<typeof zoneFields>, c: z.RefinementCtx) {
  if (z0.restOfWorld && (z0.countries.length > 0 || z0.states.length > 0))
    c.addIssue({ code: 'custom', path: ['countries'], message: 'the rest of the world names no countries' });
  if (!z0.restOfWorld && z0.countries.length === 0)
    c.addIssue({ code: 'custom', path: ['countries'], message: 'pick at least one country' });
}

export const shippingZoneInputSchema = zoneFields.superRefine(zoneRules);
export type ShippingZoneInput = z.infer<typeof shippingZoneInputSchema>;

export const shippingZoneViewSchema = z.object({
  zoneId: z.string(),
  name: z.string(),
  countries: z.array(z.string()),
  states: z.array(z.string()),
  restOfWorld: z.boolean(),
  methods: z.array(shippingMethodViewSchema),
});
export type ShippingZoneView = z.infer<typeof shippingZoneViewSchema>;

export const shippingSettingsSchema = z.object({ zones: z.array(shippingZoneViewSchema) });
export type ShippingSettings = z.infer<typeof shippingSettingsSchema>;

export const shippingZoneParamsSchema = z.object({ zoneId: id });
export const shippingMethodParamsSchema = z.object({ zoneId: id, methodId: id });

/** "What would a shopper pay": a cart's discounted subtotal and weight, and an address. */
export const shippingPreviewInputSchema = z.strictObject({
  subtotal: amount('subtotal'),
  weightGrams: jsonInt('weightGrams', { min: 0, max: 100_000_000 }),
  countryGeoId: z.string().min(2).max(20),
  stateProvinceGeoId: z.string().max(20).optional(),
});
export type ShippingPreviewInput = z.infer<typeof shippingPreviewInputSchema>;

const pricedSchema = z.object({
  /** The zone whose methods apply; null when the store does not ship there. */
  zone: z.object({ zoneId: z.string(), name: z.string() }).nullable(),
  rates: z.array(shippingRateSchema),
});
export const shippingPreviewSchema = pricedSchema.extend({
  /** While there is an unpublished draft (decision 120): what the shopper would pay once it is published. */
  draft: pricedSchema.nullable(),
});
export type ShippingPreview = z.infer<typeof shippingPreviewSchema>;

/**
 * The whole shipping draft at once (decision 120): the zones as the zones GET answers them, changed.
 * A zone or method with an id the draft has keeps it; one without is new. Nothing goes live until
 * the draft is published (POST /api/v1/drafts/shipping/store/publish).
 */
export const shippingDraftInputSchema = z.strictObject({
  zones: z.array(shippingZoneInputSchema).max(SHIPPING_LIMITS.zones, `at most ${SHIPPING_LIMITS.zones} zones`),
});
export type ShippingDraftInput = z.infer<typeof shippingDraftInputSchema>;

/** The draft's zones, and when and by whom it was last saved. */
export const shippingDraftViewSchema = shippingSettingsSchema.extend({
  draft: z.object({ updatedAt: z.string(), updatedByName: z.string().nullable() }),
});
export type ShippingDraftView = z.infer<typeof shippingDraftViewSchema>;
