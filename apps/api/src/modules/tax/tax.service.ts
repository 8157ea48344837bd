import type { TaxClass, TaxOverview, TaxRate, TaxRateInput, TaxSettings, TaxSettingsInput } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, type Result, refuse, refuseField } from '../../lib/result';
import type { AuditService } from '../audit/index';
import { COUNTRIES } from '../geo/index';
import { writeProductTaxClass } from '../products/index';

const tr = schema.taxRates;
const ts = schema.storeTaxSettings;

type RateRow = typeof tr.$inferSelect;

export const DEFAULT_TAX_SETTINGS: TaxSettings = { pricesIncludeTax: false, taxNumber: '' };

export const rateIdOf = (r: { countryGeoId: string; regionGeoId: string }) =>
  r.regionGeoId ? `${r.countryGeoId}.${r.regionGeoId}` : r.countryGeoId;

function placeOf(rateId: string) {
  const [countryGeoId = '', regionGeoId = ''] = rateId.split('.');
  return { countryGeoId, regionGeoId };
}

function placeName(countryGeoId: string, regionGeoId: string) {
  const country = COUNTRIES.find((c) => c.geoId === countryGeoId);
  const region = country?.regions.find((r) => r.geoId === regionGeoId);
  const name = country?.name ?? countryGeoId;
  return regionGeoId ? `${name}, ${region?.name ?? regionGeoId}` : `${name} (all regions)`;
}

function rateView(r: RateRow): TaxRate {
  return {
    rateId: rateIdOf(r),
    countryGeoId: r.countryGeoId,
    regionGeoId: r.regionGeoId,
    placeName: placeName(r.countryGeoId, r.regionGeoId),
    label: r.label,
    rateBasisPoints: r.rateBasisPoints,
    reducedBasisPoints: r.reducedBasisPoints,
    taxShipping: r.taxShipping,
  };
}

/** Countries A to Z by name, a country's own rate before its regions', regions A to Z by name. */
function byPlace(a: TaxRate, b: TaxRate) {
  const country = (r: TaxRate) => COUNTRIES.find((c) => c.geoId === r.countryGeoId)?.name ?? r.countryGeoId;
  return (
    country(a).localeCompare(country(b)) ||
    (a.regionGeoId === '' ? -1 : 0) - (b.regionGeoId === '' ? -1 : 0) ||
    a.placeName.localeCompare(b.placeName)
  );
}

/** A place the rate can be for: a country we know, and one of its regions or none. */
function checkPlace(input: { countryGeoId: string; regionGeoId: string }): Refusal<'BAD_REQUEST'> | null {
  const country = COUNTRIES.find((c) => c.geoId === input.countryGeoId);
  if (!country) return refuseField(400, 'BAD_REQUEST', 'countryGeoId', 'this is not a country we know.');
  if (input.regionGeoId && !country.regions.some((r) => r.geoId === input.regionGeoId))
    return refuseField(400, 'BAD_REQUEST', 'regionGeoId', `this is not a state or region of ${country.name}.`);
  return null;
}

export type TaxRateRefusal = Refusal<'BAD_REQUEST' | 'CONFLICT' | 'NOT_FOUND'>;

export interface TaxDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
}

/**
 * A store's tax settings and rates (decision 116). Every write is audited and announced as
 * `settings.changed`, so checkout's cached tables (every process) forget the store at once.
 */
export function createTaxService(db: Db, deps: TaxDeps) {
  async function settings(ctx: TenantContext): Promise<TaxSettings> {
    const [row] = await db
      .select({ pricesIncludeTax: ts.pricesIncludeTax, taxNumber: ts.taxNumber })
      .from(ts)
      .where(eq(ts.tenantId, ctx.tenantId));
    return row ?? DEFAULT_TAX_SETTINGS;
  }

  async function rates(ctx: TenantContext): Promise<TaxRate[]> {
    const rows = await db.select().from(tr).where(eq(tr.tenantId, ctx.tenantId));
    return rows.map(rateView).sort(byPlace);
  }

  const changed = (tx: Tx, ctx: TenantContext) =>
    deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'tax' });

  return {
    /** The settings as the owner reads them; checkout reads its own copy (checkout-tables.ts). */
    async settings(ctx: RequestContext): Promise<TaxSettings> {
      requireAccess(ctx, 'settings');
      return settings(ctx);
    },
    async rates(ctx: RequestContext): Promise<TaxRate[]> {
      requireAccess(ctx, 'settings');
      return rates(ctx);
    },

    async overview(ctx: RequestContext): Promise<TaxOverview> {
      requireAccess(ctx, 'settings');
      const [s, r] = await Promise.all([settings(ctx), rates(ctx)]);
      return { settings: s, rates: r };
    },

    async saveSettings(ctx: RequestContext, input: TaxSettingsInput): Promise<TaxSettings> {
      requireAccess(ctx, 'settings');
      return deps.events.transaction(async (tx) => {
        const [before] = await tx.select().from(ts).where(eq(ts.tenantId, ctx.tenantId)).for('update');
        const after = { pricesIncludeTax: input.pricesIncludeTax, taxNumber: input.taxNumber };
        await tx
          .insert(ts)
          .values({ tenantId: ctx.tenantId, ...after })
          .onConflictDoUpdate({ target: ts.tenantId, set: after });
        const old = before
          ? { pricesIncludeTax: before.pricesIncludeTax, taxNumber: before.taxNumber }
          : DEFAULT_TAX_SETTINGS;
        await deps.audit.record(tx, ctx, {
          entity: 'tax.settings',
          entityId: ctx.tenantId,
          action: 'update',
          before: old,
          after,
        });
        changed(tx, ctx);
        return after;
      });
    },

    async addRate(ctx: RequestContext, input: TaxRateInput): Promise<Result<TaxRate, TaxRateRefusal>> {
      requireAccess(ctx, 'settings');
      const bad = checkPlace(input);
      if (bad) return bad;
      return deps.events.transaction(async (tx) => {
        const [row] = await tx
          .insert(tr)
          .values({ tenantId: ctx.tenantId, ...input })
          .onConflictDoNothing()
          .returning();
        if (!row)
          return refuseField(
            409,
            'CONFLICT',
            'regionGeoId',
            `${placeName(input.countryGeoId, input.regionGeoId)} has a rate already: change that one.`,
          );
        const view = rateView(row);
        await deps.audit.record(tx, ctx, {
          entity: 'tax.rate',
          entityId: view.rateId,
          action: 'create',
          before: null,
          after: input,
        });
        changed(tx, ctx);
        return ok(view);
      });
    },

    async changeRate(
      ctx: RequestContext,
      rateId: string,
      input: Omit<TaxRateInput, 'countryGeoId' | 'regionGeoId'> & { countryGeoId?: string; regionGeoId?: string },
    ): Promise<Result<TaxRate, TaxRateRefusal>> {
      requireAccess(ctx, 'settings');
      const place = placeOf(rateId);
      if (
        (input.countryGeoId !== undefined && input.countryGeoId !== place.countryGeoId) ||
        (input.regionGeoId !== undefined && input.regionGeoId !== place.regionGeoId)
      )
        return refuseField(
          400,
          'BAD_REQUEST',
          'countryGeoId',
          'a rate keeps its place: remove it and add one for the other place.',
        );
      const where = and(
        eq(tr.tenantId, ctx.tenantId),
        eq(tr.countryGeoId, place.countryGeoId),
        eq(tr.regionGeoId, place.regionGeoId),
      );
      return deps.events.transaction(async (tx) => {
        const [before] = await tx.select().from(tr).where(where).for('update');
        if (!before) return refuse(404, 'NOT_FOUND', `No tax rate ${rateId} in this store.`);
        const set = {
          label: input.label,
          rateBasisPoints: input.rateBasisPoints,
          reducedBasisPoints: input.reducedBasisPoints,
          taxShipping: input.taxShipping,
        };
        const [row] = await tx.update(tr).set(set).where(where).returning();
        await deps.audit.record(tx, ctx, {
          entity: 'tax.rate',
          entityId: rateId,
          action: 'update',
          before: {
            label: before.label,
            rateBasisPoints: before.rateBasisPoints,
            reducedBasisPoints: before.reducedBasisPoints,
            taxShipping: before.taxShipping,
          },
          after: set,
        });
        changed(tx, ctx);
        return ok(rateView(row as RateRow));
      });
    },

    async removeRate(ctx: RequestContext, rateId: string): Promise<Result<{ rateId: string }, TaxRateRefusal>> {
      requireAccess(ctx, 'settings');
      const place = placeOf(rateId);
      return deps.events.transaction(async (tx) => {
        const [gone] = await tx
          .delete(tr)
          .where(
            and(
              eq(tr.tenantId, ctx.tenantId),
              eq(tr.countryGeoId, place.countryGeoId),
              eq(tr.regionGeoId, place.regionGeoId),
            ),
          )
          .returning();
        if (!gone) return refuse(404, 'NOT_FOUND', `No tax rate ${rateId} in this store.`);
        await deps.audit.record(tx, ctx, {
          entity: 'tax.rate',
          entityId: rateId,
          action: 'delete',
          before: {
            label: gone.label,
            rateBasisPoints: gone.rateBasisPoints,
            reducedBasisPoints: gone.reducedBasisPoints,
            taxShipping: gone.taxShipping,
          },
          after: null,
        });
        changed(tx, ctx);
        return ok({ rateId });
      });
    },

    /**
     * A product's tax class, from the product editor (catalog permission). Read by checkout for each
     * quote, so there is nothing to forget; audited on the product.
     */
    async setProductClass(ctx: RequestContext, productId: string, taxClass: TaxClass): Promise<void> {
      requireAccess(ctx, 'catalog');
      await deps.events.transaction(async (tx) => {
        const before = await writeProductTaxClass(tx, ctx.tenantId, productId, taxClass);
        if (!before) throw AppError.notFound(`Product ${productId.slice(0, 64)} not found.`);
        await deps.audit.record(tx, ctx, {
          entity: 'product',
          entityId: productId,
          action: 'update',
          before: { taxClass: before },
          after: { taxClass },
        });
      });
    },
  };
}
export type TaxService = ReturnType<typeof createTaxService>;
