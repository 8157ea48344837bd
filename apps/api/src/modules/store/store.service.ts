import {
  type Banner,
  DEFAULT_THEME,
  type Faqs,
  type SeoMetaEntry,
  type StoreConfig,
  type StoreDetails,
  type ThemeColors,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { sanitizeNewsletterEmbed } from '../../lib/sanitize';
import { absoluteMediaUrl } from '../../lib/urls';

/** The platform's palette for THEME_FASHION, offered to store owners as "reset to default". */
export const DEFAULT_THEME_COLORS: ThemeColors = {
  primary: '30, 41, 59',
  secondary: '100, 116, 139',
  banner: '15, 23, 42',
  action: '37, 99, 235',
};

/**
 * What the storefront shows in the owner's preview instead of what is live (decision 032): the
 * theme and details drafts laid over the live reads. Given by the module that owns those drafts;
 * each function returns its input unchanged unless the request is the owner's preview.
 */
export interface StorePreview {
  details(ctx: RequestContext, live: StoreDetails): Promise<StoreDetails>;
  config(ctx: RequestContext, live: StoreConfig): Promise<StoreConfig>;
  seo(ctx: RequestContext, live: SeoMetaEntry[]): Promise<SeoMetaEntry[]>;
}

export function createStoreService(db: Db) {
  async function settingsRow(ctx: TenantContext, productStoreId: string) {
    const rows = await db
      .select({
        s: schema.storeSettings,
        storeName: schema.productStores.storeName,
        currency: schema.productStores.currencyUomId,
      })
      .from(schema.storeSettings)
      .innerJoin(
        schema.productStores,
        and(
          eq(schema.productStores.tenantId, schema.storeSettings.tenantId),
          eq(schema.productStores.productStoreId, schema.storeSettings.productStoreId),
        ),
      )
      .where(
        and(eq(schema.storeSettings.tenantId, ctx.tenantId), eq(schema.storeSettings.productStoreId, productStoreId)),
      )
      .limit(1);
    const row = rows[0];
    if (!row) throw AppError.notFound(`Store ${productStoreId} has no settings yet.`);
    return row;
  }

  function colors(s: typeof schema.storeSettings.$inferSelect): ThemeColors {
    return { primary: s.colorPrimary, secondary: s.colorSecondary, banner: s.colorBanner, action: s.colorAction };
  }

  return {
    async details(ctx: TenantContext, productStoreId: string): Promise<StoreDetails> {
      const { s, storeName, currency } = await settingsRow(ctx, productStoreId);
      return {
        productStoreId,
        storeName,
        template: s.template,
        theme: s.theme || DEFAULT_THEME,
        themeColors: colors(s),
        logo: {
          url: absoluteMediaUrl(ctx, s.logoUrl),
          headerTitle: s.headerTitle,
          headerDescription: s.headerDescription,
        },
        newsLetter: { iframe: s.newsletterEmbed ? sanitizeNewsletterEmbed(s.newsletterEmbed) : null },
        contactPage: s.contactPage,
        companyName: s.companyName,
        companyAddress: {
          address1: s.address1,
          address2: s.address2,
          city: s.city,
          countryGeoId: s.countryGeoId,
          postalCode: s.postalCode,
        },
        emailAddress: s.emailAddress,
        companyContact: { countryCode: s.countryCode, areaCode: s.areaCode, contactNumber: s.contactNumber },
        pageTitle: s.pageTitle,
        promotionTitle: s.promotionTitle,
        currencyUomId: currency,
        chat: { dataWidgetId: s.chatWidgetId },
      };
    },

    async config(ctx: TenantContext, productStoreId: string): Promise<StoreConfig> {
      const { s } = await settingsRow(ctx, productStoreId);
      return {
        productStoreId,
        template: s.template,
        theme: s.theme || DEFAULT_THEME,
        themeColors: colors(s),
        chat: { dataWidgetId: s.chatWidgetId },
      };
    },

    /** The published banners shown now (within their start and end dates), in display order. */
    async banners(ctx: TenantContext, productStoreId: string, now = new Date()): Promise<Banner[]> {
      const t = schema.banners;
      const rows = await db
        .select()
        .from(t)
        .where(
          and(
            eq(t.tenantId, ctx.tenantId),
            eq(t.productStoreId, productStoreId),
            or(isNull(t.startsAt), lte(t.startsAt, now)),
            or(isNull(t.endsAt), gt(t.endsAt, now)),
          ),
        )
        .orderBy(asc(t.sequenceNum), asc(t.bannerId));
      return rows.map((b) => ({
        bannerId: b.bannerId,
        title: b.title,
        subtitle: b.subtitle,
        imageUrl: absoluteMediaUrl(ctx, b.imageUrl) ?? b.imageUrl,
        altText: b.altText || b.title,
        linkUrl: b.linkUrl,
        ctaLabel: b.ctaLabel,
      }));
    },

    /** Per-route SEO entries; the `default` entry always exists and carries the brand name. */
    /** FAQs are the questions of survey HELP_AND_FAQS. */
    async faqs(ctx: TenantContext, productStoreSurveyId: string): Promise<Faqs> {
      const f = schema.faqs;
      const rows = await db
        .select()
        .from(f)
        .where(and(eq(f.tenantId, ctx.tenantId), eq(f.productStoreSurveyId, productStoreSurveyId)))
        .orderBy(asc(f.sequenceNum), asc(f.faqId));
      return {
        productStoreSurveyId,
        questions: rows.map((r) => ({ faqId: r.faqId, question: r.question, answer: r.answer })),
      };
    },

    async seoMeta(ctx: TenantContext): Promise<SeoMetaEntry[]> {
      const rows = await db
        .select()
        .from(schema.seoMeta)
        .where(eq(schema.seoMeta.tenantId, ctx.tenantId))
        .orderBy(asc(schema.seoMeta.route));
      const entries: SeoMetaEntry[] = rows.map((r) => ({
        route: r.route,
        title: r.title,
        keywords: r.keywords,
        description: r.description,
      }));
      if (!entries.some((e) => e.route === 'default')) {
        const { storeName } = await settingsRow(ctx, ctx.productStoreId);
        entries.push({ route: 'default', title: storeName, keywords: storeName, description: storeName });
      }
      return entries;
    },
  };
}

export type StoreService = ReturnType<typeof createStoreService>;
