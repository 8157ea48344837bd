import { deliveryPromise, type ShippingRate, transitDaysIn } from '@app/contracts';
import type { schema } from '@app/db';
import { COUNTRIES } from '../geo/index';

export type ZoneRow = typeof schema.shippingZones.$inferSelect;
export type MethodRow = typeof schema.shippingMethods.$inferSelect;
export interface Destination {
  countryGeoId: string;
  stateProvinceGeoId?: string | null | undefined;
  /** Zones do not look at it; carriers' live rates are quoted for it (decision 117). */
  postalCode?: string | null | undefined;
}
/** What a rate depends on: the discounted subtotal and the goods' weight. */
export type RatedCart = { total: number; weightGrams: number };

const countryOfState = new Map(COUNTRIES.flatMap((c) => c.regions.map((r) => [r.geoId, c.geoId] as const)));
/** The country a state or province geo id (US_CA) belongs to; undefined when unknown. */
export const stateCountry = (stateGeoId: string) => countryOfState.get(stateGeoId);

/**
 * How closely a zone holds an address: 3 by its state, 2 by its country, 1 as the rest of the
 * world, 0 not at all. A zone that names states of a country holds only those states of it.
 */
export function zoneMatch(zone: Pick<ZoneRow, 'countries' | 'states'>, to: Destination): 0 | 1 | 2 | 3 {
  if (zone.countries === null) return 1;
  if (!zone.countries.includes(to.countryGeoId)) return 0;
  const statesHere = zone.states.filter((s) => stateCountry(s) === to.countryGeoId);
  if (statesHere.length === 0) return 2;
  return to.stateProvinceGeoId && statesHere.includes(to.stateProvinceGeoId) ? 3 : 0;
}

/**
 * The zones whose methods an address gets: those that hold it most closely (state before country
 * before the rest of the world). Zones that tie are offered together, as methods with overlapping
 * country lists were before zones existed.
 */
export function zonesFor<Z extends Pick<ZoneRow, 'countries' | 'states'>>(zones: Z[], to: Destination): Z[] {
  let best = 0;
  let out: Z[] = [];
  for (const z of zones) {
    const m = zoneMatch(z, to);
    if (m > best) {
      best = m;
      out = [z];
    } else if (m === best && m > 0) out.push(z);
  }
  return out;
}

/**
 * What a method charges for a cart: a flat rate; the first band of a weight or subtotal table that
 * holds the cart (the last band when above them all); nothing for pickup, or once the discounted
 * subtotal reaches `freeAbove`.
 */
export function shippingRate(
  m: Pick<
    MethodRow,
    'methodId' | 'name' | 'description' | 'kind' | 'flatRate' | 'bands' | 'freeAbove' | 'handlingDays'
  >,
  cart: RatedCart,
): ShippingRate {
  let rate = m.kind === 'flat' ? m.flatRate : 0;
  if (m.kind === 'weight' || m.kind === 'subtotal') {
    const measure = m.kind === 'weight' ? cart.weightGrams : cart.total;
    const table = [...(m.bands ?? [])].sort((a, b) => a.upTo - b.upTo);
    rate = (table.find((b) => measure <= b.upTo) ?? table.at(-1))?.rate ?? 0;
  }
  const freeAbove = m.kind === 'pickup' ? null : m.freeAbove;
  const free = freeAbove !== null && cart.total >= freeAbove;
  return {
    methodId: m.methodId,
    name: m.name,
    description: m.description,
    rate: free ? 0 : rate,
    freeAbove: freeAbove !== null && !free ? freeAbove - cart.total : null,
    // The owner's estimate is the description ("3 to 5 business days"); read it when it is one.
    delivery: deliveryPromise({
      pickup: m.kind === 'pickup',
      handlingDays: m.handlingDays,
      transitDays: m.kind === 'pickup' ? null : transitDaysIn(m.description),
    }),
  };
}
