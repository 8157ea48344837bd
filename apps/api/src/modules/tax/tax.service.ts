import type {
  TaxClass,
  TaxDraftInput,
  TaxOverview,
  TaxRate,
  TaxRateInput,
  TaxSettings,
  TaxSettingsInput,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { type Ok, ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import { type DraftsService, defineDraftKind } from '../drafts/index';
import { COUNTRIES } from '../geo/index';
import { writeProductTaxClass } from '../products/index';
import { describeTaxChange, TAX_DRAFT_KEY, type TaxDraft, taxDraftSchema, taxFingerprint } from './tax-draft';

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

/** A rate as the page shows it: from its row, or from its input for a draft (which has no rows). */
function rateView(r: TaxRateInput): TaxRate {
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

/** The draft's state as the page shows it: who saved it last, and when (what a publish says it saw). */
export interface TaxDraftState {
  updatedAt: string;
  updatedByName: string | null;
}

export interface TaxDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  drafts: DraftsService;
}

const rateColumns = (r: TaxRate) => ({
  label: r.label,
  rateBasisPoints: r.rateBasisPoints,
  reducedBasisPoints: r.reducedBasisPoints,
  taxShipping: r.taxShipping,
});

const noRate = (rateId: string) => refuse(404, 'NOT_FOUND', `No tax rate ${rateId} in this store.`);
const taken = (input: { countryGeoId: string; regionGeoId: string }) =>
  refuseField(
    409,
    'CONFLICT',
    'regionGeoId',
    `${placeName(input.countryGeoId, input.regionGeoId)} has a rate already: change that one.`,
  );

/**
 * A store's tax settings and rates (decision 116). Every write is audited and announced as
 * `settings.changed`, so checkout's cached tables (every process) forget the store at once.
 */
export function createTaxService(db: Db, deps: TaxDeps) {
  async function settings(ctx: TenantContext, q: Tx | Db = db): Promise<TaxSettings> {
    const [row] = await q
      .select({ pricesIncludeTax: ts.pricesIncludeTax, taxNumber: ts.taxNumber })
      .from(ts)
      .where(eq(ts.tenantId, ctx.tenantId));
    return row ?? DEFAULT_TAX_SETTINGS;
  }

  async function rates(ctx: TenantContext, q: Tx | Db = db): Promise<TaxRate[]> {
    const rows = await q.select().from(tr).where(eq(tr.tenantId, ctx.tenantId));
    return rows.map(rateView).sort(byPlace);
  }

  const changed = (tx: Tx, ctx: TenantContext) =>
    deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'tax' });

  /**
   * Makes the store's settings and rates exactly the draft's, inside the publish: rates the draft
   * no longer has are deleted, new ones inserted, changed ones updated. Each change is audited as
   * the direct writes audit it (an unchanged row records nothing), so the log reads the same
   * whichever way a change went live.
   */
  async function replaceAll(tx: Tx, ctx: RequestContext, draft: TaxDraft) {
    const liveSettings = await settings(ctx, tx);
    if (JSON.stringify(liveSettings) !== JSON.stringify(draft.settings)) {
      await tx
        .insert(ts)
        .values({ tenantId: ctx.tenantId, ...draft.settings })
        .onConflictDoUpdate({ target: ts.tenantId, set: draft.settings });
      await deps.audit.record(tx, ctx, {
        entity: 'tax.settings',
        entityId: ctx.tenantId,
        action: 'update',
        before: liveSettings,
        after: draft.settings,
      });
    }
    const live = new Map((await rates(ctx, tx)).map((r) => [r.rateId, r]));
    const wanted = new Set(draft.rates.map((r) => r.rateId));
    const where = (r: TaxRate) =>
      and(eq(tr.tenantId, ctx.tenantId), eq(tr.countryGeoId, r.countryGeoId), eq(tr.regionGeoId, r.regionGeoId));
    for (const r of live.values()) {
      if (wanted.has(r.rateId)) continue;
      await tx.delete(tr).where(where(r));
      await deps.audit.record(tx, ctx, {
        entity: 'tax.rate',
        entityId: r.rateId,
        action: 'delete',
        before: rateColumns(r),
        after: null,
      });
    }
    for (const r of draft.rates) {
      const was = live.get(r.rateId);
      const next = rateColumns(r);
      if (!was) {
        const place = { countryGeoId: r.countryGeoId, regionGeoId: r.regionGeoId };
        await tx.insert(tr).values({ tenantId: ctx.tenantId, ...place, ...next });
        await deps.audit.record(tx, ctx, {
          entity: 'tax.rate',
          entityId: r.rateId,
          action: 'create',
          before: null,
          after: { ...place, ...next },
        });
      } else if (JSON.stringify(rateColumns(was)) !== JSON.stringify(next)) {
        await tx.update(tr).set(next).where(where(r));
        await deps.audit.record(tx, ctx, {
          entity: 'tax.rate',
          entityId: r.rateId,
          action: 'update',
          before: rateColumns(was),
          after: next,
        });
      }
    }
  }

  const changedMeanwhile = () =>
    new Refused(
      refuse(
        409,
        'CONFLICT',
        'Taxes were changed directly after this draft was started, so publishing it would undo that change. Discard the draft and make your changes again.',
      ),
    );

  async function liveDraft(q: Tx | Db, ctx: TenantContext): Promise<TaxDraft> {
    const [s, r] = [await settings(ctx, q), await rates(ctx, q)];
    return { basedOn: taxFingerprint(s, r), settings: s, rates: r };
  }

  const draftKind = deps.drafts.register(
    defineDraftKind<TaxDraft>({
      kind: 'tax',
      entity: 'tax',
      what: 'tax',
      payload: taxDraftSchema,
      readLive: (q, ctx) => liveDraft(q, ctx),
      async applyLive(tx, ctx, _key, draft) {
        // The draft row is locked by the publish; the settings and rates are locked here, so a
        // direct write waits for the publish, and a publish over one that committed first is refused.
        await tx.select({ t: ts.tenantId }).from(ts).where(eq(ts.tenantId, ctx.tenantId)).for('update');
        await tx.select({ t: tr.tenantId }).from(tr).where(eq(tr.tenantId, ctx.tenantId)).for('update');
        if ((await liveDraft(tx, ctx)).basedOn !== draft.basedOn) throw changedMeanwhile();
        await replaceAll(tx, ctx, draft);
      },
      async rebase(q, ctx, _key, draft) {
        return { ...draft, basedOn: (await liveDraft(q, ctx)).basedOn };
      },
      describe: (before, after) => describeTaxChange(before, after),
    }),
  );

  /** The draft if there is one: its settings and rates, and who saved it when. */
  async function readDraft(ctx: RequestContext) {
    const draft = await deps.drafts.get(ctx, draftKind, TAX_DRAFT_KEY);
    if (!draft) return null;
    const parsed = taxDraftSchema.safeParse(draft.payload);
    if (!parsed.success) return null;
    return {
      payload: parsed.data,
      state: { updatedAt: draft.updatedAt.toISOString(), updatedByName: draft.updatedByName } as TaxDraftState,
    };
  }

  /**
   * One change to the draft (starting it from what is live when there is none), checked as the
   * direct write checks it, then saved (audited as `draft.save`). Checkout sees none of it.
   */
  async function editDraft<T>(
    ctx: RequestContext,
    edit: (draft: { settings: TaxSettings; rates: TaxRate[] }) => { settings: TaxSettings; rates: TaxRate[]; value: T },
  ): Promise<Result<T, TaxRateRefusal>> {
    requireAccess(ctx, 'settings');
    return returnRefusals<Ok<T>, TaxRateRefusal>(async () => {
      const base = (await readDraft(ctx))?.payload ?? (await liveDraft(db, ctx));
      const next = edit(structuredClone({ settings: base.settings, rates: base.rates }));
      const payload: TaxDraft = { basedOn: base.basedOn, settings: next.settings, rates: next.rates.sort(byPlace) };
      await deps.drafts.save(ctx, draftKind, TAX_DRAFT_KEY, payload);
      return ok(next.value);
    });
  }

  /** A rate of the draft by id, or a 404 refusal as the live routes answer. */
  function draftRate(list: TaxRate[], rateId: string) {
    const i = list.findIndex((r) => r.rateId === rateId);
    if (i < 0) throw new Refused(noRate(rateId));
    return i;
  }

  return {
    /** The draft's settings and rates, and who saved it when; null while what is live is all there is. */
    async draft(ctx: RequestContext): Promise<(TaxOverview & { draft: TaxDraftState }) | null> {
      requireAccess(ctx, 'settings');
      const d = await readDraft(ctx);
      return d ? { settings: d.payload.settings, rates: d.payload.rates, draft: d.state } : null;
    },

    /** Starts a draft from what is live (nothing changes for shoppers until it is published). */
    startDraft: (ctx: RequestContext) => editDraft(ctx, (d) => ({ ...d, value: undefined })),

    /**
     * The whole draft at once (the API's PUT): what GET /api/v1/tax answers, changed, can be sent.
     * Every place is checked as the add route checks it; a place twice is refused.
     */
    saveDraft: (ctx: RequestContext, input: TaxDraftInput) =>
      editDraft(ctx, () => {
        const seen = new Set<string>();
        const list = input.rates.map(({ rateId: _id, placeName: _name, ...r }) => {
          const bad = checkPlace(r);
          if (bad) throw new Refused(bad);
          const rate = rateView(r);
          if (seen.has(rate.rateId)) throw new Refused(taken(r));
          seen.add(rate.rateId);
          return rate;
        });
        return { settings: input.settings, rates: list, value: undefined };
      }),

    draftSaveSettings: (ctx: RequestContext, input: TaxSettingsInput) =>
      editDraft(ctx, (d) => {
        const next = { pricesIncludeTax: input.pricesIncludeTax, taxNumber: input.taxNumber };
        return { settings: next, rates: d.rates, value: next };
      }),

    draftAddRate: (ctx: RequestContext, input: TaxRateInput) =>
      editDraft(ctx, (d) => {
        const bad = checkPlace(input);
        if (bad) throw new Refused(bad);
        const rate = rateView(input);
        if (d.rates.some((r) => r.rateId === rate.rateId)) throw new Refused(taken(input));
        return { settings: d.settings, rates: [...d.rates, rate], value: rate };
      }),

    draftChangeRate: (ctx: RequestContext, rateId: string, input: Omit<TaxRateInput, 'countryGeoId' | 'regionGeoId'>) =>
      editDraft(ctx, (d) => {
        const i = draftRate(d.rates, rateId);
        const was = d.rates[i] as TaxRate;
        const rate = rateView({ ...input, countryGeoId: was.countryGeoId, regionGeoId: was.regionGeoId });
        return { settings: d.settings, rates: d.rates.map((r, j) => (j === i ? rate : r)), value: rate };
      }),

    draftRemoveRate: (ctx: RequestContext, rateId: string) =>
      editDraft(ctx, (d) => {
        const i = draftRate(d.rates, rateId);
        return { settings: d.settings, rates: d.rates.filter((_, j) => j !== i), value: { rateId } };
      }),

    /** Publishes the draft (the drafts seam: atomic, versioned, audited); `seen` as the page showed it. */
    publishDraft: (ctx: RequestContext, seen?: string) => deps.drafts.publish(ctx, draftKind, TAX_DRAFT_KEY, { seen }),

    discardDraft: (ctx: RequestContext) => deps.drafts.discard(ctx, draftKind, TAX_DRAFT_KEY),

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
     * quote, so there is nothing to forget; a change is audited on the product.
     */
    async setProductClass(ctx: RequestContext, productId: string, taxClass: TaxClass): Promise<void> {
      requireAccess(ctx, 'catalog');
      await deps.events.transaction(async (tx) => {
        const before = await writeProductTaxClass(tx, ctx, deps.audit, productId, taxClass);
        if (!before) throw AppError.notFound(`Product ${productId.slice(0, 64)} not found.`);
      });
    },
  };
}
export type TaxService = ReturnType<typeof createTaxService>;
