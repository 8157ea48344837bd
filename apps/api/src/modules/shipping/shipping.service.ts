import {
  SHIPPING_LIMITS,
  type ShippingMethodInput,
  type ShippingMethodView,
  type ShippingPreview,
  type ShippingPreviewInput,
  type ShippingRate,
  type ShippingSettings,
  type ShippingZoneInput,
  type ShippingZoneView,
} from '@app/contracts';
import type { Db, Tx } from '@app/db';
import { and, asc, count, eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { type Ok, ok, Refused, type Result, refuseField, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import type { DraftsService } from '../drafts/index';
import { type Destination, type MethodRow, type RatedCart, shippingRate, type ZoneRow, zonesFor } from './rate-table';
import { createShippingDrafts } from './shipping-draft-edits';
import {
  checkZone,
  deleteMethodRow,
  insertMethod,
  lockedZone,
  methodView,
  newId,
  type ShippingRefusal,
  sm,
  sz,
  updateMethodRow,
  zoneColumns,
  zoneMethods,
  zoneView,
} from './shipping-rows';
import type { ShippingTables } from './shipping-tables';

export interface ShippingDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  tables: ShippingTables;
  drafts: DraftsService;
}

/**
 * The store's shipping settings: zones and their methods, written by the owner (the settings
 * permission), audited, and rated for checkout from memory (`ratesFor`). The zone and method row
 * writes are in shipping-rows.ts, the draft and its edits in shipping-draft-edits.ts.
 */
export function createShippingService(db: Db, deps: ShippingDeps) {
  const { tables } = deps;

  /** Runs a write in one transaction that tells every process's checkout once committed. */
  async function write<T>(ctx: RequestContext, work: (tx: Tx) => Promise<T>): Promise<T> {
    const out = await deps.events.transaction(async (tx) => {
      const value = await work(tx);
      deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'shipping' });
      return value;
    });
    tables.forget(ctx.tenantId);
    return out;
  }

  // The draft kind is registered here, as the service is made; the draft's methods join the service below.
  const drafts = createShippingDrafts(db, deps);
  const { readDraft } = drafts;

  /**
   * A method added (methodId null) or replaced, in the zone of the path: one body for the two
   * routes, so their checks (the zone is this store's, the limit, the read-only ids) cannot drift.
   */
  async function saveMethod(
    ctx: RequestContext,
    zoneId: string,
    methodId: string | null,
    input: ShippingMethodInput,
  ): Promise<Result<ShippingMethodView, ShippingRefusal>> {
    requireAccess(ctx, 'settings');
    return returnRefusals<Ok<ShippingMethodView>, ShippingRefusal>(async () =>
      ok(
        await write(ctx, async (tx) => {
          await lockedZone(tx, ctx, zoneId);
          const methods = await zoneMethods(tx, ctx, zoneId);
          if (methodId !== null) {
            const before = methods.find((m) => m.methodId === methodId);
            if (!before) throw AppError.notFound('There is no such shipping method in this zone.');
            if (input.methodId !== undefined && input.methodId !== methodId)
              throw new Refused(refuseField(422, 'UNPROCESSABLE', 'methodId', 'is read-only.'));
            return methodView(await updateMethodRow(deps.audit, tx, ctx, before, input));
          }
          if (methods.length >= SHIPPING_LIMITS.methodsPerZone)
            throw new Refused(
              refuseField(
                422,
                'UNPROCESSABLE',
                'methods',
                `a zone has at most ${SHIPPING_LIMITS.methodsPerZone} methods.`,
              ),
            );
          const seq = Math.max(-1, ...methods.map((m) => m.sequenceNum)) + 1;
          return methodView(await insertMethod(deps.audit, tx, ctx, zoneId, input, seq));
        }),
      ),
    );
  }

  const service = {
    /**
     * The rates checkout lists for a cart going to an address: the methods of the zones that hold
     * the address most closely, each priced for the cart. Place order prices through here too, so
     * the rate charged is the rate shown.
     */
    async ratesFor(ctx: TenantContext, q: { cart: RatedCart; destination: Destination }): Promise<ShippingRate[]> {
      const zones = zonesFor(await tables.zones(ctx), q.destination);
      return zones.flatMap((z) => z.methods.map((m) => shippingRate(m, q.cart)));
    },

    /**
     * What a shopper would pay: the zone that applies and its rates, for a subtotal, weight and
     * address; while there is a draft, what they would pay once it is published, beside it.
     */
    async preview(ctx: RequestContext, input: ShippingPreviewInput): Promise<ShippingPreview> {
      requireAccess(ctx, 'settings');
      const destination = { countryGeoId: input.countryGeoId, stateProvinceGeoId: input.stateProvinceGeoId };
      const cart = { total: input.subtotal, weightGrams: input.weightGrams };
      const price = <Z extends { zoneId: string; name: string; countries: string[] | null; states: string[] }>(
        all: (Z & { methods: Parameters<typeof shippingRate>[0][] })[],
      ) => {
        const zones = zonesFor(all, destination);
        const first = zones[0];
        return {
          zone: first ? { zoneId: first.zoneId, name: zones.map((z) => z.name).join(', ') } : null,
          rates: zones.flatMap((z) => z.methods.map((m) => shippingRate(m, cart))),
        };
      };
      const [live, draft] = await Promise.all([tables.zones(ctx), readDraft(ctx)]);
      return {
        ...price(live),
        // The draft's zones in the tables' shape: the rest of the world has no country list.
        draft: draft
          ? price(draft.payload.zones.map((z) => ({ ...z, countries: z.restOfWorld ? null : z.countries })))
          : null,
      };
    },
    ...drafts.methods,

    /** Every zone with its methods, as the owner orders them; the answer can be written back zone by zone. */
    async list(ctx: RequestContext): Promise<ShippingSettings> {
      requireAccess(ctx, 'settings');
      const [zones, methods] = await Promise.all([
        db.select().from(sz).where(eq(sz.tenantId, ctx.tenantId)).orderBy(asc(sz.sequenceNum), asc(sz.zoneId)),
        db.select().from(sm).where(eq(sm.tenantId, ctx.tenantId)).orderBy(asc(sm.sequenceNum), asc(sm.methodId)),
      ]);
      return {
        zones: zones.map((z) =>
          zoneView(
            z,
            methods.filter((m) => m.zoneId === z.zoneId),
          ),
        ),
      };
    },

    async getZone(ctx: RequestContext, zoneId: string): Promise<ShippingZoneView> {
      requireAccess(ctx, 'settings');
      const [row] = await db
        .select()
        .from(sz)
        .where(and(eq(sz.tenantId, ctx.tenantId), eq(sz.zoneId, zoneId)));
      if (!row) throw AppError.notFound('There is no such shipping zone in this store.');
      return zoneView(row, await zoneMethods(db, ctx, zoneId));
    },

    /** A new zone, with the methods given (at most 50 zones a store). */
    async createZone(
      ctx: RequestContext,
      input: ShippingZoneInput,
    ): Promise<Result<ShippingZoneView, ShippingRefusal>> {
      requireAccess(ctx, 'settings');
      return returnRefusals<Ok<ShippingZoneView>, ShippingRefusal>(async () =>
        ok(
          await write(ctx, async (tx) => {
            await checkZone(tx, ctx, input, null);
            const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(sz).where(eq(sz.tenantId, ctx.tenantId));
            if (n >= SHIPPING_LIMITS.zones)
              throw new Refused(
                refuseField(422, 'UNPROCESSABLE', 'zones', `a store has at most ${SHIPPING_LIMITS.zones} zones.`),
              );
            const [row] = await tx
              .insert(sz)
              .values({ tenantId: ctx.tenantId, zoneId: newId('Z'), ...zoneColumns(input), sequenceNum: n })
              .returning();
            const zone = row as ZoneRow;
            await deps.audit.record(tx, ctx, {
              entity: 'shipping_zone',
              entityId: zone.zoneId,
              action: 'create',
              after: zoneColumns(input),
            });
            const methods: MethodRow[] = [];
            for (const [i, m] of (input.methods ?? []).entries())
              methods.push(await insertMethod(deps.audit, tx, ctx, zone.zoneId, m, i));
            return zoneView(zone, methods);
          }),
        ),
      );
    },

    /**
     * The zone's name and places; with `methods`, its methods become exactly those (an id it has is
     * updated, a method without id is added, the others are deleted), so a read can be written back.
     */
    async updateZone(
      ctx: RequestContext,
      zoneId: string,
      input: ShippingZoneInput,
    ): Promise<Result<ShippingZoneView, ShippingRefusal>> {
      requireAccess(ctx, 'settings');
      return returnRefusals<Ok<ShippingZoneView>, ShippingRefusal>(async () =>
        ok(
          await write(ctx, async (tx) => {
            const before = await lockedZone(tx, ctx, zoneId);
            if (input.zoneId !== undefined && input.zoneId !== zoneId)
              throw new Refused(refuseField(422, 'UNPROCESSABLE', 'zoneId', 'is read-only.'));
            await checkZone(tx, ctx, input, zoneId);
            const next = zoneColumns(input);
            const [row] = await tx
              .update(sz)
              .set(next)
              .where(and(eq(sz.tenantId, ctx.tenantId), eq(sz.zoneId, zoneId)))
              .returning();
            await deps.audit.record(tx, ctx, {
              entity: 'shipping_zone',
              entityId: zoneId,
              action: 'update',
              before: { name: before.name, countries: before.countries, states: before.states },
              after: next,
            });
            let methods = await zoneMethods(tx, ctx, zoneId);
            if (input.methods) {
              const byId = new Map(methods.map((m) => [m.methodId, m]));
              const kept = new Set(input.methods.map((m) => m.methodId).filter(Boolean));
              const unknown = input.methods.find((m) => m.methodId !== undefined && !byId.has(m.methodId));
              if (unknown)
                throw new Refused(
                  refuseField(422, 'UNPROCESSABLE', 'methods', `the zone has no method ${unknown.methodId}.`),
                );
              for (const m of methods) if (!kept.has(m.methodId)) await deleteMethodRow(deps.audit, tx, ctx, m);
              const out: MethodRow[] = [];
              for (const [i, m] of input.methods.entries()) {
                const had = m.methodId ? byId.get(m.methodId) : undefined;
                out.push(
                  had
                    ? await updateMethodRow(deps.audit, tx, ctx, had, m, i)
                    : await insertMethod(deps.audit, tx, ctx, zoneId, m, i),
                );
              }
              methods = out;
            }
            return zoneView(row as ZoneRow, methods);
          }),
        ),
      );
    },

    /** Deletes a zone and its methods; orders keep the method's name and price they were placed with. */
    async deleteZone(ctx: RequestContext, zoneId: string): Promise<{ zoneId: string; deleted: true }> {
      requireAccess(ctx, 'settings');
      await write(ctx, async (tx) => {
        const before = await lockedZone(tx, ctx, zoneId);
        for (const m of await zoneMethods(tx, ctx, zoneId)) await deleteMethodRow(deps.audit, tx, ctx, m);
        await tx.delete(sz).where(and(eq(sz.tenantId, ctx.tenantId), eq(sz.zoneId, zoneId)));
        await deps.audit.record(tx, ctx, {
          entity: 'shipping_zone',
          entityId: zoneId,
          action: 'delete',
          before: { name: before.name, countries: before.countries, states: before.states },
        });
      });
      return { zoneId, deleted: true };
    },

    /** Adds a method to a zone (at most 20 a zone), after the zone's others. */
    createMethod: (ctx: RequestContext, zoneId: string, input: ShippingMethodInput) =>
      saveMethod(ctx, zoneId, null, input),

    /** Replaces a method of the zone; its id and zone stay. */
    updateMethod: (ctx: RequestContext, zoneId: string, methodId: string, input: ShippingMethodInput) =>
      saveMethod(ctx, zoneId, methodId, input),

    async deleteMethod(ctx: RequestContext, zoneId: string, methodId: string) {
      requireAccess(ctx, 'settings');
      await write(ctx, async (tx) => {
        await lockedZone(tx, ctx, zoneId);
        const before = (await zoneMethods(tx, ctx, zoneId)).find((m) => m.methodId === methodId);
        if (!before) throw AppError.notFound('There is no such shipping method in this zone.');
        await deleteMethodRow(deps.audit, tx, ctx, before);
      });
      return { methodId, deleted: true as const };
    },
  };
  return service;
}

export type ShippingService = ReturnType<typeof createShippingService>;
