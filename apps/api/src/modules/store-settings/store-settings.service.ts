import { isDeepStrictEqual } from 'node:util';
import {
  type DetailsDraft,
  type DraftSaved,
  type SeoMetaEntry,
  STORE_DETAIL_READ_ONLY,
  type StoreConfig,
  type StoreDetails,
  type ThemeDraft,
  themeDraftSchema,
} from '@app/contracts';
import { contrastWarnings } from '@app/contracts/client';
import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { sanitizeNewsletterEmbed } from '../../lib/sanitize';
import { absoluteMediaUrl } from '../../lib/urls';
import { isPlainObject, ownMediaPath, takeReadOnly } from '../../lib/write-back';
import type { DraftKind, DraftsService } from '../drafts/index';
import { detailsKind, themeKind } from './kinds';

const THEME_KEYS = ['template', 'theme', 'themeColors'] as const;
/** The details' nested objects: a patch names the fields it changes inside them too. */
const NESTED = ['logo', 'companyAddress', 'companyContact', 'newsLetter', 'chat', 'themeColors'] as const;

/** `base` with the fields `patch` names, one level into the nested objects. */
function mergePatch(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const inner = out[k];
    out[k] =
      (NESTED as readonly string[]).includes(k) && isPlainObject(v) && isPlainObject(inner) ? { ...inner, ...v } : v;
  }
  return out;
}

/**
 * The theme and store details editors (decision 033) on top of the drafts seam: a save
 * is a draft, publishing is the drafts service's, and the storefront shows a draft only in the
 * owner's preview (`overlay*`).
 */
export function createStoreSettingsService(db: Db, deps: { drafts: DraftsService }) {
  const { drafts } = deps;
  drafts.register(themeKind);
  drafts.register(detailsKind);

  /** The store's live state under this kind, or 404 for an id that is not a store of this tenant. */
  async function live<T>(ctx: RequestContext, kind: DraftKind<T>, id: string): Promise<T> {
    const value = await kind.readLive(db, ctx, id);
    if (!value) throw AppError.notFound(`Store ${id.slice(0, 32)} is not a store of this site.`);
    return value;
  }

  /** The details read's fields that no write changes, as the read answers them. */
  async function readOnlyValues(ctx: RequestContext, id: string): Promise<Record<string, string>> {
    const [row] = await db
      .select({ storeName: schema.productStores.storeName, currencyUomId: schema.productStores.currencyUomId })
      .from(schema.productStores)
      .where(and(eq(schema.productStores.tenantId, ctx.tenantId), eq(schema.productStores.productStoreId, id)))
      .limit(1);
    if (!row) throw AppError.notFound(`Store ${id.slice(0, 32)} is not a store of this site.`);
    return { productStoreId: id, storeName: row.storeName, currencyUomId: row.currencyUomId };
  }

  async function working<T>(ctx: RequestContext, kind: DraftKind<T>, id: string): Promise<T> {
    const { payload } = await drafts.working(ctx, kind, id);
    return payload ?? (await live(ctx, kind, id));
  }

  const service = {
    themeKind,
    detailsKind,

    /** Saves the theme as a draft; answers the colours' contrast warnings (never a refusal). */
    async saveTheme(ctx: RequestContext, id: string, body: unknown): Promise<DraftSaved> {
      requireAccess(ctx, 'settings');
      const current = await working(ctx, themeKind, id);
      const same = isDeepStrictEqual(themeDraftSchema.safeParse(body).data, current);
      // Writing back what was read saves nothing and leaves the audit log alone.
      const saved = same ? { updatedAt: new Date() } : await drafts.save(ctx, themeKind, id, body);
      const parsed = themeDraftSchema.parse(body);
      return {
        kinds: same ? [] : ['theme'],
        key: id,
        updatedAt: saved.updatedAt.toISOString(),
        published: false,
        warnings: contrastWarnings(parsed.themeColors),
      };
    },

    /**
     * The details update's body as a whole payload: the working details (and
     * theme, when the body names a theme field) with the fields the body names laid over. What
     * the details read answers is taken back as it is: its read-only fields when they are as read,
     * its absolute logo URL of this store's own media, its sanitised newsletter embed, its null
     * contactPage. Runs before the body's schema, after the caller's permission and the store id.
     */
    async detailsPatchBody(ctx: RequestContext, id: string, body: unknown): Promise<unknown> {
      requireAccess(ctx, 'settings');
      const details = await working(ctx, detailsKind, id);
      if (!isPlainObject(body)) return body;
      const patch = takeReadOnly(body, await readOnlyValues(ctx, id), STORE_DETAIL_READ_ONLY);
      if (patch.contactPage === null) delete patch.contactPage;
      const logo = patch.logo;
      if (isPlainObject(logo) && 'url' in logo) patch.logo = { ...logo, url: ownMediaPath(ctx, logo.url) };
      const news = patch.newsLetter;
      const liveEmbed = details.newsLetter.iframe;
      if (isPlainObject(news) && liveEmbed && news.iframe === sanitizeNewsletterEmbed(liveEmbed)) {
        patch.newsLetter = { ...news, iframe: liveEmbed };
      }
      const namesTheme = THEME_KEYS.some((k) => k in patch);
      const base = namesTheme ? { ...details, ...(await working(ctx, themeKind, id)) } : details;
      return mergePatch(base as unknown as Record<string, unknown>, patch);
    },

    /**
     * Saves the store details as a draft. The the product's rules path carries theme fields too: when the body
     * has any, the theme draft takes them (over the working theme), checked before either is saved.
     * A part equal to its working value is not saved again: writing back what was read changes
     * nothing, not even the audit log (`kinds` lists what was saved, empty when nothing).
     */
    async saveDetails(ctx: RequestContext, id: string, body: Record<string, unknown>): Promise<DraftSaved> {
      requireAccess(ctx, 'settings');
      const current = await working(ctx, detailsKind, id);
      const details: Record<string, unknown> = {};
      const themePart: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(body)) {
        if ((THEME_KEYS as readonly string[]).includes(k)) themePart[k] = v;
        else details[k] = v;
      }
      let theme: ThemeDraft | null = null;
      if (Object.keys(themePart).length) {
        const base = await working(ctx, themeKind, id);
        const merged = { ...base, ...themePart };
        const checked = themeKind.payload.safeParse(merged);
        // drafts.save answers the 400 naming the field; nothing is saved before both are valid.
        if (!checked.success) await drafts.save(ctx, themeKind, id, merged);
        theme = checked.data ?? null;
      }
      assertOwnMedia(ctx, details.logo);
      const parsedDetails = detailsKind.payload.safeParse(details);
      const detailsSame = parsedDetails.success && isDeepStrictEqual(parsedDetails.data, current);
      const themeSame = theme !== null && isDeepStrictEqual(theme, await working(ctx, themeKind, id));
      const kinds: string[] = [];
      let updatedAt = new Date();
      if (!detailsSame) {
        updatedAt = (await drafts.save(ctx, detailsKind, id, details)).updatedAt;
        kinds.push('details');
      }
      if (theme && !themeSame) {
        updatedAt = (await drafts.save(ctx, themeKind, id, theme)).updatedAt;
        kinds.push('theme');
      }
      return {
        kinds,
        key: id,
        updatedAt: updatedAt.toISOString(),
        published: false,
        warnings: theme ? contrastWarnings(theme.themeColors) : [],
      };
    },

    /**
     * The theme update's body with what the config read (`GET /api/v1/store/config/fetch`) carries
     * besides the theme taken back: productStoreId and chat, when they are as read (chat is changed
     * with the details). Runs before the body's schema, after the caller's permission.
     */
    async themeWriteBack(ctx: RequestContext, id: string, body: unknown): Promise<unknown> {
      requireAccess(ctx, 'settings');
      const details = await working(ctx, detailsKind, id);
      if (!isPlainObject(body)) return body;
      // chat is read here but changed with the store details.
      const current = { productStoreId: id, chat: { dataWidgetId: details.chat.dataWidgetId } };
      return takeReadOnly(body, current, ['productStoreId', 'chat']);
    },

    /** 404 unless `id` is a store of this tenant: routes ask before the body is read. */
    async assertStore(ctx: RequestContext, id: string): Promise<void> {
      requireAccess(ctx, 'settings');
      await readOnlyValues(ctx, id);
    },

    /** The store's name (the SEO `default` entry's usual title). */
    async storeName(ctx: RequestContext, id: string): Promise<{ storeName: string }> {
      const [row] = await db
        .select({ storeName: schema.productStores.storeName })
        .from(schema.productStores)
        .where(and(eq(schema.productStores.tenantId, ctx.tenantId), eq(schema.productStores.productStoreId, id)))
        .limit(1);
      if (!row) throw AppError.notFound(`Store ${id.slice(0, 32)} is not a store of this site.`);
      return row;
    },

    /** What the theme editor starts from: the draft, else what is live. */
    workingTheme: (ctx: RequestContext, id: string) => working(ctx, themeKind, id),
    workingDetails: (ctx: RequestContext, id: string) => working(ctx, detailsKind, id),

    /** The storefront's details with the theme and details drafts laid over, in the owner's preview only. */
    async overlayDetails(ctx: RequestContext, base: StoreDetails): Promise<StoreDetails> {
      if (!ctx.preview) return base;
      const [theme, details] = await Promise.all([
        drafts.preview(ctx, themeKind, base.productStoreId),
        drafts.preview(ctx, detailsKind, base.productStoreId),
      ]);
      let out = base;
      if (theme) out = { ...out, template: theme.template, theme: theme.theme, themeColors: theme.themeColors };
      if (details) out = { ...out, ...detailsView(ctx, details) };
      return out;
    },

    async overlayConfig(ctx: RequestContext, base: StoreConfig): Promise<StoreConfig> {
      if (!ctx.preview) return base;
      const [theme, details] = await Promise.all([
        drafts.preview(ctx, themeKind, base.productStoreId),
        drafts.preview(ctx, detailsKind, base.productStoreId),
      ]);
      let out = base;
      if (theme) out = { ...out, template: theme.template, theme: theme.theme, themeColors: theme.themeColors };
      if (details) out = { ...out, chat: { dataWidgetId: details.chat.dataWidgetId } };
      return out;
    },

    async overlaySeo(ctx: RequestContext, base: SeoMetaEntry[]): Promise<SeoMetaEntry[]> {
      if (!ctx.preview) return base;
      const details = await drafts.preview(ctx, detailsKind, ctx.productStoreId);
      return details ? details.seoMeta : base;
    },
  };
  return service;
}

/**
 * A logo path of our media must be this store's own (`/media/<area>/<tenantId>/...`, the media
 * route's rule): another store's image would show as a broken logo, and is nobody's business here.
 */
function assertOwnMedia(ctx: RequestContext, logo: unknown) {
  const url = (logo as { url?: unknown } | null | undefined)?.url;
  if (typeof url !== 'string' || !url.trim().startsWith('/media/')) return;
  if (url.trim().split('/')[3] !== ctx.tenantId) {
    throw AppError.field(400, 'VALIDATION_FAILED', 'logo.url', "use an image of this store's media (/media/...)");
  }
}

/** A details draft as the storefront reads it: the same sanitising and URLs as what is live. */
function detailsView(ctx: RequestContext, d: DetailsDraft): Partial<StoreDetails> {
  return {
    logo: {
      url: absoluteMediaUrl(ctx, d.logo.url),
      headerTitle: d.logo.headerTitle,
      headerDescription: d.logo.headerDescription,
    },
    newsLetter: { iframe: d.newsLetter.iframe ? sanitizeNewsletterEmbed(d.newsLetter.iframe) : null },
    contactPage: d.contactPage,
    companyName: d.companyName,
    companyAddress: d.companyAddress,
    emailAddress: d.emailAddress,
    companyContact: d.companyContact,
    pageTitle: d.pageTitle,
    promotionTitle: d.promotionTitle,
    chat: { dataWidgetId: d.chat.dataWidgetId },
  };
}

export type StoreSettingsService = ReturnType<typeof createStoreSettingsService>;
