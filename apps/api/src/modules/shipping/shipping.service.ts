import { randomBytes } from 'node:crypto';
import {
  SHIPPING_LIMITS,
  type ShippingDraftInput,
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
import { type Ok, ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import { type DraftsService, defineDraftKind } from '../drafts/index';
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
import {
  checkZones,
  describeShippingChange,
  draftZone,
  fingerprint,
  methodFromInput,
  SHIPPING_DRAFT_KEY,
  type ShippingDraft,
  shippingDraftSchema,
  zoneFromInput,
} from './shipping-draft';
import type { ShippingTables } from './shipping-tables';

const sz = schema.shippingZones;
const sm = schema.shippingMethods;

/** A write refused for what it asks: a limit reached, a country or state we do not know. */
export type ShippingRefusal = Refusal<'UNPROCESSABLE'>;

/** The draft's state as the page shows it: who saved it last, and when (what a publish says it saw). */
export interface ShippingDraftState {
  updatedAt: string;
  updatedByName: string | null;
}

export interface ShippingDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  tables: ShippingTables;
  drafts: DraftsService;
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

  async function insertMethod(
    tx: Tx,
    ctx: RequestContext,
    zoneId: string,
    m: ShippingMethodInput,
    seq: number,
    methodId = newId('M'),
  ) {
    sameZone(m, zoneId);
    const [row] = await tx
      .insert(sm)
      .values({ tenantId: ctx.tenantId, methodId, zoneId, ...methodColumns(m), sequenceNum: seq })
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

  /** The live zones with their methods, as the owner reads them, in the given query (a transaction's). */
  async function liveZones(q: Tx | Db, ctx: TenantContext): Promise<ShippingZoneView[]> {
    const [zones, methods] = await Promise.all([
      q.select().from(sz).where(eq(sz.tenantId, ctx.tenantId)).orderBy(asc(sz.sequenceNum), asc(sz.zoneId)),
      q.select().from(sm).where(eq(sm.tenantId, ctx.tenantId)).orderBy(asc(sm.sequenceNum), asc(sm.methodId)),
    ]);
    return zones.map((z) =>
      zoneView(
        z,
        methods.filter((m) => m.zoneId === z.zoneId),
      ),
    );
  }

  /**
   * Makes the store's zones and methods exactly `zones`, in one transaction: rows the set no longer
   * has are deleted, new ones inserted under the draft's ids, the others updated in the set's
   * order. Each row's change is audited as the direct writes audit it (an unchanged row records
   * nothing), so the log reads the same whichever way a change went live.
   */
  async function replaceAll(tx: Tx, ctx: RequestContext, zones: ShippingZoneView[]) {
    checkZones(zones);
    const liveZoneRows = await tx.select().from(sz).where(eq(sz.tenantId, ctx.tenantId)).for('update');
    const liveMethodRows = await tx.select().from(sm).where(eq(sm.tenantId, ctx.tenantId)).for('update');
    const wanted = new Map(zones.map((z) => [z.zoneId, z]));
    const wantedMethods = new Map(zones.flatMap((z) => z.methods.map((m) => [m.methodId, z.zoneId] as const)));
    // Deletes first, so a method or zone a new row replaces never counts twice against a limit.
    for (const m of liveMethodRows)
      if (wantedMethods.get(m.methodId) !== m.zoneId) await deleteMethodRow(tx, ctx, m as MethodRow);
    for (const z of liveZoneRows) {
      if (wanted.has(z.zoneId)) continue;
      await tx.delete(sz).where(and(eq(sz.tenantId, ctx.tenantId), eq(sz.zoneId, z.zoneId)));
      await deps.audit.record(tx, ctx, {
        entity: 'shipping_zone',
        entityId: z.zoneId,
        action: 'delete',
        before: { name: z.name, countries: z.countries, states: z.states },
      });
    }
    const liveZone = new Map(liveZoneRows.map((z) => [z.zoneId, z]));
    const liveMethod = new Map(liveMethodRows.map((m) => [m.methodId, m as MethodRow]));
    for (const [i, z] of zones.entries()) {
      const input = { name: z.name, countries: z.countries, states: z.states, restOfWorld: z.restOfWorld, methods: [] };
      const next = zoneColumns(input);
      const was = liveZone.get(z.zoneId);
      if (was) {
        await tx
          .update(sz)
          .set({ ...next, sequenceNum: i })
          .where(and(eq(sz.tenantId, ctx.tenantId), eq(sz.zoneId, z.zoneId)));
        await deps.audit.record(tx, ctx, {
          entity: 'shipping_zone',
          entityId: z.zoneId,
          action: 'update',
          before: { name: was.name, countries: was.countries, states: was.states },
          after: next,
        });
      } else {
        await tx.insert(sz).values({ tenantId: ctx.tenantId, zoneId: z.zoneId, ...next, sequenceNum: i });
        await deps.audit.record(tx, ctx, {
          entity: 'shipping_zone',
          entityId: z.zoneId,
          action: 'create',
          after: next,
        });
      }
      for (const [j, m] of z.methods.entries()) {
        const input = { ...m, methodId: undefined, zoneId: undefined };
        const had = liveMethod.get(m.methodId);
        if (had && had.zoneId === z.zoneId) await updateMethodRow(tx, ctx, had, input, j);
        else await insertMethod(tx, ctx, z.zoneId, input, j, m.methodId);
      }
    }
  }

  /** The refusal of a publish over a live change made after the draft was started. */
  const changedMeanwhile = () =>
    new Refused(
      refuse(
        409,
        'CONFLICT',
        'Shipping was changed directly after this draft was started, so publishing it would undo that change. Discard the draft and make your changes again.',
      ),
    );

  const draftKind = deps.drafts.register(
    defineDraftKind<ShippingDraft>({
      kind: 'shipping',
      entity: 'shipping',
      what: 'shipping',
      payload: shippingDraftSchema,
      async readLive(q, ctx) {
        const zones = await liveZones(q, ctx);
        return { basedOn: fingerprint(zones), zones };
      },
      async applyLive(tx, ctx, _key, draft) {
        // The draft row is locked by the publish; the zones are locked here, so a direct write
        // waits for the publish, and a publish over one that committed first is refused.
        await tx.select({ zoneId: sz.zoneId }).from(sz).where(eq(sz.tenantId, ctx.tenantId)).for('update');
        if (fingerprint(await liveZones(tx, ctx)) !== draft.basedOn) throw changedMeanwhile();
        await replaceAll(tx, ctx, draft.zones);
        tables.forget(ctx.tenantId);
      },
      async rebase(q, ctx, _key, draft) {
        return { ...draft, basedOn: fingerprint(await liveZones(q, ctx)) };
      },
      async describe(before, after, tx, ctx) {
        // Read in the publish's transaction: PGlite has one connection, which the transaction holds.
        const [store] = await tx
          .select({ currency: schema.productStores.currencyUomId })
          .from(schema.productStores)
          .where(
            and(
              eq(schema.productStores.tenantId, ctx.tenantId),
              eq(schema.productStores.productStoreId, ctx.productStoreId),
            ),
          );
        return describeShippingChange(before?.zones ?? [], after.zones, store?.currency ?? 'USD');
      },
    }),
  );

  /** The draft if there is one: its zones, and who saved it when. */
  async function readDraft(ctx: RequestContext) {
    const draft = await deps.drafts.get(ctx, draftKind, SHIPPING_DRAFT_KEY);
    if (!draft) return null;
    const parsed = shippingDraftSchema.safeParse(draft.payload);
    if (!parsed.success) return null;
    return {
      payload: parsed.data,
      state: { updatedAt: draft.updatedAt.toISOString(), updatedByName: draft.updatedByName } as ShippingDraftState,
    };
  }

  /**
   * One change to the draft (starting it from what is live when there is none): the whole set is
   * checked as a publish would check it, then saved (audited as `draft.save`). Shoppers see none of it.
   */
  async function editDraft<T>(
    ctx: RequestContext,
    edit: (zones: ShippingZoneView[]) => { zones: ShippingZoneView[]; value: T },
  ): Promise<Result<T, ShippingRefusal>> {
    requireAccess(ctx, 'settings');
    return returnRefusals<Ok<T>, ShippingRefusal>(async () => {
      const current = await readDraft(ctx);
      const base = current?.payload ?? (await draftKind.readLive(db, ctx, SHIPPING_DRAFT_KEY));
      if (!base) throw new Error('shipping: no live state');
      const { zones, value } = edit(structuredClone(base.zones));
      checkZones(zones);
      await deps.drafts.save(ctx, draftKind, SHIPPING_DRAFT_KEY, { basedOn: base.basedOn, zones });
      return ok(value);
    });
  }

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
            return methodView(await updateMethodRow(tx, ctx, before, input));
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
          return methodView(await insertMethod(tx, ctx, zoneId, input, seq));
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

    /** The draft's zones, and who saved it when; null while what is live is all there is. */
    async draft(ctx: RequestContext): Promise<(ShippingSettings & { draft: ShippingDraftState }) | null> {
      requireAccess(ctx, 'settings');
      const draft = await readDraft(ctx);
      return draft ? { zones: draft.payload.zones, draft: draft.state } : null;
    },

    /** Starts a draft from what is live (nothing changes for shoppers until it is published). */
    startDraft: (ctx: RequestContext) => editDraft(ctx, (zones) => ({ zones, value: undefined })),

    /**
     * The whole draft at once (the API's PUT): what the zones GET answers, changed, can be sent. A
     * zone or method with an id the draft has keeps it; one without gets a new id.
     */
    saveDraft: (ctx: RequestContext, input: ShippingDraftInput) =>
      editDraft(ctx, (zones) => {
        const had = new Map(zones.map((z) => [z.zoneId, z]));
        const next = input.zones.map((z) => {
          const before = z.zoneId === undefined ? undefined : had.get(z.zoneId);
          if (z.zoneId !== undefined && !before)
            throw new Refused(refuseField(422, 'UNPROCESSABLE', 'zones', `the draft has no zone ${z.zoneId}.`));
          const zoneId = before?.zoneId ?? newId('Z');
          const methods = (z.methods ?? before?.methods ?? []).map((m) => {
            if (m.methodId !== undefined && !before?.methods.some((x) => x.methodId === m.methodId))
              throw new Refused(refuseField(422, 'UNPROCESSABLE', 'methods', `the zone has no method ${m.methodId}.`));
            return 'kind' in m ? methodFromInput(zoneId, m.methodId ?? newId('M'), m as ShippingMethodInput) : m;
          });
          return zoneFromInput(zoneId, z, methods as ShippingMethodView[]);
        });
        return { zones: next, value: { zones: next } as ShippingSettings };
      }),

    /** A zone added to the draft (zoneId null) or its name and places changed; its methods stay. */
    draftSaveZone: (ctx: RequestContext, zoneId: string | null, input: ShippingZoneInput) =>
      editDraft(ctx, (zones) => {
        if (zoneId === null) {
          const zone = zoneFromInput(newId('Z'), input, []);
          return { zones: [...zones, zone], value: zone };
        }
        const zone = zoneFromInput(zoneId, input, draftZone(zones, zoneId).methods);
        return { zones: zones.map((z) => (z.zoneId === zoneId ? zone : z)), value: zone };
      }),

    draftDeleteZone: (ctx: RequestContext, zoneId: string) =>
      editDraft(ctx, (zones) => {
        draftZone(zones, zoneId);
        return { zones: zones.filter((z) => z.zoneId !== zoneId), value: { zoneId, deleted: true as const } };
      }),

    /** A method added to a zone of the draft (methodId null) or replaced. */
    draftSaveMethod: (ctx: RequestContext, zoneId: string, methodId: string | null, input: ShippingMethodInput) =>
      editDraft(ctx, (zones) => {
        const zone = draftZone(zones, zoneId);
        if (methodId !== null && !zone.methods.some((m) => m.methodId === methodId))
          throw AppError.notFound('There is no such shipping method in this zone.');
        const method = methodFromInput(zoneId, methodId ?? newId('M'), input);
        const methods =
          methodId === null
            ? [...zone.methods, method]
            : zone.methods.map((m) => (m.methodId === methodId ? method : m));
        return { zones: zones.map((z) => (z.zoneId === zoneId ? { ...z, methods } : z)), value: method };
      }),

    draftDeleteMethod: (ctx: RequestContext, zoneId: string, methodId: string) =>
      editDraft(ctx, (zones) => {
        const zone = draftZone(zones, zoneId);
        if (!zone.methods.some((m) => m.methodId === methodId))
          throw AppError.notFound('There is no such shipping method in this zone.');
        const methods = zone.methods.filter((m) => m.methodId !== methodId);
        return {
          zones: zones.map((z) => (z.zoneId === zoneId ? { ...z, methods } : z)),
          value: { methodId, deleted: true as const },
        };
      }),

    /** Publishes the draft (the drafts seam: atomic, versioned, audited); `seen` as the page showed it. */
    publishDraft: (ctx: RequestContext, seen?: string) =>
      deps.drafts.publish(ctx, draftKind, SHIPPING_DRAFT_KEY, { seen }),

    discardDraft: (ctx: RequestContext) => deps.drafts.discard(ctx, draftKind, SHIPPING_DRAFT_KEY),

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
        await deleteMethodRow(tx, ctx, before);
      });
      return { methodId, deleted: true as const };
    },
  };
  return service;
}

export type ShippingService = ReturnType<typeof createShippingService>;
