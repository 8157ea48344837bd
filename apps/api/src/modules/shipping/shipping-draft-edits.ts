/**
 * Shipping's draft (decision 120): the draft kind the drafts seam publishes, and the owner's edits
 * to it (start, save whole, a zone or a method added, changed or deleted, publish, discard). Separate
 * from the service because none of it touches what shoppers pay until a publish, which goes through
 * the same audited row writes as the direct routes (shipping-rows.ts).
 */
import type {
  ShippingDraftInput,
  ShippingMethodInput,
  ShippingMethodView,
  ShippingSettings,
  ShippingZoneInput,
  ShippingZoneView,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { type Ok, ok, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import { type DraftsService, defineDraftKind } from '../drafts/index';
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
import { liveZones, newId, replaceAll, type ShippingAudit, type ShippingRefusal, sz } from './shipping-rows';
import type { ShippingTables } from './shipping-tables';

/** The draft's state as the page shows it: who saved it last, and when (what a publish says it saw). */
export interface ShippingDraftState {
  updatedAt: string;
  updatedByName: string | null;
}

/**
 * Registers shipping's draft kind and answers the service's draft methods (`methods`, spread into
 * the service as they are) and `readDraft`, which the preview prices beside what is live.
 */
export function createShippingDrafts(
  db: Db,
  deps: { audit: ShippingAudit; drafts: DraftsService; tables: ShippingTables },
) {
  const { tables } = deps;

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
        await replaceAll(deps.audit, tx, ctx, draft.zones);
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

  return {
    readDraft,
    methods: {
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
                throw new Refused(
                  refuseField(422, 'UNPROCESSABLE', 'methods', `the zone has no method ${m.methodId}.`),
                );
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
    },
  };
}
