import { randomBytes } from 'node:crypto';
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
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, count, eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { type Ok, ok, type Refusal, Refused, type Result, refuseField, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import { COUNTRIES } from '../geo/index';
import {
  type Destination,
  type MethodRow,
  type RatedCart,
  shippingRate,
  stateCountry,
  type ZoneRow,
  zonesFor,
} from './rate-table';
import type { ShippingTables } from './shipping-tables';

const sz = schema.shippingZones;
const sm = schema.shippingMethods;

/** A write refused for what it asks: a limit reached, a country or state we do not know. */
export type ShippingRefusal = Refusal<'UNPROCESSABLE'>;

export interface ShippingDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  tables: ShippingTables;
}

const KNOWN_COUNTRIES = new Set(COUNTRIES.map((c) => c.geoId));
const newId = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex').toUpperCase()}`;

function methodView(m: MethodRow): ShippingMethodView {
  return {
    methodId: m.methodId,
    zoneId: m.zoneId,
    name: m.name,
    description: m.description,
    kind: m.kind,
    flatRate: m.flatRate,
    bands: m.bands ?? [],
    freeAbove: m.freeAbove,
    handlingDays: m.handlingDays,
  };
}

function zoneView(z: ZoneRow, methods: MethodRow[]): ShippingZoneView {
  return {
    zoneId: z.zoneId,
    name: z.name,
    countries: z.countries ?? [],
    states: z.states,
    restOfWorld: z.countries === null,
    methods: methods.map(methodView),
  };
}

/** The columns of a method as written; what the audit log keeps of it too. */
function methodColumns(m: ShippingMethodInput) {
  return {
    name: m.name,
    description: m.description,
    kind: m.kind,
    flatRate: m.kind === 'flat' ? m.flatRate : 0,
    bands: m.kind === 'weight' || m.kind === 'subtotal' ? m.bands : null,
    freeAbove: m.kind === 'pickup' ? null : m.freeAbove,
    handlingDays: m.handlingDays,
  };
}

const zoneColumns = (z: ShippingZoneInput) => ({
  name: z.name,
  countries: z.restOfWorld ? null : [...new Set(z.countries)],
  states: z.restOfWorld ? [] : [...new Set(z.states)],
});

/**
 * The store's shipping settings: zones and their methods, written by the owner (the settings
 * permission), audited, and rated for checkout from memory (`ratesFor`).
 */
export function createShippingService(db: Db, deps: ShippingDeps) {
  const { tables } = deps;

  /** Countries we know, states of the zone's own countries; one rest-of-world zone per store. */
  async function checkZone(tx: Tx, ctx: TenantContext, z: ShippingZoneInput, zoneId: string | null) {
    const unknown = z.countries.find((c) => !KNOWN_COUNTRIES.has(c));
    if (unknown) throw new Refused(refuseField(422, 'UNPROCESSABLE', 'countries', `we do not ship to ${unknown}.`));
    const stray = z.states.find((s) => !z.countries.includes(stateCountry(s) ?? ''));
    if (stray)
      throw new Refused(
        refuseField(422, 'UNPROCESSABLE', 'states', `${stray} is not a state or province of the zone's countries.`),
      );
    if (z.restOfWorld) {
      const others = await tx
        .select({ zoneId: sz.zoneId, countries: sz.countries })
        .from(sz)
        .where(eq(sz.tenantId, ctx.tenantId));
      if (others.some((o) => o.countries === null && o.zoneId !== zoneId))
        throw new Refused(
          refuseField(422, 'UNPROCESSABLE', 'restOfWorld', 'the store already has a rest-of-world zone.'),
        );
    }
  }

  async function lockedZone(tx: Tx, ctx: TenantContext, zoneId: string): Promise<ZoneRow> {
    const [row] = await tx
      .select()
      .from(sz)
      .where(and(eq(sz.tenantId, ctx.tenantId), eq(sz.zoneId, zoneId)))
      .for('update');
    if (!row) throw AppError.notFound('There is no such shipping zone in this store.');
    return row;
  }

  async function zoneMethods(tx: Tx | Db, ctx: TenantContext, zoneId: string) {
    return tx
      .select()
      .from(sm)
      .where(and(eq(sm.tenantId, ctx.tenantId), eq(sm.zoneId, zoneId)))
      .orderBy(asc(sm.sequenceNum), asc(sm.methodId));
  }

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

  /** The read-only zoneId of a method written back must be the zone it is written to. */
  function sameZone(m: ShippingMethodInput, zoneId: string) {
    if (m.zoneId !== undefined && m.zoneId !== zoneId)
      throw new Refused(refuseField(422, 'UNPROCESSABLE', 'zoneId', 'is read-only: a method stays in its zone.'));
  }

  async function insertMethod(tx: Tx, ctx: RequestContext, zoneId: string, m: ShippingMethodInput, seq: number) {
    sameZone(m, zoneId);
    const [row] = await tx
      .insert(sm)
      .values({ tenantId: ctx.tenantId, methodId: newId('M'), zoneId, ...methodColumns(m), sequenceNum: seq })
      .returning();
    const created = row as MethodRow;
    await deps.audit.record(tx, ctx, {
      entity: 'shipping_method',
      entityId: created.methodId,
      action: 'create',
      after: { zoneId, ...methodColumns(m) },
    });
    return created;
  }

  async function updateMethodRow(tx: Tx, ctx: RequestContext, before: MethodRow, m: ShippingMethodInput, seq?: number) {
    sameZone(m, before.zoneId);
    const next = methodColumns(m);
    const [row] = await tx
      .update(sm)
      .set({ ...next, ...(seq === undefined ? {} : { sequenceNum: seq }) })
      .where(and(eq(sm.tenantId, ctx.tenantId), eq(sm.methodId, before.methodId)))
      .returning();
    await deps.audit.record(tx, ctx, {
      entity: 'shipping_method',
      entityId: before.methodId,
      action: 'update',
      before: methodColumns({ ...methodView(before), methodId: undefined, zoneId: undefined }),
      after: next,
    });
    return row as MethodRow;
  }

  async function deleteMethodRow(tx: Tx, ctx: RequestContext, before: MethodRow) {
    await tx.delete(sm).where(and(eq(sm.tenantId, ctx.tenantId), eq(sm.methodId, before.methodId)));
    await deps.audit.record(tx, ctx, {
      entity: 'shipping_method',
      entityId: before.methodId,
      action: 'delete',
      before: {
        zoneId: before.zoneId,
        ...methodColumns({ ...methodView(before), methodId: undefined, zoneId: undefined }),
      },
    });
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

    /** What a shopper would pay: the zone that applies and its rates, for a subtotal, weight and address. */
    async preview(ctx: RequestContext, input: ShippingPreviewInput): Promise<ShippingPreview> {
      requireAccess(ctx, 'settings');
      const destination = { countryGeoId: input.countryGeoId, stateProvinceGeoId: input.stateProvinceGeoId };
      const zones = zonesFor(await tables.zones(ctx), destination);
      const cart = { total: input.subtotal, weightGrams: input.weightGrams };
      const first = zones[0];
      return {
        zone: first ? { zoneId: first.zoneId, name: zones.map((z) => z.name).join(', ') } : null,
        rates: zones.flatMap((z) => z.methods.map((m) => shippingRate(m, cart))),
      };
    },

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
              methods.push(await insertMethod(tx, ctx, zone.zoneId, m, i));
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
              for (const m of methods) if (!kept.has(m.methodId)) await deleteMethodRow(tx, ctx, m);
              const out: MethodRow[] = [];
              for (const [i, m] of input.methods.entries()) {
                const had = m.methodId ? byId.get(m.methodId) : undefined;
                out.push(had ? await updateMethodRow(tx, ctx, had, m, i) : await insertMethod(tx, ctx, zoneId, m, i));
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
        for (const m of await zoneMethods(tx, ctx, zoneId)) await deleteMethodRow(tx, ctx, m);
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

    async createMethod(
      ctx: RequestContext,
      zoneId: string,
      input: ShippingMethodInput,
    ): Promise<Result<ShippingMethodView, ShippingRefusal>> {
      requireAccess(ctx, 'settings');
      return returnRefusals<Ok<ShippingMethodView>, ShippingRefusal>(async () =>
        ok(
          await write(ctx, async (tx) => {
            await lockedZone(tx, ctx, zoneId);
            const methods = await zoneMethods(tx, ctx, zoneId);
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
            return methodView(await insertMethod(tx, ctx, zoneId, input, seq));
          }),
        ),
      );
    },

    async updateMethod(
      ctx: RequestContext,
      zoneId: string,
      methodId: string,
      input: ShippingMethodInput,
    ): Promise<Result<ShippingMethodView, ShippingRefusal>> {
      requireAccess(ctx, 'settings');
      return returnRefusals<Ok<ShippingMethodView>, ShippingRefusal>(async () =>
        ok(
          await write(ctx, async (tx) => {
            await lockedZone(tx, ctx, zoneId);
            const before = (await zoneMethods(tx, ctx, zoneId)).find((m) => m.methodId === methodId);
            if (!before) throw AppError.notFound('There is no such shipping method in this zone.');
            if (input.methodId !== undefined && input.methodId !== methodId)
              throw new Refused(refuseField(422, 'UNPROCESSABLE', 'methodId', 'is read-only.'));
            return methodView(await updateMethodRow(tx, ctx, before, input));
          }),
        ),
      );
    },

    async deleteMethod(ctx: RequestContext, zoneId: string, methodId: string) {
      requireAccess(ctx, 'settings');
      await write(ctx, async (tx) => {
        await lockedZone(tx, ctx, zoneId);
        const before = (await zoneMethods(tx, ctx, zoneId)).find((m) => m.methodId === methodId);
        if (!before) throw AppError.notFound('There is no such shipping method in this zone.');
        await deleteMethodRow(tx, ctx, before);
      });
      return { methodId, deleted: true as const };
    },
  };
  return service;
}

export type ShippingService = ReturnType<typeof createShippingService>;
