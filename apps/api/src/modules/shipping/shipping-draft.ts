import { createHash } from 'node:crypto';
import {
  decimalAmount,
  SHIPPING_LIMITS,
  type ShippingMethodInput,
  type ShippingMethodView,
  type ShippingZoneInput,
  type ShippingZoneView,
  shippingZoneViewSchema,
} from '@app/contracts';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { Refused, refuseField } from '../../lib/result';
import { COUNTRIES } from '../geo/index';
import { stateCountry } from './rate-table';

/**
 * Shipping as a draft (decision 120): the store's whole set of zones and methods, as the owner's
 * read shows them, plus a fingerprint of the live set the draft was started from. Publishing
 * compares the fingerprint with what is live then: a change saved straight to live meanwhile
 * (the API, another tab) refuses the publish instead of being silently undone.
 */
export const shippingDraftSchema = z.object({
  basedOn: z.string().max(100),
  zones: z.array(shippingZoneViewSchema).max(SHIPPING_LIMITS.zones),
});
export type ShippingDraft = z.infer<typeof shippingDraftSchema>;

export const SHIPPING_DRAFT_KEY = 'store';

/** The fingerprint of a set of zones: equal sets (same order, same fields) give the same text. */
export function fingerprint(zones: ShippingZoneView[]): string {
  return createHash('sha256').update(JSON.stringify(zones)).digest('base64url');
}

const KNOWN_COUNTRIES = new Set(COUNTRIES.map((c) => c.geoId));
const refused = (field: string, message: string) => new Refused(refuseField(422, 'UNPROCESSABLE', field, message));

/** The rules every write keeps, checked on a whole set: known places, one rest of the world, the limits. */
export function checkZones(zones: ShippingZoneView[]) {
  if (zones.length > SHIPPING_LIMITS.zones)
    throw refused('zones', `a store has at most ${SHIPPING_LIMITS.zones} zones.`);
  let restOfWorld = 0;
  for (const z of zones) {
    const unknown = z.countries.find((c) => !KNOWN_COUNTRIES.has(c));
    if (unknown) throw refused('countries', `we do not ship to ${unknown}.`);
    const stray = z.states.find((s) => !z.countries.includes(stateCountry(s) ?? ''));
    if (stray) throw refused('states', `${stray} is not a state or province of the zone's countries.`);
    if (z.restOfWorld && ++restOfWorld > 1) throw refused('restOfWorld', 'the store already has a rest-of-world zone.');
    if (z.methods.length > SHIPPING_LIMITS.methodsPerZone)
      throw refused('methods', `a zone has at most ${SHIPPING_LIMITS.methodsPerZone} methods.`);
  }
}

/** A zone's fields as written from its input; the methods are the caller's. */
export function zoneFromInput(
  zoneId: string,
  input: ShippingZoneInput,
  methods: ShippingMethodView[],
): ShippingZoneView {
  return {
    zoneId,
    name: input.name,
    countries: input.restOfWorld ? [] : [...new Set(input.countries)],
    states: input.restOfWorld ? [] : [...new Set(input.states)],
    restOfWorld: input.restOfWorld,
    methods,
  };
}

/** A method as written from its input, with the columns a kind does not use cleared, as the table keeps it. */
export function methodFromInput(zoneId: string, methodId: string, m: ShippingMethodInput): ShippingMethodView {
  return {
    methodId,
    zoneId,
    name: m.name,
    description: m.description,
    kind: m.kind,
    flatRate: m.kind === 'flat' ? m.flatRate : 0,
    bands: m.kind === 'weight' || m.kind === 'subtotal' ? m.bands : [],
    freeAbove: m.kind === 'pickup' ? null : m.freeAbove,
    handlingDays: m.handlingDays,
  };
}

/** The zone of a draft by id: 404 as the live routes answer for a zone the store does not have. */
export function draftZone(zones: ShippingZoneView[], zoneId: string): ShippingZoneView {
  const zone = zones.find((z) => z.zoneId === zoneId);
  if (!zone) throw AppError.notFound('There is no such shipping zone in this store.');
  return zone;
}

function rateWords(m: ShippingMethodView, currency: string) {
  const money = (n: number) => `${decimalAmount(n, currency)} ${currency}`;
  const base =
    m.kind === 'pickup'
      ? 'free pickup'
      : m.kind === 'flat'
        ? `${money(m.flatRate)} flat`
        : `${m.kind === 'weight' ? 'by weight' : 'by subtotal'} (${m.bands
            .map((b) => `up to ${m.kind === 'weight' ? `${b.upTo} g` : money(b.upTo)}: ${money(b.rate)}`)
            .join('; ')})`;
  return m.freeAbove === null ? base : `${base}, free from ${money(m.freeAbove)}`;
}

function placeWords(z: ShippingZoneView) {
  if (z.restOfWorld) return 'the rest of the world';
  return [...z.countries, ...z.states].join(', ');
}

/** What a publish changes, one sentence a change, as the audit log shows it to the owner. */
export function describeShippingChange(before: ShippingZoneView[], after: ShippingZoneView[], currency: string) {
  const out: string[] = [];
  const old = new Map(before.map((z) => [z.zoneId, z]));
  const kept = new Set(after.map((z) => z.zoneId));
  for (const z of before) if (!kept.has(z.zoneId)) out.push(`Deleted zone ${z.name} and its methods.`);
  for (const z of after) {
    const was = old.get(z.zoneId);
    if (!was) {
      out.push(`Added zone ${z.name} (${placeWords(z)}).`);
      for (const m of z.methods) out.push(`Added ${m.name} to ${z.name}: ${rateWords(m, currency)}.`);
      continue;
    }
    if (was.name !== z.name) out.push(`Renamed zone ${was.name} to ${z.name}.`);
    if (placeWords(was) !== placeWords(z)) out.push(`${z.name} now covers ${placeWords(z)} (was ${placeWords(was)}).`);
    const oldMethods = new Map(was.methods.map((m) => [m.methodId, m]));
    const keptMethods = new Set(z.methods.map((m) => m.methodId));
    for (const m of was.methods) if (!keptMethods.has(m.methodId)) out.push(`Deleted ${m.name} from ${z.name}.`);
    for (const m of z.methods) {
      const prev = oldMethods.get(m.methodId);
      if (!prev) out.push(`Added ${m.name} to ${z.name}: ${rateWords(m, currency)}.`);
      else {
        const a = rateWords(prev, currency);
        const b = rateWords(m, currency);
        if (prev.name !== m.name) out.push(`Renamed ${prev.name} in ${z.name} to ${m.name}.`);
        if (a !== b) out.push(`${m.name} in ${z.name}: ${a} → ${b}.`);
        if (prev.description !== m.description || prev.handlingDays !== m.handlingDays)
          out.push(`${m.name} in ${z.name}: description or handling time changed.`);
      }
    }
  }
  return out.length > 0 ? out : ['No change to what shoppers pay.'];
}
