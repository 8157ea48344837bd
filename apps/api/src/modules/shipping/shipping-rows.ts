/**
 * The shipping_zones and shipping_methods rows: how a row is shown (the views), what is written of
 * it (the columns, also what the audit log keeps), the checks a zone passes, and the audited row
 * writes. Separate from the service because two paths share them: the direct zone and method routes,
 * and a draft's publish (`replaceAll`), which must audit a change exactly as the direct writes do.
 */
import { randomBytes } from 'node:crypto';
import type { ShippingMethodInput, ShippingMethodView, ShippingZoneInput, ShippingZoneView } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { type Refusal, Refused, refuseField } from '../../lib/result';
import type { AuditService } from '../audit/index';
import { COUNTRIES } from '../geo/index';
import { type MethodRow, stateCountry, type ZoneRow } from './rate-table';
import { checkZones } from './shipping-draft';

export const sz = schema.shippingZones;
export const sm = schema.shippingMethods;

/** A write refused for what it asks: a limit reached, a country or state we do not know. */
export type ShippingRefusal = Refusal<'UNPROCESSABLE'>;

/** What the row writes need of the audit log. */
export type ShippingAudit = Pick<AuditService, 'record'>;

const KNOWN_COUNTRIES = new Set(COUNTRIES.map((c) => c.geoId));
export const newId = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex').toUpperCase()}`;

export function methodView(m: MethodRow): ShippingMethodView {
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

export function zoneView(z: ZoneRow, methods: MethodRow[]): ShippingZoneView {
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
export function methodColumns(m: ShippingMethodInput) {
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

export const zoneColumns = (z: ShippingZoneInput) => ({
  name: z.name,
  countries: z.restOfWorld ? null : [...new Set(z.countries)],
  states: z.restOfWorld ? [] : [...new Set(z.states)],
});

/** Countries we know, states of the zone's own countries; one rest-of-world zone per store. */
export async function checkZone(tx: Tx, ctx: TenantContext, z: ShippingZoneInput, zoneId: string | null) {
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

export async function lockedZone(tx: Tx, ctx: TenantContext, zoneId: string): Promise<ZoneRow> {
  const [row] = await tx
    .select()
    .from(sz)
    .where(and(eq(sz.tenantId, ctx.tenantId), eq(sz.zoneId, zoneId)))
    .for('update');
  if (!row) throw AppError.notFound('There is no such shipping zone in this store.');
  return row;
}

export async function zoneMethods(tx: Tx | Db, ctx: TenantContext, zoneId: string) {
  return tx
    .select()
    .from(sm)
    .where(and(eq(sm.tenantId, ctx.tenantId), eq(sm.zoneId, zoneId)))
    .orderBy(asc(sm.sequenceNum), asc(sm.methodId));
}

/** The read-only zoneId of a method written back must be the zone it is written to. */
function sameZone(m: ShippingMethodInput, zoneId: string) {
  if (m.zoneId !== undefined && m.zoneId !== zoneId)
    throw new Refused(refuseField(422, 'UNPROCESSABLE', 'zoneId', 'is read-only: a method stays in its zone.'));
}

export async function insertMethod(
  audit: ShippingAudit,
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
  await audit.record(tx, ctx, {
    entity: 'shipping_method',
    entityId: created.methodId,
    action: 'create',
    after: { zoneId, ...methodColumns(m) },
  });
  return created;
}

export async function updateMethodRow(
  audit: ShippingAudit,
  tx: Tx,
  ctx: RequestContext,
  before: MethodRow,
  m: ShippingMethodInput,
  seq?: number,
) {
  sameZone(m, before.zoneId);
  const next = methodColumns(m);
  const [row] = await tx
    .update(sm)
    .set({ ...next, ...(seq === undefined ? {} : { sequenceNum: seq }) })
    .where(and(eq(sm.tenantId, ctx.tenantId), eq(sm.methodId, before.methodId)))
    .returning();
  await audit.record(tx, ctx, {
    entity: 'shipping_method',
    entityId: before.methodId,
    action: 'update',
    before: methodColumns({ ...methodView(before), methodId: undefined, zoneId: undefined }),
    after: next,
  });
  return row as MethodRow;
}

export async function deleteMethodRow(audit: ShippingAudit, tx: Tx, ctx: RequestContext, before: MethodRow) {
  await tx.delete(sm).where(and(eq(sm.tenantId, ctx.tenantId), eq(sm.methodId, before.methodId)));
  await audit.record(tx, ctx, {
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
export async function liveZones(q: Tx | Db, ctx: TenantContext): Promise<ShippingZoneView[]> {
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
export async function replaceAll(audit: ShippingAudit, tx: Tx, ctx: RequestContext, zones: ShippingZoneView[]) {
  checkZones(zones);
  const liveZoneRows = await tx.select().from(sz).where(eq(sz.tenantId, ctx.tenantId)).for('update');
  const liveMethodRows = await tx.select().from(sm).where(eq(sm.tenantId, ctx.tenantId)).for('update');
  const wanted = new Map(zones.map((z) => [z.zoneId, z]));
  const wantedMethods = new Map(zones.flatMap((z) => z.methods.map((m) => [m.methodId, z.zoneId] as const)));
  // Deletes first, so a method or zone a new row replaces never counts twice against a limit.
  for (const m of liveMethodRows)
    if (wantedMethods.get(m.methodId) !== m.zoneId) await deleteMethodRow(audit, tx, ctx, m as MethodRow);
  for (const z of liveZoneRows) {
    if (wanted.has(z.zoneId)) continue;
    await tx.delete(sz).where(and(eq(sz.tenantId, ctx.tenantId), eq(sz.zoneId, z.zoneId)));
    await audit.record(tx, ctx, {
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
      await audit.record(tx, ctx, {
        entity: 'shipping_zone',
        entityId: z.zoneId,
        action: 'update',
        before: { name: was.name, countries: was.countries, states: was.states },
        after: next,
      });
    } else {
      await tx.insert(sz).values({ tenantId: ctx.tenantId, zoneId: z.zoneId, ...next, sequenceNum: i });
      await audit.record(tx, ctx, {
        entity: 'shipping_zone',
        entityId: z.zoneId,
        action: 'create',
        after: next,
      });
    }
    for (const [j, m] of z.methods.entries()) {
      const input = { ...m, methodId: undefined, zoneId: undefined };
      const had = liveMethod.get(m.methodId);
      if (had && had.zoneId === z.zoneId) await updateMethodRow(audit, tx, ctx, had, input, j);
      else await insertMethod(audit, tx, ctx, z.zoneId, input, j, m.methodId);
    }
  }
}
