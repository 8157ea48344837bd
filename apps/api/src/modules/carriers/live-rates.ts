import { createHash } from 'node:crypto';
import {
  CARRIER_NAMES,
  type Carrier,
  type Cart,
  carrierServiceName,
  deliveryPromise,
  normalPostalCode,
  postalCodeFits,
  type ShippingRate,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TenantContext } from '../../lib/context';
import { Refused, refuse } from '../../lib/result';
import { StoreValues } from '../../lib/store-generations';
import { COUNTRIES } from '../geo/index';
import { storeIdentity } from '../store/index';
import type { CarrierRow, CarriersService } from './carriers.service';
import { providerFor } from './carriers.service';
import type { Address, CarrierCredentials, QuotedService, RateProvider } from './rate-provider';

const ss = schema.storeSettings;

/** A live rate's method id: `live:<carrier>:<service code>:<amount shown>`. */
const LIVE = /^live:(ups|fedex):([A-Z0-9_]{1,40}):(\d{1,9})$/;
export const isLiveRateId = (id: string | undefined) => Boolean(id?.startsWith('live:'));

export interface Destination {
  countryGeoId: string;
  stateProvinceGeoId?: string | null | undefined;
  /** The shopper's postal code: sent to the carrier (domestic US rates need it) when it has the country's form. */
  postalCode?: string | null | undefined;
}

/** The carrier's amount with the store's markup, in integer minor units (a percent rounds half up). */
export function withMarkup(amount: number, kind: string, value: number): number {
  if (kind === 'percent') return amount + Math.round((amount * value) / 100);
  if (kind === 'fixed') return amount + value;
  return amount;
}

export interface LiveRatesOptions {
  baseUrls: Record<Carrier, string>;
  log: FastifyBaseLogger;
  fetch?: typeof fetch;
  /** Each carrier call gives up after this long (default 2.5 s); checkout lists table rates then. */
  timeoutMs?: number;
  /** How long the rates of one cart and address are kept (default 10 minutes): review and Place order see the same. */
  keepMs?: number;
  /** After a carrier timed out or refused the account, checkout does not ask it again for this long (default 30 s), so pages stay fast. */
  restMs?: number;
  /**
   * After a quick failure (connection refused, a 5xx), the shorter rest (default 5 s): asking costs the
   * shopper nothing then, and the carrier's rates are back soon after it is.
   */
  errorRestMs?: number;
  now?: () => number;
}

/**
 * Live carrier rates at checkout (decision 117), beside the store's table rates. Each connected
 * account with services picked is asked through the rate-provider port, all at once, each within
 * its timeout; a slow or failing carrier adds nothing (the shopper still has the table rates).
 *
 * The answer for one cart's contents and destination is kept for some minutes in this process, so
 * the review and Place order charge what was shown. The amount shown is also part of the rate's id,
 * so Place order in another process, or after the rates were dropped, asks again and refuses (409)
 * a rate that is gone or whose price moved, rather than charging another price.
 */
export function createLiveRates(db: Db, carriers: Pick<CarriersService, 'accountsOf'>, opts: LiveRatesOptions) {
  const now = opts.now ?? Date.now;
  const settings = {
    timeoutMs: opts.timeoutMs ?? 2_500,
    keepMs: opts.keepMs ?? 10 * 60_000,
    restMs: opts.restMs ?? 30_000,
    errorRestMs: opts.errorRestMs ?? 5_000,
  };
  const MAX_KEPT = 5_000;
  /** Rates by store, account version, cart and destination. */
  const kept = new Map<string, { at: number; rates: ShippingRate[] }>();
  /** Accounts that failed lately, by store and account version: not asked until the time is up. */
  const resting = new Map<string, number>();
  /** Clients (with their OAuth tokens) by store and account version: a changed account gets a new one. */
  const clients = new Map<string, RateProvider>();
  /**
   * A store's accounts, origin and currency, read once a minute at most and shared by the callers at
   * once (StoreValues, the busiest 10,000 stores); `forget` drops them on a settings change.
   */
  const stores = new StoreValues<{
    accounts: Awaited<ReturnType<typeof carriers.accountsOf>>;
    origin: Address | null;
    currency: string;
  }>(60_000, 10_000, now);

  function clientFor(tenantId: string, row: CarrierRow, creds: CarrierCredentials) {
    const key = `${tenantId}:${row.carrier}:${row.updatedAt.getTime()}`;
    let client = clients.get(key);
    if (!client) {
      client = providerFor(row.carrier as Carrier, creds, {
        baseUrl: opts.baseUrls[row.carrier as Carrier],
        fetch: opts.fetch,
        get timeoutMs() {
          return settings.timeoutMs;
        },
        now,
      });
      // The account changed: its old client (and token) goes.
      for (const k of clients.keys()) if (k.startsWith(`${tenantId}:${row.carrier}:`)) clients.delete(k);
      clients.set(key, client);
    }
    return client;
  }

  const storeOf = (ctx: TenantContext) => stores.get(ctx.tenantId, () => readStore(ctx));

  async function readStore(ctx: TenantContext) {
    const tenantId = ctx.tenantId;
    const [accounts, [store], identity] = await Promise.all([
      carriers.accountsOf(tenantId),
      db
        .select({
          address1: ss.address1,
          city: ss.city,
          stateProvinceGeoId: ss.stateProvinceGeoId,
          postalCode: ss.postalCode,
          countryGeoId: ss.countryGeoId,
        })
        .from(ss)
        .where(eq(ss.tenantId, tenantId))
        .limit(1),
      storeIdentity(db, ctx),
    ]);
    const country = COUNTRIES.find((c) => c.geoId === store?.countryGeoId);
    const state = country?.regions.find((r) => r.geoId === store?.stateProvinceGeoId);
    const origin: Address | null = country
      ? {
          countryCode: country.iso2,
          // ShipFrom StateProvinceCode (UPS) / shipper stateOrProvinceCode (FedEx): US_OR is sent as OR.
          stateCode: state ? state.geoId.split('_')[1] : undefined,
          postalCode: store?.postalCode ?? undefined,
          city: store?.city ?? undefined,
          addressLine: store?.address1 ?? undefined,
        }
      : null;
    return { accounts, origin, currency: identity?.currency ?? 'USD' };
  }

  const destinationOf = (d: Destination): Address | null => {
    const country = COUNTRIES.find((c) => c.geoId === d.countryGeoId);
    if (!country) return null;
    const region = d.stateProvinceGeoId && country.regions.some((r) => r.geoId === d.stateProvinceGeoId);
    // Checked again here: Place order's address went through checkPlace, but a page's query may not have.
    const postal = d.postalCode ? normalPostalCode(country.geoId, d.postalCode) : '';
    return {
      countryCode: country.iso2,
      ...(region ? { stateCode: d.stateProvinceGeoId?.split('_')[1] } : {}),
      ...(postal && postalCodeFits(country.geoId, postal) ? { postalCode: postal } : {}),
    };
  };

  function keep(key: string, rates: ShippingRate[]) {
    if (kept.size >= MAX_KEPT) {
      // The oldest go first (a Map keeps insertion order).
      for (const k of kept.keys()) {
        kept.delete(k);
        if (kept.size < MAX_KEPT * 0.9) break;
      }
    }
    kept.set(key, { at: now(), rates });
  }

  /** One account's rates for a cart and destination, from what is kept or from the carrier. */
  async function ratesOf(
    ctx: TenantContext,
    account: Awaited<ReturnType<typeof carriers.accountsOf>>[number],
    origin: Address,
    cart: Pick<Cart, 'lines' | 'weightGrams'>,
    dest: Address,
    currency: string,
  ): Promise<ShippingRate[]> {
    const { row, carrier, creds } = account;
    const version = `${ctx.tenantId}:${carrier}:${row.updatedAt.getTime()}`;
    const contents = createHash('sha256')
      .update(JSON.stringify([cart.lines.map((l) => [l.variantId, l.quantity]), cart.weightGrams]))
      .digest('base64url');
    const key = `${version}:${contents}:${dest.countryCode}:${dest.stateCode ?? ''}:${dest.postalCode ?? ''}`;
    const hit = kept.get(key);
    if (hit && now() - hit.at < settings.keepMs) return hit.rates;
    if ((resting.get(version) ?? 0) > now()) return [];

    const outcome = await clientFor(ctx.tenantId, row, creds).rate(
      origin,
      { weightGrams: cart.weightGrams, lengthIn: row.boxLengthIn, widthIn: row.boxWidthIn, heightIn: row.boxHeightIn },
      dest,
    );
    if (outcome.kind === 'unavailable') {
      opts.log.warn(
        { tenantId: ctx.tenantId, carrier, reason: outcome.reason, detail: outcome.detail },
        'live carrier rates unavailable; checkout lists table rates',
      );
      resting.set(version, now() + (outcome.reason === 'error' ? settings.errorRestMs : settings.restMs));
      return [];
    }
    const offered = new Set(row.services);
    const rates = outcome.services
      .filter((s: QuotedService) => offered.has(s.code) && s.currency === currency)
      .map((s): ShippingRate => {
        const rate = withMarkup(s.amount, row.markupKind, row.markupValue);
        return {
          methodId: `live:${carrier}:${s.code}:${rate}`,
          name: carrierServiceName(carrier, s.code),
          description: `Live rate from ${CARRIER_NAMES[carrier]}`,
          rate,
          freeAbove: null,
          // The carrier's transit days when it quoted them; the store's handling days are its table methods'.
          delivery: s.transitDays
            ? deliveryPromise({ transitDays: { min: s.transitDays, max: s.transitDays, business: true } })
            : null,
        };
      })
      .sort((a, b) => a.rate - b.rate);
    keep(key, rates);
    return rates;
  }

  return {
    settings,

    /**
     * The live rates for a cart and destination: none when the store has no account, the store has
     * no origin address, or the carriers are slow or down. With `chosen` a live rate's id (Place
     * order), a rate no longer offered at that amount is refused with a 409 the shopper can act on.
     */
    async ratesFor(
      ctx: TenantContext,
      cart: Pick<Cart, 'lines' | 'weightGrams'>,
      destination: Destination,
      chosen?: string,
    ): Promise<ShippingRate[]> {
      if (cart.lines.length === 0) return [];
      const { accounts, origin, currency } = await storeOf(ctx);
      const offering = accounts.filter((a) => a.row.services.length > 0);
      const dest = destinationOf(destination);
      const live =
        offering.length === 0 || !origin || !dest
          ? []
          : (await Promise.all(offering.map((a) => ratesOf(ctx, a, origin, cart, dest, currency)))).flat();
      const asked = chosen ? LIVE.exec(chosen) : null;
      if (chosen && isLiveRateId(chosen) && !live.some((r) => r.methodId === chosen)) {
        const carrier = (asked?.[1] as Carrier | undefined) ?? null;
        const name = carrier && asked ? carrierServiceName(carrier, asked[2] ?? '') : 'This shipping rate';
        throw new Refused(
          refuse(
            409,
            'CONFLICT',
            `${name} is no longer available at the price shown. Please choose a shipping method again.`,
          ),
        );
      }
      return live;
    },

    forget(tenantId: string) {
      stores.drop(tenantId);
      for (const k of kept.keys()) if (k.startsWith(`${tenantId}:`)) kept.delete(k);
      for (const k of resting.keys()) if (k.startsWith(`${tenantId}:`)) resting.delete(k);
    },
    clear() {
      stores.clear();
      kept.clear();
      resting.clear();
    },
  };
}
export type LiveRates = ReturnType<typeof createLiveRates>;
