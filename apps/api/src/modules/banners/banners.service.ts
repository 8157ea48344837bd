import { randomBytes } from 'node:crypto';
import { BANNERS_MAX, type Banner, type BannerItem, type BannersWorking, bannerInputSchema } from '@app/contracts';
import type { Db } from '@app/db';
import type { z } from 'zod';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import { absoluteMediaUrl } from '../../lib/urls';
import { isPlainObject, ownMediaPath, takeReadOnly, unchanged } from '../../lib/write-back';
import { storeIdFor } from '../../plugins/tenancy';
import type { DraftsService } from '../drafts/index';
import type { MediaService } from '../media/index';
import type { TenantService } from '../tenant/index';
import { bannersKind, isOwnMediaPath, readLiveBanners } from './banners.kind';

export interface BannersDeps {
  drafts: DraftsService;
  media: Pick<MediaService, 'find'>;
  tenants: TenantService;
}

/** Adding a banner: the store keeps as many as it may (BANNERS_MAX); one must go first (decision 088). */
export type AddBannerRefusal = Refusal<'UNPROCESSABLE'>;
/** A banner is shown within its dates: from `startsAt` (inclusive) until `endsAt` (exclusive). */
export function showingAt(item: Pick<BannerItem, 'startsAt' | 'endsAt'>, now: Date): boolean {
  const t = now.getTime();
  return (!item.startsAt || Date.parse(item.startsAt) <= t) && (!item.endsAt || Date.parse(item.endsAt) > t);
}

/** A banner as the storefront shows it (GET /api/v1/product/banner/fetch and the home). */
export function publicBanner(ctx: TenantContext, item: BannerItem): Banner {
  return {
    bannerId: item.bannerId,
    title: item.title ?? '',
    subtitle: item.text,
    imageUrl: absoluteMediaUrl(ctx, item.imageUrl) ?? item.imageUrl,
    altText: item.altText,
    linkUrl: item.linkUrl,
    ctaLabel: item.ctaLabel,
  };
}

/** An input's validation failure as the API and forms show it: the first field named. */
function invalid(error: z.ZodError, prefix = ''): AppError {
  const first = error.issues[0];
  const field = first?.path.join('.') ?? '';
  const errors = error.issues.slice(0, 20).map((i) => `${prefix}${i.path.join('.')}: ${i.message}`);
  const err = new AppError(400, 'VALIDATION_FAILED', `${prefix}${field}: ${first?.message ?? 'not valid.'}`, errors);
  if (!prefix && first) {
    err.field = String(first.path[0]);
    err.fieldMessage = first.message.charAt(0).toUpperCase() + first.message.slice(1);
  }
  return err;
}

const newBannerId = () => `BNR-${randomBytes(6).toString('hex')}`;

/**
 * The owner's banners. Every change edits the store's one banners draft (the
 * whole ordered list) through the drafts service, which validates, saves and audits it; publishing,
 * discarding and restoring versions are the drafts service's generic routes. Two owners editing at
 * the same moment: the later save wins (the draft is one row; its audit entries show both).
 */
export function createBannersService(db: Db, deps: BannersDeps) {
  const { drafts } = deps;

  async function storeOf(ctx: RequestContext, requested?: string | null) {
    requireAccess(ctx, 'settings');
    return storeIdFor(ctx, deps.tenants, requested);
  }

  async function workingList(ctx: RequestContext, storeId: string): Promise<{ list: BannerItem[]; isDraft: boolean }> {
    const draft = await drafts.get(ctx, bannersKind, storeId);
    if (draft) return { list: draft.payload, isDraft: true };
    return { list: await readLiveBanners(db, ctx, storeId), isDraft: false };
  }

  /** Turns an owner's input into a draft item: the picture comes from this store's library only. */
  async function toItem(
    ctx: RequestContext,
    raw: unknown,
    existing: BannerItem | undefined,
    prefix = '',
  ): Promise<BannerItem> {
    const parsed = bannerInputSchema.safeParse(raw);
    if (!parsed.success) throw invalid(parsed.error, prefix);
    const input = parsed.data;
    let mediaId = existing?.mediaId ?? null;
    let imageUrl = existing?.imageUrl ?? null;
    if (input.mediaId && input.mediaId !== existing?.mediaId) {
      const found = (await deps.media.find(ctx, [input.mediaId])).get(input.mediaId);
      // Another store's picture is simply not in this library.
      if (!found) {
        const err = AppError.field(422, 'UNPROCESSABLE', `${prefix}mediaId`, 'no such picture in your media library.');
        if (prefix) delete err.field;
        throw err;
      }
      mediaId = found.mediaId;
      imageUrl = found.url;
    }
    if (!imageUrl || !isOwnMediaPath(ctx.tenantId, imageUrl)) {
      const err = AppError.field(400, 'VALIDATION_FAILED', `${prefix}mediaId`, 'choose or upload a picture.');
      if (prefix) delete err.field;
      throw err;
    }
    return {
      bannerId: existing?.bannerId ?? newBannerId(),
      mediaId,
      imageUrl,
      altText: input.altText,
      title: input.title,
      text: input.text,
      ctaLabel: input.ctaLabel,
      linkUrl: input.linkUrl,
      // One spelling of a time (as the live rows give it back), so versions compare equal.
      startsAt: input.startsAt && new Date(input.startsAt).toISOString(),
      endsAt: input.endsAt && new Date(input.endsAt).toISOString(),
    };
  }

  /**
   * Saves the list as the draft, unless it is the working list already: writing back what was read
   * saves nothing, audits nothing, and answers the working list as it stands.
   */
  async function save(ctx: RequestContext, storeId: string, list: BannerItem[]): Promise<BannersWorking> {
    const current = await workingList(ctx, storeId);
    if (unchanged(list, current.list))
      return { productStoreId: storeId, banners: current.list, isDraft: current.isDraft };
    await drafts.save(ctx, bannersKind, storeId, list);
    return { productStoreId: storeId, banners: list, isDraft: true };
  }

  /**
   * A banner as a read answers it, back to an input: `bannerId` and `imageUrl`
   * are read-only, taken when they are the banner's as read (the picture changes with mediaId),
   * refused naming the field otherwise. Other keys are left for the input's schema to judge.
   */
  function takeBannerReadOnly(ctx: RequestContext, raw: unknown, existing: BannerItem | undefined, prefix = '') {
    if (!isPlainObject(raw)) return raw;
    const out: Record<string, unknown> = { ...raw };
    for (const field of ['bannerId', 'imageUrl'] as const) {
      if (!(field in out)) continue;
      const sent = field === 'imageUrl' ? ownMediaPath(ctx, out[field]) : out[field];
      if (!existing || sent !== existing[field]) {
        const err = AppError.field(
          400,
          'VALIDATION_FAILED',
          `${prefix}${field}`,
          'is read-only: send it as read, or leave it out',
        );
        if (prefix) delete err.field;
        throw err;
      }
      delete out[field];
    }
    return out;
  }

  /** The input fields of a banner of the draft: what a patch is laid over. */
  function inputOf(item: BannerItem) {
    const { bannerId: _id, imageUrl: _url, ...input } = item;
    return input;
  }

  function indexOf(list: BannerItem[], bannerId: string) {
    const i = list.findIndex((x) => x.bannerId === bannerId);
    if (i < 0) throw AppError.notFound('There is no such banner in this store.');
    return i;
  }

  return {
    kind: bannersKind,

    /** What the banners page edits: the draft if there is one, else what is live. */
    async working(ctx: RequestContext, requestedStore?: string | null): Promise<BannersWorking> {
      const storeId = await storeOf(ctx, requestedStore);
      const { list, isDraft } = await workingList(ctx, storeId);
      return { productStoreId: storeId, banners: list, isDraft };
    },

    /**
     * 404 unless the store (and the banner, when named) is this site's: the writes ask before the
     * body is read, so another store's owner learns nothing from a body's errors.
     */
    async assertTarget(ctx: RequestContext, requestedStore?: string | null, bannerId?: string) {
      const storeId = await storeOf(ctx, requestedStore);
      if (bannerId !== undefined) indexOf((await workingList(ctx, storeId)).list, bannerId);
    },

    /** Adds a banner at the end of the draft; refused when the store has as many as it may keep. */
    async add(
      ctx: RequestContext,
      input: unknown,
      requestedStore?: string | null,
    ): Promise<Result<{ bannerId: string; working: BannersWorking }, AddBannerRefusal>> {
      const storeId = await storeOf(ctx, requestedStore);
      const { list } = await workingList(ctx, storeId);
      if (list.length >= BANNERS_MAX) {
        return refuse(422, 'UNPROCESSABLE', `A store keeps at most ${BANNERS_MAX} banners; delete one first.`);
      }
      const item = await toItem(ctx, input, undefined);
      const working = await save(ctx, storeId, [...list, item]);
      return ok({ bannerId: item.bannerId, working });
    },

    /**
     * Changes one banner of the draft: a patch, fields left out keep their values (a picture not
     * given keeps the one it had). 404 for an unknown id.
     */
    async update(ctx: RequestContext, bannerId: string, input: unknown, requestedStore?: string | null) {
      const storeId = await storeOf(ctx, requestedStore);
      const { list } = await workingList(ctx, storeId);
      const i = indexOf(list, bannerId);
      const existing = list[i] as BannerItem;
      const patch = takeBannerReadOnly(ctx, input, existing);
      const given = isPlainObject(patch)
        ? Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
        : patch;
      const item = await toItem(ctx, isPlainObject(given) ? { ...inputOf(existing), ...given } : given, existing);
      return save(
        ctx,
        storeId,
        list.map((x, j) => (j === i ? item : x)),
      );
    },

    async remove(ctx: RequestContext, bannerId: string, requestedStore?: string | null) {
      const storeId = await storeOf(ctx, requestedStore);
      const { list } = await workingList(ctx, storeId);
      const i = indexOf(list, bannerId);
      return save(
        ctx,
        storeId,
        list.filter((_, j) => j !== i),
      );
    },

    /** Puts the draft's banners in this order; every id of the draft exactly once. */
    async reorder(ctx: RequestContext, bannerIds: string[], requestedStore?: string | null) {
      const storeId = await storeOf(ctx, requestedStore);
      const { list } = await workingList(ctx, storeId);
      const byId = new Map(list.map((x) => [x.bannerId, x]));
      if (bannerIds.length !== list.length || new Set(bannerIds).size !== list.length) {
        throw AppError.field(422, 'UNPROCESSABLE', 'bannerIds', 'list every banner of the store exactly once.');
      }
      const ordered = bannerIds.map((id) => byId.get(id));
      if (ordered.some((x) => !x)) throw AppError.notFound('There is no such banner in this store.');
      return save(ctx, storeId, ordered as BannerItem[]);
    },

    /** One step up or down (the keyboard's and the no-JavaScript way to reorder). */
    async move(ctx: RequestContext, bannerId: string, by: -1 | 1, requestedStore?: string | null) {
      const storeId = await storeOf(ctx, requestedStore);
      const { list } = await workingList(ctx, storeId);
      const i = indexOf(list, bannerId);
      const j = i + by;
      if (j < 0 || j >= list.length) return { productStoreId: storeId, banners: list, isDraft: true };
      const next = [...list];
      [next[i], next[j]] = [next[j] as BannerItem, next[i] as BannerItem];
      return save(ctx, storeId, next);
    },

    /**
     * Replaces the whole draft (API clients): banners without an id are new. The draft read's
     * productStoreId and isDraft may come along, as read.
     */
    async replace(
      ctx: RequestContext,
      inputs: unknown[],
      requestedStore?: string | null,
      readOnly: { productStoreId?: string; isDraft?: boolean } = {},
    ) {
      const storeId = await storeOf(ctx, requestedStore);
      const { list, isDraft } = await workingList(ctx, storeId);
      takeReadOnly(readOnly, { productStoreId: storeId, isDraft }, ['productStoreId', 'isDraft']);
      const byId = new Map(list.map((x) => [x.bannerId, x]));
      const items: BannerItem[] = [];
      for (const [i, raw] of inputs.entries()) {
        const id = (raw as { bannerId?: unknown } | null)?.bannerId;
        const existing = typeof id === 'string' ? byId.get(id) : undefined;
        if (typeof id === 'string' && !existing) throw AppError.notFound(`banners.${i}.bannerId: no such banner.`);
        const prefix = `banners.${i}.`;
        items.push(await toItem(ctx, takeBannerReadOnly(ctx, raw, existing, prefix), existing, prefix));
      }
      return save(ctx, storeId, items);
    },

    /** The draft banners the owner's storefront preview shows instead of the live ones (null otherwise). */
    async preview(ctx: RequestContext): Promise<Banner[] | null> {
      const draft = await drafts.preview(ctx, bannersKind, ctx.productStoreId);
      if (!draft) return null;
      const now = new Date();
      return draft.filter((x) => showingAt(x, now)).map((x) => publicBanner(ctx, x));
    },
  };
}

export type BannersService = ReturnType<typeof createBannersService>;
